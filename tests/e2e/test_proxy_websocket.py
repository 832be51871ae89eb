"""``proxy`` relays WebSocket upgrades on its own port: message for message, close codes both ways, recorded.

Real sockets on 127.0.0.1 only: a ``websockets`` client -> ``ProxyThread`` -> a scripted ``websockets``
upstream (``ws_upstream``). What must hold: every message arrives unchanged, in order, with its kind
(text stays text, with the same UTF-8 bytes; binary stays binary); the handshake's headers and
subprotocol cross; a close code and reason cross either way; a side that drops the connection without a
close frame is mirrored (the other side sees 1006); an upstream that refuses the upgrade is passed on as
its HTTP answer; the socket is recorded as a WebSocket capture that ``check`` reads.
"""
from __future__ import annotations

import asyncio
import json
import socket

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from inspector.capture.load import load_native
from inspector.net.proxy.server import ProxyThread
from tests.e2e.conftest import WAIT_S
from tests.e2e.ws_upstream import WsUpstream


def ws(url: str) -> str:
    return "ws" + url[len("http"):]


@pytest.fixture
def upstream():
    with WsUpstream() as up:
        yield up


@pytest.fixture
def proxy(upstream, tmp_path):
    with ProxyThread(upstream.url + "/v1", record_dir=tmp_path) as p:
        yield p


def test_messages_cross_unchanged_in_order_with_their_kind(upstream, proxy):
    text = 'echo:{"type":"response.create","input":"grüße 🐸"}'
    with connect(ws(proxy.url) + "/responses", additional_headers={"Authorization": "Bearer sk-proxy-test"},
                 subprotocols=["realtime"], open_timeout=WAIT_S) as c:
        assert c.subprotocol == "realtime"
        c.send(text)
        assert c.recv(WAIT_S) == text[5:]  # text, the same characters
        assert c.recv(WAIT_S) == text[5:].encode("utf-8")  # binary, the same bytes
        blob = bytes(range(256)) * 3
        c.send(blob)
        assert c.recv(WAIT_S) == blob
        for i in range(50):
            c.send(f"echo:{i}")
        got = [c.recv(WAIT_S) for _ in range(100)]
        assert got[::2] == [str(i) for i in range(50)]
        c.close(1000)
    seen = upstream.last()
    assert seen.path == "/v1/responses"
    assert seen.headers["Authorization"] == "Bearer sk-proxy-test"
    assert seen.messages[0] == text and seen.messages[1] == blob
    assert seen.closed == (1000, "")


def test_upstream_close_code_and_reason_reach_the_client(upstream, proxy):
    with connect(ws(proxy.url) + "/responses", open_timeout=WAIT_S) as c:
        c.send("close:4000:rate limited, bye")
        with pytest.raises(ConnectionClosed) as e:
            c.recv(WAIT_S)
    assert (e.value.rcvd.code, e.value.rcvd.reason) == (4000, "rate limited, bye")


def test_a_close_frame_without_a_code_stays_without_one(upstream, proxy):
    with connect(ws(proxy.url) + "/responses", open_timeout=WAIT_S) as c:
        c.send("close::")
        with pytest.raises(ConnectionClosed) as e:
            c.recv(WAIT_S)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1005  # a close frame, no code in it


def test_client_close_code_and_reason_reach_the_upstream(upstream, proxy):
    with connect(ws(proxy.url) + "/responses", open_timeout=WAIT_S) as c:
        c.send("echo:x")
        c.recv(WAIT_S)
        c.close(4321, "client is done")
    assert upstream.last().closed == (4321, "client is done")


def test_upstream_dropping_the_connection_is_a_1006_for_the_client(upstream, proxy):
    with connect(ws(proxy.url) + "/responses", open_timeout=WAIT_S) as c:
        c.send("drop")
        with pytest.raises(ConnectionClosed) as e:
            c.recv(WAIT_S)
    assert e.value.rcvd is None and c.protocol.close_code == 1006


def test_client_dropping_the_connection_is_a_1006_for_the_upstream(upstream, proxy):
    c = connect(ws(proxy.url) + "/responses", open_timeout=WAIT_S)
    c.send("echo:x")
    c.recv(WAIT_S)
    c.socket.shutdown(socket.SHUT_RDWR)  # the TCP connection ends, no close frame
    c.socket.close()
    assert upstream.last().closed == ("none",)


def test_refused_upgrade_reaches_the_client_as_the_upstream_answered(tmp_path):
    with WsUpstream(refuse=True) as up, ProxyThread(up.url, record_dir=tmp_path) as p:
        with pytest.raises(InvalidStatus) as e:
            connect(ws(p.url) + "/v1/responses", open_timeout=WAIT_S)
        report = p.wait_reports(1, WAIT_S)[0]
    resp = e.value.response
    assert resp.status_code == 401 and resp.headers["x-why"] == "no key"
    assert b"Incorrect API key" in resp.body
    assert report["status"] == 401 and "S007" in {f["code"] for f in report["findings"]}


def test_unreachable_upstream_is_a_502(tmp_path):
    with WsUpstream() as up:
        dead = up.url  # stopped below: nothing listens there any more
    with ProxyThread(dead) as p:
        with pytest.raises(InvalidStatus) as e:
            connect(ws(p.url) + "/v1/responses", open_timeout=WAIT_S)
        report = p.wait_reports(1, WAIT_S)[0]
    assert e.value.response.status_code == 502
    assert "connection refused by 127.0.0.1" in e.value.response.body.decode()
    assert [f["code"] for f in report["findings"]] == ["S012"]


def test_the_socket_is_recorded_as_a_websocket_capture(upstream, proxy, tmp_path):
    with connect(ws(proxy.url) + "/responses", additional_headers={"Authorization": "Bearer sk-proxy-recorded"},
                 open_timeout=WAIT_S) as c:
        c.send("echo:é")
        c.recv(WAIT_S), c.recv(WAIT_S)
        c.send("close:4001:")
        with pytest.raises(ConnectionClosed):
            c.recv(WAIT_S)
    upstream.last()
    files = sorted(tmp_path.glob("*-WS-responses.jsonl"))
    assert len(files) == 1
    raw = files[0].read_bytes()
    assert b"sk-proxy-recorded" not in raw
    cap = load_native(raw)
    assert cap.request["url"].startswith("ws://") and cap.response["status"] == 101
    assert [(m.direction, m.data, m.binary) for m in cap.messages] == [
        ("send", b"echo:\xc3\xa9", False), ("recv", b"\xc3\xa9", False), ("recv", b"\xc3\xa9", True),
        ("send", b"close:4001:", False)]
    assert (cap.end.kind, cap.end.code) == ("close", 4001)
    assert [json.loads(line).get("ws") for line in raw.splitlines()[1:-1]] == ["send", "recv", "recv", "send"]


def test_a_client_close_that_overtakes_an_upstream_message_still_reaches_the_upstream(upstream):
    """The client closes (4321) while the upstream's reply is on its way: the server has taken the close
    frame, so forwarding the reply fails (uvicorn's ``ClientDisconnected``) before the relay reads the
    close. The upstream must still get the client's close, not a dropped connection (CI, under load)."""
    from uvicorn.protocols.utils import ClientDisconnected

    from inspector.net.proxy.routes import Routes
    from inspector.net.proxy.wsrelay import WebSocketRelay

    async def scenario() -> list[dict]:
        send_failed = asyncio.Event()
        sent: list[dict] = []
        incoming = [{"type": "websocket.connect"}, {"type": "websocket.receive", "text": "echo:x"}]

        async def receive() -> dict:
            if incoming:
                return incoming.pop(0)
            await send_failed.wait()  # the close is read only after the reply's send failed: the order under load
            return {"type": "websocket.disconnect", "code": 4321, "reason": "client is done"}

        async def send(msg: dict) -> None:
            sent.append(msg)
            if msg["type"] == "websocket.send":
                send_failed.set()
                raise ClientDisconnected()

        scope = {"type": "websocket", "path": "/v1/responses", "raw_path": b"/v1/responses", "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1")], "subprotocols": []}
        await asyncio.wait_for(WebSocketRelay(Routes.single(upstream.url))(scope, receive, send), WAIT_S)
        return sent

    sent = asyncio.run(scenario())
    assert [m["type"] for m in sent][:2] == ["websocket.accept", "websocket.send"]
    assert upstream.last().closed == (4321, "client is done")
