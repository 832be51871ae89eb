"""WebSockets in HAR: Chrome's ``_webSocketMessages`` read as a socket, and ``export --to har`` writing one."""
from __future__ import annotations

import base64
import json
from datetime import datetime, timezone

import pytest

from inspector.capture.errors import CaptureError, SeveralStreams
from inspector.capture.load import load_all_bytes, load_bytes, load_native
from inspector.feeds.run import run_capture
from inspector.report import har
from tests.websocket import fixtures as fx


def chrome_entry(messages: list[dict], **extra) -> dict:
    """An entry shaped as Chrome DevTools exports a WebSocket (devtools-frontend ``models/har/Log.ts``)."""
    return {"startedDateTime": "2026-02-06T10:00:00.000Z", "time": 1234.5, "_resourceType": "websocket",
            "request": {"method": "GET", "url": fx.URL, "httpVersion": "HTTP/1.1", "cookies": [],
                        "headers": [{"name": "Authorization", "value": "Bearer sk-proj-" + "B" * 40},
                                    {"name": "Upgrade", "value": "websocket"}],
                        "queryString": [], "headersSize": -1, "bodySize": 0},
            "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "HTTP/1.1",
                         "cookies": [], "headers": [{"name": "Upgrade", "value": "websocket"}],
                         "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1,
                         "bodySize": 0},
            "cache": {}, "timings": {}, "_webSocketMessages": messages, **extra}


def har_bytes(*entries: dict) -> bytes:
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
                               "entries": list(entries)}}).encode()


def chrome_messages(ws: fx.Socket, start: float = 1770372000.0) -> list[dict]:
    return [{"type": "send" if r["ws"] == "send" else "receive", "time": start + r["t"], "opcode": 1,
             "data": r["data"]} for r in ws.records if "ws" in r]


def test_a_chrome_har_websocket_is_read_as_its_responses():
    raw = har_bytes(chrome_entry(chrome_messages(fx.two_tool_rounds())))
    streams, _ = load_all_bytes(raw, name="page.har")
    assert [n for n, _ in streams] == ["page.har response 0", "page.har response 1", "page.har response 2"]
    sessions = [run_capture(cap) for _, cap in streams]
    assert [s.dialect_name for s in sessions] == ["openai-responses"] * 3
    assert [sorted({f.code for f in s.findings}) for s in sessions] == [[], [], []]
    assert streams[0][1].chunks[0].t == 0.35  # from its response.create, the epoch times made relative
    assert "sk-proj" not in json.dumps(streams[0][1].request)


def test_a_chrome_error_frame_ends_the_socket_as_a_reset():
    ws = fx.close_1006_mid_call()
    msgs = chrome_messages(ws) + [{"type": "error", "time": 1770372001.5, "opcode": -1,
                                   "data": "net::ERR_CONNECTION_RESET"}]
    (_, ex), = load_all_bytes(har_bytes(chrome_entry(msgs)), name="page.har")[0]
    found = {f.code for f in run_capture(ex).findings}
    assert {"S012", "J005"} <= found
    assert ex.end.error == "net::ERR_CONNECTION_RESET"


def test_binary_and_hostile_chrome_messages_never_crash():
    msgs = [{"type": "send", "time": 1.0, "opcode": 1, "data": json.dumps(fx.create(input="x"))},
            {"type": "receive", "time": 1.1, "opcode": 2, "data": base64.b64encode(b"\xff\x00").decode()},
            {"type": "receive", "time": "soon", "opcode": 2, "data": "%%not base64%%"},
            "not an object", {"type": "ping"}, {"type": "receive", "time": 1.3, "data": None}]
    (_, ex), = load_all_bytes(har_bytes(chrome_entry(msgs)), name="page.har")[0]
    s = run_capture(ex)
    assert {"S001", "S002", "S014"} <= {f.code for f in s.findings}


def test_export_writes_one_chrome_entry_per_socket_that_reads_back_exactly():
    raw = fx.realtime_function_call().text().encode()
    sock = load_native(raw)
    streams, _ = load_all_bytes(raw, name="rt.jsonl")
    started = datetime(2026, 2, 6, 10, 0, 0, 123000, tzinfo=timezone.utc)
    doc = json.loads(har.render([(cap, started, name) for name, cap in streams]))
    entry, = doc["log"]["entries"]
    assert entry["_resourceType"] == "websocket" and entry["response"]["status"] == 101
    first = entry["_webSocketMessages"][0]
    assert set(first) == {"type", "time", "opcode", "data"} and first["type"] == "receive"
    assert entry["_webSocketClose"] == {"t": sock.end.t, "end": "close", "code": 1000}
    back = load_all_bytes(json.dumps(doc).encode(), name="rt.har")[0]
    assert len(back) == 2
    again = back[0][1].socket
    assert [(m.t, m.direction, m.data, m.binary) for m in again.messages] == \
        [(m.t, m.direction, m.data, m.binary) for m in sock.messages]
    assert (again.end.kind, again.end.code) == ("close", 1000)


def test_a_har_socket_with_several_responses_offers_no_entry_picker():
    """A picker would pass the chosen response as ``--entry``, which names a HAR entry: refuse plainly."""
    raw = har_bytes(chrome_entry(chrome_messages(fx.two_tool_rounds())))
    with pytest.raises(CaptureError) as e:
        load_bytes(raw, name="page.har")
    assert not isinstance(e.value, SeveralStreams) and "3 responses on the WebSocket" in str(e.value)
