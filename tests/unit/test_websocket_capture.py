"""WebSocket captures: the message records, the reader that cuts a socket into exchanges, and
how each exchange is judged (README "WebSocket captures")."""
from __future__ import annotations

import base64
import json
import random

import pytest

from inspector.capture.errors import CaptureError, SeveralStreams
from inspector.capture.load import load_all_bytes, load_bytes, load_native
from inspector.capture.recorder import Recorder, redact_request
from inspector.capture.records import end_record, read_record, ws_record
from inspector.capture.websocket import SocketSplitter, followup, message_type, server_type
from inspector.feeds.base import Driver
from inspector.feeds.replay import Playback
from inspector.feeds.run import run_capture
from inspector.model.capture import Chunk, End, Head
from inspector.model.websocket import WsMessage
from inspector.session.history import check_request
from tests.websocket import fixtures as fx

TWO_ROUNDS = fx.two_tool_rounds().text().encode()


def codes(session) -> list[str]:
    return sorted({f.code for f in session.findings})


def build(records: list[dict]) -> bytes:
    header = {"format": "stream-inspector-capture", "version": 1, "request": fx.HANDSHAKE_REQUEST,
              "response": fx.HANDSHAKE_RESPONSE}
    return "".join(json.dumps(r) + "\n" for r in [header, *records]).encode()


def recv(t: float, payload: dict | str) -> dict:
    return {"t": t, "ws": "recv", "data": payload if isinstance(payload, str) else json.dumps(payload)}


def send(t: float, payload: dict) -> dict:
    return {"t": t, "ws": "send", "data": json.dumps(payload)}


# ------------------------------------------------------------------ records
def test_message_records_round_trip_text_binary_and_close():
    text = read_record(ws_record(0.5, "send", b'{"type":"response.create"}'), 2)
    assert isinstance(text, WsMessage)
    assert (text.t, text.direction, text.data, text.binary, text.line) == (0.5, "send", b'{"type":"response.create"}',
                                                                           False, 2)
    rec = ws_record(0.6, "recv", b"\x00\xffraw", binary=True)
    assert rec == {"t": 0.6, "ws": "recv", "b64": base64.b64encode(b"\x00\xffraw").decode()}
    binary = read_record(rec)
    assert isinstance(binary, WsMessage) and binary.binary and binary.data == b"\x00\xffraw"
    close = read_record(end_record(End(3.0, "close", "bye", 1000)))
    assert isinstance(close, End) and (close.kind, close.code, close.error) == ("close", 1000, "bye")
    assert end_record(End(3.0, "close", None, 1006)) == {"t": 3.0, "end": "close", "code": 1006}


@pytest.mark.parametrize("rec, why", [
    ({"t": 1, "ws": "up", "data": "x"}, "'ws' must be one of"),
    ({"t": 1, "ws": "recv", "data": 3}, "'data' must be a string"),
    ({"t": 1, "ws": "recv", "b64": "%%%"}, "not valid base64"),
    ({"t": 1, "ws": "recv"}, "neither 'data' nor 'b64'"),
    ({"t": 1, "end": "close", "code": "1000"}, "whole number"),
])
def test_bad_message_records_name_the_reason(rec, why):
    with pytest.raises(ValueError, match=why):
        read_record(rec)


def test_a_bad_record_in_a_file_is_a_capture_error_naming_the_line():
    raw = build([recv(0.1, {"type": "response.created"}), {"t": 0.2, "ws": "sideways", "data": "{}"}])
    with pytest.raises(CaptureError, match=r":3: 'ws' must be one of"):
        load_all_bytes(raw, name="x.jsonl")


def test_recorder_writes_messages_and_the_close_and_they_load_back(tmp_path):
    path = tmp_path / "ws.jsonl"
    with Recorder(path, fx.HANDSHAKE_REQUEST, fx.HANDSHAKE_RESPONSE) as rec:
        rec.message(WsMessage(0.01, "send", json.dumps(fx.create(input="hi")).encode()))
        rec.message(WsMessage(0.2, "recv", b"\x01\x02", binary=True))
        rec.write_end(End(0.3, "close", "done", 1000))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[1]["ws"] == "send" and lines[2] == {"t": 0.2, "ws": "recv", "b64": "AQI="}
    assert lines[3] == {"t": 0.3, "end": "close", "code": 1000, "reason": "done"}


def test_recorder_masks_a_key_inside_a_message(tmp_path):
    path = tmp_path / "ws.jsonl"
    key = "sk-proj-" + "A" * 40
    with Recorder(path) as rec:
        rec.message(WsMessage(0.01, "send", json.dumps({"type": "session.update", "note": key}).encode()))
    assert key not in path.read_text()


# ------------------------------------------------------------------ exchanges
def test_a_socket_with_three_responses_is_three_exchanges_each_judged_clean():
    streams, skipped = load_all_bytes(TWO_ROUNDS, name="ws.jsonl")
    assert skipped == 0
    assert [name for name, _ in streams] == ["ws.jsonl#0", "ws.jsonl#1", "ws.jsonl#2"]
    sessions = [run_capture(cap) for _, cap in streams]
    assert [s.dialect_name for s in sessions] == ["openai-responses"] * 3
    assert [codes(s) for s in sessions] == [[], [], []]
    calls = [[(b.name, b.input) for b in s.blocks if b.tool] for s in sessions]
    assert calls == [[("get_sku_inventory", {"sku": "sku-froge-lily-pad-deluxe"})],
                     [("get_supplier_eta", {"sku": "sku-froge-lily-pad-deluxe"})], []]
    assert sessions[2].blocks[0].content == "84 units on hand; restock arrives 2026-02-24."
    assert [s.stop_reason for s in sessions] == ["completed"] * 3


def test_each_exchange_carries_its_request_and_the_request_that_continues_it():
    exs = [cap for _, cap in load_all_bytes(TWO_ROUNDS, name="ws.jsonl")[0]]
    bodies = [ex.request["body"] for ex in exs]
    assert all("type" not in b and b["tools"] == fx.TOOLS for b in bodies)
    assert [b.get("previous_response_id") for b in bodies] == [None, "resp_ws_1", "resp_ws_2"]
    assert exs[0].request["url"] == fx.URL and exs[0].response["status"] == 101
    assert exs[0].followup["input"][0]["call_id"] == "call_0001"
    assert exs[1].followup["input"][0]["call_id"] == "call_0002"
    assert exs[2].followup is None


def test_times_count_from_each_response_create():
    exs = [cap for _, cap in load_all_bytes(TWO_ROUNDS, name="ws.jsonl")[0]]
    firsts = [ex.chunks[0].t for ex in exs]
    assert firsts == [pytest.approx(0.35), pytest.approx(0.35), pytest.approx(0.3)]
    assert all(ex.end.kind == "eof" for ex in exs[:2])


def test_findings_point_at_capture_lines():
    raw = build([send(0.01, fx.create(input="x")), recv(0.2, "{not json")])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    s = run_capture(ex)
    s002 = next(f for f in s.findings if f.code == "S002")
    assert s002.line == 3


def test_a_tool_output_sent_for_a_call_never_streamed_is_q003():
    ws = fx.two_tool_rounds()
    for rec in ws.records:
        if rec.get("ws") == "send":
            rec["data"] = rec["data"].replace("call_0001", "call_bogus")
    exs = [cap for _, cap in load_all_bytes(ws.text().encode(), name="x")[0]]
    s = run_capture(exs[0])
    q = [f for f in s.findings if f.code == "Q003"]
    assert q and "call_bogus" in q[0].message


def test_close_1006_mid_call_is_s012_and_j005():
    (_, ex), = load_all_bytes(fx.close_1006_mid_call().text().encode(), name="x")[0]
    s = run_capture(ex)
    assert {"S012", "J005", "S003"} <= set(codes(s))
    assert "close 1006" in next(f for f in s.findings if f.code == "S012").message


@pytest.mark.parametrize("end, s012", [
    ({"end": "close", "code": 1000}, False),
    ({"end": "close", "code": 1001}, False),
    ({"end": "close", "code": 1011, "reason": "internal error"}, True),
    ({"end": "close", "code": 1006}, True),
    ({"end": "reset", "error": "connection reset by peer"}, True),
    (None, True),
])
def test_the_close_code_decides_s012_while_a_response_is_open(end, s012):
    ws = fx.Socket()
    ws.send(fx.create(input="hi"))
    fx.function_call_response(ws, "resp_1", 1, "get_sku_inventory", ['{"sku":'], None, "auto", finish=False)
    raw = ws.text() + (json.dumps({"t": ws.t + 0.1, **end}) + "\n" if end else "")
    (_, ex), = load_all_bytes(raw.encode(), name="x")[0]
    found = codes(run_capture(ex))
    assert ("S012" in found) is s012
    assert {"S003", "J005"} <= set(found)  # whatever the close, the response was cut


@pytest.mark.parametrize("end", [{"end": "close", "code": 1006}, None])
def test_a_socket_closing_after_its_last_response_completed_judges_no_response(end):
    """The socket's end is judged on the response it cuts: after a complete one it cuts none (live,
    the proxy has closed that exchange at its terminal event, so ``check`` of the recording agrees)."""
    ws = fx.Socket()
    ws.send(fx.create(input="hi"))
    fx.text_response(ws, "resp_1", ["hello"], None, "auto")
    raw = ws.text() + (json.dumps({"t": ws.t + 30, **end}) + "\n" if end else "")
    (_, ex), = load_all_bytes(raw.encode(), name="x")[0]
    assert codes(run_capture(ex)) == []


def test_several_responses_without_a_choice_list_them_and_an_entry_picks_one():
    with pytest.raises(SeveralStreams) as e:
        load_bytes(TWO_ROUNDS, name="ws.jsonl")
    assert len(e.value.choices) == 3 and "ws.jsonl#N" in str(e.value)
    assert load_bytes(TWO_ROUNDS, name="ws.jsonl", entry=2).request["body"]["previous_response_id"] == "resp_ws_2"
    with pytest.raises(CaptureError, match="out of range"):
        load_bytes(TWO_ROUNDS, name="ws.jsonl", entry=3)



def test_a_models_line_break_adds_no_line_to_the_list_of_responses():
    fake = "m\nresponse 9: 0 messages"
    raw = build([send(0.0, fx.create(model=fake)), recv(0.1, {"type": "response.created", "response": {"id": "r1"}}),
                 recv(0.2, {"type": "response.completed", "response": {"id": "r1"}}),
                 send(0.3, fx.create(model=fake)), recv(0.4, {"type": "response.created", "response": {"id": "r2"}}),
                 recv(0.5, {"type": "response.completed", "response": {"id": "r2"}})])
    with pytest.raises(SeveralStreams) as e:
        load_bytes(raw, name="ws.jsonl")
    assert len(str(e.value).splitlines()) == 4  # the head, two responses, how to pick

def test_a_create_sent_while_a_response_is_open_waits_for_it():
    raw = build([send(0.0, fx.create(input="a")), recv(0.1, {"type": "response.created", "response": {"id": "r1"}}),
                 send(0.15, fx.create(input="b")), recv(0.2, {"type": "response.completed", "response": {"id": "r1"}}),
                 recv(0.3, {"type": "response.created", "response": {"id": "r2"}}),
                 recv(0.4, {"type": "response.completed", "response": {"id": "r2"}}),
                 {"t": 0.5, "end": "close", "code": 1000}])
    exs = [cap for _, cap in load_all_bytes(raw, name="x")[0]]
    assert [ex.request["body"]["input"] for ex in exs] == ["a", "b"]
    assert [len(ex.chunks) for ex in exs] == [2, 2]
    assert exs[1].chunks[0].t == pytest.approx(0.15)


def test_server_messages_between_responses_lead_the_next_and_trailing_session_events_make_none():
    raw = build([recv(0.0, {"type": "session.created"}), send(0.1, {"type": "response.create"}),
                 recv(0.2, {"type": "response.created", "response": {"id": "r1"}}),
                 recv(0.3, {"type": "response.done", "response": {"id": "r1"}}),
                 recv(0.31, {"type": "rate_limits.updated"}), {"t": 0.5, "end": "close", "code": 1000}])
    exs = [cap for _, cap in load_all_bytes(raw, name="x")[0]]
    assert len(exs) == 1 and b"session.created" in exs[0].chunks[0].data


def test_a_trailing_error_after_the_last_response_is_an_exchange_of_its_own():
    raw = build([send(0.1, {"type": "response.create"}),
                 recv(0.2, {"type": "response.created", "response": {"id": "r1"}}),
                 recv(0.3, {"type": "response.completed", "response": {"id": "r1"}}),
                 recv(0.4, {"type": "error", "error": {"message": "boom"}}), {"t": 0.5, "end": "close", "code": 1000}])
    exs = [cap for _, cap in load_all_bytes(raw, name="x")[0]]
    assert len(exs) == 2 and "S006" in codes(run_capture(exs[1]))


def test_an_error_answering_a_create_ends_that_exchange():
    raw = build([send(0.1, fx.create(previous_response_id="resp_gone", input="x")),
                 recv(0.2, {"type": "error", "status": 400,
                            "error": {"type": "invalid_request_error", "code": "previous_response_not_found",
                                      "message": "Previous response with id 'resp_gone' not found."}}),
                 send(0.3, fx.create(input="y")), recv(0.4, {"type": "response.created", "response": {"id": "r"}}),
                 recv(0.5, {"type": "response.completed", "response": {"id": "r", "status": "completed"}}),
                 {"t": 0.6, "end": "close", "code": 1000}])
    exs = [cap for _, cap in load_all_bytes(raw, name="x")[0]]
    assert len(exs) == 2 and "S006" in codes(run_capture(exs[0]))


def test_a_socket_with_no_response_is_read_whole():
    raw = build([recv(0.1, {"type": "session.created"}), {"t": 0.2, "end": "close", "code": 1006}])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    assert "S012" in codes(run_capture(ex))


def test_audio_is_kept_as_its_size():
    audio = base64.b64encode(b"\x00" * 3000).decode()
    raw = build([send(0.0, {"type": "input_audio_buffer.append", "audio": audio}),
                 send(0.1, {"type": "response.create"}),
                 recv(0.2, {"type": "response.created", "response": {"id": "r"}}),
                 recv(0.3, {"type": "response.output_audio.delta", "delta": audio, "response_id": "r"}),
                 recv(0.4, {"type": "response.done", "response": {"id": "r"}})])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    assert audio.encode() not in b"".join(c.data for c in ex.chunks)
    assert b"<audio: 3000 bytes>" in ex.chunks[1].data
    assert ex.request["sent"] == [{"type": "input_audio_buffer.append", "audio": "<audio: 3000 bytes>"}]
    kept = SocketSplitter(keep_audio=True)
    items = kept.take(WsMessage(0.1, "send", b'{"type":"response.create"}'))
    items += kept.take(WsMessage(0.2, "recv", json.dumps({"type": "response.output_audio.delta", "delta": audio}).encode()))
    assert audio.encode() in items[-1].data


def test_the_splitter_yields_driver_items_as_messages_arrive():
    sp = SocketSplitter(fx.HANDSHAKE_REQUEST, fx.HANDSHAKE_RESPONSE)
    assert sp.take(WsMessage(0.0, "send", json.dumps(fx.create(input="x")).encode()))[0].__class__ is Head
    got = sp.take(WsMessage(0.5, "recv", b'{"type":"response.completed","response":{"id":"r"}}'))
    assert [type(i).__name__ for i in got] == ["Chunk", "End"] and got[0].t == 0.5
    assert sp.close(End(1.0, "close", None, 1000)) == []


# ------------------------------------------------------------------ hostile input
def test_garbled_binary_and_huge_messages_give_findings_never_a_crash():
    huge = "x" * (5 << 20)
    raw = build([send(0.0, fx.create(input="x")),
                 recv(0.1, {"type": "response.created", "response": {"id": "r"}}),
                 {"t": 0.2, "ws": "recv", "b64": base64.b64encode(b"\xff\xfe\x00garbage").decode()},
                 recv(0.3, '{"type": "response.output_text.delta", "delta": "' + huge + '"'),
                 recv(0.4, "[[[[[[" * 300),
                 recv(0.5, "")])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    s = run_capture(ex)
    assert {"S001", "S002", "S012"} <= set(codes(s))


def test_a_half_written_last_message_is_dropped_with_a_note():
    raw = build([send(0.0, fx.create(input="x")), recv(0.1, {"type": "response.created", "response": {"id": "r"}})])
    raw += b'{"t": 0.2, "ws": "recv", "data": "{\\"type\\": \\"resp'
    (_, ex), = load_all_bytes(raw, name="x")[0]
    assert {"S014", "S012"} <= set(codes(run_capture(ex)))


# ------------------------------------------------------------------ replay
def test_replay_of_a_response_matches_check_and_never_cuts_a_message():
    ws = fx.two_tool_rounds()
    for rec in ws.records:  # a message over the replay's 64 KiB slice, and one with line breaks inside
        if rec.get("ws") == "send":
            rec["data"] = rec["data"].replace("call_0001", "call_bogus")
    big = json.dumps({"type": "response.output_text.delta", "delta": "y" * 70_000, "item_id": "msg_resp_ws_3",
                      "output_index": 0, "content_index": 0, "logprobs": [], "sequence_number": 5}, indent=1)
    exs = [cap for _, cap in load_all_bytes(ws.text().encode(), name="x")[0]]
    exs[2].chunks.insert(5, Chunk(exs[2].chunks[4].t, big.encode(), None))
    for ex in (exs[0], exs[2]):
        ref = run_capture(ex)
        pb = Playback(ex)
        for n in range(len(ref.events)):
            pb.seek_event(n)
            assert pb.event_count == n + 1
        pb.seek_event(10**9)
        assert pb.finished
        assert [f.to_dict() for f in pb.session.findings] == [f.to_dict() for f in ref.findings]
        assert [b.to_dict() for b in pb.session.blocks] == [b.to_dict() for b in ref.blocks]
    assert "Q003" in {f.code for f in run_capture(exs[0]).findings}  # the follow-up is judged in replay too


# ------------------------------------------------------------------ live
def test_a_driver_fed_message_by_message_judges_as_check_of_the_recording():
    """What the proxy does with a live socket: splitter items into a ``Driver`` (a new session per
    ``Head``), the next request judged against the answer it continues."""
    ws = fx.two_tool_rounds()
    for rec in ws.records:
        if rec.get("ws") == "send":
            rec["data"] = rec["data"].replace("call_0002", "call_bogus")
    raw = ws.text().encode()
    sock = load_native(raw)
    splitter, driver, live = SocketSplitter(sock.request, sock.response), Driver(), []
    for item in [i for m in sock.messages for i in splitter.take(m)] + splitter.close(sock.end):
        if isinstance(item, Head) and live:
            body, _, sends_back = followup(item.request)
            if sends_back:
                check_request(live[-1], body)
        driver.take(item)
        if isinstance(item, Head):
            live.append(driver.session)
    recorded = [run_capture(cap) for _, cap in load_all_bytes(raw, name="x")[0]]
    assert [sorted(f.to_dict().items()) for s in live for f in s.findings] == \
        [sorted(f.to_dict().items()) for s in recorded for f in s.findings]
    assert [b.to_dict() for s in live for b in s.blocks] == [b.to_dict() for s in recorded for b in s.blocks]
    assert "Q003" in {f.code for f in live[1].findings}


def test_a_silent_socket_while_a_response_is_open_is_a_stall_and_the_agent_s_own_time_is_not():
    ws = fx.Socket()
    ws.send(fx.create(input="hi", tools=fx.TOOLS))
    fx.function_call_response(ws, "resp_1", 1, "get_sku_inventory", ['{"sku":"a"}'], None, "auto")
    ws.t += 60  # the agent runs its tool for a minute: no response is open
    ws.send(fx.create(previous_response_id="resp_1", input=[{"type": "function_call_output", "call_id": "call_0001",
                                                             "output": "{}"}], tools=fx.TOOLS))
    ws.seq = 0
    ws.recv({"type": "response.created", "response": fx.response_object("resp_2", "in_progress", [], "resp_1", "auto")})
    ws.t += 15  # the server goes silent mid-response
    fx.text_response(ws, "resp_2b", ["done"], "resp_1", "auto")
    exs = [cap for _, cap in load_all_bytes(ws.text().encode(), name="x")[0]]
    assert "T001" not in {f.code for f in run_capture(exs[0]).findings}
    stalls = [f for f in run_capture(exs[1]).findings if f.code == "T001"]
    assert stalls and "15" in stalls[0].message


def test_truncated_or_garbled_socket_captures_give_findings_or_one_clear_error():
    raw = fx.realtime_function_call().text().encode()
    rng = random.Random(30)
    cuts = [rng.randrange(len(raw)) for _ in range(40)]
    garbles = []
    for _ in range(40):
        b = bytearray(raw)
        for _ in range(5):
            b[rng.randrange(len(b))] = rng.randrange(256)
        garbles.append(bytes(b))
    for data in [raw[:n] for n in cuts] + garbles:
        try:
            streams, _ = load_all_bytes(data, name="x")
        except CaptureError as e:
            assert str(e).startswith("x") and "\n" not in str(e)
            continue
        for _, cap in streams:
            run_capture(cap)  # never raises


def test_calls_are_judged_against_the_tools_their_response_create_declares():
    ws = fx.two_tool_rounds()
    first = next(r for r in ws.records if r.get("ws") == "send")
    first["data"] = first["data"].replace('"get_supplier_eta"', '"get_supplier_etd"')  # only round 1's create
    exs = [cap for _, cap in load_all_bytes(ws.text().encode(), name="x")[0]]
    assert "V001" not in {f.code for f in run_capture(exs[0]).findings}  # get_sku_inventory is declared there
    ws2 = fx.two_tool_rounds()
    second = [r for r in ws2.records if r.get("ws") == "send"][1]
    second["data"] = second["data"].replace('"get_supplier_eta"', '"get_supplier_etd"')
    exs2 = [cap for _, cap in load_all_bytes(ws2.text().encode(), name="x")[0]]
    v001 = [f for f in run_capture(exs2[1]).findings if f.code == "V001"]
    assert v001 and "get_supplier_eta" in v001[0].message


def test_a_key_in_a_message_sent_before_a_response_is_masked_in_its_request():
    key = "sk-proj-" + "C" * 40
    raw = build([send(0.0, {"type": "session.update", "session": {"instructions": f"use {key}"}}),
                 send(0.1, {"type": "response.create"}),
                 recv(0.2, {"type": "response.created", "response": {"id": "r"}}),
                 recv(0.3, {"type": "response.done", "response": {"id": "r"}})])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    assert key in json.dumps(ex.request)  # as read (a hand-made capture); masked on the way out:
    assert key not in json.dumps(redact_request(ex.request))


def test_a_stateless_client_resending_the_history_is_judged_against_the_response_before():
    """``store: false``: no ``previous_response_id``; the next create carries the whole history,
    here with the call's arguments mis-assembled (Q006)."""
    ws = fx.Socket()
    ws.send(fx.create(input="stock?", tools=fx.TOOLS, store=False))
    call = fx.function_call_response(ws, "resp_s1", 1, "get_sku_inventory", ['{"sku":', '"abc"}'], None, "auto")
    history = [{"role": "user", "content": "stock?"},
               {"type": "function_call", "call_id": call["call_id"], "name": call["name"], "arguments": '{"sku":"abd"}'},
               {"type": "function_call_output", "call_id": call["call_id"], "output": "{}"}]
    ws.send(fx.create(input=history, tools=fx.TOOLS, store=False), after=0.05)
    fx.text_response(ws, "resp_s2", ["ok"], None, "auto")
    exs = [cap for _, cap in load_all_bytes(ws.text().encode(), name="x")[0]]
    assert exs[0].followup["input"] == history
    assert "Q006" in {f.code for f in run_capture(exs[0]).findings}


def test_the_fast_type_read_agrees_with_a_full_parse():
    samples = [b'{"type":"response.created","response":{"id":"r"}}', b'{ "type" : "error" }',
               b'{"item":{"type":"message"},"type":"response.output_item.added"}',
               b'{"event_id":"e","type":"response.done"}', b'{"type":"response.output_audio.delta","delta":"AAAA"}',
               b'{"type": 3}', b"[1]", b"not json", b'{"type":"x\\"y"}']
    for data in samples:
        assert server_type(data)[0] == message_type(data)[0], data


def test_body_records_mixed_into_a_socket_are_reported_not_lost_silently():
    raw = build([{"t": 0.0, "data": "event: x\ndata: {}\n\n"}, send(0.1, fx.create(input="x")),
                 recv(0.2, {"type": "response.created", "response": {"id": "r"}}),
                 recv(0.3, {"type": "response.completed", "response": {"id": "r", "status": "completed"}})])
    (_, ex), = load_all_bytes(raw, name="x")[0]
    s014 = [f for f in run_capture(ex).findings if f.code == "S014"]
    assert s014 and "1 body record beside the WebSocket messages ignored (first at line 2)" in s014[0].message
