"""``proxy`` and ``serve`` bound each request (issue 24 item 8): headers that take longer than
``--header-timeout`` get a 408 and a closed connection, a body over ``--max-request-bytes`` a 413
(declared in ``content-length`` or counted as a chunked body arrives), and nothing is forwarded."""
from __future__ import annotations

import signal
import socket
import time

import httpx
import pytest

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from inspector.net.servers import RequestLimits
from tests.e2e.conftest import ANTHROPIC_OPENING, WAIT_S, answering, spawn, sse_event
from tests.helpers import timed

OPENING = b"".join(sse_event(e) for e in ANTHROPIC_OPENING)
LIMITS = RequestLimits(header_timeout=0.5, max_bytes=1000)


@pytest.fixture(params=["proxy", "serve"])
def server(request, raw_server):
    """A proxy (in front of a server that answers every request) or a mock provider, with ``LIMITS``;
    ``srv.upstream`` is the proxy's upstream (None for serve)."""
    if request.param == "proxy":
        up = raw_server(answering(OPENING))
        with ProxyThread(up.url, requests=LIMITS) as px:
            px.upstream = up
            yield px
    else:
        with ServerThread([("a", timed((0.0, OPENING), end=(0.0, "eof")))], instant=True, requests=LIMITS) as srv:
            srv.upstream = None
            yield srv


def _slow_client(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=WAIT_S)
    s.sendall(b"POST /v1/messages HTTP/1.1\r\nHo")
    return s


def _read_all(s: socket.socket) -> bytes:
    """Everything until the server closes (a reset after our late bytes ends it too)."""
    out = b""
    while True:
        try:
            part = s.recv(65536)
        except ConnectionResetError:
            return out
        if not part:
            return out
        out += part


def test_headers_sent_a_byte_at_a_time_get_408_and_the_connection_closed(server):
    slow = [_slow_client(server.url) for _ in range(30)]
    start = time.monotonic()
    try:  # trickle into the first one: bytes arriving do not put the deadline off
        for c in b"st: x\r\nX-A: b" * 10:
            slow[0].sendall(bytes([c]))
            time.sleep(0.05)
    except OSError:
        pass  # closed by the server, as it should be
    answers = [_read_all(s) for s in slow]
    took = time.monotonic() - start
    for s in slow:
        s.close()
    # the first one may see a reset instead (it was still sending when closed); the others read a 408
    assert all(a.startswith(b"HTTP/1.1 408 Request Timeout\r\n") for a in answers[1:]), answers[1][:200]
    assert b"--header-timeout" in answers[1] and b"connection: close" in answers[1]
    assert took < 5, took  # every slow connection was closed after ~0.5 s, not held open
    if server.upstream is not None:
        assert server.upstream.requests == []  # nothing was forwarded


def test_a_declared_body_over_the_limit_gets_413_before_it_is_read(server):
    r = httpx.post(server.url + "/v1/messages", content=b"x" * 5000, timeout=WAIT_S, trust_env=False,
                   headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert "--max-request-bytes" in r.json()["error"]["message"]
    assert r.headers["connection"] == "close"
    if server.upstream is not None:
        assert server.upstream.requests == []


def test_a_chunked_body_over_the_limit_gets_413_when_it_passes_it(server):
    def body():
        for _ in range(50):
            yield b"y" * 100

    r = httpx.post(server.url + "/v1/messages", content=body(), timeout=WAIT_S, trust_env=False)
    assert r.status_code == 413
    if server.upstream is not None:
        assert server.upstream.requests == []


def test_requests_within_the_limits_are_answered(server):
    r = httpx.post(server.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S, trust_env=False)
    assert r.status_code == 200 and r.content.startswith(b"event: message_start")
    # the same connection, a second request after the header deadline of the first has passed
    with httpx.Client(timeout=WAIT_S, trust_env=False) as c:
        assert c.post(server.url + "/v1/messages", json={"stream": True}).status_code == 200
        time.sleep(0.7)
        assert c.post(server.url + "/v1/messages", json={"stream": True}).status_code == 200


@pytest.mark.parametrize("command", ["proxy", "serve"])
def test_the_options_reach_the_real_commands(raw_server, tmp_path, command):
    if command == "proxy":
        argv = ["proxy", "--upstream", raw_server(answering(OPENING)).url, "--format", "json"]
    else:
        cap = tmp_path / "a.sse"
        cap.write_bytes(OPENING)
        argv = ["serve", str(cap), "--loop", "--instant"]
    proc = spawn([*argv, "--port", "0", "--header-timeout", "0.5", "--max-request-bytes", "1K"])
    try:
        line = (proc.stderr if command == "proxy" else proc.stdout).readline()
        url = "http://" + line.split("http://", 1)[1].split()[0]
        r = httpx.post(url + "/v1/messages", content=b"x" * 2000, timeout=WAIT_S, trust_env=False)
        assert r.status_code == 413
        s = _slow_client(url)
        assert _read_all(s).startswith(b"HTTP/1.1 408 ")
        s.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT_S)


def _raw_exchange(url: str, request: bytes) -> bytes:
    """Send ``request`` as it is on a new connection; everything the server sends until it closes
    (the request should say ``Connection: close``, or be one the server refuses)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as s:
        s.sendall(request)
        return _read_all(s)


def test_a_head_still_incomplete_past_16_kib_gets_400_and_the_connection_closed(server):
    """h11 refuses a head it has buffered 16 KiB of without its end; the proxy's httptools (llhttp
    sets no bound of its own) refuses the same head the same way."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as s:
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n")
        try:
            for i in range(40):  # 40 fields of 1 KiB, in separate writes, the head never ended
                s.sendall(b"X-Filler-%d: %s\r\n" % (i, b"f" * 1024))
                time.sleep(0.002)
        except OSError:
            pass  # closed by the server, as it should be
        answer = _read_all(s)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"Invalid HTTP request received." in answer
    if server.upstream is not None:
        assert server.upstream.requests == []


def test_a_large_head_that_arrives_whole_is_taken(server):
    big = "v" * 12_000
    r = httpx.post(server.url + "/v1/messages", json={"stream": True}, headers={"x-big": big}, timeout=WAIT_S,
                   trust_env=False)
    assert r.status_code == 200 and r.content.startswith(b"event: message_start")
    if server.upstream is not None:
        assert b"x-big: " + big.encode() in server.upstream.requests[0]


def test_a_malformed_request_gets_400_and_nothing_is_forwarded(server):
    answer = _raw_exchange(server.url, b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"Invalid HTTP request received." in answer
    if server.upstream is not None:
        assert server.upstream.requests == []


def test_expect_100_continue_is_answered_then_the_body_goes_through(server):
    """curl sends ``Expect: 100-continue`` with a large body and waits (up to 1 s) for ``100``."""
    host, port = server.url.removeprefix("http://").split(":")
    body = b'{"stream":true}'
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as s:
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Expect: 100-continue\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
        interim = s.recv(65536)
        assert interim.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"), interim
        s.sendall(body)
        answer = interim[len(b"HTTP/1.1 100 Continue\r\n\r\n"):] + _read_all(s)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    assert b"event: message_start" in answer
    if server.upstream is not None:
        assert server.upstream.requests[0].endswith(b"\r\n\r\n" + body)


def test_a_stream_longer_than_the_header_deadline_is_relayed_whole(raw_server):
    """The deadline is for the headers only: a response still streaming when it would have rung is
    not cut, nor a 408 written into its body."""
    # A deadline of 1.5 s, not LIMITS' 0.5: the second request must come within it after the first
    # answer, and a loaded CI worker once failed this test (the failure itself hidden by a CPython 3.11.7
    # SystemError while pytest formatted it).
    limits = RequestLimits(header_timeout=1.5, max_bytes=LIMITS.max_bytes)

    def slow(srv, conn, request) -> None:
        srv.head(conn)
        srv.chunk(conn, OPENING)
        time.sleep(2 * limits.header_timeout)
        srv.chunk(conn, b"event: ping\ndata: {}\n\n")
        srv.finish(conn)

    up = raw_server(slow)
    with ProxyThread(up.url, requests=limits) as px, httpx.Client(timeout=WAIT_S, trust_env=False) as c:
        r = c.post(px.url + "/v1/messages", json={"stream": True})
        assert r.status_code == 200 and r.content == OPENING + b"event: ping\ndata: {}\n\n"
        assert c.post(px.url + "/v1/messages", json={"stream": True}).status_code == 200  # kept alive


def test_the_next_request_on_a_kept_alive_connection_gets_the_same_deadline(server):
    host, port = server.url.removeprefix("http://").split(":")
    body = b'{"stream":true}'
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as s:
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        first = b""
        while not first.endswith(b"0\r\n\r\n"):  # the whole chunked answer
            part = s.recv(65536)
            assert part, first
            first += part
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHo")  # and the rest never comes
        start = time.monotonic()
        second = _read_all(s)
    assert first.startswith(b"HTTP/1.1 200 ")
    assert second.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), second[:200]
    assert time.monotonic() - start < 3


def test_the_proxy_reads_requests_with_httptools_and_serve_with_h11(server):
    """The relay's per-chunk writes go through httptools; ``serve`` keeps h11, whose bytes on the wire
    its fault injection was written against."""
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    protocol = server._server.config.http
    assert issubclass(protocol, HttpToolsProtocol if server.upstream is not None else H11Protocol)


def test_the_proxy_relays_origin_form_targets_only(raw_server):
    """``GET http://host/path`` is for a forward proxy: not relayed (404, as under h11, whose path was
    the whole URL), where httptools alone would pass on the URL's path to the upstream."""
    up = raw_server(answering(OPENING))
    with ProxyThread(up.url, requests=LIMITS) as px:
        answer = _raw_exchange(px.url, b"GET http://example.invalid/v1/models HTTP/1.1\r\nHost: example.invalid\r\n"
                                       b"Connection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 404 "), answer[:200]
        answer = _raw_exchange(px.url, b"GET /v1/models?x=%2F HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200 ")
    assert [r.split(b"\r\n", 1)[0] for r in up.requests] == [b"GET /v1/models?x=%2F HTTP/1.1"]


def test_the_proxy_refuses_a_body_framed_two_ways(raw_server):
    """``Content-Length`` beside ``Transfer-Encoding`` (request smuggling's shape): llhttp answers 400
    and nothing is forwarded (h11 went by the chunked framing; RFC 9112 §6.1 allows either)."""
    up = raw_server(answering(OPENING))
    with ProxyThread(up.url, requests=LIMITS) as px:
        answer = _raw_exchange(px.url, b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                                       b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert up.requests == []
