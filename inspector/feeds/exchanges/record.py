"""One exchange through the proxy (request, response, inspection state) and whether it is linted.

What is linted: a response over a WebSocket (status 101: ``inspector.net.proxy.wstap``), one whose content type is a stream (``text/event-stream``, NDJSON,
JSON Lines, AWS ``application/vnd.amazon.eventstream``), any status >= 400 (S007 with its body), a body the request asked to stream
(``"stream": true``, or Ollama's ``/api/chat`` / ``/api/generate`` which stream by default), and
every transport fault. A normal JSON answer (a non-streaming call, ``/v1/models``) is shown with
its status and body but not judged as a stream (no S007 for a 200 ``application/json``).

Imports: ``inspector.model.capture`` only (``Session`` for annotations); no I/O, no event loop. Everything else in the
package may import this module.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.model.capture import Capture, End

if TYPE_CHECKING:  # for annotations only: this module imports nothing above the model at run time
    from inspector.session.session import Session

STREAM_TYPES = ("text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl",
                "application/json-seq", "application/vnd.amazon.eventstream")
"""Content types that mark a streamed body (SSE per the WHATWG HTML spec section 9.2; NDJSON/JSON Lines;
AWS event-stream, which Bedrock answers without a ``stream`` flag in the request)."""

OLLAMA_STREAMING_PATHS = ("/api/chat", "/api/generate")
"""Ollama's native endpoints stream unless the body says ``"stream": false`` (ollama docs/api.md)."""

KEEP = 100
"""Ended exchanges kept whole in memory by default (``proxy --keep``; ``log.ExchangeLog``)."""

KEEP_BYTES = 32 * 1024 * 1024
"""Body bytes (request and response) of ended exchanges kept in memory by default (``proxy --keep-bytes``)."""

BODY_EXCERPT = 64 * 1024
"""How much of a non-streamed response body is kept for display."""


@dataclass(eq=False)
class Exchange:
    """One request through the proxy and its response, as inspected."""

    n: int
    """Exchange number (1, 2, …; continues after the captures already in ``--record DIR``)."""
    method: str
    path: str
    """The request path as the client sent it (decoded, no query)."""
    target: str
    """Path plus query, secrets redacted (the report's ``path``)."""
    url: str
    """The upstream URL it was forwarded to, secrets redacted."""
    request: dict
    """``{"method", "url", "headers", "body"}`` redacted, as a native capture header stores it."""
    body: object
    """The request body parsed as JSON (any JSON value: readers check its type), else None."""
    started_wall: float
    """``time.time()`` when the request arrived (the TUI's clock column)."""
    t0: float
    """``time.monotonic()`` when the request was sent upstream (``t`` counts from here)."""
    record_path: str | None = None
    status: int | None = None
    response_headers: dict = field(default_factory=dict)
    content_type: str = ""
    linted: bool = False
    """The response is judged as a stream (see the module docstring)."""
    session: Session | None = None
    """The ``Session``; for a response that is not linted, an empty one holding the Q findings."""
    end: End | None = None
    first_byte_t: float | None = None
    last_arrival_t: float | None = None
    """``t`` of the newest chunk that arrived, set as it arrives, before it is inspected (the
    TUI's "silent" counts from it)."""
    bytes_received: int = 0
    body_excerpt: bytearray = field(default_factory=bytearray)
    """First ``BODY_EXCERPT`` bytes of a response that is not linted (shown, not judged)."""
    q_findings: list = field(default_factory=list)
    continues: int | None = None
    """Number of the exchange whose answer this request continues (Q rules), if any."""
    continues_how: str | None = None
    socket_continues: tuple[int, str] | None = None
    """A response on a WebSocket: the exchange on the same socket its request continues, and how that is
    known (``inspector.capture.websocket.followup``: its ``previous_response_id``, else the response just
    before it when it sends something back), set by the proxy's socket tap; the Q rules take it as is."""
    note: str | None = None
    """Why the body could not be inspected (e.g. an encoding nothing here decodes)."""
    tape: Capture | None = None
    """The response as relayed (a ``Capture``), when the log keeps tapes (``ExchangeLog.keep``)."""
    request_bytes: int = 0
    """Size of the request body as received, in bytes."""
    request_body_held: bool = True
    """False once a large request body was dropped from memory (``request["body"]`` then says so)."""
    summary: dict | None = None
    """Set when the exchange is released from memory (``release``): ``{"counts": {severity: n},
    "findings": n, "events": n, "blocks": n, "dialect", "stop_reason"}``."""
    generation: int = 0
    """Bumped whenever ``session`` is replaced (created, released): viewers drop their caches."""
    _model: str | None = None

    @property
    def released(self) -> bool:
        """The session, the bodies and the events are gone; ``summary`` (and the recording) remain."""
        return self.summary is not None

    @property
    def held_session(self) -> Session:
        """``session`` where the caller knows it is there (a linted exchange, not released);
        raises ``RuntimeError`` when it is not."""
        if self.session is None:
            raise RuntimeError(f"exchange {self.n} holds no session (released, or not started)")
        return self.session

    @property
    def held_bytes(self) -> int:
        """Body bytes this exchange holds in memory: the request body (while held) plus the response
        bytes its session was fed (0 once released)."""
        if self.released:
            return 0
        return (self.request_bytes if self.request_body_held else 0) + self.bytes_received

    def drop_request_body(self) -> None:
        """Forget the request body (the Q rules have read it when the request arrived). The ``request``
        dict is changed in place: the session holds the same one."""
        if not self.request_body_held:
            return
        self._model = self.model
        wanted = wants_stream(self)
        self.request_body_held = False
        self.body = {"stream": True} if wanted else None
        if isinstance(self.request, dict) and self.request.get("body") is not None:
            where = f"; the recording {self.record_path} has it" if self.record_path else ""
            self.request["body"] = f"(request body of {self.request_bytes} bytes released from memory{where})"

    def release(self) -> None:
        """Keep only what the exchange list shows (status, duration, counts, model) and drop the rest:
        session, events, blocks, bodies. Only for an exchange that has ended."""
        if self.released or not self.done:
            return
        s = self.session
        self.drop_request_body()
        self.summary = {"counts": self.counts(), "findings": len(self.findings),
                        "events": len(s.events) if s is not None else 0,
                        "blocks": len(s.blocks) if s is not None else 0,
                        "dialect": getattr(s, "dialect_name", None), "stop_reason": getattr(s, "stop_reason", None)}
        self.session = None
        self.tape = None
        self.q_findings = []
        self.body_excerpt = bytearray()
        self.generation += 1

    @property
    def done(self) -> bool:
        return self.end is not None

    @property
    def duration_s(self) -> float | None:
        return None if self.end is None else self.end.t

    @property
    def model(self) -> str | None:
        if self._model is not None:
            return self._model
        s = self.session
        if s is not None and getattr(s, "model", None):
            return s.model
        if isinstance(self.body, dict) and isinstance(self.body.get("model"), str):
            return self.body["model"]
        m = re.search(r"/models/([^/:]+)", self.path)  # Gemini puts the model in the path
        return m.group(1) if m else None

    @property
    def findings(self) -> list:
        """The findings so far ([] once released: ``summary`` has their counts)."""
        return list(self.session.findings) if self.session is not None else list(self.q_findings)

    def counts(self) -> dict[str, int]:
        """``{severity: findings}`` (kept in ``summary`` once released)."""
        if self.summary is not None:
            return dict(self.summary["counts"])
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.severity] = out.get(f.severity, 0) + 1
        return out

    @property
    def body_text(self) -> str:
        return bytes(self.body_excerpt).decode("utf-8", "replace")


def wants_stream(ex: Exchange) -> bool:
    """The request asked for a streamed answer (``"stream": true``; Ollama native streams by default)."""
    body = ex.body if isinstance(ex.body, dict) else {}
    if body.get("stream") is True:
        return True
    if ex.path.endswith(OLLAMA_STREAMING_PATHS) and body.get("stream") is not False and isinstance(ex.body, dict):
        return True
    return ":streamGenerateContent" in ex.path


def should_lint(ex: Exchange) -> bool:
    """Judge this response as a stream? (module docstring, "What is linted")."""
    if ex.status is None or ex.status >= 400 or ex.status == 101:  # 101: a response over a WebSocket
        return True
    if any(t in ex.content_type for t in STREAM_TYPES):
        return True
    return wants_stream(ex) and ex.status not in (204, 304) and ex.method != "HEAD"
