"""``serve``: a local mock provider that answers every request with a recorded stream.

Why it exists: to test a client (an SDK, an agent, this tool's own ``live``) against the *exact*
stream a provider once sent: same status, same headers, same bytes in the same network chunks,
re-timed as recorded (relative to the request's arrival; ``--speed``, ``--instant``), ending the
way the recording ended. A clean ``eof`` ends the chunked body properly; ``reset``, ``timeout`` and
``cancelled`` end it abruptly at the recorded end time: the connection is closed without the
terminating chunk, so an HTTP client sees a broken body (httpx: ``RemoteProtocolError: peer
closed connection without sending complete message body``), as after a real mid-stream reset.

A Starlette app run by uvicorn (h11). ``cmd_serve`` runs it in the foreground; ``ServerThread``
runs it in a background thread on a free loopback port (tests, ``demo``).
"""
from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from inspector.feeds.run import run_capture
from inspector.framing import EVENTSTREAM_TYPE
from inspector.model.capture import NORMAL_CLOSE_CODES, Capture, Chunk, End, close_word
from inspector.model.pathnames import path_name
from inspector.net.servers import BackgroundServer, RequestLimits
from inspector.capture.errors import SeveralStreams
from inspector.capture.load import load_all, load_path
from inspector.capture.websocket import message_type
from inspector.providers.endpoints import api_of
from starlette.applications import Starlette
from inspector.net.wsserve import SocketAnswers
from starlette.routing import Route, WebSocketRoute


HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te",
    "trailer", "trailers", "transfer-encoding", "upgrade",
})
"""RFC 9110 section 7.6.1 connection-specific fields: they describe the recorded hop, not the body."""

DROPPED = HOP_BY_HOP | {"content-length", "content-encoding", "date", "server"}
"""Also dropped: the body is re-framed (chunked) and stored decoded; uvicorn sets its own ``date``."""

_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")





@dataclass(slots=True)
class Served:
    """One capture ready to serve."""

    name: str
    """Path prefix that picks it (``/NAME/...``): the file's stem."""
    source: str
    capture: Capture
    status: int
    headers: list[tuple[bytes, bytes]]
    pauses: dict[int, float] = field(default_factory=dict)
    """``{chunk index: seconds}`` waited before that chunk even under ``--instant`` (a stall mutation)."""
    note: str = ""
    """What was done to the capture (``mutation stall=3: after event 12``), shown in the listing."""
    responses: list[Capture] | None = None
    """A recorded WebSocket's responses, in order (``inspector.capture.websocket``): each answers one
    ``response.create`` of a WebSocket client (``wsserve``); ``capture`` is then the first, as SSE, for
    HTTP clients. None for an HTTP capture."""

    @property
    def end_kind(self) -> str:
        return self.capture.end.kind if self.capture.end else "eof"

    def describe(self) -> str:
        cap = self.capture
        last = max((t for t in [*(c.t for c in cap.chunks), cap.end.t if cap.end else None] if t is not None),
                   default=None)
        span = f", {last:.2f} s" if last is not None else ", untimed"
        note = f"; {self.note}" if self.note else ""
        if self.responses is not None:
            n = len(self.responses)
            return f"a recorded WebSocket: {n} response{'s' if n != 1 else ''}, one per response.create{note}"
        return f"{self.status}, {len(cap.chunks)} chunks, ends {self.end_kind}{span}{note}"


def response_headers(cap: Capture) -> list[tuple[bytes, bytes]]:
    """The capture's response headers to send: hop-by-hop, length, encoding and redacted ones dropped.

    Captures without a response head (pasted SSE, NDJSON) get a content type from their format.
    """
    headers = (cap.response or {}).get("headers") or {}
    out: list[tuple[bytes, bytes]] = []
    for name, value in headers.items():
        lname = str(name).strip().lower()
        if lname in DROPPED or not _TOKEN.match(lname):
            continue
        for v in value if isinstance(value, list) else [value]:
            v = str(v)
            if v == "[redacted]" or "\r" in v or "\n" in v:
                continue
            try:
                out.append((lname.encode("latin-1"), v.encode("latin-1")))
            except UnicodeEncodeError:
                continue
    if not any(k == b"content-type" for k, _ in out):
        ctype = {"ndjson": "application/x-ndjson", "eventstream": EVENTSTREAM_TYPE}.get(cap.source_format,
                                                                                      "text/event-stream")
        if cap.response and cap.response.get("headers"):
            ctype = ""  # a recorded head without a content type stays without one
        if ctype:
            out.append((b"content-type", ctype.encode()))
    return out


def load_served(items: Iterable, *, max_bytes: int | None = None) -> list[Served]:
    """Load capture paths (or ``(name, Capture)`` pairs, or ``Capture``s) for serving.

    Raises ``inspector.capture.load.CaptureError`` for an unreadable path.
    """
    out: list[Served] = []
    names: set[str] = set()
    for n, item in enumerate(items):
        responses: list[Capture] | None = None
        if isinstance(item, Capture):
            name, source, cap = f"capture{n}", f"<capture {n}>", item
        elif isinstance(item, tuple):
            name, cap = item
            source = name
        else:
            p = Path(item)
            name, source = path_name(p.stem or p.name), path_name(item)  # both are sent and shown as text
            responses = _socket_responses(p, max_bytes)
            cap = as_sse(responses[0]) if responses else load_path(p, max_bytes=max_bytes)
        base, k = name, 2
        while name in names:  # two files with one stem: the second is NAME-2
            name, k = f"{base}-{k}", k + 1
        names.add(name)
        status = (cap.response or {}).get("status")
        note = ""
        if not isinstance(status, int) or isinstance(status, bool):
            status = 200
        elif not 200 <= status <= 599:
            # An interim status (1xx) is no answer, and RFC 9110 §15 has no status past 599: HTTP
            # (h11, uvicorn) sends neither as a final status.
            why = "is interim (1xx)" if 100 <= status < 200 else "is no HTTP status (RFC 9110: 100–599)"
            status, note = 200, f"recorded status {status} {why}, served as 200"
        if isinstance(item, (Capture, tuple)):
            responses = [cap] if cap.source_format == "websocket" else None
            cap = as_sse(cap) if responses else cap
        status = 200 if responses else status
        out.append(Served(name, source, cap, status, response_headers(cap), note=note, responses=responses))
    return out


def _socket_responses(path: Path, max_bytes: int | None) -> list[Capture] | None:
    """The responses of a recorded WebSocket at ``path`` (None: not a WebSocket capture)."""
    try:
        streams, _ = load_all(path, max_bytes=max_bytes)
    except SeveralStreams:
        return None
    caps = [cap for _, cap in streams]
    return caps if caps and all(c.source_format == "websocket" for c in caps) else None


def as_sse(cap: Capture) -> Capture:
    """A response recorded over a WebSocket as an SSE body: each message one event named by its ``type``
    (the Responses API's SSE framing, PROTOCOLS.md §3), at the message's time; the same end."""
    chunks = []
    for c in cap.chunks:
        name = message_type(c.data)[0]
        head = f"event: {name}\n".encode() if name else b""
        chunks.append(Chunk(c.t, head + b"data: " + c.data.replace(b"\n", b"\ndata: ") + b"\n\n"))
    end = cap.end
    if end is not None and end.kind == "close":  # a socket's close: a body ends at eof, or breaks
        end = End(end.t, "eof") if end.code in NORMAL_CLOSE_CODES else End(end.t, "reset", close_word(end))
    return Capture(chunks=chunks, request=cap.request, response={"status": 200, "headers": {
        "content-type": "text/event-stream"}}, end=end, source_format="sse", request_relative=True)


async def read_body(receive) -> bytes | None:
    """The whole request body (clients wait for it to be taken before reading the answer); None
    when the client left first."""
    body = bytearray()
    while True:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            return None
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            return bytes(body)


class MockProvider:
    """The ASGI endpoint: picks a capture for each request and plays it back.

    Subclasses choose by the request itself (``choose(scope, body)``) and hear about each answer
    (``answered(served, outcome)``): ``serve --expect-next`` grades a client that way
    (``inspector.net.conform.expect``).
    """

    def __init__(self, served: list[Served], *, speed: float = 1.0, instant: bool = False,
                 log: Callable[[str], None] | None = None,
                 on_all_served: Callable[[], None] | None = None, allow_empty: bool = False) -> None:
        if not served and not allow_empty:
            raise ValueError("nothing to serve")
        self.served = served
        self.by_name = {s.name: s for s in served}
        self.speed = speed
        self.instant = instant
        self.log = log
        self._rotation = itertools.count()
        self.requests = 0
        """Requests answered so far."""
        self.on_all_served = on_all_served
        """Called once every capture has been answered in full at least once (``serve`` without ``--loop``)."""
        self._done: set[str] = set()
        self._dialect_of: dict[str, str | None] = {}
        """Each capture's dialect, once a request's API was compared with it."""
        self._api_warned: set[str] = set()

    def pick(self, path: str) -> Served:
        """``/NAME/...`` picks capture NAME; any other path takes the next capture in rotation."""
        first = path.lstrip("/").split("/", 1)[0]
        if first in self.by_name:
            return self.by_name[first]
        return self.served[next(self._rotation) % len(self.served)]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        start = asyncio.get_running_loop().time()
        self.requests += 1
        body = await read_body(receive)
        if body is None:
            return
        served = self.choose(scope, body)
        self._check_api(scope.get("path", "/"), served)
        await self.respond(scope, served, receive, send, start)

    def _check_api(self, path: str, served: Served) -> None:
        """Warn once per capture when the request asks for another API than the capture's dialect
        (a Responses request answered from a Chat capture sent pydantic-ai into a 10-request loop)."""
        asked = api_of(path)
        if asked is None or served.name in self._api_warned or self.log is None:
            return
        if served.name not in self._dialect_of:
            self._dialect_of[served.name] = run_capture(served.capture).dialect_name
        dialect = self._dialect_of[served.name]
        if dialect not in (None, "unknown", asked):
            self._api_warned.add(served.name)
            self.log(f"warning: {path} asks for the {asked} API, but {served.name} is a {dialect} stream: "
                     "the client will misread it (said once per capture)")

    async def respond(self, scope, served: Served, receive, send, start: float) -> None:
        """Play ``served`` as the answer (``start``: the loop time the request arrived), log it, tell ``answered``."""
        gone = asyncio.Event()

        async def watch() -> None:
            while True:
                if (await receive())["type"] == "http.disconnect":
                    gone.set()
                    return

        watcher = asyncio.create_task(watch())
        outcome = "?"
        try:
            outcome = await self._play(served, send, start, gone)
        except asyncio.CancelledError:  # server shutting down: end the connection abruptly, quietly
            outcome = "aborted (server stopping)"
        finally:
            watcher.cancel()
            if self.log:
                self.log(f"{scope.get('method', '?')} {scope.get('path', '/')} -> {served.name} "
                         f"({served.status}, {outcome})")
            self.answered(served, outcome)

    def choose(self, scope, body: bytes) -> Served:
        """The capture that answers this request (``body``: the request body as received)."""
        return self.pick(scope.get("path", "/"))

    def answered(self, served: Served, outcome: str) -> None:
        """Called after each answer; here: count it, and stop once every capture was answered in full."""
        if "client left" not in outcome and "aborted" not in outcome:
            self._done.add(served.name)
            if self.on_all_served is not None and len(self._done) == len(self.served):
                self.on_all_served()
                self.on_all_served = None

    async def _wait_until(self, loop, start: float, t: float | None, gone: asyncio.Event) -> bool:
        """Sleep until ``start + t / speed``; False if the client went away meanwhile."""
        if gone.is_set():
            return False
        if self.instant or t is None:
            return True
        delay = start + t / self.speed - loop.time()
        if delay <= 0:
            return True
        try:
            await asyncio.wait_for(gone.wait(), timeout=delay)
        except asyncio.TimeoutError:
            return True
        return False

    @staticmethod
    async def _pause(seconds: float, gone: asyncio.Event) -> bool:
        """Wait ``seconds`` (a mutation's stall, kept under ``--instant``); False if the client left."""
        try:
            await asyncio.wait_for(gone.wait(), timeout=seconds)
        except asyncio.TimeoutError:
            return True
        return False

    async def _play(self, served: Served, send, start: float, gone: asyncio.Event) -> str:
        loop = asyncio.get_running_loop()
        cap = served.capture
        await send({"type": "http.response.start", "status": served.status, "headers": served.headers})
        no_body = served.status < 200 or served.status in (204, 304)
        sent = 0
        for i, chunk in enumerate(cap.chunks):
            if self.instant and i in served.pauses and not await self._pause(served.pauses[i], gone):
                return f"client left after {sent} chunks"
            if not await self._wait_until(loop, start, chunk.t, gone):
                return f"client left after {sent} chunks"
            if chunk.data and not no_body:
                await send({"type": "http.response.body", "body": chunk.data, "more_body": True})
                sent += 1
                # A write into a socket with room never waits, nor does a chunk already due
                # (--instant, untimed, late): without this yield the loop would play the whole
                # capture in one go, never hearing that the client left (asyncio then logs every
                # write into the dead socket) and holding every other client back.
                await asyncio.sleep(0)
                if gone.is_set():
                    return f"client left after {sent} chunks"
        end = cap.end
        if end is not None and not await self._wait_until(loop, start, end.t, gone):
            return f"client left after {sent} chunks"
        if end is None or end.kind == "eof":
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return f"{sent} chunks, eof"
        # Abrupt end: return without the final body message; uvicorn closes the connection, the
        # client sees the chunked body cut short.
        return f"{sent} chunks, closed abruptly ({end.kind})"


def make_asgi_app(served: list[Served], *, speed: float = 1.0, instant: bool = False,
                  log: Callable[[str], None] | None = None, on_all_served: Callable[[], None] | None = None):
    """The Starlette app: one catch-all route (every method, every path) answered by ``MockProvider``."""
    return asgi_app(MockProvider(served, speed=speed, instant=instant, log=log, on_all_served=on_all_served))


def asgi_app(provider: MockProvider):
    """The Starlette app answering every method and path with ``provider`` (``app.state.provider``), and
    WebSocket clients on any path from the same captures (``wsserve.SocketAnswers``)."""
    app = Starlette(routes=[Route("/{path:path}", endpoint=provider),
                            WebSocketRoute("/{path:path}", endpoint=SocketAnswers(provider))])
    app.state.provider = provider
    return app


class ServerThread(BackgroundServer):
    """``serve`` in a background thread on loopback, for tests and ``demo``.

    ``with ServerThread(["a.sse", "b.jsonl"]) as srv: srv.url`` -> ``http://127.0.0.1:PORT``;
    ``srv.url_for("a")`` picks capture ``a`` by path. ``captures`` may be paths, ``Capture``s or
    ``(name, Capture)`` pairs. Raises ``CaptureError`` (unreadable capture), ``OSError`` (bind),
    ``RuntimeError`` (the server did not start within 10 s).
    """

    label = "mock provider"
    websockets = True

    def __init__(self, captures, host: str = "127.0.0.1", port: int = 0, speed: float = 1.0,
                 instant: bool = False, log: Callable[[str], None] | None = None,
                 requests: RequestLimits | None = None) -> None:
        self.served = load_served(captures)
        super().__init__(make_asgi_app(self.served, speed=speed, instant=instant, log=log), host, port,
                         requests=requests)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.served]

    @property
    def provider(self) -> MockProvider:
        """The endpoint; ``provider.speed`` and ``provider.instant`` may be changed while serving."""
        return self.app.state.provider

    @property
    def requests(self) -> int:
        """Requests answered so far."""
        return self.provider.requests

    def url_for(self, name: str) -> str:
        """Base URL that always answers with capture ``name``."""
        if name not in self.names:
            raise KeyError(name)
        return f"{self.url}/{name}"
