"""The ASGI endpoint that relays each exchange to the upstream, byte for byte, as it arrives.

Per request (Starlette + uvicorn, like ``serve``) :class:`ProxyEndpoint` reads the body, forwards
method, path, query, headers (``headers.forward_request_headers``) and body with httpx (over aiohttp:
``upstream``), then
sends the response head and the raw body (``Response.aiter_raw``: de-chunked, not decoded) to
the client the moment it arrives: what arrived together (``pump.Pump``: the chunks the parser had from
one socket read) goes in one write, a chunk that arrives alone goes alone, at once. The chunks
are first teed (``tap.Tee``: appended to the ``--record`` capture, one record per upstream chunk,
in one unbuffered write, so a kill never loses a chunk the client already has; their decoded
copies queued for inspection, chunk by chunk, which runs elsewhere and delays nothing); the
client's bytes are never decoded or changed. Times are seconds since the request was sent
upstream (``time.monotonic``), one per upstream chunk, taken as it comes out of the parser (chunks
the parser already held share one: ``pump``).

Limits (``inspector.net.limits``): a response body longer than ``--max-bytes`` or than
``--max-duration`` is cut there, the client's body ends short (no terminating chunk) and the
exchange ends ``cancelled`` with an error saying which limit (S012). A coded body counts its
decoded bytes too, and one that decodes to far more than it weighs (a decompression bomb,
``decode.MAX_RATIO``) is cut the same way.

A SigV4-signed request (boto3 pointed at the proxy with ``endpoint_url``) is signed again for the
upstream with the proxy's own AWS credentials (``inspector.net.sigv4``): the client's signature
covers the proxy's host, which AWS would reject.

Upstream faults reach the client as they happened: no connection (refused, DNS, TLS, connect
timeout) is a ``502`` (``504`` for a timeout) with a JSON error body saying why; a reset or a
read timeout mid-body aborts the client's connection the same way (the chunked body is never
terminated); a 4xx/5xx is passed through. Each is a finding on the exchange (S007 for the status,
S012 for the transport). A client that goes away ends the upstream request too (its connection
is closed; S012 ``cancelled``, one log line).

Imports: ``exchange``, ``headers``, ``pump``, ``routes``, ``sink``, ``tap``, ``upstream``, ``inspector.capture``,
``inspector.net.servers``, ``inspector.net.sigv4``; ``inspector.net.live`` lazily. Never the log, reports or the TUI.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sys
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import httpx
import orjson

from inspector.model.jsondepth import loads as json_loads
from inspector.model.capture import End
from inspector.capture.recorder import redact_request, redact_response
from inspector.capture.redact import redact_url, remember_headers, remember_query_secrets
from inspector.feeds.exchanges.record import Exchange
from inspector.net.proxy.headers import forward_request_headers, forward_response_headers, headers_dict
from inspector.net.proxy.routes import Routes
from inspector.net.proxy.sink import BACKLOG_LIMIT, LoopSink
from inspector.net.limits import StreamLimits
from inspector.net.proxy.pump import Pump
from inspector.net.proxy.upstream import upstream_client
from inspector.net.proxy.tap import Tee, first_free_number, open_recording, record_no_response, safe_name
from inspector.net.servers import is_loopback
from inspector.net import sigv4
from inspector.net.live import describe_error
from starlette.applications import Starlette
from starlette.routing import Route, WebSocketRoute


_UNSET = object()

IDLE_AFTER_S = 0.0005
"""How long the relay waits for its upstream before inspection put off for it runs (``sink.BUSY_GAP_S``)."""


def _error_body(kind: str, message: str) -> bytes:
    """A JSON error both SDK families read (``error.message``; Anthropic's ``type: error`` shape)."""
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": f"stream-inspector proxy: {message}"}})


class ProxyEndpoint:
    """The ASGI app: forwards each request to its upstream and tees the response into ``sink``.

    ``upstream``: one URL for every path, or ``Routes`` (one upstream per path prefix; a request
    no route matches is answered 404 and not forwarded). Raises ``ValueError`` for an upstream
    that is not an http(s) URL with a host.
    """

    def __init__(self, upstream: str | Routes, sink: LoopSink, *, timeout: float = 600.0,
                 record_dir: str | os.PathLike | None = None, first_number: int | None = None,
                 log: Callable[[str], None] | None = None, limits: StreamLimits | None = None) -> None:
        self.routes = upstream if isinstance(upstream, Routes) else Routes.single(upstream)
        self.upstream = self.routes.describe()
        """Where requests go, for people (one URL, or ``/prefix → URL`` per route; secrets redacted)."""
        self.sink = sink
        self.timeout = timeout
        self.limits = limits or StreamLimits()
        """``--max-bytes`` and ``--max-duration`` per response body."""
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self._numbers = itertools.count(first_number or first_free_number(record_dir))
        self.log = log
        """Called with one line per request that got no response from upstream or had no route
        (``METHOD /path -> status (error)``); how a relayed body ended is ``reports.EndLines``'."""
        self._clients: dict[bool, httpx.AsyncClient] = {}
        self.requests = 0
        """Requests received so far."""
        self.on_recorded: Callable[[str, End], None] | None = None
        """Called with a recording's path and how its stream ended, once the file is complete
        (``serve --record-missing`` adds it to what it serves)."""
        self._aws_creds: object = _UNSET
        """The proxy's own AWS credentials for re-signing SigV4 requests (looked up on the first one)."""

    def _client_for(self, url: str) -> httpx.AsyncClient:
        # trust_env off for a loopback upstream (an environment proxy must not intercept it).
        trust_env = not is_loopback(urlsplit(url).hostname or "")
        client = self._clients.get(trust_env)
        if client is None:
            # No default headers: the request goes out with the client's headers only.
            client = self._clients[trust_env] = upstream_client(
                timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, 30.0)),
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=32), trust_env=trust_env)
        return client

    def next_number(self) -> int:
        """The next exchange number (HTTP exchanges and WebSocket responses share the numbering)."""
        return next(self._numbers)

    async def aclose(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.aclose()

    def upstream_url(self, raw_path: bytes, query: bytes) -> str | None:
        """The URL a request for ``raw_path`` and ``query`` goes to; None when no route matches."""
        path = raw_path.decode("latin-1") or "/"
        route = self.routes.match(path)
        return None if route is None else route.url_for(path, query.decode("latin-1"))

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
        if url is None:
            await self._no_route(method, path, send)
            return
        forwarded = forward_request_headers(list(scope.get("headers", [])))
        remember_headers(forwarded)  # the credentials forwarded never reach a recording, a report or the screen
        remember_query_secrets(url)
        headers = self._aws_resigned(method, url, forwarded, body)
        if headers is not forwarded:
            remember_headers(headers)
        n = next(self._numbers)
        parsed = None
        if body:
            try:
                parsed = json_loads(body)
            except orjson.JSONDecodeError:
                parsed = None
        stored_body = parsed if parsed is not None else (body.decode("utf-8", "replace") if body else None)
        request = redact_request({"method": method, "url": url, "headers": headers_dict(headers),
                                  "body": stored_body})
        target = redact_url(path + ("?" + query.decode("latin-1") if query else ""))
        record_path = None
        if self.record_dir is not None:
            record_path = str(self.record_dir / f"{n:03d}-{safe_name(method, path)}.jsonl")
        t0 = time.monotonic()
        ex = Exchange(n=n, method=method, path=path, target=target, url=redact_url(url), request=request,
                      body=parsed, started_wall=time.time(), t0=t0, record_path=record_path, request_bytes=len(body))
        self.sink.begin(ex)

        def now() -> float:
            return round(time.monotonic() - t0, 6)

        client = self._client_for(url)
        req = httpx.Request(method, url, headers=headers, content=body)
        try:
            resp = await client.send(req, stream=True)
        except asyncio.CancelledError:
            self._fail(n, record_path, request, End(now(), "cancelled", "proxy stopped before the response"))
            raise
        except (httpx.HTTPError, OSError) as e:
            timeout = isinstance(e, httpx.TimeoutException)
            error = describe_error(e, url)
            if isinstance(e, httpx.ReadTimeout):
                error = f"no response head within {self.timeout:g} s (--timeout)"
            end = End(now(), "timeout" if timeout else "reset", error)
            self._fail(n, record_path, request, end)
            status = 504 if timeout else 502
            payload = _error_body("upstream_timeout" if timeout else "upstream_unreachable",
                                  f"{error} (upstream {redact_url(url)})")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(payload)).encode()),
                                    (b"x-stream-inspector", b"upstream-error")]})
            await send({"type": "http.response.body", "body": payload, "more_body": False})
            self._log(method, path, f"{status} ({error})")
            return
        await self._relay(n, resp, record_path, request, receive, send, now, url)

    def _aws_resigned(self, method: str, url: str, headers: list, body: bytes) -> list:
        """A SigV4-signed request (Bedrock through boto3) signed again for the upstream: the client signed
        for the proxy's host, which AWS rejects. Without AWS credentials here it goes on as it came,
        with one warning on stderr. Any other request is returned untouched."""
        auth = next((v.decode("latin-1") for k, v in headers if k.lower() == b"authorization"), "")
        scope = sigv4.scope_of(auth)
        if scope is None:
            return headers
        why = "no AWS credentials in the proxy's environment"
        if self._aws_creds is _UNSET:
            try:
                self._aws_creds = sigv4.credentials()
            except sigv4.SigningError as e:
                self._aws_creds, why = None, str(e)
            if self._aws_creds is None:
                print(f"stream-inspector: proxy: SigV4 requests are forwarded with the client's signature, made for "
                      f"the proxy's host; AWS will reject them ({why}): give the proxy AWS credentials to re-sign",
                      file=sys.stderr)
        if self._aws_creds is None:
            return headers
        return sigv4.resign(method, url, headers, body, region=scope[0], service=scope[1], creds=self._aws_creds)

    async def _no_route(self, method: str, path: str, send) -> None:
        """A path no route covers: 404 with the routes there are (nothing forwarded, no exchange)."""
        payload = _error_body("not_found_error", f"no route for {path}: requests go to {self.upstream}")
        await send({"type": "http.response.start", "status": 404,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()),
                                (b"x-stream-inspector", b"no-route")]})
        await send({"type": "http.response.body", "body": payload, "more_body": False})
        self._log(method, path, "404 (no route)")

    def _fail(self, n: int, record_path, request: dict, end: End) -> None:
        """No response: the recording (``response: null``) and the exchange say why."""
        record_no_response(record_path, request, end)
        self.sink.finish(n, end)

    async def _relay(self, n, resp: httpx.Response, record_path, request, receive, send, now, url) -> None:
        """Send the response head, then the body as it arrives (``_forward``), until it ends, a limit
        cuts it, the client leaves or the proxy stops; the exchange and its recording end saying which."""
        tee = await self._send_head(n, resp, record_path, request, send)
        state = _RelayState(asyncio.current_task())
        watcher = asyncio.create_task(_watch_client(receive, state))
        timer = self._duration_timer(now, state)
        pump = Pump(resp, now, timeout=self.timeout, url=url)
        try:
            await self._forward(pump, tee, send, state)
            watcher.cancel()
            if state.end is not None and state.end.kind == "eof":
                tee.complete(state.end.t)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            # Otherwise return without completing: uvicorn closes the connection and the client
            # sees its body cut short, as the proxy did.
        except asyncio.CancelledError:
            state.end = End(now(), "cancelled", state.cut or "proxy stopped")
            if state.cut is None:
                raise
            if state.task is not None:
                state.task.uncancel()  # we cancelled ourselves (client gone, time limit); the task goes on normally
        finally:
            watcher.cancel()
            for alarm in (timer, state.timer):
                if alarm is not None:
                    alarm.cancel()
            try:
                await pump.aclose()
            finally:  # cancelled again while waiting here (the loop shutting down): the end is still written
                await self._close(tee, state.end or End(now(), "cancelled", "proxy stopped"), record_path, resp)

    async def _send_head(self, n: int, resp: httpx.Response, record_path, request, send) -> Tee:
        """Send the client the response head and start the exchange's ``Tee`` (its recording opened)."""
        status = resp.status_code
        raw_headers = list(resp.headers.raw)
        response = redact_response({"status": status, "headers": headers_dict(raw_headers)})
        await send({"type": "http.response.start", "status": status, "headers": forward_response_headers(raw_headers)})
        tee = Tee(n, self.sink, resp.headers.get("content-encoding", ""),
                  open_recording(record_path, request, response), max_bytes=self.limits.max_bytes)
        self.sink.head(n, status, response["headers"])
        return tee

    def _duration_timer(self, now, state: _RelayState) -> asyncio.TimerHandle | None:
        """The ``--max-duration`` alarm (None without the limit): it stops the relay when it rings."""
        limits = self.limits
        if limits.max_duration is None:
            return None
        loop = asyncio.get_running_loop()
        return loop.call_at(loop.time() + max(0.0, limits.max_duration - now()), state.stop, limits.duration_reached())

    async def _forward(self, pump: Pump, tee: Tee, send, state: _RelayState) -> None:
        """Relay the body batch by batch (what arrived together: one write) until it ends or a limit
        cuts it; ``state.end`` says how, as soon as it is known."""
        sink = self.sink
        loop = asyncio.get_running_loop()
        received = 0
        while True:
            if sink.deferred and not pump.ready:
                # Inspection put off for this relay runs if the upstream keeps it waiting (the loop idle).
                idle = loop.call_later(IDLE_AFTER_S, sink.forwarding_idle)
                batch = await pump.batch()
                idle.cancel()
            else:
                batch = await pump.batch()
            if not batch:
                state.end = pump.end
                return
            batch, received, state.end = self._within_max_bytes(batch, received)
            # Recorded (one unbuffered write) before the client has it: a kill never loses a
            # chunk the client got. Inspection is only queued, after the send: it delays nothing.
            copies, limit = tee.record_all(batch)
            if limit is not None:  # a decompression bomb, or decoded past --max-bytes
                state.end = End(batch[len(copies)][0], "cancelled", f"cut: {limit}")
            if copies:
                # One write for what arrived together (what the parser had from one socket read).
                await send({"type": "http.response.body", "body": joined(batch, len(copies)), "more_body": True})
                tee.inspect_all(copies)
            if state.end is not None:
                return
            if sink.posted_bytes - sink.inspected_bytes > BACKLOG_LIMIT:
                await sink.wait_for_room()

    async def _close(self, tee: Tee, end: End, record_path, resp: httpx.Response) -> None:
        """End the exchange and its recording with ``end``, then close the upstream response."""
        tee.close(end)
        if record_path is not None and self.on_recorded is not None:
            self.on_recorded(record_path, end)
        try:
            await resp.aclose()  # closes the upstream connection when the body was not read to its end
        except Exception:  # noqa: BLE001 (closing a broken connection may fail again)
            pass

    def _within_max_bytes(self, batch: list[tuple[float, bytes]],
                          received: int) -> tuple[list[tuple[float, bytes]], int, End | None]:
        """The chunks of ``batch`` that keep the body within ``--max-bytes`` (``received``: bytes
        relayed before it), the new count, and the ``End`` when a chunk would pass the limit: that
        chunk and the rest are neither forwarded nor recorded."""
        max_bytes = self.limits.max_bytes
        if max_bytes is None:
            return batch, received + sum(len(data) for _, data in batch), None
        for i, (t, data) in enumerate(batch):
            if received + len(data) > max_bytes:
                return batch[:i], received, End(t, "cancelled", self.limits.bytes_reached(received))
            received += len(data)
        return batch, received, None

    def _log(self, method: str, path: str, what: str) -> None:
        if self.log is not None:
            self.log(f"{method} {path} -> {what}")


CLIENT_GONE_GRACE_S = 0.25
"""How long the relay goes on reading the upstream after its client left. A client may close as
soon as it has read the stream's last event: the openai SDK closes the response after ``data:
[DONE]``, before the body's closing chunk (``openai/_streaming.py``), so the proxy often hears the
client leave just before the upstream's own end. Within the grace that end still comes and the
exchange and its recording end as the upstream ended them (``serve --match`` then replays a whole
answer, not a cut one); a client that left mid-stream is cut off as before, this much later."""


class _RelayState:
    """One relay so far: how its body ended (``end``, once known) and why it is being stopped from
    outside the read loop (``cut``: client gone, ``--max-duration``); ``stop`` cancels ``task`` once."""

    def __init__(self, task: asyncio.Task | None) -> None:
        self.task = task
        self.end: End | None = None
        self.cut: str | None = None
        self.timer: asyncio.TimerHandle | None = None

    def client_gone(self) -> None:
        """The client disconnected: stop after ``CLIENT_GONE_GRACE_S`` unless the upstream ends first."""
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(CLIENT_GONE_GRACE_S, self.stop, "client disconnected")

    def stop(self, why: str) -> None:
        if self.cut is None:
            self.cut = why
            if self.task is not None:
                self.task.cancel()


async def _watch_client(receive, state: _RelayState) -> None:
    """Stop the relay when the client disconnects (the ASGI ``receive`` says so), after the grace."""
    while True:
        if (await receive())["type"] == "http.disconnect":
            state.client_gone()
            return


def joined(batch: list[tuple[float, bytes]], n: int) -> bytes:
    """The bytes of the first ``n`` chunks of ``batch``, as the upstream sent them, in one piece."""
    return batch[0][1] if n == 1 else b"".join(data for _, data in batch[:n])


def _closing(endpoint: ProxyEndpoint):
    """The app's lifespan: the endpoint's upstream clients closed when the server stops (their pooled
    connections; aiohttp warns on stderr about a session left open)."""
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await endpoint.aclose()
    return lifespan


def make_asgi_app(endpoint: ProxyEndpoint, websocket=None):
    """The Starlette app: one catch-all route (every method, every path) handled by ``endpoint``;
    WebSocket upgrades on any path by ``websocket`` (an ASGI app: ``wsrelay.WebSocketRelay``), if given.
    Run with the ASGI lifespan (``servers.uvicorn_server(lifespan=True)``), stopping it closes the
    endpoint's upstream clients."""
    routes: list = [Route("/{path:path}", endpoint=endpoint)]
    if websocket is not None:
        routes.append(WebSocketRoute("/{path:path}", endpoint=websocket))
    app = Starlette(routes=routes, lifespan=_closing(endpoint))
    app.state.endpoint = endpoint
    return app
