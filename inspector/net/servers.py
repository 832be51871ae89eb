"""What the local servers (``serve``, ``proxy``) share: a listening socket, a quiet uvicorn, a thread.

Both are ASGI apps run by uvicorn on a socket bound before the server starts, so the printed URL
accepts connections at once; tests, ``demo`` and the TUI run them in a background thread. ``serve``
reads and writes HTTP with h11 (its fault injection was written against h11's bytes on the wire), the
proxy with httptools (``_FastHttp``: its relay writes every chunk through it).

Both take requests from clients they do not control, so both bound a request (``RequestLimits``,
issue 24 item 8: a 100 MB body peaked the proxy at 559 MB; 150 clients sending their headers a
byte at a time were held open for good): a request whose headers are not complete within
``header_timeout`` seconds of the connection opening (or of the previous response on it) is
answered ``408`` and closed; a body over ``max_bytes`` (declared in ``content-length`` or counted as
it arrives) is answered ``413`` and closed, before the app has read it all.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import signal
import socket
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass

import h11
import orjson
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from inspector.net.limits import HEADER_TIMEOUT, MAX_REQUEST_BYTES
from inspector.model.stopsignals import stop_signals, took

@dataclass(frozen=True, slots=True)
class RequestLimits:
    """What one request to ``serve`` or ``proxy`` may take: ``header_timeout`` seconds to send its
    headers, ``max_bytes`` bytes of body (None: no limit for either)."""

    header_timeout: float | None = HEADER_TIMEOUT
    max_bytes: int | None = MAX_REQUEST_BYTES


def _error_body(kind: str, message: str) -> bytes:
    """A JSON error both SDK families read (``error.message``; Anthropic's ``type: error`` shape)."""
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": f"stream-inspector: {message}"}})


def _error_response(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 response that closes the connection (written before h11 has a request)."""
    body = _error_body("request_timeout", message)
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n")
    return head.encode("ascii") + body


class _HeadDeadline:
    """A deadline for each request's headers (``header_timeout`` seconds; None: none), for uvicorn's
    HTTP protocols: armed when a connection opens and when a response ends with no next request
    under way, disarmed once a request's headers are in; when it rings, ``408`` and the connection
    closed."""

    header_timeout: float | None = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def _arm(self) -> None:
        self._disarm()
        if self.header_timeout is not None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _awaiting_head(self) -> bool:
        return True

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._awaiting_head():
            return
        self.transport.write(_error_response(
            408, "Request Timeout", f"the request headers did not arrive within {self.header_timeout:g} s "
                                    "(--header-timeout)"))
        self.transport.close()


class _TimedH11(_HeadDeadline, H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (``serve``'s: its bytes on
    the wire are h11's, which its fault injection was written against)."""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def _awaiting_head(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._header_timer is not None and self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in: the app takes it from here

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request on this connection gets the same time for its headers

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)


MAX_HEAD_BYTES = 16 * 1024  # h11._connection.DEFAULT_MAX_INCOMPLETE_EVENT_SIZE, which uvicorn keeps
"""The most a request head may hold while still incomplete (16 KiB, h11's bound: a complete head
that arrived in one read is taken whatever its size, as h11 takes it)."""


class _FastHttp(_HeadDeadline, HttpToolsProtocol):
    """uvicorn's httptools protocol (llhttp, C) for the proxy, bounded as ``_TimedH11`` is: the
    header deadline, and a head still incomplete past ``MAX_HEAD_BYTES`` answered ``400`` as h11
    answers it (llhttp itself sets no bound). Why (issue 32 item 4): per relayed chunk, h11's state
    machine and chunk writer cost about a sixth of the relay's CPU at 64 events per chunk.

    What a client sees differs from h11 only where HTTP leaves it open: the response head's field
    names in lower case (h11 kept the upstream's case), a ``400``'s body sent with ``content-length``
    (h11 chunked it), and llhttp refuses (``400``) what h11 let through: ``Content-Length`` beside
    ``Transfer-Encoding`` (RFC 9112 §6.1 allows either), a folded header line (§5.2), an HTTP
    version other than 1.x."""

    _head_bytes = -1
    """Bytes of the request head read so far (target, names, values); -1 between heads."""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        self._head_bytes = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_bytes += len(name) + len(value)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_bytes = -1
        self._disarm()  # the headers are in: the app takes it from here
        super().on_headers_complete()
        if self.url[:1] != b"/" and "raw_path" in self.scope:
            # Not origin-form (``http://host/path``: a request meant for a forward proxy): the
            # path is the whole target, as h11 gave it, which the proxy's routes do not match
            # (404); httptools would pass on the URL's path alone. The app has not run yet.
            raw_path = self.url.partition(b"?")[0]
            self.scope["raw_path"] = raw_path
            self.scope["path"] = urllib.parse.unquote(raw_path.decode("latin-1"))

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
            msg = "Invalid HTTP request received."  # uvicorn's words for h11's refusal of the same head
            self.logger.warning(msg)
            self.send_400_response(msg)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.cycle.response_complete:
            self._arm()  # no next request under way: it gets the same time for its headers

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)


class RequestSizeLimit:
    """ASGI middleware: a request body over ``max_bytes`` is answered ``413`` and the connection closed.

    A ``content-length`` over the limit is refused before any of the body is read; a chunked body
    is counted as the app reads it, and once past the limit the app hears ``http.disconnect`` (both
    apps then drop the request unanswered: they read the whole body before forwarding or answering)
    and the client gets the 413.
    """

    def __init__(self, app, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send) -> None:
        body = _error_body("request_too_large",
                           f"the request body is larger than {self.max_bytes} bytes (--max-request-bytes)")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.strip().isdigit() and int(value) > self.max_bytes:
                await self._refuse(send)
                return
        received = 0
        over = started = False

        async def counted():
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > self.max_bytes:
                    over = True
                    return {"type": "http.disconnect"}
            return msg

        async def watched(msg):
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        await self.app(scope, counted, watched)
        if over and not started:
            await self._refuse(send)


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0 = a free port) and already listening, so a client that
    connects as soon as the address is printed waits in the backlog instead of being refused.
    Raises ``OSError``.

    Created with ``IPPROTO_TCP`` explicitly: asyncio disables Nagle's algorithm (``TCP_NODELAY``)
    only on sockets whose ``proto`` says TCP (``asyncio.base_events._set_nodelay``), and accepted
    connections inherit the listening socket's ``proto``. With ``proto=0`` every small write after
    the response head (each stream chunk) could wait for the client's delayed ACK, up to 40 ms.
    """
    infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP,
                               flags=socket.AI_PASSIVE)
    if not infos:
        raise OSError(f"cannot resolve {host}")
    family, _, proto, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM, proto or socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def listen(host: str, port: int, what: str) -> socket.socket | None:
    """``bind_socket`` for a command: on failure print one line naming ``what`` and return None."""
    try:
        return bind_socket(host, port)
    except OSError as e:
        print(f"stream-inspector: {what}: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return None


def url_for(sock: socket.socket) -> str:
    """``http://HOST:PORT`` of a bound socket (IPv6 hosts in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    h = host.strip("[]").lower()
    if h == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


_QUIET = ("ASGI callable returned without completing response.",
          "Cancel ", "timeout graceful shutdown exceeded", "ASGI callable returned without completing handshake.")
"""uvicorn log lines that describe what our servers do on purpose: ending a response early (a
recorded reset), cancelling streams still running when the user stops the server, and refusing a
WebSocket upgrade with an HTTP answer (uvicorn's websockets protocol logs that as an incomplete
handshake although the ASGI ``websocket.http.response`` extension sent the answer whole)."""


class QuietAbortFilter(logging.Filter):
    """Drops uvicorn's log lines for intentional aborts and for streams cut short at shutdown."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        return not (msg in (_QUIET[0], _QUIET[3]) or (msg.startswith(_QUIET[1]) and _QUIET[2] in msg))


QUIET_ABORTS = QuietAbortFilter()


class _WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets`` protocol, telling a dropped connection (1006) from a close frame without
    a code (1005): uvicorn says 1005 for both once the handshake is done, and a relay must mirror which."""

    def connection_lost(self, exc) -> None:
        if self.handshake_complete and self.conn.close_rcvd is None and not self.close_sent:
            self.handshake_complete = False  # uvicorn reports 1006 for a connection lost before the handshake
        super().connection_lost(exc)


class _StopsThenReturns(uvicorn.Server):
    """uvicorn's server, stopping gracefully on SIGTERM and SIGHUP as on Ctrl+C (``stopsignals``), and
    returning from ``run`` once stopped, whatever the signal, so the caller's cleanup runs: uvicorn
    raises the signal again once it has stopped (``Server.capture_signals``, uvicorn 0.54), and
    SIGTERM's default action then ended the process before it. The signals it took are handed to
    ``stopsignals.took`` (the command ends by a SIGTERM or SIGHUP once cleaned up). In a thread other
    than the main one (tests, the TUI) it takes no signal, as uvicorn's own. ``stopped_by``: the
    signals that stopped it, in order (empty when it stopped on its own: ``should_exit``)."""

    stopped_by: tuple[int, ...] = ()

    @contextlib.contextmanager
    def capture_signals(self):
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {s: signal.signal(s, self.handle_exit) for s in stop_signals()}
        try:
            yield
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
            self.stopped_by = tuple(self._captured_signals)
            for s in self.stopped_by:
                took(s)


def uvicorn_server(app, *, graceful: float, date_header: bool = True, log_filter: logging.Filter | None = None,
                   requests: RequestLimits | None = None, websockets: bool = False, lifespan: bool = False,
                   fast_http: bool = False, returns_on_signal: bool = False):
    """A uvicorn ``Server`` for ``app`` that logs only warnings, adds no ``server`` header and bounds
    each request (``requests``, default ``RequestLimits()``: module docstring). ``websockets``: accept
    WebSocket upgrades (``websocket`` ASGI scopes; a message may be as large as a request body; no
    per-message compression: on loopback it costs time and saves nothing), else an upgrade request is an
    ordinary HTTP request. ``lifespan``: run the app's ASGI lifespan (its shutdown after the last
    connection closed: the proxy closes its upstream connections there). ``fast_http``: requests read
    and responses written by httptools (``_FastHttp``, the proxy's), else by h11. ``returns_on_signal``:
    in the main thread, SIGTERM and SIGHUP stop it as Ctrl+C does and ``run`` returns, without raising
    the signal again (``_StopsThenReturns``), else uvicorn's own handling."""
    if log_filter is not None:
        logger = logging.getLogger("uvicorn.error")
        if log_filter not in logger.filters:
            logger.addFilter(log_filter)
    requests = requests or RequestLimits()
    http: str | type[asyncio.Protocol] = "h11"
    if fast_http:
        http = type("FastHttp", (_FastHttp,), {"header_timeout": requests.header_timeout})
    elif requests.header_timeout is not None:
        http = type("TimedH11", (_TimedH11,), {"header_timeout": requests.header_timeout})
    if requests.max_bytes is not None:
        app = RequestSizeLimit(app, requests.max_bytes)
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, http=http,
                            loop="asyncio", ws=_WebSocketProtocol if websockets else "none",
                            ws_max_size=requests.max_bytes or 2**31 - 1, ws_per_message_deflate=False,
                            lifespan="on" if lifespan else "off", server_header=False,
                            date_header=date_header,
                            timeout_graceful_shutdown=graceful)  # type: ignore[arg-type]  # uvicorn types it int; a float works
    return (_StopsThenReturns if returns_on_signal else uvicorn.Server)(config)


class BackgroundServer:
    """An ASGI app served by uvicorn in a daemon thread: ``start()``/``stop()`` or ``with``.

    Subclasses set ``app``, ``host``, ``port`` (0 = a free port) and may pass a ready ``_sock``;
    ``.url`` is known once started. Raises ``OSError`` (bind) and ``RuntimeError`` (not started
    within 10 s).
    """

    label = "server"
    date_header = True
    log_filter: logging.Filter | None = QUIET_ABORTS
    websockets = False
    """Accept WebSocket upgrades (``uvicorn_server``)."""
    lifespan = False
    """Run the app's ASGI lifespan (``uvicorn_server``)."""
    fast_http = False
    """Read requests and write responses with httptools (``uvicorn_server``)."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None,
                 requests: RequestLimits | None = None) -> None:
        self.app = app
        self.requests_limits = requests
        self.host, self.port = host, port
        self._sock = sock
        self._server = None
        self._thread: threading.Thread | None = None
        self.url = url_for(sock) if sock is not None else ""
        """``http://HOST:PORT`` once started."""

    def start(self):
        if self._sock is None:
            self._sock = bind_socket(self.host, self.port)
            self.url = url_for(self._sock)
        self._server = uvicorn_server(self.app, graceful=0.5, date_header=self.date_header,
                                      log_filter=self.log_filter, requests=self.requests_limits,
                                      websockets=self.websockets, lifespan=self.lifespan,
                                      fast_http=self.fast_http)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name=f"{self.label} {self.url}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.label} on {self.url} did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._sock is not None:
            self._sock.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
