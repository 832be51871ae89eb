"""The openai-realtime dialect on a recorded Realtime session (tests/websocket/data/realtime-function-call.jsonl)."""
from __future__ import annotations

import json

from inspector.capture.load import load_all_bytes
from inspector.feeds.run import run_capture
from tests.e2e.conftest import run_cli
from tests.websocket import fixtures as fx


def exchanges(ws) -> list:
    return [cap for _, cap in load_all_bytes(ws.text().encode(), name="rt.jsonl")[0]]


def codes(session) -> set[str]:
    return {f.code for f in session.findings}


def edit(ws, direction: str, old: str, new: str):
    for rec in ws.records:
        if rec.get("ws") == direction:
            rec["data"] = rec["data"].replace(old, new)
    return ws


def test_a_realtime_session_with_a_function_call_is_read_as_two_responses():
    exs = exchanges(fx.realtime_function_call())
    sessions = [run_capture(ex) for ex in exs]
    assert [s.dialect_name for s in sessions] == ["openai-realtime"] * 2
    assert [codes(s) for s in sessions] == [set(), set()]
    call, = [b for b in sessions[0].blocks if b.tool]
    assert (call.name, call.call_id, call.input, call.closed) == ("get_weather", "call_rt_1", {"city": "Paris"}, True)
    message, = sessions[1].blocks
    assert message.kind == "message" and message.content == "It is 18 degrees and clear in Paris."
    assert message.extra["audio_bytes"] == 3 * fx.AUDIO_BYTES
    assert [s.stop_reason for s in sessions] == ["completed", "completed"]


def test_audio_stays_out_of_the_exchanges_and_the_session_declares_the_tools():
    exs = exchanges(fx.realtime_function_call())
    assert all(fx.AUDIO.encode() not in c.data for ex in exs for c in ex.chunks)
    assert exs[0].request["body"]["session"]["tools"] == [fx.RT_TOOL]
    assert exs[0].request["url"] == fx.RT_URL
    sent = exs[0].followup["sent"]
    assert [m["type"] for m in sent] == ["conversation.item.create"]
    assert sent[0]["item"]["call_id"] == "call_rt_1"


def test_a_call_to_a_function_the_session_never_declared_is_v001():
    ws = edit(fx.realtime_function_call(), "send", '"name":"get_weather"', '"name":"get_forecast"')
    s = run_capture(exchanges(ws)[0])
    assert "V001" in codes(s)


def test_a_tool_output_for_a_call_never_streamed_is_q003():
    ws = edit(fx.realtime_function_call(), "send", '"call_id":"call_rt_1"', '"call_id":"call_elsewhere"')
    s = run_capture(exchanges(ws)[0])
    q003 = [f for f in s.findings if f.code == "Q003"]
    assert q003 and "call_elsewhere" in q003[0].message


def test_the_socket_dropping_mid_call_is_s012_and_j005():
    ws = fx.realtime_function_call()
    cut = next(i for i, r in enumerate(ws.records) if "function_call_arguments.done" in r.get("data", ""))
    ws.records = ws.records[:cut] + [{"t": ws.records[cut]["t"], "end": "close", "code": 1006}]
    s = run_capture(exchanges(ws)[0])
    assert {"S012", "J005", "S003"} <= codes(s)


def test_session_events_after_response_done_are_not_events_after_the_end():
    ws = fx.realtime_function_call()
    ws.records.insert(-1, {"t": ws.t, "ws": "recv", "data": json.dumps(
        {"event_id": "event_late", "type": "rate_limits.updated", "rate_limits": []})})
    assert all("S004" not in codes(run_capture(ex)) for ex in exchanges(ws))


def test_responses_events_are_not_taken_for_realtime():
    s = run_capture(exchanges(fx.two_tool_rounds())[0])
    assert s.dialect_name == "openai-responses"


def test_conform_client_says_realtime_has_no_http_mutations():
    code, _, err = run_cli(["conform", "--provider", "openai-realtime", "--client", "true"])
    assert code == 2 and "--client has no mutations for openai-realtime" in err


def test_audio_is_counted_the_same_whether_its_bytes_are_kept_or_not():
    raw = fx.realtime_function_call().text().encode()
    kept = [cap for _, cap in load_all_bytes(raw, name="rt", keep_audio=True)[0]]
    assert fx.AUDIO.encode() in b"".join(c.data for c in kept[1].chunks)
    assert run_capture(kept[1]).blocks[0].extra["audio_bytes"] == 3 * fx.AUDIO_BYTES


def test_a_response_cancelled_by_the_user_is_clean_unless_a_call_was_open():
    ws = fx.RealtimeSocket()
    ws.send({"type": "response.create"})
    ws.event({"type": "response.created", "response": fx.rt_response("resp_c", "in_progress", [])})
    msg = {"id": "item_m", "object": "realtime.item", "type": "message", "role": "assistant",
           "status": "in_progress", "content": []}
    ws.event({"type": "response.output_item.added", "response_id": "resp_c", "output_index": 0, "item": msg})
    ws.event({"type": "response.output_item.done", "response_id": "resp_c", "output_index": 0,
              "item": {**msg, "status": "incomplete"}})
    ws.event({"type": "response.done", "response": {**fx.rt_response("resp_c", "cancelled", []),
                                                     "status_details": {"type": "cancelled",
                                                                        "reason": "turn_detected"}}})
    s = run_capture(exchanges(ws)[0])
    assert s.stop_reason == "cancelled" and codes(s) == set()
    call = fx.realtime_function_call()
    cut = next(i for i, r in enumerate(call.records) if "function_call_arguments.done" in r.get("data", ""))
    done = {"event_id": "event_x", "type": "response.done",
            "response": {**fx.rt_response("resp_rt_1", "cancelled", []),
                         "status_details": {"type": "cancelled", "reason": "turn_detected"}}}
    call.records = call.records[:cut] + [{"t": call.records[cut]["t"], "ws": "recv", "data": json.dumps(done)}]
    found = codes(run_capture(exchanges(call)[0]))
    assert "R005" in found
