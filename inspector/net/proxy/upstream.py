"""How the proxy talks to its upstreams: httpx's API, aiohttp's HTTP/1.1 client underneath.

Why (issue 32 item 4): reading a fast stream through httpx's own transport (httpcore + h11 +
anyio) cost ~65 µs of Python per HTTP chunk, half of the relay's CPU at 64 SSE events per chunk.
aiohttp parses with llhttp (C). The relay keeps httpx's request and response types and error
classes; only the transport under them changes (``AiohttpTransport``). ``httpx-aiohttp`` (the
transport the openai SDK offers) was measured first and not used as it is: it re-chunks bodies
into 16 KiB pieces, lets aiohttp add ``Accept``, ``Accept-Encoding`` and ``User-Agent`` the client
never sent, requotes the target (a SigV4 signature covers it) and maps a refused connection to a
connect *timeout*; each of these is something a relay must not do.

What the relay relies on, kept as httpx's transport had it:

- The body as the upstream sent it: never decompressed, one item per HTTP chunk (per socket read
  for a body that is not chunked), as h11 handed them over, so the recording keeps one record per
  upstream chunk (aiohttp's ``iter_chunks``).
- The request as given: its own header fields and nothing else (aiohttp's automatic fields
  skipped, no cookie jar), its target byte for byte, its body whole; no redirects followed.
- Errors as httpx's types with their cause chained (``live.describe_error`` words them):
  ``ConnectError`` (refused, DNS, TLS), ``ConnectTimeout``, ``ReadTimeout`` (no bytes for the read
  timeout: the head's wait too; a paused read does not count), ``RemoteProtocolError`` (the upstream
  closed early or sent no valid HTTP), ``ReadError`` (a reset), ``LocalProtocolError`` (a header
  field aiohttp refuses to write, such as one holding CR or LF).
- TLS verified as httpx does it (``httpx.create_ssl_context``: certifi, or ``SSL_CERT_FILE`` /
  ``SSL_CERT_DIR`` when the environment is trusted).
- A request with ``Expect`` (``100-continue``: curl sends it with a large body) goes through
  httpx's own transport, which sends the body at once as before: aiohttp would hold the body back
  until the upstream answers ``100 Continue``, and an upstream that never does would hang it (the
  proxy has the whole body already; its own client was answered ``100`` by uvicorn).

``upstream_client`` keeps httpx's own transport where this one would do less: an upstream an
environment proxy (``HTTP(S)_PROXY``, ``ALL_PROXY``, ``NO_PROXY``) may apply to is reached through
httpx's, which applies them as before. HTTP/2 was never used by the proxy (httpx's default).

Imports: ``aiohttp``, ``httpx``, ``yarl``. Nothing of the project.
"""
from __future__ import annotations

import asyncio
import ssl
import typing
from urllib.request import getproxies

import aiohttp
import httpx
import yarl
from aiohttp import http_exceptions

_SKIP_AUTO_HEADERS = ("Accept", "Accept-Encoding", "User-Agent", "Content-Type")
"""What aiohttp would add to a request that lacks it; a relay sends only the client's fields."""

MAX_FIELD_SIZE = 16 * 1024
"""The longest response head line or header field accepted (bytes); h11 allows a 16 KiB head,
aiohttp 8 190 bytes per field by default, so a head httpx read is not refused here."""


READ_BUFFER = 128 * 1024
"""aiohttp's read buffer per response (``read_bufsize``): it stops reading the socket once twice this
waits unread and starts again below it. At its default (64 KiB) a relay behind a fast stream paused
and resumed the socket at every batch (``pump.READ_AHEAD``)."""


def upstream_client(*, timeout: httpx.Timeout, limits: httpx.Limits, trust_env: bool) -> httpx.AsyncClient:
    """The client the proxy sends upstream requests with: aiohttp's transport, or httpx's own when
    ``trust_env`` and the environment names a proxy (which httpx applies per URL, ``NO_PROXY`` too).
    ``trust_env`` off: no environment proxy, no ``SSL_CERT_*`` (the loopback client)."""
    if trust_env and _environment_proxy():
        return httpx.AsyncClient(timeout=timeout, limits=limits, trust_env=True, follow_redirects=False)
    return httpx.AsyncClient(timeout=timeout, trust_env=trust_env, follow_redirects=False,
                             transport=AiohttpTransport(limits=limits, trust_env=trust_env))


def _environment_proxy() -> bool:
    """An HTTP proxy is named in the environment (the variables httpx reads: ``getproxies``)."""
    proxies = getproxies()
    return any(proxies.get(scheme) for scheme in ("http", "https", "all"))


class AiohttpTransport(httpx.AsyncBaseTransport):
    """An ``httpx.AsyncBaseTransport`` over one ``aiohttp.ClientSession`` (made on the first request,
    on the loop that sends it; every request must come from that loop). ``limits``: the connection
    cap (``max_connections``; None for none) and how long an idle connection is kept
    (``keepalive_expiry``, seconds). ``trust_env``: ``SSL_CERT_FILE``/``SSL_CERT_DIR`` apply."""

    def __init__(self, *, limits: httpx.Limits, trust_env: bool) -> None:
        self._trust_env = trust_env
        self._limits = limits
        self._session: aiohttp.ClientSession | None = None
        self._tls: ssl.SSLContext | None = None
        """Made on the first ``https`` request (``tls``)."""
        self._fallback: httpx.AsyncHTTPTransport | None = None
        """httpx's own transport, made on the first request aiohttp would send otherwise (``Expect``:
        module docstring)."""

    def tls(self) -> ssl.SSLContext:
        """The TLS context of every ``https`` request, made when first asked: loading the CA roots
        takes ~60 ms, which an ``http`` upstream (loopback, a local gateway) never needs."""
        if self._tls is None:
            self._tls = httpx.create_ssl_context(trust_env=self._trust_env)
        return self._tls

    def _httpx(self) -> httpx.AsyncHTTPTransport:
        if self._fallback is None:
            self._fallback = httpx.AsyncHTTPTransport(limits=self._limits, trust_env=self._trust_env)
        return self._fallback

    def _session_now(self) -> aiohttp.ClientSession:
        if self._session is None:
            # ssl: per request (``tls``); none is made for a plain-HTTP upstream.
            connector = aiohttp.TCPConnector(limit=self._limits.max_connections or 0,
                                             keepalive_timeout=self._limits.keepalive_expiry)
            self._session = aiohttp.ClientSession(
                connector=connector, auto_decompress=False, skip_auto_headers=_SKIP_AUTO_HEADERS,
                cookie_jar=aiohttp.DummyCookieJar(), trust_env=False, timeout=aiohttp.ClientTimeout(total=None),
                max_line_size=MAX_FIELD_SIZE, max_field_size=MAX_FIELD_SIZE, read_bufsize=READ_BUFFER)
        return self._session

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "expect" in request.headers:
            return await self._httpx().handle_async_request(request)
        timeouts = request.extensions.get("timeout", {})
        connect = timeouts.get("connect")
        timeout = aiohttp.ClientTimeout(total=None, connect=connect, sock_connect=connect,
                                        sock_read=timeouts.get("read"))
        # The target exactly as httpx encoded it (yarl would requote it otherwise).
        url = yarl.URL(str(request.url), encoded=True)
        headers = _fields(request.headers.raw)
        body = await request.aread()
        try:
            resp = await self._session_now().request(
                request.method, url, headers=headers, data=body or None, allow_redirects=False,
                timeout=timeout, ssl=self.tls() if url.scheme == "https" else True,
                server_hostname=request.extensions.get("sni_hostname"))
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            error = _httpx_error(e)
        except ValueError as e:  # a header field aiohttp will not write (CR, LF)
            error = httpx.LocalProtocolError(str(e))
        else:
            version = b"HTTP/%d.%d" % (resp.version.major, resp.version.minor) if resp.version else b"HTTP/1.1"
            stream = _Body(resp)
            return httpx.Response(resp.status, headers=list(resp.raw_headers), stream=stream, request=request,
                                  extensions={"http_version": version, BODY: stream,
                                              "reason_phrase": (resp.reason or "").encode("latin-1", "replace")})
        raise error  # outside the handler: the chain is the cause _httpx_error chose, not aiohttp's wrapper

    async def aclose(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            await session.close()
        fallback, self._fallback = self._fallback, None
        if fallback is not None:
            await fallback.aclose()


BODY = "stream_inspector.body"
"""The ``httpx.Response.extensions`` key of a body read through aiohttp (``body_reader``)."""


def body_reader(resp: httpx.Response) -> _Body | None:
    """``resp``'s body read straight from aiohttp (``_Body.next``: what ``aiter_raw`` gives, one item
    at a time, without httpx's three generator layers per item; ``_Body.buffered``), or None when
    httpx's own transport read it. Close the response as usual (``aclose``) when done."""
    body = resp.extensions.get(BODY)
    return body if isinstance(body, _Body) else None


def _fields(raw: list[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    """The request's header fields for aiohttp, in order, repeated names kept: a name spelled in
    another case than its first occurrence takes the first spelling (aiohttp 3.14 keeps only the
    last of ``X-A`` and ``x-a``: its merge of repeated names is case-sensitive)."""
    spelling: dict[str, str] = {}
    out = []
    for k, v in raw:
        name = k.decode("latin-1")
        out.append((spelling.setdefault(name.lower(), name), v.decode("latin-1")))
    return out


class _Body(httpx.AsyncByteStream):
    """A response body, item by item as aiohttp's parser delimits it (HTTP chunks); closing it before
    its end closes the connection (a body not read to its end is never reused).

    A guard on the connection: when it closes with the body neither ended nor failed, the body fails
    with what the connection saw. aiohttp 3.14's C parser drops the body's reader on a bad chunk
    mid-body (a bad chunk size, no CRLF after the data): it closes the connection and the reader
    would wait forever, with no read timeout left to end it."""

    def __init__(self, resp: aiohttp.ClientResponse) -> None:
        self._resp = resp
        self._taken = 0
        """Bytes ``next`` has returned (what aiohttp's ``total_bytes`` counts as fed, less what is buffered)."""
        conn = resp.connection
        self._protocol = conn.protocol if conn is not None else None
        self._closed = self._protocol.closed if self._protocol is not None else None
        if self._closed is not None:
            self._closed.add_done_callback(self._connection_closed)

    def _connection_closed(self, _: object) -> None:
        content = self._resp.content
        if not content.is_eof() and content.exception() is None and self._protocol is not None:
            lost = self._protocol.exception()
            content.set_exception(aiohttp.ClientPayloadError("connection closed mid-body"),
                                  lost if lost is not None else ConnectionError("connection closed"))

    def _unguard(self) -> None:
        if self._closed is not None:
            self._closed.remove_done_callback(self._connection_closed)
            self._closed = None

    async def __aiter__(self) -> typing.AsyncIterator[bytes]:
        while data := await self.next():
            yield data

    def buffered(self) -> bool:
        """Some of the body is in aiohttp's buffer already, parsed: ``next`` returns without waiting
        (``auto_decompress`` is off, so aiohttp counts the bytes it buffers in ``total_bytes``)."""
        return self._resp.content.total_bytes > self._taken

    async def next(self) -> bytes:
        """The next item of the body (an HTTP chunk, or a socket read's worth when not chunked), ``b""``
        at its end. Raises ``httpx.TransportError`` (module docstring)."""
        error: httpx.TransportError
        try:
            readchunk = self._resp.content.readchunk
            while True:
                data, end_of_chunk = await readchunk()
                if data:
                    self._taken += len(data)
                    return data
                if not end_of_chunk:  # (b"", False): the end of the body (aiohttp's ``iter_chunks``)
                    break
        except aiohttp.ClientPayloadError as e:
            error = _cut_short(e, self._protocol)
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            error = _httpx_error(e)
        else:
            self._unguard()
            return b""
        self._unguard()
        raise error

    async def aclose(self) -> None:
        self._unguard()
        self._resp.close()  # closes the connection only if the body did not reach its end


def _httpx_error(exc: BaseException) -> httpx.TransportError:
    """The httpx error httpx's own transport raises for what ``exc`` (aiohttp's) says happened,
    chained to the OS or TLS error under it (``describe_error`` words it from there)."""
    under = exc.__cause__ if isinstance(exc.__cause__, OSError) else None
    if under is None and isinstance(exc, aiohttp.ClientOSError) and exc.errno:
        under = OSError(exc.errno, exc.strerror)  # OSError picks the subclass: ConnectionResetError...
    error: httpx.TransportError
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        error = httpx.ConnectTimeout(str(exc))
    elif isinstance(exc, (aiohttp.ServerTimeoutError, asyncio.TimeoutError)):
        error = httpx.ReadTimeout(str(exc) or "timed out")
    elif isinstance(exc, aiohttp.ClientConnectorError):  # refused, DNS, TLS: no connection made
        error = httpx.ConnectError(str(exc))
    elif isinstance(exc, aiohttp.ServerDisconnectedError):
        error = httpx.RemoteProtocolError("Server disconnected without sending a response.")
    elif isinstance(exc, (aiohttp.ClientResponseError, http_exceptions.HttpProcessingError)):
        error = httpx.RemoteProtocolError(_parser_message(exc.message))  # not HTTP
    elif isinstance(exc, aiohttp.ClientConnectionError):
        error = httpx.ReadError(str(under or exc))
    else:
        error = httpx.TransportError(str(exc) or type(exc).__name__)
    error.__cause__ = under or exc
    return error


def _parser_message(message: str) -> str:
    """llhttp's multi-line message (reason, the bytes, a caret under them) on one line."""
    lines = (line.strip() for line in message.splitlines())
    return " ".join(line for line in lines if line and line != "^")


def _cut_short(exc: aiohttp.ClientPayloadError, protocol) -> httpx.TransportError:
    """A body that ended before its framing said: a reset (``ReadError`` on the OS error), a bad
    chunk (``RemoteProtocolError`` with the parser's reason), or the upstream closing early
    (``RemoteProtocolError``, worded as h11 words it)."""
    lost = protocol.exception() if protocol is not None else None
    if isinstance(lost, (aiohttp.ClientOSError, http_exceptions.HttpProcessingError)):
        return _httpx_error(lost)
    cause = exc.__cause__
    message = "peer closed connection without sending complete message body"
    if isinstance(cause, http_exceptions.TransferEncodingError):
        message += " (incomplete chunked read)"
    else:
        message += ": " + (cause.message if isinstance(cause, http_exceptions.HttpProcessingError) else str(exc))
    error = httpx.RemoteProtocolError(message)
    error.__cause__ = exc
    return error
