"""The session's own rules: J (tool arguments), T (timing), S002/S007/S012, and what they point at."""
from __future__ import annotations

import json

from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from tests.helpers import check_bytes, codes, sse, timed
from tests.unit.test_dialect_anthropic import MSG_START, STOP, args, reason, start, stop, text


def tool(*fragments, close=True, end=True):
    evs = [MSG_START, start(0, "tool_use"), *[args(0, f) for f in fragments]]
    if close:
        evs.append(stop(0))
    if end:
        evs += [reason("tool_use"), STOP]
    return check_bytes(sse(*evs))


def test_J001_points_at_the_delta_and_offset():
    s = tool('{"a": 1', ', "b" 2}')
    f = [f for f in s.findings if f.code == "J001"]
    assert len(f) == 1 and f[0].event == 3 and "character 13" in f[0].message
    assert s.blocks[0].status == "invalid"


def test_J002_closed_incomplete_but_not_when_empty_or_complete():
    assert "J002" in codes(tool('{"a": "b'))
    assert "J002" not in codes(tool('{"a": "b"}'))
    assert "J002" not in codes(tool())


def test_J003_trailing_data_two_values_glued():
    s = tool('{"a":1}', '{"b":2}')
    assert "J003" in codes(s) and s.blocks[0].status == "invalid"


def test_J004_not_an_object():
    assert "J004" in codes(tool('[1, 2]'))
    assert "J004" not in codes(tool('{"x": [1, 2]}'))


def test_J005_stream_ended_with_open_tool_block():
    s = tool('{"a": 1}', close=False, end=False)
    assert "J005" in codes(s) and "S003" in codes(s)


def test_J006_cumulative_snapshots_and_whole_resend():
    assert "J006" in codes(tool('{"a"', '{"a": 1', '{"a": 1}'))
    assert "J006" in codes(tool('{"a": 1}', '{ "a": 1 }'))
    assert "J006" not in codes(tool('{"a"', ': 1}'))
    assert "J006" not in codes(tool('{"a": 1}', ''))


def test_T001_stall_counts_the_wait_for_the_first_byte_and_the_gap_to_the_end():
    body = sse(MSG_START, start(0), text(0, "x"), stop(0), reason("end_turn"), STOP).decode()
    cap = timed((12.0, body), end=(30.0, "eof"))
    s = run_capture(cap)
    t001 = [f for f in s.findings if f.code == "T001"]
    assert len(t001) == 2 and "12.0 s" in t001[0].message and t001[0].event == 0 and "18.0 s" in t001[1].message
    assert codes(run_capture(cap, stall_s=60)) == []


def test_T001_not_judged_on_untimed_text():
    assert "T001" not in codes(tool("{}"))


def test_T002_keepalive_only_while_a_block_is_open():
    evs = [sse(MSG_START, start(0), text(0, "a")).decode()]
    chunks = [(0.1, evs[0])] + [(0.1 + 4 * k, 'event: ping\ndata: {"type": "ping"}\n\n') for k in range(1, 5)]
    chunks.append((17.0, sse(text(0, "b"), stop(0), reason("end_turn"), STOP).decode()))
    s = run_capture(timed(*chunks))
    assert codes(s) == ["T002"]
    assert s.findings[0].index == 0


def test_T003_buffered_arguments_late_burst():
    head = sse(MSG_START, start(0, "tool_use"), args(0, "")).decode()
    burst = sse(args(0, '{"body": "' + "x" * 500), args(0, '"}'), stop(0), reason("tool_use"), STOP).decode()
    s = run_capture(timed((0.5, head), (40.0, burst)))
    assert "T003" in codes(s) and "eager_input_streaming" in s.findings[-1].message
    steady = [(0.5, head)] + [(1.0 + k, sse(args(0, '{"a": "' if k == 0 else "x" * 20)).decode()) for k in range(30)]
    steady.append((31.5, sse(args(0, '"}'), stop(0), reason("tool_use"), STOP).decode()))
    assert "T003" not in codes(run_capture(timed(*steady)))


def test_S002_malformed_json_data():
    raw = sse(MSG_START).decode() + "event: content_block_start\ndata: {not json\n\n"
    assert "S002" in codes(check_bytes(raw.encode()))


def test_S007_error_status_shows_the_body_and_silences_framing_rules():
    cap = timed((0.2, json.dumps({"error": {"type": "rate_limit_error", "message": "slow down"}})),
                status=429, ctype="application/json")
    s = run_capture(cap)
    f = [f for f in s.findings if f.code == "S007"]
    assert f and "429" in f[0].message and "slow down" in f[0].message
    assert not {"S002", "S003", "S010"} & set(codes(s))


def test_S007_not_a_stream_content_type():
    cap = timed((0.2, "<html>bad gateway</html>"), status=200, ctype="text/html")
    assert "S007" in codes(run_capture(cap))


def test_S012_connection_lost():
    body = sse(MSG_START, start(0, "tool_use"), args(0, '{"a": "x')).decode()
    s = run_capture(timed((0.3, body), end=(1.0, "reset")))
    assert {"S012", "S003", "J005"} <= set(codes(s))


def test_severity_override():
    s = run_capture(timed((0.3, sse(MSG_START, start(0), stop(0), reason("end_turn"), STOP).decode())),
                    severity_overrides={"A009": "error"})
    assert [(f.code, f.severity) for f in s.findings] == [("A009", "error")]


def test_S004_for_a_comment_or_done_after_the_end_marker():
    clean = sse(MSG_START, start(0), text(0, "x"), stop(0), reason("end_turn"), STOP)
    assert codes(check_bytes(clean + b": bye\n\n")) == ["S004"]
    assert sorted(codes(check_bytes(clean + b"data: [DONE]\n\n"))) == ["S002", "S004"]


def test_S002_for_done_outside_openai_but_not_in_chat():
    chat = (b'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},'
            b'"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
    assert codes(check_bytes(chat)) == []


def test_A016_when_only_orphan_deltas_arrived():
    s = check_bytes(sse(MSG_START, args(0, "{}"), stop(0), reason("end_turn"), STOP))
    assert codes(s) == ["A001", "A016"]


def test_T003_not_fired_when_the_input_came_whole_in_the_start_event():
    head = sse(MSG_START, start(0, "tool_use", input={"a": "q" * 60})).decode()
    s = run_capture(timed((1.0, head), (6.0, ": ping\n\n"), (12.0, sse(stop(0), reason("tool_use"), STOP).decode())))
    assert "T003" not in codes(s) and s.blocks[0].input == {"a": "q" * 60}


def test_S007_json_body_outside_ollama_silences_framing_rules():
    body = '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}'
    s = run_capture(timed((0.1, body), ctype="application/json"))
    assert codes(s) == ["S007"]


def test_unknown_dialect_is_said():
    s = check_bytes(b'data: {"foo": 1}\n\n')
    assert s.dialect_name == "unknown" and codes(s) == ["S008"]


def test_S006_for_an_error_chunk_that_also_carries_choices():
    raw = (b'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n'
           b'data: {"object":"chat.completion.chunk","error":{"code":"server_error","message":"Provider disconnected"},'
           b'"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\ndata: [DONE]\n\n')
    s = check_bytes(raw)
    assert codes(s) == ["S006"] and "Provider disconnected" in s.findings[0].message and s.stop_reason == "error"


def test_an_error_object_then_done_decides_no_dialect_but_is_still_an_error_without_S002():
    # RULES.md v3, dialect detection: neither a generic {"error": …} nor a lone [DONE] decides a dialect.
    raw = (b'data: {"error": {"message": "The server is overloaded", "type": "server_error"}}\n\n'
           b'data: [DONE]\n\n')
    s = check_bytes(raw)
    assert s.dialect_name == "unknown" and codes(s) == ["S006", "S008"]
    # the request's URL still says which API answered (a native capture of a Chat request)
    s = run_capture(Capture(request={"method": "POST", "url": "http://127.0.0.1:8000/v1/chat/completions"},
                            chunks=[Chunk(0.1, raw)], request_relative=True))
    assert s.dialect_name == "openai-chat" and codes(s) == ["S006"]


def test_G002_for_a_signature_on_a_text_part_in_a_turn_without_calls():
    raw = (b'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello","thoughtSignature":"c2ln"}]},"index":0}]}\n\n'
           b'data: {"candidates":[{"content":{"role":"model","parts":[{"text":" there"}]},"index":0,"finishReason":"STOP"}]}\n\n')
    s = check_bytes(raw)
    assert codes(s) == ["G002"] and s.findings[0].severity == "info"
