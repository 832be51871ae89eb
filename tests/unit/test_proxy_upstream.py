"""``upstream``: the proxy's HTTP client, httpx's API over aiohttp (issue 32 item 4).

What the relay relies on and a stock aiohttp transport (``httpx-aiohttp``) does not give: one body
item per HTTP chunk, no decompression, nothing added to the request and its target not requoted,
errors as httpx's types worded as before (refused is a connect error, not a timeout), a bad chunk
mid-body failing the body instead of hanging it, keep-alive reuse only after a whole body, a
paused read never timing out, environment proxies and ``SSL_CERT_FILE`` honoured when trusted.
Each upstream here is an asyncio server on 127.0.0.1 scripted per test.
"""
from __future__ import annotations

import asyncio
import gzip
import socket
import ssl
import struct

import aiohttp
import httpx
import pytest
import trustme

from inspector.net.live import describe_error
from inspector.net.proxy.pump import Pump
from inspector.net.proxy.upstream import AiohttpTransport, _httpx_error, body_reader, upstream_client

LIMITS = httpx.Limits(max_connections=None, max_keepalive_connections=32)
HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


def chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


class Upstream:
    """An HTTP/1.1 server on 127.0.0.1: ``behave(reader, writer, request)`` answers each request
    (``request``: the raw head and body); ``requests`` and ``connections`` count what came."""

    def __init__(self, behave) -> None:
        self.behave = behave
        self.requests: list[bytes] = []
        self.connections = 0
        self.server: asyncio.base_events.Server | None = None

    async def __aenter__(self) -> "Upstream":
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    async def __aexit__(self, *exc) -> None:
        assert self.server is not None
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                if await self.behave(reader, writer, request) is not True:  # True: keep the connection
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def answer(*pieces: bytes, keep: bool = False):
    """A behaviour: the chunked head, then ``pieces`` as HTTP chunks in one write, then the end."""
    async def behave(reader, writer, request):
        writer.write(HEAD + b"".join(chunk(p) for p in pieces) + b"0\r\n\r\n")
        await writer.drain()
        return keep
    return behave


async def fetch(client_or_transport, url: str, *, method: str = "POST", content: bytes = b"{}",
                headers: list | None = None, read_timeout: float = 5.0) -> tuple[httpx.Response, list[bytes]]:
    """Send one request through ``client_or_transport``; the response and its raw body items."""
    if isinstance(client_or_transport, httpx.AsyncClient):
        client = client_or_transport
    else:
        client = httpx.AsyncClient(transport=client_or_transport, timeout=httpx.Timeout(read_timeout, connect=5.0))
    req = httpx.Request(method, url, headers=headers or [], content=content)
    resp = await client.send(req, stream=True)
    items = []
    try:
        async for data in resp.aiter_raw():
            items.append(data)
    finally:
        await resp.aclose()
    return resp, items


@pytest.fixture
async def transport():
    t = AiohttpTransport(limits=LIMITS, trust_env=False)
    yield t
    await t.aclose()


# ------------------------------------------------------------------ the bytes
async def test_each_http_chunk_is_one_item_even_when_many_arrive_in_one_write(transport):
    pieces = [b"data: %d\n\n" % i for i in range(300)] + [b"x" * 40_000]
    async with Upstream(answer(*pieces)) as up:
        resp, items = await fetch(transport, up.url + "/v1/messages")
    assert resp.status_code == 200
    assert items == pieces  # httpx-aiohttp gives 16 KiB pieces here: the recording's records would change


async def test_the_body_read_straight_from_aiohttp_is_what_aiter_raw_gives(transport):
    """``body_reader`` (the relay's ``Pump`` reads through it: no httpx generator layers per chunk):
    the same items, ``b""`` at the end and after it; a response httpx's own transport read has none."""
    pieces = [b"data: %d\n\n" % i for i in range(300)] + [b"x" * 40_000]
    async with Upstream(answer(*pieces, keep=True)) as up:
        client = httpx.AsyncClient(transport=transport)
        resp = await client.send(httpx.Request("POST", up.url + "/v1/messages", content=b"{}"), stream=True)
        body = body_reader(resp)
        assert body is not None
        items = []
        while data := await body.next():
            items.append(data)
        assert await body.next() == b"" and not body.buffered()
        await resp.aclose()
        assert items == pieces
        clock = iter(range(1000))
        resp = await client.send(httpx.Request("POST", up.url + "/v1/messages", content=b"{}"), stream=True)
        pump = Pump(resp, lambda: float(next(clock)), timeout=5.0, url=up.url)
        batches = []
        while batch := await pump.batch():
            batches.append(batch)
        await resp.aclose()
        assert [data for batch in batches for _, data in batch] == pieces
        assert pump.end is not None and pump.end.kind == "eof" and up.connections == 1  # reused: read to its end
        resp = await client.send(httpx.Request("POST", up.url, headers=[("Expect", "100-continue")], content=b"{}"),
                                 stream=True)
        assert body_reader(resp) is None  # httpx's own transport: the pump reads ``aiter_raw``
        await resp.aread()
        await resp.aclose()


async def test_buffered_means_the_next_item_comes_without_waiting_and_the_pump_stamps_it_so(transport):
    """``_Body.buffered`` (the pump gives what it says is buffered the time of the item taken before
    it): True only when ``next`` returns without suspending; what came in one write shares one time
    in the pump, what came later gets a later one."""
    later = asyncio.Event()

    async def behave(reader, writer, request):
        writer.write(HEAD + b"".join(chunk(b"a%d" % i) for i in range(50)))
        await writer.drain()
        await later.wait()
        writer.write(chunk(b"late") + b"0\r\n\r\n")
        await writer.drain()

    async with Upstream(behave) as up:
        client = httpx.AsyncClient(transport=transport)
        resp = await client.send(httpx.Request("POST", up.url, content=b"{}"), stream=True)
        body = body_reader(resp)
        assert body is not None
        items, was_buffered = [], []
        while len(items) < 50:
            was_buffered.append(body.buffered())
            step = body.next()
            if was_buffered[-1]:
                with pytest.raises(StopIteration) as done:
                    step.send(None)  # no suspension: the item is there
                items.append(done.value.value)
            else:
                items.append(await step)
        assert items == [b"a%d" % i for i in range(50)] and any(was_buffered) and not body.buffered()
        await resp.aclose()
        clock = iter(range(1000))
        resp = await client.send(httpx.Request("POST", up.url, content=b"{}"), stream=True)
        pump = Pump(resp, lambda: float(next(clock)), timeout=5.0, url=up.url)
        first = await pump.batch()
        while len(first) < 50:
            first += await pump.batch()
        later.set()
        rest = await pump.batch()
        await resp.aclose()
        await pump.aclose()
    assert [data for _, data in first] == [b"a%d" % i for i in range(50)] and [data for _, data in rest] == [b"late"]
    assert len({t for t, _ in first}) < 50 and rest[0][0] > first[-1][0]


async def test_a_compressed_body_comes_through_as_sent(transport):
    coded = gzip.compress(b"data: {}\n\n" * 100)

    async def behave(reader, writer, request):
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: %d\r\n\r\n%s" % (len(coded), coded))
        await writer.drain()

    async with Upstream(behave) as up:
        resp, items = await fetch(transport, up.url + "/v1/messages")
    assert b"".join(items) == coded and resp.headers["content-encoding"] == "gzip"


async def test_the_request_goes_out_as_given_nothing_added_and_the_target_not_requoted(transport):
    async with Upstream(answer(b"ok")) as up:
        await fetch(transport, up.url + "/model/anthropic.claude-v2%3A1/invoke?x=%41%2Fb",
                    headers=[("X-Dup", "1"), ("x-dup", "2"), ("Cookie", "a=1")], content=b'{"a":1}')
    head, _, body = up.requests[0].partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    # The target byte for byte (a SigV4 signature covers it; yarl would have decoded %41 and %3A).
    assert lines[0] == b"POST /model/anthropic.claude-v2%3A1/invoke?x=%41%2Fb HTTP/1.1"
    names = [line.partition(b":")[0].lower() for line in lines[1:]]
    # The caller's fields, repeated ones kept apart, plus host and length: no Accept, Accept-Encoding,
    # User-Agent or Content-Type of aiohttp's own.
    assert sorted(names) == [b"content-length", b"cookie", b"host", b"x-dup", b"x-dup"]
    assert b"X-Dup: 1" in lines and b"X-Dup: 2" in lines  # the second in the first one's spelling
    assert body == b'{"a":1}'


async def test_a_request_expecting_100_continue_sends_its_body_at_once(transport):
    """As httpx did: an upstream that never answers ``100 Continue`` still gets the body (aiohttp waits)."""
    async with Upstream(answer(b"ok")) as up:
        _, items = await asyncio.wait_for(
            fetch(transport, up.url, headers=[("Expect", "100-continue")], content=b'{"a":1}'), 3)
    assert items == [b"ok"]
    assert up.requests[0].endswith(b"\r\n\r\n" + b'{"a":1}') and b"Expect: 100-continue" in up.requests[0]


async def test_a_long_header_field_is_accepted(transport):
    async def behave(reader, writer, request):
        writer.write(HEAD.replace(b"\r\n\r\n", b"\r\nx-long: " + b"a" * 12_000 + b"\r\n\r\n") + chunk(b"ok") + b"0\r\n\r\n")
        await writer.drain()

    async with Upstream(behave) as up:
        resp, items = await fetch(transport, up.url)
    assert len(resp.headers["x-long"]) == 12_000 and items == [b"ok"]


# ------------------------------------------------------------------ connections
async def test_a_whole_body_frees_its_connection_for_the_next_request(transport):
    async with Upstream(answer(b"one", keep=True)) as up:
        for _ in range(3):
            _, items = await fetch(transport, up.url)
            assert items == [b"one"]
    assert up.connections == 1 and len(up.requests) == 3


async def test_a_body_left_unread_closes_its_connection(transport):
    async def behave(reader, writer, request):
        writer.write(HEAD + chunk(b"first"))
        await writer.drain()
        await reader.read()  # until the proxy closes the connection
        return False

    async with Upstream(behave) as up:
        client = httpx.AsyncClient(transport=transport)
        resp = await client.send(httpx.Request("GET", up.url), stream=True)
        first = await resp.aiter_raw().__anext__()
        await resp.aclose()
        await asyncio.sleep(0.05)
        assert first == b"first"
        # A second request needs a connection of its own: the first was not reused mid-body.
        up.behave = answer(b"second")
        _, items = await fetch(transport, up.url)
    assert items == [b"second"] and up.connections == 2


async def test_a_paused_read_does_not_time_out(transport):
    """The relay stops reading while its client is slow (``pump.READ_AHEAD``): the upstream's read
    timeout measures the upstream, not the pause."""
    big = [b"x" * 65_536 for _ in range(16)]  # 1 MiB, written at once: aiohttp pauses the socket
    async with Upstream(answer(*big)) as up:
        client = httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(0.3, connect=5.0))
        resp = await client.send(httpx.Request("GET", up.url), stream=True)
        got = []
        async for data in resp.aiter_raw():
            got.append(data)
            if len(got) in (1, 8):
                await asyncio.sleep(0.6)  # longer than the read timeout
        await resp.aclose()
    assert b"".join(got) == b"".join(big)


# ------------------------------------------------------------------ faults, as httpx's errors
async def test_a_refused_connection_is_a_connect_error_worded_as_before(transport):
    holder = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = holder.sockets[0].getsockname()[1]
    holder.close()
    await holder.wait_closed()
    url = f"http://127.0.0.1:{port}/v1/messages"
    with pytest.raises(httpx.ConnectError) as info:  # httpx-aiohttp: ConnectTimeout, so a 504
        await fetch(transport, url)
    assert not isinstance(info.value, httpx.TimeoutException)
    assert describe_error(info.value, url) == f"connection refused by 127.0.0.1:{port}"


async def test_no_response_head_within_the_read_timeout_is_a_read_timeout(transport):
    async def behave(reader, writer, request):
        await reader.read()  # nothing, until the client gives up

    async with Upstream(behave) as up:
        with pytest.raises(httpx.ReadTimeout):
            await fetch(transport, up.url, read_timeout=0.2)


async def test_no_bytes_mid_body_within_the_read_timeout_is_a_read_timeout(transport):
    async def behave(reader, writer, request):
        writer.write(HEAD + chunk(b"first"))
        await writer.drain()
        await reader.read()  # nothing more, until the client gives up

    async with Upstream(behave) as up:
        client = httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(0.2, connect=5.0))
        resp = await client.send(httpx.Request("GET", up.url), stream=True)
        got = []
        with pytest.raises(httpx.ReadTimeout):
            async for data in resp.aiter_raw():
                got.append(data)
        await resp.aclose()
    assert got == [b"first"]


async def test_a_reset_mid_body_is_a_read_error_worded_as_a_reset(transport):
    async def behave(reader, writer, request):
        writer.write(HEAD + chunk(b"first"))
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()  # with no linger: a TCP RST

    async with Upstream(behave) as up:
        with pytest.raises(httpx.ReadError) as info:
            await fetch(transport, up.url)
    assert describe_error(info.value, up.url) == f"connection reset by 127.0.0.1:{up.port}"


async def test_a_body_cut_short_is_a_protocol_error_worded_as_h11_words_it(transport):
    async def behave(reader, writer, request):
        writer.write(HEAD + chunk(b"first"))
        await writer.drain()

    async with Upstream(behave) as up:
        with pytest.raises(httpx.RemoteProtocolError) as info:
            await fetch(transport, up.url)
    assert str(info.value) == "peer closed connection without sending complete message body (incomplete chunked read)"


async def test_a_connection_closed_before_the_head_is_a_protocol_error(transport):
    async def behave(reader, writer, request):
        return False

    async with Upstream(behave) as up:
        with pytest.raises(httpx.RemoteProtocolError, match="Server disconnected without sending a response"):
            await fetch(transport, up.url)


async def test_a_bad_chunk_mid_body_fails_the_body_instead_of_hanging_it(transport):
    """aiohttp's C parser drops the body's reader on a bad chunk; the guard fails it with the parser's reason."""
    async def behave(reader, writer, request):
        writer.write(HEAD + chunk(b"first"))
        await writer.drain()
        await asyncio.sleep(0.1)
        writer.write(b"zz\r\nhello\r\n")
        await writer.drain()
        await reader.read()  # the client closes on the bad chunk

    async with Upstream(behave) as up:
        with pytest.raises(httpx.RemoteProtocolError, match="Invalid character in chunk size"):
            await asyncio.wait_for(fetch(transport, up.url), 1.5)


async def test_not_http_is_a_protocol_error_on_one_line(transport):
    async def behave(reader, writer, request):
        writer.write(b"HELLO THERE\r\n\r\n")
        await writer.drain()

    async with Upstream(behave) as up:
        with pytest.raises(httpx.RemoteProtocolError) as info:
            await fetch(transport, up.url)
    assert "\n" not in str(info.value) and "HELLO THERE" in str(info.value)


@pytest.mark.parametrize("exc, kind", [
    (aiohttp.ConnectionTimeoutError("Connection timeout to host"), httpx.ConnectTimeout),
    (aiohttp.SocketTimeoutError("Timeout on reading data from socket"), httpx.ReadTimeout),
    (asyncio.TimeoutError(), httpx.ReadTimeout),
    (aiohttp.ClientOSError(32, "Broken pipe"), httpx.ReadError),
])
def test_the_other_failures_keep_httpx_types(exc, kind):
    assert type(_httpx_error(exc)) is kind


async def test_a_header_field_with_a_line_break_is_refused_before_anything_is_sent(transport):
    async with Upstream(answer(b"ok")) as up:
        with pytest.raises(httpx.LocalProtocolError):  # what h11 refused too: no smuggled line upstream
            await fetch(transport, up.url, headers=[("x-evil", "a\r\nInjected: yes")])
    assert up.requests == []


# ------------------------------------------------------------------ what the environment says
async def test_an_environment_proxy_is_applied_by_httpx_own_transport(monkeypatch):
    """With ``HTTP_PROXY`` set, a trusted client sends through it (absolute-form target), as before."""
    async with Upstream(answer(b"via proxy")) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        async with upstream_client(timeout=httpx.Timeout(5.0), limits=LIMITS, trust_env=True) as client:
            _, items = await fetch(client, "http://upstream.invalid/v1/messages")
    assert items == [b"via proxy"]
    assert proxy.requests[0].startswith(b"POST http://upstream.invalid/v1/messages HTTP/1.1")


async def test_without_an_environment_proxy_the_client_uses_aiohttp(monkeypatch):
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(k, raising=False)
    for trust_env in (True, False):
        async with upstream_client(timeout=httpx.Timeout(5.0), limits=LIMITS, trust_env=trust_env) as client:
            assert isinstance(client._transport, AiohttpTransport)
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    async with upstream_client(timeout=httpx.Timeout(5.0), limits=LIMITS, trust_env=False) as client:
        assert isinstance(client._transport, AiohttpTransport)  # loopback: no environment proxy applies


async def test_a_plain_http_upstream_costs_no_tls_context_and_no_second_transport(monkeypatch):
    """Loading the CA roots took ~60 ms and httpx's transport ~100 ms more, on the first request of
    every proxy: made now only for an ``https`` upstream and for a request with ``Expect``."""
    made: list[str] = []
    real_ctx, real_transport = httpx.create_ssl_context, httpx.AsyncHTTPTransport

    def counted_ctx(*a, **k):
        made.append("tls")
        return real_ctx(*a, **k)

    def counted_transport(*a, **k):
        made.append("httpx")
        return real_transport(*a, **k)

    monkeypatch.setattr(httpx, "create_ssl_context", counted_ctx)
    monkeypatch.setattr(httpx, "AsyncHTTPTransport", counted_transport)
    async with Upstream(answer(b"ok", keep=True)) as up:
        async with AiohttpTransport(limits=LIMITS, trust_env=True) as t:
            for _ in range(2):
                _, items = await fetch(t, up.url + "/v1/messages")
                assert items == [b"ok"]
            assert made == []
            _, items = await fetch(t, up.url, headers=[("Expect", "100-continue")])
            assert items == [b"ok"] and made == ["httpx"]  # made once it is needed, then kept
            await fetch(t, up.url, headers=[("Expect", "100-continue")])
            assert made == ["httpx"]


async def test_tls_is_verified_against_ssl_cert_file_when_the_environment_is_trusted(monkeypatch, tmp_path):
    ca = trustme.CA()
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(ctx)
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))

    async def serve(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(HEAD + chunk(b"secure") + b"0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=ctx)
    url = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
        async with AiohttpTransport(limits=LIMITS, trust_env=True) as trusted:
            _, items = await fetch(trusted, url, method="GET", content=b"")
        assert items == [b"secure"]
        async with AiohttpTransport(limits=LIMITS, trust_env=False) as untrusted:  # certifi's roots only
            with pytest.raises(httpx.ConnectError) as info:
                await fetch(untrusted, url, method="GET", content=b"")
        assert describe_error(info.value, url).startswith("TLS error talking to 127.0.0.1:")
    finally:
        server.close()
