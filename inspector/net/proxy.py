"""``proxy --upstream URL``: a local pass-through endpoint that inspects every exchange an agent makes.

Why it exists: the way to debug a running agent without touching its code is to point its base
URL at the inspector. Every request is forwarded unchanged and every response streamed back
byte for byte *as it arrives*, while a copy of the bytes (with arrival times) goes through the
same ``Session`` as ``check`` and ``live`` (DESIGN.md, "One direction of flow").

Three parts, so that the forwarding path stays short and never waits for inspection:

- :class:`ProxyEndpoint`, the ASGI app (Starlette + uvicorn, like ``serve``). Per request it
  reads the body, forwards method, path, query, headers (minus the connection-specific fields
  of RFC 9110 section 7.6.1 and ``host``, which httpx sets for the upstream) and body with httpx,
  then sends the response head and each raw body chunk (``Response.aiter_raw``: de-chunked,
  not decoded) to the client the moment it arrives. Only then is the chunk teed: the native
  capture (``--record``, :class:`inspector.capture.recorder.Recorder`, redacted) is written
  right here, and the chunk is handed to a sink. A compressed body goes to the client as is
  (``content-encoding`` kept); the tee decodes it (gzip/deflate, br/zstd when httpx can).
- :class:`LoopSink` moves those hand-offs onto one event loop (the proxy's own loop headless,
  the TUI's loop with ``--format tui``) as callbacks queued in order, so inspection runs after
  the forwarding step that produced it and never inline with it.
- :class:`ExchangeLog` owns the exchanges and their sessions (single-threaded, on that loop):
  it decides which responses are linted, runs the Q rules on each request, and tells listeners
  (the JSON/text printers, the TUI, tests) when an exchange begins, moves and ends.

What is linted: a response whose content type is a stream (``text/event-stream``, NDJSON,
JSON Lines), any status >= 400 (S007 with its body), a body the request asked to stream
(``"stream": true``, or Ollama's ``/api/chat`` / ``/api/generate`` which stream by default), and
every transport fault. A normal JSON answer (a non-streaming call, ``/v1/models``) is shown with
its status and body but not judged as a stream (no S007 for a 200 ``application/json``).

Upstream faults reach the client as they happened: no connection (refused, DNS, TLS, connect
timeout) is a ``502`` (``504`` for a timeout) with a JSON error body saying why; a reset or a
read timeout mid-body aborts the client's connection the same way (the chunked body is never
terminated); a 4xx/5xx is passed through. Each is a finding on the exchange (S007 for the status,
S012 for the transport). A client that goes away ends the upstream request too (S012
``cancelled``).

Request history (Q rules, RULES.md section Q): each request that carries history is checked with
:func:`inspector.session.history.check_request` against the exchange whose answer it continues:
the most recent finished exchange on the same path that streamed content blocks and whose tool
ids (else the start of its assistant text) appear in this request's history; when none matches,
the most recent such exchange on the same path. With no earlier exchange only the history-only
rules are kept (Q001, Q002, Q005: Q003 would call every id unknown). **The Q findings belong to
the new exchange's report** (the request is what is wrong, and the earlier report has already
been printed); each message starts with ``vs exchange #K (how it was matched)``, ``t`` is 0 (they
are known when the request arrives) and ``index`` is the block index in exchange K's response.
"""
from __future__ import annotations

import asyncio
import itertools
import os
import re
import socket
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import httpx
import orjson

from inspector.model.capture import Capture, Chunk, End
from inspector.capture.recorder import Recorder, redact_request, redact_response
from inspector.capture.redact import redact_url
from inspector.net.serve import HOP_BY_HOP
from inspector.net.servers import QUIET_ABORTS, BackgroundServer, listen, is_loopback, url_for, uvicorn_server

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

STREAM_TYPES = ("text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl",
                "application/json-seq")
"""Content types that mark a streamed body (SSE per the WHATWG HTML spec section 9.2; NDJSON/JSON Lines)."""

OLLAMA_STREAMING_PATHS = ("/api/chat", "/api/generate")
"""Ollama's native endpoints stream unless the body says ``"stream": false`` (ollama docs/api.md)."""

BODY_EXCERPT = 64 * 1024
"""How much of a non-streamed response body is kept for display."""

HISTORY_KEYS = ("messages", "contents", "input")
"""Where a request carries its history: Anthropic/Chat/Ollama ``messages``, Gemini ``contents``, Responses ``input``."""

HISTORY_ONLY_RULES = frozenset({"Q001", "Q002", "Q005"})
"""Q rules that judge the request alone; the others need the streamed answer it continues."""

_REQUEST_DROPPED = HOP_BY_HOP | {"host", "content-length"}
"""Not forwarded: connection-specific fields, ``host`` (httpx sets the upstream's) and
``content-length`` (httpx sets it from the body it sends, which is the body received)."""

_RESPONSE_DROPPED = HOP_BY_HOP
"""Not passed back: connection-specific fields (uvicorn frames the body itself). ``content-length``
and ``content-encoding`` stay: the body bytes are passed on exactly as received."""





# ----------------------------------------------------------------------------------- exchanges
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
    """The request body parsed as JSON, else None."""
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
    session: object = None
    """The ``Session``; for a response that is not linted, an empty one holding the Q findings."""
    end: End | None = None
    first_byte_t: float | None = None
    bytes_received: int = 0
    body_excerpt: bytearray = field(default_factory=bytearray)
    """First ``BODY_EXCERPT`` bytes of a response that is not linted (shown, not judged)."""
    q_findings: list = field(default_factory=list)
    continues: int | None = None
    """Number of the exchange whose answer this request continues (Q rules), if any."""
    continues_how: str | None = None
    note: str | None = None
    """Why the body could not be inspected (e.g. an encoding nothing here decodes)."""

    @property
    def done(self) -> bool:
        return self.end is not None

    @property
    def duration_s(self) -> float | None:
        return None if self.end is None else self.end.t

    @property
    def model(self) -> str | None:
        s = self.session
        if s is not None and getattr(s, "model", None):
            return s.model
        if isinstance(self.body, dict) and isinstance(self.body.get("model"), str):
            return self.body["model"]
        m = re.search(r"/models/([^/:]+)", self.path)  # Gemini puts the model in the path
        return m.group(1) if m else None

    @property
    def findings(self) -> list:
        return list(self.session.findings) if self.session is not None else list(self.q_findings)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.severity] = out.get(f.severity, 0) + 1
        return out

    @property
    def body_text(self) -> str:
        return bytes(self.body_excerpt).decode("utf-8", "replace")


def _content_type(headers: dict) -> str:
    for k, v in headers.items():
        if str(k).lower() == "content-type":
            return (v[0] if isinstance(v, list) else str(v)).lower()
    return ""


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
    if ex.status is None or ex.status >= 400:
        return True
    if any(t in ex.content_type for t in STREAM_TYPES):
        return True
    return wants_stream(ex) and ex.status not in (204, 304) and ex.method != "HEAD"


def _history_strings(body: dict) -> str:
    """Every string in the request's history, joined (to find which earlier answer it continues)."""
    out: list[str] = []
    stack = [body.get(k) for k in HISTORY_KEYS]
    budget = 200_000
    while stack and budget > 0:
        v = stack.pop()
        budget -= 1
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return "\x00".join(out)


class ExchangeLog:
    """The exchanges seen so far and their sessions. Single-threaded: every call on one loop.

    Listeners are callables ``f(event, exchange)`` with ``event`` one of ``"begin"``, ``"update"``
    (head or body bytes arrived), ``"end"``.
    """

    def __init__(self, *, dialect: str | None = None, stall_s: float = 10.0) -> None:
        self.dialect = dialect
        self.stall_s = stall_s
        self.exchanges: list[Exchange] = []
        self.by_n: dict[int, Exchange] = {}
        self.listeners: list[Callable[[str, Exchange], None]] = []
        self.changed = threading.Condition()
        """Notified after every end (tests wait on it from another thread)."""

    def _emit(self, event: str, ex: Exchange) -> None:
        for fn in list(self.listeners):
            try:
                fn(event, ex)
            except Exception as e:  # noqa: BLE001 - a broken listener must not stop the proxy
                print(f"stream-inspector: proxy: listener failed: {type(e).__name__}: {e}", file=sys.stderr)

    # ---- fed by the endpoint (through a LoopSink)
    def begin(self, ex: Exchange) -> None:
        self.exchanges.append(ex)
        self.by_n[ex.n] = ex
        try:
            self._check_history(ex)
        except Exception as e:  # noqa: BLE001 - Q rules never crash the proxy
            print(f"stream-inspector: proxy: history check failed on exchange {ex.n}: {e}", file=sys.stderr)
        self._emit("begin", ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        ex = self.by_n[n]
        ex.status = status
        ex.response_headers = headers
        ex.content_type = _content_type(headers)
        ex.linted = should_lint(ex) and ex.note is None
        response = {"status": status, "headers": headers}
        self._make_session(ex, response if ex.linted else None)
        self._emit("update", ex)

    def note(self, n: int, text: str) -> None:
        self.by_n[n].note = text

    def chunk(self, n: int, chunk: Chunk) -> None:
        ex = self.by_n[n]
        if ex.first_byte_t is None and chunk.data:
            ex.first_byte_t = chunk.t
        ex.bytes_received += len(chunk.data)
        if ex.linted:
            ex.session.feed(chunk)
        elif len(ex.body_excerpt) < BODY_EXCERPT:
            ex.body_excerpt += chunk.data[: BODY_EXCERPT - len(ex.body_excerpt)]
        self._emit("update", ex)

    def finish(self, n: int, end: End) -> None:
        ex = self.by_n[n]
        if ex.session is None:  # no response at all: the fault is the whole story
            ex.linted = True
            self._make_session(ex, None)
        ex.end = end
        if ex.linted:
            ex.session.close(end)
        else:
            if end.kind != "eof":
                detail = f": {end.error}" if end.error else ""
                ex.session.report_at("S012", f"transport ended abnormally ({end.kind}){detail}",
                                     event=None, line=None, t=end.t)
            # The empty session only holds findings; mark it ended without judging a stream.
            ex.session.end, ex.session.closed = end, True
        self._emit("end", ex)
        with self.changed:
            self.changed.notify_all()

    # ---- helpers
    def _make_session(self, ex: Exchange, response: dict | None) -> None:
        from inspector.feeds.run import session_for

        ex.session = session_for(Capture(request=ex.request, response=response, request_relative=True),
                                 dialect=self.dialect, stall_s=self.stall_s)
        ex.session.findings.extend(ex.q_findings)

    def previous_for(self, ex: Exchange) -> tuple[Exchange | None, str]:
        """The exchange whose answer ``ex``'s request continues, and how it was matched."""
        cands = [e for e in reversed(self.exchanges) if e is not ex and e.n < ex.n and e.path == ex.path
                 and e.done and e.linted and e.session is not None and e.session.blocks]
        if not cands or not isinstance(ex.body, dict):
            return None, ""
        hay = _history_strings(ex.body)
        for e in cands:
            ids = [k for b in e.session.blocks if b.tool for k in (b.id, b.call_id)
                   if isinstance(k, str) and len(k) >= 4]
            if any(k in hay for k in ids):
                return e, "matched by tool call id"
            texts = [b.content[:200] for b in e.session.blocks if not b.tool and b.kind in ("text", "message")
                     and len(b.content.strip()) >= 8]
            if not ids and any(t in hay for t in texts):
                return e, "matched by assistant text"
        return cands[0], "most recent on this path"

    def _check_history(self, ex: Exchange) -> None:
        from inspector.session.history import check_request
        from inspector.feeds.run import session_for

        if not isinstance(ex.body, dict) or not any(isinstance(ex.body.get(k), list) for k in HISTORY_KEYS):
            return
        prev, how = self.previous_for(ex)
        target = prev.session if prev is not None else session_for(Capture(), dialect=self.dialect)
        first = len(target.findings)
        check_request(target, ex.body)
        found = target.findings[first:]
        del target.findings[first:]  # they belong to the new exchange's report (module docstring)
        if prev is None:
            found = [f for f in found if f.code in HISTORY_ONLY_RULES]
        else:
            ex.continues, ex.continues_how = prev.n, how
            for f in found:
                f.message = f"vs exchange #{prev.n} ({how}): {f.message}"
        for f in found:
            f.event, f.line, f.t = None, None, 0.0
        ex.q_findings = found


class LoopSink:
    """Queues calls to an ``ExchangeLog`` on one event loop, in order, from any thread.

    Calls made before ``attach(loop)`` wait in a list and are queued, in order, on attach.
    After the loop is closed, calls are dropped. ``auto_attach``: the endpoint attaches the sink
    to its own loop on the first request (headless); False waits for an explicit ``attach`` (TUI).
    """

    def __init__(self, target: ExchangeLog, *, auto_attach: bool = True) -> None:
        self.target = target
        self.auto_attach = auto_attach
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._pending: list = []
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop, thread: int | None = None) -> None:
        with self._lock:
            self.loop = loop
            self._thread = thread
            pending, self._pending = self._pending, []
            for fn, args in pending:
                loop.call_soon_threadsafe(fn, *args)

    def post(self, fn, *args) -> None:
        loop = self.loop
        if loop is None:
            with self._lock:
                if self.loop is None:
                    self._pending.append((fn, args))
                    return
                loop = self.loop
        try:
            if self._thread == threading.get_ident():
                loop.call_soon(fn, *args)
            else:
                loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed (the TUI quit): nothing is watching any more
            pass

    def begin(self, ex: Exchange) -> None:
        self.post(self.target.begin, ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        self.post(self.target.head, n, status, headers)

    def note(self, n: int, text: str) -> None:
        self.post(self.target.note, n, text)

    def chunk(self, n: int, chunk: Chunk) -> None:
        self.post(self.target.chunk, n, chunk)

    def finish(self, n: int, end: End) -> None:
        self.post(self.target.finish, n, end)


# ------------------------------------------------------------------------------ the endpoint
def _connection_tokens(headers) -> set[bytes]:
    out: set[bytes] = set()
    for k, v in headers:
        if k.lower() == b"connection":
            out |= {t.strip().lower() for t in v.split(b",") if t.strip()}
    return out


def forward_request_headers(raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The client's request headers minus hop-by-hop fields (and those ``Connection`` names), host, length."""
    drop = _connection_tokens(raw)
    return [(k, v) for k, v in raw if k.lower().decode("latin-1") not in _REQUEST_DROPPED and k.lower() not in drop]


def forward_response_headers(raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers for the client: hop-by-hop fields dropped, names lower-cased."""
    drop = _connection_tokens(raw)
    out = []
    for k, v in raw:
        lk = k.lower()
        if lk.decode("latin-1") in _RESPONSE_DROPPED or lk in drop:
            continue
        out.append((lk, v))
    return out


def _headers_dict(raw) -> dict:
    """``{lower-case name: value}``; a repeated name keeps every value (a list)."""
    out: dict = {}
    for k, v in raw:
        name = (k.decode("latin-1") if isinstance(k, bytes) else str(k)).lower()
        value = v.decode("latin-1") if isinstance(v, bytes) else str(v)
        if name in out:
            out[name] = (out[name] if isinstance(out[name], list) else [out[name]]) + [value]
        else:
            out[name] = value
    return out


class _Decoder:
    """Decodes a ``content-encoding`` for the tee (the client still gets the encoded bytes)."""

    def __init__(self, encoding: str) -> None:
        self.encodings = [e.strip().lower() for e in encoding.split(",") if e.strip()]
        self.encodings = [e for e in self.encodings if e != "identity"]
        self._steps = [self._make(e) for e in reversed(self.encodings)]

    @property
    def active(self) -> bool:
        return bool(self.encodings)

    @staticmethod
    def _make(enc: str):
        if enc in ("gzip", "x-gzip"):
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if enc == "deflate":
            return _Deflate()
        try:  # br needs brotli, zstd needs zstandard: httpx wraps both when installed
            from httpx._decoders import SUPPORTED_DECODERS

            cls = SUPPORTED_DECODERS.get(enc)
            if cls is not None and enc != "identity":
                return cls()
        except (ImportError, RuntimeError):
            pass
        raise ValueError(enc)

    def decode(self, data: bytes) -> bytes:
        for step in self._steps:
            data = step.decompress(data) if hasattr(step, "decompress") else step.decode(data)
        return data

    def flush(self) -> bytes:
        data = b""
        for step in self._steps:
            if data:
                data = step.decompress(data) if hasattr(step, "decompress") else step.decode(data)
            data += step.flush()
        return data


class _Deflate:
    """``deflate`` is zlib-wrapped per RFC 9110 section 8.4.1.2, but some servers send it raw."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj()
        self._first = True

    def decompress(self, data: bytes) -> bytes:
        if self._first and data:
            self._first = False
            try:
                return self._d.decompress(data)
            except zlib.error:
                self._d = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._d.decompress(data)

    def flush(self) -> bytes:
        return self._d.flush()


def safe_name(method: str, path: str) -> str:
    """``POST``, ``/v1/messages`` -> ``POST-v1-messages`` (file-name safe, at most 80 characters)."""
    p = re.sub(r"[^A-Za-z0-9._]+", "-", path).strip("-.") or "root"
    m = re.sub(r"[^A-Za-z0-9]+", "", method) or "REQ"
    return f"{m}-{p}"[:80]


def first_free_number(record_dir: str | os.PathLike | None) -> int:
    """Exchange numbers continue after the ``NNN-*.jsonl`` captures already in ``record_dir``."""
    if record_dir is None:
        return 1
    best = 0
    try:
        for p in Path(record_dir).iterdir():
            m = re.match(r"^(\d+)-.*\.jsonl$", p.name)
            if m:
                best = max(best, int(m.group(1)))
    except OSError:
        return 1
    return best + 1


def _error_body(kind: str, message: str) -> bytes:
    """A JSON error both SDK families read (``error.message``; Anthropic's ``type: error`` shape)."""
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": f"stream-inspector proxy: {message}"}})


class ProxyEndpoint:
    """The ASGI app: forwards each request to ``upstream`` and tees the response into ``sink``."""

    def __init__(self, upstream: str, sink: LoopSink, *, timeout: float = 600.0,
                 record_dir: str | os.PathLike | None = None, first_number: int | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        parts = urlsplit(upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--upstream must be an http:// or https:// URL with a host, not {upstream!r}")
        self.upstream = upstream.rstrip("/")
        self.sink = sink
        self.timeout = timeout
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self._numbers = itertools.count(first_number or first_free_number(record_dir))
        self.log = log
        self._client: httpx.AsyncClient | None = None
        self._local = is_loopback(parts.hostname)
        self.requests = 0
        """Requests received so far."""

    def _client_for_loop(self) -> httpx.AsyncClient:
        if self._client is None:
            # No default headers: the request goes out with the client's headers only.
            # trust_env off for a loopback upstream (an environment proxy must not intercept it).
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, 30.0)),
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=32),
                trust_env=not self._local, follow_redirects=False)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def upstream_url(self, raw_path: bytes, query: bytes) -> str:
        base = urlsplit(self.upstream)
        path = raw_path.decode("latin-1") or "/"
        url = f"{base.scheme}://{base.netloc}{base.path.rstrip('/')}{path}"
        params = [q for q in (query.decode("latin-1"), base.query) if q]  # --upstream's own query goes last
        if params:
            url += "?" + "&".join(params)
        return url

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        loop = asyncio.get_running_loop()
        if self.sink.loop is None and self.sink.auto_attach:  # headless: inspection on the proxy's own loop
            self.sink.attach(loop, threading.get_ident())
        self.requests += 1
        body = bytearray()
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return  # the client left before sending its whole request: nothing was forwarded
            body += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        try:
            await self._exchange(scope, bytes(body), receive, send)
        except asyncio.CancelledError:
            # The proxy is stopping with this stream still running: its end is already recorded
            # and reported ("proxy stopped"); the client's connection closes with the server.
            return

    async def _exchange(self, scope, body: bytes, receive, send) -> None:
        method = scope.get("method", "GET")
        raw_path = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
        query = scope.get("query_string", b"")
        path = scope.get("path", "/")
        url = self.upstream_url(raw_path, query)
        headers = forward_request_headers(list(scope.get("headers", [])))
        n = next(self._numbers)
        parsed = None
        if body:
            try:
                parsed = orjson.loads(body)
            except orjson.JSONDecodeError:
                parsed = None
        stored_body = parsed if parsed is not None else (body.decode("utf-8", "replace") if body else None)
        request = redact_request({"method": method, "url": url, "headers": _headers_dict(headers),
                                  "body": stored_body})
        target = redact_url(path + ("?" + query.decode("latin-1") if query else ""))
        record_path = None
        if self.record_dir is not None:
            record_path = str(self.record_dir / f"{n:03d}-{safe_name(method, path)}.jsonl")
        t0 = time.monotonic()
        ex = Exchange(n=n, method=method, path=path, target=target, url=redact_url(url), request=request,
                      body=parsed, started_wall=time.time(), t0=t0, record_path=record_path)
        self.sink.begin(ex)

        def now() -> float:
            return round(time.monotonic() - t0, 6)

        client = self._client_for_loop()
        req = httpx.Request(method, url, headers=headers, content=body)
        try:
            resp = await client.send(req, stream=True)
        except asyncio.CancelledError:
            self._fail(n, record_path, request, End(now(), "cancelled", "proxy stopped before the response"))
            raise
        except (httpx.HTTPError, OSError) as e:
            from inspector.net.live import describe_error

            timeout = isinstance(e, httpx.TimeoutException)
            error = describe_error(e, url)
            if isinstance(e, httpx.ReadTimeout):
                error = f"no response head within {self.timeout:g} s (--timeout)"
            end = End(now(), "timeout" if timeout else "reset", error)
            self._fail(n, record_path, request, end)
            status = 504 if timeout else 502
            payload = _error_body("upstream_timeout" if timeout else "upstream_unreachable",
                                  f"{error} (upstream {redact_url(self.upstream)})")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(payload)).encode()),
                                    (b"x-stream-inspector", b"upstream-error")]})
            await send({"type": "http.response.body", "body": payload, "more_body": False})
            self._log(method, path, f"{status} ({error})")
            return
        await self._relay(n, ex, resp, record_path, request, receive, send, now, url)

    def _fail(self, n: int, record_path, request: dict, end: End) -> None:
        """No response: the recording (``response: null``) and the exchange say why."""
        if record_path is not None:
            try:
                with Recorder(record_path, request, None) as rec:
                    rec.write_end(end)
            except OSError as e:
                print(f"stream-inspector: proxy: cannot write {record_path}: {e.strerror or e}", file=sys.stderr)
        self.sink.finish(n, end)

    async def _relay(self, n, ex, resp: httpx.Response, record_path, request, receive, send, now, url) -> None:
        from inspector.net.live import describe_error

        status = resp.status_code
        raw_headers = list(resp.headers.raw)
        head_dict = _headers_dict(raw_headers)
        await send({"type": "http.response.start", "status": status, "headers": forward_response_headers(raw_headers)})
        rec = None
        if record_path is not None:
            try:
                rec = Recorder(record_path, request, redact_response({"status": status, "headers": head_dict}))
            except OSError as e:
                print(f"stream-inspector: proxy: cannot write {record_path}: {e.strerror or e}", file=sys.stderr)
        decoder = None
        encoding = resp.headers.get("content-encoding", "")
        if encoding:
            try:
                decoder = _Decoder(encoding)
                if not decoder.active:
                    decoder = None
            except ValueError as e:
                self.sink.note(n, f"content-encoding {e} cannot be decoded here: passed through, not inspected")
        self.sink.head(n, status, redact_response({"status": status, "headers": head_dict})["headers"])

        me = asyncio.current_task()
        gone = False

        async def watch() -> None:
            nonlocal gone
            while True:
                if (await receive())["type"] == "http.disconnect":
                    gone = True
                    if me is not None:
                        me.cancel()
                    return

        watcher = asyncio.create_task(watch())
        chunks = resp.aiter_raw().__aiter__()
        end: End | None = None
        complete = False
        tee = True
        try:
            while True:
                try:
                    data = await chunks.__anext__()
                except StopAsyncIteration:
                    end = End(now(), "eof")
                    complete = True
                    break
                except httpx.ReadTimeout:
                    end = End(now(), "timeout", f"no bytes for {self.timeout:g} s (--timeout)")
                    break
                except (httpx.HTTPError, OSError) as e:
                    end = End(now(), "reset", describe_error(e, url))
                    break
                t = now()
                if not data:
                    continue
                # The client first: inspection never delays a byte.
                await send({"type": "http.response.body", "body": data, "more_body": True})
                if decoder is not None:
                    try:
                        data = decoder.decode(data)
                    except Exception as e:  # noqa: BLE001 - a corrupt encoding: keep forwarding, stop the tee
                        self.sink.note(n, f"content-encoding {encoding}: cannot decode ({e}); the rest was "
                                          "passed through, not inspected")
                        decoder, tee = None, False
                if data and tee:
                    if rec is not None:
                        rec = _record(rec, t, data)
                    self.sink.chunk(n, Chunk(t, data))
            watcher.cancel()
            if complete:
                if decoder is not None and tee:
                    try:
                        tail = decoder.flush()
                    except Exception:  # noqa: BLE001
                        tail = b""
                    if tail:
                        if rec is not None:
                            rec = _record(rec, end.t, tail)
                        self.sink.chunk(n, Chunk(end.t, tail))
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            # Otherwise return without completing: uvicorn closes the connection and the client
            # sees its body cut short, as the proxy did.
        except asyncio.CancelledError:
            end = End(now(), "cancelled", "client disconnected" if gone else "proxy stopped")
            if not gone:
                raise
            if me is not None:
                me.uncancel()  # our own watcher cancelled us; the task goes on normally
        finally:
            watcher.cancel()
            if end is None:
                end = End(now(), "cancelled", "proxy stopped")
            if rec is not None:
                try:
                    rec.write_end(end)
                    rec.close(end.t)
                except OSError as e:
                    _record_failed(rec, e)
            self.sink.finish(n, end)
            try:
                await resp.aclose()
            except Exception:  # noqa: BLE001 (closing a broken connection may fail again)
                pass
            self._log(ex.method, ex.path, f"{status}, {end.kind}")

    def _log(self, method: str, path: str, what: str) -> None:
        if self.log is not None:
            self.log(f"{method} {path} -> {what}")


def _record(rec: Recorder, t: float | None, data: bytes) -> Recorder | None:
    """Write one chunk; a failing disk stops the recording, never the forwarding."""
    try:
        rec.chunk(t, data)
        return rec
    except OSError as e:
        _record_failed(rec, e)
        return None


def _record_failed(rec: Recorder, e: OSError) -> None:
    print(f"stream-inspector: proxy: recording {rec.path} stopped: {e.strerror or e}", file=sys.stderr)
    try:
        rec.close()  # closes the file even when its end line cannot be written
    except OSError:
        pass


def make_asgi_app(endpoint: ProxyEndpoint):
    """The Starlette app: one catch-all route (every method, every path) handled by ``endpoint``."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    app = Starlette(routes=[Route("/{path:path}", endpoint=endpoint)])
    app.state.endpoint = endpoint
    return app



# --------------------------------------------------------------------------- running it
class Reports:
    """Listener printing (or collecting) one report per exchange when it ends."""

    def __init__(self, fmt: str = "json", out=None, collect: bool = False) -> None:
        self.fmt = fmt
        self.out = out
        self.collected: list[dict] = []
        self.collect = collect
        self.worst = EXIT_OK

    def __call__(self, event: str, ex: Exchange) -> None:
        if event != "end" or (self.out is None and not self.collect):
            return
        d = report_for(ex)
        if any(f["severity"] == "error" for f in d["findings"]):
            self.worst = EXIT_FINDINGS
        if self.collect:
            self.collected.append(d)
        if self.out is None:
            return
        if self.fmt == "json":
            self.out.write(orjson.dumps(d).decode() + "\n")
        else:
            self.out.write(text_for(ex) + "\n\n")
        self.out.flush()


def report_for(ex: Exchange) -> dict:
    """The ``check --format json`` object for ``ex`` plus ``exchange``, ``method``, ``status``, … (one JSON line)."""
    from inspector.report.json import report_dict

    d = report_dict(ex.target, ex.session)
    if not ex.linted:
        d["duration_s"] = ex.duration_s
        d["ttfb_s"] = ex.first_byte_t
    d.update({"exchange": ex.n, "method": ex.method, "path": ex.target, "status": ex.status,
              "url": ex.url, "content_type": ex.content_type or None, "streamed": ex.linted,
              "continues": ex.continues})
    if not ex.linted and ex.status is not None:
        d["body"] = ex.body_text[:2000]
    if ex.note:
        d["note"] = ex.note
    if ex.record_path:
        d["record"] = ex.record_path
    return d


def text_for(ex: Exchange) -> str:
    """Linter text for one exchange: a heading line, then ``check --format text``."""
    from inspector.report import text

    status = ex.status if ex.status is not None else "no response"
    dur = f", {ex.duration_s:.3f} s" if ex.duration_s is not None else ""
    head = f"#{ex.n} {ex.method} {ex.target} -> {status} {ex.content_type or ''}".rstrip() + dur
    if ex.continues is not None:
        head += f" (continues #{ex.continues})"
    lines = [head]
    if ex.note:
        lines.append(f"  note: {ex.note}")
    if ex.linted:
        lines.append(text.render(f"#{ex.n} {ex.target}", ex.session))
    else:
        lines.append(f"  not a stream; body: {ex.body_text[:500]!r}")
        for f in ex.session.findings:
            lines.append(f"  {f.code} {f.name} ({f.severity}) {f.message}")
    return "\n".join(lines)


class ProxyThread(BackgroundServer):
    """The proxy in a background thread on loopback (tests, the TUI, the bench).

    ``ProxyThread(upstream).start()``; ``.url`` is ``http://127.0.0.1:PORT``; ``.log`` is the
    ``ExchangeLog`` (inspection runs on the proxy's loop, or with ``external=True`` on whichever
    loop calls ``.sink.attach(loop)``, e.g. the TUI's); ``.reports`` collects each exchange's JSON report when it ends
    (``wait_reports(n)``). Raises ``OSError`` (bind), ``RuntimeError`` (not started in 10 s),
    ``ValueError`` (bad upstream URL).
    """

    label = "proxy"
    date_header = False  # pass the upstream's head through; add nothing of our own

    def __init__(self, upstream: str, *, host: str = "127.0.0.1", port: int = 0, timeout: float = 600.0,
                 record_dir: str | os.PathLike | None = None, dialect: str | None = None, stall_s: float = 10.0,
                 collect: bool = True, sock: socket.socket | None = None, external: bool = False) -> None:
        self.log = ExchangeLog(dialect=dialect, stall_s=stall_s)
        self.reports_listener = Reports(collect=collect)
        self.log.listeners.append(self.reports_listener)
        self.sink = LoopSink(self.log, auto_attach=not external)
        self.endpoint = ProxyEndpoint(upstream, self.sink, timeout=timeout, record_dir=record_dir)
        super().__init__(make_asgi_app(self.endpoint), host, port, sock)

    @property
    def reports(self) -> list[dict]:
        return self.reports_listener.collected

    def wait_reports(self, n: int, timeout: float = 10.0) -> list[dict]:
        """Block until ``n`` exchanges have ended (their reports collected); raises ``TimeoutError``."""
        deadline = time.monotonic() + timeout
        with self.log.changed:
            while len(self.reports) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.reports)} of {n} exchanges ended within {timeout} s")
                self.log.changed.wait(min(left, 0.1))
        return list(self.reports)


def _check_record_dir(path: str) -> str | None:
    """None when ``--record DIR`` is usable (created if missing), else the one-line problem."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        return f"--record {path}: not a directory"
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"--record {path}: cannot create: {e.strerror or e}"
    if not os.access(p, os.W_OK):
        return f"--record {path}: not writable"
    return None


def _warn_exposed(host: str) -> str:
    return (f"WARNING: the proxy listens on {host}, not loopback: anyone who can reach this machine can "
            "send requests through it with the agent's credentials and read the answers. "
            "Use --host 127.0.0.1 unless you mean it.")


def cmd_proxy(args) -> int:
    """``stream-inspector proxy --upstream URL``: exit 0 after Ctrl+C (headless: 1 if any exchange had
    an error finding), 2 for a bad upstream URL, an unusable ``--record`` directory or a busy port."""
    upstream = args.upstream
    parts = urlsplit(upstream)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        print(f"stream-inspector: proxy: --upstream must be an http:// or https:// URL with a host, not {upstream!r}",
              file=sys.stderr)
        return EXIT_USAGE
    record = getattr(args, "record", None)
    if record:
        problem = _check_record_dir(record)
        if problem:
            print(f"stream-inspector: proxy: {problem}", file=sys.stderr)
            return EXIT_USAGE
    fmt = getattr(args, "format", "tui")
    if fmt == "tui":
        try:
            from inspector.tui.run import _check_theme

            problem = _check_theme(getattr(args, "theme", None))
        except ImportError:
            problem = None
        if problem:
            print(f"stream-inspector: {problem}", file=sys.stderr)
            return EXIT_USAGE
    host = args.host
    exposed = not is_loopback(host)
    if exposed:
        print(f"stream-inspector: {_warn_exposed(host)}", file=sys.stderr)
    sock = listen(host, args.port, "proxy")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)
    safe_upstream = redact_url(upstream)
    if fmt == "tui":
        return _run_tui(args, sock, url, safe_upstream, exposed)
    return _run_headless(args, sock, url, safe_upstream, fmt)


def _run_headless(args, sock, url: str, upstream: str, fmt: str) -> int:
    log = ExchangeLog(dialect=args.dialect, stall_s=args.stall)
    reports = Reports(fmt, out=sys.stdout)
    log.listeners.append(reports)
    sink = LoopSink(log)
    endpoint = ProxyEndpoint(args.upstream, sink, timeout=args.timeout, record_dir=args.record)
    app = make_asgi_app(endpoint)
    print(f"stream-inspector proxy on {url} -> {upstream}"
          + (f", recording to {args.record}" if args.record else "") + " (Ctrl+C stops)", file=sys.stderr, flush=True)
    server = uvicorn_server(app, graceful=2.0, date_header=False, log_filter=QUIET_ABORTS)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("stream-inspector proxy stopped", file=sys.stderr, flush=True)
    return reports.worst


def _run_tui(args, sock, url: str, upstream: str, exposed: bool) -> int:
    try:
        from inspector.tui.screens.exchanges import ProxyApp
    except ImportError as e:
        sock.close()
        print(f"stream-inspector: proxy: the TUI is not available ({e}); use --format json or text", file=sys.stderr)
        return EXIT_USAGE
    proxy = ProxyThread(args.upstream, timeout=args.timeout, record_dir=args.record, dialect=args.dialect,
                        stall_s=args.stall, collect=False, sock=sock, external=True)
    app = ProxyApp(proxy, listen_url=url, upstream=upstream, theme=args.theme,
                   warning=_warn_exposed(args.host) if exposed else None, record_dir=args.record)
    # The proxy thread forwards bytes while the TUI thread renders: hand the GIL over more often
    # than the default 5 ms so a busy frame never holds a chunk back for long.
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        proxy.start()
    except (OSError, RuntimeError) as e:
        sys.setswitchinterval(old)
        print(f"stream-inspector: proxy: {e}", file=sys.stderr)
        return EXIT_USAGE
    try:
        app.run()
    finally:
        proxy.stop()
        sys.setswitchinterval(old)
    return EXIT_OK
