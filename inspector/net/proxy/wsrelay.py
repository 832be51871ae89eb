"""The proxy's WebSocket path: an upgrade on the proxy's port relayed to the upstream, message for message.

Why: the Responses API's WebSocket mode (``wss://…/v1/responses``: openai-python
``client.responses.connect()``, openai-agents ``responses_websocket_session()``) and the Realtime
API carry the same stream events as SSE, one per message, with the client's own messages on the
same socket (PROTOCOLS.md §8). An SDK derives the socket's URL from its base URL (openai-python
``ResponsesConnectionManager._prepare_url``: the base URL with ``http``→``ws``, ``https``→``wss``,
plus ``/responses``), so an agent pointed at the proxy opens its socket on the proxy's port, at
the path its HTTP requests use; the proxy's routes pick the upstream alike (``routes``), and the
upstream URL gets the same scheme change.

Per socket (:class:`WebSocketRelay`, an ASGI app for ``websocket`` scopes; uvicorn speaks the
protocol through the ``websockets`` library, ``inspector.net.servers``):

- the opening handshake goes upstream with the client's headers (hop-by-hop fields and the
  handshake's own ``Sec-WebSocket-*`` fields dropped: each hop negotiates its key, version and
  compression; the client's subprotocols are offered as they came). An upstream that accepts is
  answered to the client with its headers and chosen subprotocol; one that refuses (401, 404…) is
  passed on as its HTTP response (status, headers, body: the ASGI ``websocket.http.response``
  extension); no connection at all is a 502 (504 for a timeout) with a JSON error body;
- each message, either way, is handed to the socket's observer (recording, inspection) and then
  sent on unchanged: a text message stays text (the same UTF-8 bytes: ``websockets`` and uvicorn
  validate and re-encode it without change), a binary one binary, in the order it arrived;
- a close is forwarded with its code and reason, both ways. A side that vanishes without a close
  frame (1006) is mirrored by dropping the other side's connection without one; a close frame
  without a code (1005) is forwarded as an empty close frame. Pings are each hop's own.

Times ``t`` are seconds since the handshake was sent upstream (``time.monotonic``).

Imports: ``headers``, ``routes``, ``sink``, ``inspector.capture.redact``, ``inspector.net.servers``,
``inspector.net.live`` (fault wording) and ``websockets``. Never the log, reports or the TUI (the observer does that).
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol
from urllib.parse import urlsplit, urlunsplit

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from inspector.capture.redact import redact_url, remember_headers, remember_query_secrets
from inspector.net.proxy.headers import forward_request_headers, forward_response_headers, headers_dict
from inspector.net.proxy.routes import Routes
from inspector.net.proxy.sink import BACKLOG_LIMIT, LoopSink
from inspector.net.live import describe_error
from inspector.net.servers import is_loopback

NO_STATUS = 1005
"""A close frame that carried no code (RFC 6455 section 7.4.1): forwarded as such."""

ABNORMAL = 1006
"""No close frame at all: the connection dropped (RFC 6455 section 7.4.1; never sent on the wire)."""

CLIENT_CLOSE_S = 10.0
"""Longest wait, once a send to the client failed, for the client's close to be read (it is queued by then;
the reading may first finish a send to the upstream)."""

_HANDSHAKE_FIELDS = frozenset({"sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
                               "sec-websocket-accept", "sec-websocket-protocol"})
"""The handshake's own fields: each hop negotiates them (the subprotocol is passed on by value)."""

OPEN_TIMEOUT_S = 30.0
"""Longest wait for the upstream's handshake answer (capped by ``--timeout``)."""


def ws_url(http_url: str) -> str:
    """``http://h/p?q`` → ``ws://h/p?q``, ``https`` → ``wss`` (openai-python's own derivation)."""
    parts = urlsplit(http_url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, parts.path, parts.query, parts.fragment))


def handshake_request_headers(raw: list[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    """The client's upgrade request headers for the upstream: hop-by-hop, ``host``, ``content-length``
    and the ``Sec-WebSocket-*`` fields dropped (module docstring)."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in forward_request_headers(raw)
            if k.lower().decode("latin-1") not in _HANDSHAKE_FIELDS]


def handshake_response_headers(raw: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """The upstream's ``101`` headers for the client (hop-by-hop and ``Sec-WebSocket-*`` dropped, and
    ``date``: uvicorn writes its own)."""
    pairs = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in raw]
    return [(k, v) for k, v in forward_response_headers(pairs)
            if k.decode("latin-1") not in _HANDSHAKE_FIELDS and k != b"date"]


@dataclass(slots=True)
class Close:
    """How one side ended the socket: ``code`` (1000…4999, ``NO_STATUS``, or ``ABNORMAL``), its reason."""

    code: int
    reason: str = ""
    by: str = "upstream"
    """``"client"``, ``"upstream"``, or ``"proxy"`` (a limit, the proxy stopping)."""


@dataclass(slots=True)
class SocketOpen:
    """A relayed socket as it opened: what an observer is built from."""

    n: int
    """Socket number in this proxy (1, 2, …)."""
    path: str
    """The path the client opened (decoded, no query)."""
    target: str
    """Path plus query, secrets redacted."""
    url: str
    """The upstream ``ws(s)://`` URL, secrets redacted."""
    request: dict
    """``{"method": "GET", "url", "headers"}`` of the handshake, as sent upstream (not redacted yet)."""
    t0: float
    """``time.monotonic()`` when the handshake was sent upstream."""
    started_wall: float
    response: dict | None = None
    """``{"status", "headers"}`` of the upstream's answer to the handshake (None: no answer)."""
    subprotocol: str | None = None
    extra: dict = field(default_factory=dict)


class SocketObserver(Protocol):
    """What sees one relayed socket (recording and inspection). Called on the relay's loop, in order;
    each call must return quickly (queue real work elsewhere)."""

    def opened(self, sock: SocketOpen) -> None:
        """The upstream answered the handshake (``sock.response``; 101 or a refusal)."""

    def message(self, t: float, direction: str, data: str | bytes) -> None:
        """One whole message: ``direction`` ``"send"`` (client → upstream) or ``"recv"``; ``str`` for text."""

    def closed(self, t: float, close: Close, error: str | None = None) -> None:
        """The socket ended (exactly once, after the last ``message``); ``error`` says why for a fault."""


def _error_body(kind: str, message: str) -> bytes:
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": f"stream-inspector proxy: {message}"}})


async def _http_answer(send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    """Refuse the upgrade with a plain HTTP response (ASGI ``websocket.http.response`` extension)."""
    await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": body})


class WebSocketRelay:
    """The ASGI app for ``websocket`` scopes: one upstream socket per client socket (module docstring).

    ``routes``: where a path goes (as the HTTP side); ``observe(sock)`` returns the observer of one
    socket (None: relay without one); ``timeout``: the handshake's longest wait (capped at
    ``OPEN_TIMEOUT_S``); ``max_message``: the largest message taken from the upstream (None: any);
    ``sink``: the inspection queue the observers post to (paces a socket faster than its inspection).
    """

    def __init__(self, routes: Routes, observe: Callable[[SocketOpen], SocketObserver | None] | None = None, *,
                 timeout: float = 600.0, max_message: int | None = None,
                 log: Callable[[str], None] | None = None, sink: LoopSink | None = None) -> None:
        self.routes = routes
        self.sink = sink
        """The inspection queue: reading from the upstream waits while its backlog is over ``BACKLOG_LIMIT``."""
        self.observe = observe
        self.timeout = timeout
        self.max_message = max_message
        self.log = log
        self.sockets = 0
        """Sockets opened so far (the numbering of ``SocketOpen.n``)."""
        self.open = 0
        """Sockets being relayed now."""

    def upstream_url(self, raw_path: bytes, query: bytes) -> str | None:
        path = raw_path.decode("latin-1") or "/"
        route = self.routes.match(path)
        return None if route is None else ws_url(route.url_for(path, query.decode("latin-1")))

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket":
            return
        if (await receive())["type"] != "websocket.connect":
            return
        raw_path = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
        query = scope.get("query_string", b"")
        path = scope.get("path", "/")
        url = self.upstream_url(raw_path, query)
        if url is None:
            body = _error_body("not_found_error", f"no route for {path}: requests go to {self.routes.describe()}")
            await _http_answer(send, 404, [(b"content-type", b"application/json")], body)
            self._log(path, "404 (no route)")
            return
        headers = handshake_request_headers(list(scope.get("headers", [])))
        remember_headers(headers)  # the credentials forwarded never reach a recording, a report or the screen
        remember_query_secrets(url)
        self.sockets += 1
        sock = SocketOpen(n=self.sockets, path=path, target=redact_url(path + ("?" + query.decode("latin-1")
                                                                              if query else "")),
                          url=redact_url(url), request={"method": "GET", "url": url, "headers": headers_dict(headers)},
                          t0=time.monotonic(), started_wall=time.time())
        observer = self.observe(sock) if self.observe is not None else None
        upstream = await self._open_upstream(sock, url, headers, list(scope.get("subprotocols") or ()), send,
                                             observer)
        if upstream is None:
            return
        self.open += 1
        try:
            await self._relay(sock, upstream, receive, send, observer)
        finally:
            self.open -= 1

    def _now(self, sock: SocketOpen) -> float:
        return round(time.monotonic() - sock.t0, 6)

    async def _open_upstream(self, sock: SocketOpen, url: str, headers, subprotocols: list[str], send,
                             observer: SocketObserver | None) -> ClientConnection | None:
        """The upstream socket, the client's handshake answered alike; None when it was refused
        (the refusal passed on, the observer told)."""
        host = urlsplit(url).hostname or ""
        try:
            upstream = await connect(
                url, additional_headers=headers, subprotocols=subprotocols or None,  # type: ignore[arg-type]  # plain str subprotocols
                user_agent_header=None, proxy=None if is_loopback(host) else True,
                open_timeout=min(self.timeout, OPEN_TIMEOUT_S), max_size=self.max_message,
                max_queue=None, ping_interval=20, ping_timeout=20, close_timeout=10)
        except InvalidStatus as e:  # the upstream answered the upgrade with an HTTP response: pass it on
            resp = e.response
            sock.response = {"status": resp.status_code, "headers": headers_dict(resp.headers.raw_items())}
            pairs = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in resp.headers.raw_items()]
            body = bytes(resp.body or b"")
            fwd = [(k, v) for k, v in forward_response_headers(pairs) if k not in (b"content-length", b"date")]
            self._refused(sock, observer, Close(ABNORMAL, by="upstream"), f"upstream refused the upgrade: "
                          f"HTTP {resp.status_code}", body)
            await _http_answer(send, resp.status_code, fwd, body)
            self._log(sock.path, f"{resp.status_code} (upstream refused the WebSocket)")
            return None
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as e:
            timeout = isinstance(e, TimeoutError)
            why = (f"no handshake answer within {min(self.timeout, OPEN_TIMEOUT_S):g} s" if timeout
                   else describe_error(e, url))
            self._refused(sock, observer, Close(ABNORMAL, by="proxy"), why, b"")
            status = 504 if timeout else 502
            body = _error_body("upstream_timeout" if timeout else "upstream_unreachable",
                               f"{why} (upstream {redact_url(url)})")
            await _http_answer(send, status, [(b"content-type", b"application/json"),
                                              (b"x-stream-inspector", b"upstream-error")], body)
            self._log(sock.path, f"{status} ({why})")
            return None
        answer = upstream.response
        assert answer is not None  # connect() returns once the handshake's answer is in
        sock.response = {"status": answer.status_code, "headers": headers_dict(answer.headers.raw_items())}
        sock.subprotocol = upstream.subprotocol
        if observer is not None:
            observer.opened(sock)
        await send({"type": "websocket.accept", "subprotocol": upstream.subprotocol,
                    "headers": handshake_response_headers(list(answer.headers.raw_items()))})
        return upstream

    def _refused(self, sock, observer, close: Close, why: str, body: bytes) -> None:
        if observer is None:
            return
        if body:
            sock.extra["body"] = body.decode("utf-8", "replace")
        observer.opened(sock)
        observer.closed(self._now(sock), close, why)

    async def _relay(self, sock: SocketOpen, upstream: ClientConnection, receive, send,
                     observer: SocketObserver | None) -> None:
        """Both directions until one side closes; then the other is closed alike (module docstring)."""
        now = self._now

        async def from_client() -> Close:
            while True:
                msg = await receive()
                kind = msg["type"]
                if kind == "websocket.receive":
                    text = msg.get("text")
                    data = text if text is not None else msg.get("bytes") or b""
                    if observer is not None:
                        observer.message(now(sock), "send", data)
                    try:
                        await upstream.send(data)
                    except ConnectionClosed:
                        return await upstream_end()
                elif kind == "websocket.disconnect":
                    return Close(int(msg.get("code") or NO_STATUS), msg.get("reason") or "", by="client")

        async def upstream_end() -> Close:
            await upstream.wait_closed()
            return _close_of(upstream)

        sink = self.sink

        async def from_upstream() -> Close | None:
            """The upstream's close; None when the client left first (its own close, ``from_client``'s, says how)."""
            while True:
                try:
                    data = await upstream.recv()
                except ConnectionClosed:
                    return _close_of(upstream)
                if observer is not None:
                    observer.message(now(sock), "recv", data)
                try:
                    if isinstance(data, str):
                        await send({"type": "websocket.send", "text": data})
                    else:
                        await send({"type": "websocket.send", "bytes": data})
                except OSError:  # uvicorn's ClientDisconnected: the client closed while this message was on its way
                    return None
                if sink is not None and sink.posted_bytes - sink.inspected_bytes > BACKLOG_LIMIT:
                    await sink.wait_for_room()

        client_task = asyncio.ensure_future(from_client())
        upstream_task = asyncio.ensure_future(from_upstream())
        close: Close | None = None
        error: str | None = None
        try:
            done, _ = await asyncio.wait({client_task, upstream_task}, return_when=asyncio.FIRST_COMPLETED)
            close = next(iter(done)).result()
            if close is None:  # the client's close is queued (the server took it before the send failed)
                close = await asyncio.wait_for(client_task, CLIENT_CLOSE_S)
            client_task.cancel()
            upstream_task.cancel()
            if close.by == "client":
                await _to_upstream(upstream, close)
            else:
                await _to_client(send, close)
        except asyncio.CancelledError:
            close, error = Close(1001, "proxy stopped", by="proxy"), "the proxy stopped with the socket open"
            upstream.transport.abort()
            raise
        except Exception as e:  # noqa: BLE001 - a side that breaks mid-relay ends the socket, never the proxy
            close, error = Close(ABNORMAL, by="proxy"), f"{type(e).__name__}: {e}"
            upstream.transport.abort()
        finally:
            for task in (client_task, upstream_task):
                task.cancel()
            if close is not None and close.code == ABNORMAL and error is None:
                error = "the upstream dropped the connection without a close frame" if close.by == "upstream" \
                    else "the client dropped the connection without a close frame"
            if observer is not None:
                observer.closed(now(sock), close or Close(ABNORMAL, by="proxy"), error)

    def _log(self, path: str, what: str) -> None:
        if self.log is not None:
            self.log(f"WebSocket {path} -> {what}")


def _close_of(upstream: ClientConnection) -> Close:
    """How the upstream socket ended: the close frame it sent; else the one the proxy sent it (its
    library failed the connection: a message over ``max_message`` 1009, a protocol error 1002, no pong
    1011); else 1006."""
    protocol = upstream.protocol
    rcvd, sent = protocol.close_rcvd, protocol.close_sent
    if rcvd is not None:
        return Close(int(rcvd.code), rcvd.reason, by="upstream")
    if sent is not None:
        return Close(int(sent.code), sent.reason, by="proxy")
    return Close(ABNORMAL, by="upstream")


async def _to_client(send, close: Close) -> None:
    """End the client's socket as the upstream's ended: the same close frame, an empty one for 1005,
    none at all for 1006 (the ASGI app returns without closing: uvicorn drops the connection)."""
    if close.code == ABNORMAL:
        return
    try:
        # code None: uvicorn's websockets protocol sends a close frame without a code (1005 on the other side).
        await send({"type": "websocket.close", "code": None if close.code == NO_STATUS else close.code,
                    "reason": close.reason})
    except Exception:  # noqa: BLE001 - the client may be gone already
        pass


async def _to_upstream(upstream: ClientConnection, close: Close) -> None:
    """End the upstream's socket as the client's ended (same code and reason; none for 1006)."""
    if close.code == ABNORMAL:
        upstream.transport.abort()
        return
    await upstream.close(None if close.code == NO_STATUS else close.code, close.reason)  # type: ignore[arg-type]  # None: an empty close frame
