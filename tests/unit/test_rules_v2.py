"""RULES.md v2: each new or changed rule fires on its shape and not on a near miss.

New: A017, C017, C018, R009, R010, G003, G004, G005. Changed: S003, S004, S006, S009, S013, T002,
A009, A013, A015, A016, C003, C014, R008, and the preamble (one cause, one finding). The shapes are
minimal versions of what real providers send (values replaced); the real streams behind each kind
are listed in the closing note of the issue.
"""
from __future__ import annotations

import json

from inspector.capture.load import load_bytes
from inspector.feeds.run import not_a_stream, run_capture
from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from tests.helpers import check_bytes, codes, sse, timed


def data(*payloads) -> bytes:
    return "".join(f"data: {json.dumps(p)}\n\n" for p in payloads).encode()


def finding(s, code):
    return next(f for f in s.findings if f.code == code)


# ------------------------------------------------------------------ Anthropic
START = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                              "model": "claude-x", "content": [], "stop_reason": None}}
STOP = {"type": "message_stop"}


def reason(r):
    return {"type": "message_delta", "delta": {"stop_reason": r}, "usage": {"output_tokens": 1}}


def text_block(i, t):
    return [{"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
            *([{"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": t}}] if t else []),
            {"type": "content_block_stop", "index": i}]


def test_prefilled_message_start_blocks_are_the_first_blocks_and_count():
    start = json.loads(json.dumps(START))
    start["message"]["content"] = [
        {"type": "code_execution_tool_result", "tool_use_id": "srv_1", "content": {"type": "x"}},
        {"type": "tool_use", "id": "toolu_1", "name": "pick", "input": {"deck": "blue"},
         "caller": {"type": "code_execution_20250825"}}]
    start["message"]["stop_reason"] = "tool_use"
    s = check_bytes(sse(start, STOP))
    assert codes(s) == []  # no A013 (stop_reason in message_start), no A016 (two blocks)
    assert s.stop_reason == "tool_use"
    assert [(b.kind, b.index, b.closed) for b in s.blocks] == [("code_execution_tool_result", 0, True),
                                                                ("tool_use", 1, True)]
    assert s.blocks[1].input == {"deck": "blue"} and s.blocks[1].status == "complete"
    # near miss: the message_start had no stop_reason and no message_delta came: A013
    start["message"]["stop_reason"] = None
    assert "A013" in codes(check_bytes(sse(start, STOP)))


def test_a_block_after_prefilled_ones_continues_their_index():
    start = json.loads(json.dumps(START))
    start["message"]["content"] = [{"type": "text", "text": "Before."}]
    s = check_bytes(sse(start, *text_block(1, "After."), reason("end_turn"), STOP))
    assert codes(s) == [] and [b.content for b in s.blocks] == ["Before.", "After."]
    assert codes(check_bytes(sse(start, *text_block(0, "After."), reason("end_turn"), STOP))) == ["A003"]


def test_A016_and_A009_not_on_refusals_but_on_a_near_miss():
    assert codes(check_bytes(sse(START, reason("refusal"), STOP))) == []
    assert codes(check_bytes(sse(START, reason("end_turn"), STOP))) == ["A016"]
    assert codes(check_bytes(sse(START, *text_block(0, ""), reason("refusal"), STOP))) == []
    s = check_bytes(sse(START, *text_block(0, ""), reason("end_turn"), STOP))
    assert codes(s) == ["A009"] and finding(s, "A009").event == 2  # at the block's stop


def test_A015_an_empty_signature_counts_as_missing():
    think = [{"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "",
                                                                          "signature": ""}},
             {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hm"}}]
    empty = {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": ""}}
    end = [{"type": "content_block_stop", "index": 0}, reason("end_turn"), STOP]
    assert "A015" in codes(check_bytes(sse(START, *think, empty, *end)))
    signed = json.loads(json.dumps(think))
    signed[0]["content_block"]["signature"] = "c2ln"  # from the start event
    assert "A015" not in codes(check_bytes(sse(START, *signed, *end)))


def test_A017_retry_spliced_before_message_stop_is_judged_on_its_own():
    s = check_bytes(sse(START, *text_block(0, "Half"), START, *text_block(0, "Whole."), reason("end_turn"), STOP))
    assert codes(s) == ["A017"]  # no A003 for index 0 again, no S003 for the first attempt
    assert [(b.response, b.content) for b in s.blocks] == [(0, "Half"), (1, "Whole.")]
    # near miss: one message_start only
    assert codes(check_bytes(sse(START, *text_block(0, "Whole."), reason("end_turn"), STOP))) == []


def test_S004_then_each_glued_response_is_judged_on_its_own():
    one = [START, {"type": "content_block_start", "index": 0,
                   "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
           {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
           {"type": "content_block_stop", "index": 0}, reason("tool_use"), STOP]
    two = [START, *text_block(0, "Done."), reason("end_turn"), STOP]
    s = check_bytes(sse(*one, *two))
    assert codes(s) == ["S004"]  # no A003 (index 0 again), no A007 (tool_use vs end_turn)
    assert s.stop_reason == "tool_use" and len(s.responses) == 2
    rep = report_dict("x", s)
    assert [b["response"] for b in rep["blocks"]] == [0, 1] and rep["findings"][0]["response"] == 0  # after its end
    # near miss: one response: no response numbers in the report
    assert "response" not in report_dict("x", check_bytes(sse(*two)))["blocks"][0]


def test_error_only_anthropic_body_is_anthropic_with_S006_alone():
    err = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    s = check_bytes(sse(err))
    assert s.dialect_name == "anthropic-messages" and codes(s) == ["S006"]


def test_compaction_delta_content_is_the_block_text():
    s = check_bytes(sse(START, {"type": "content_block_start", "index": 0, "content_block": {"type": "compaction"}},
                        {"type": "content_block_delta", "index": 0,
                         "delta": {"type": "compaction_delta", "content": "Summary."}},
                        {"type": "content_block_stop", "index": 0}, reason("end_turn"), STOP))
    assert s.blocks[0].content == "Summary." and codes(s) == []


# ------------------------------------------------------------------ Chat
def chunk(delta=None, finish=None, **top):
    return {"id": top.pop("id", "c1"), "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": delta if delta is not None else {}, "finish_reason": finish}], **top}


def call(index=0, cid="call_1", name="f", args=""):
    return {"tool_calls": [{"index": index, "id": cid, "type": "function",
                            "function": {"name": name, "arguments": args}}]}


def test_C017_empty_finish_reason_once_with_a_count_and_not_a_finish():
    s = check_bytes(data(chunk({"content": "a"}, ""), chunk({"content": "b"}, ""), chunk({}, "stop")) + b"data: [DONE]\n\n")
    assert codes(s) == ["C017"]
    f = finding(s, "C017")
    assert (f.count, f.event, f.last_event) == (2, 0, 1)
    assert s.stop_reason == "stop" and s.blocks[0].content == "ab"  # "" ended nothing (no C016)
    assert codes(check_bytes(data(chunk({"content": "a"}, None), chunk({}, "stop")) + b"data: [DONE]\n\n")) == []


def test_C018_tool_calls_not_a_list_once_and_the_object_still_read():
    entry = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    s = check_bytes(data(chunk({"tool_calls": entry}), chunk({"tool_calls": {"index": 0, "function": {}}}),
                         chunk({}, "tool_calls")) + b"data: [DONE]\n\n")
    assert codes(s) == ["C018"] and s.blocks[0].input == {}
    assert codes(check_bytes(data(chunk({"tool_calls": "{}"}), chunk({}, "stop")) + b"data: [DONE]\n\n")) == ["C018"]
    assert codes(check_bytes(data(chunk({"tool_calls": [entry]}), chunk({}, "tool_calls")) + b"data: [DONE]\n\n")) == []


def test_C014_error_after_tool_calls_info_without():
    calls = data(chunk(call(args="{}")), chunk({}, "tool_calls"), chunk({}, "tool_calls")) + b"data: [DONE]\n\n"
    assert finding(check_bytes(calls), "C014").severity == "error"
    text = data(chunk({"content": "hi"}), chunk({}, "stop"), chunk({}, "stop", usage={"total_tokens": 3})) + b"data: [DONE]\n\n"
    assert [(f.code, f.severity) for f in check_bytes(text).findings] == [("C014", "info")]


def test_C003_is_info_when_the_request_forces_one_function():
    body = data(chunk(call(args="{}")), chunk({}, "stop")) + b"data: [DONE]\n\n"
    assert finding(check_bytes(body), "C003").severity == "warning"
    cap = load_bytes(body)
    cap.request = {"method": "POST", "url": "u", "headers": {},
                   "body": {"tool_choice": {"type": "function", "function": {"name": "f"}}}}
    assert finding(run_capture(cap), "C003").severity == "info"


def test_C002_says_when_the_name_arrived_later_and_negative_index_is_said():
    s = check_bytes(data(chunk(call(name="", args="{")), chunk({"tool_calls": [{"index": 0, "function": {"name": "f",
                                                                                                        "arguments": "}"}}]}),
                         chunk({}, "tool_calls")) + b"data: [DONE]\n\n")
    assert "the real name 'f' arrived later" in finding(s, "C002").message and s.blocks[0].name == "f"
    s = check_bytes(data(chunk(call(index=-1, args="{}")), chunk({}, "tool_calls")) + b"data: [DONE]\n\n")
    assert "negative index -1" in finding(s, "C001").message


def test_chat_audio_transcript_and_legacy_text_completion_are_shown():
    s = check_bytes(data(chunk({"audio": {"id": "au_1", "transcript": "Hel", "data": "AAAA"}}),
                         chunk({"audio": {"transcript": "lo."}}), chunk({}, "stop")) + b"data: [DONE]\n\n")
    assert [(b.kind, b.content) for b in s.blocks] == [("audio", "Hello.")] and codes(s) == []
    legacy = [{"id": "cmpl-1", "object": "text_completion", "model": "m",
               "choices": [{"index": 0, "text": t, "finish_reason": f}]} for t, f in (("Hi", None), ("!", "length"))]
    s = check_bytes(data(*legacy) + b"data: [DONE]\n\n")
    assert s.blocks[0].content == "Hi!" and codes(s) == ["S008"]


def test_a_new_chat_id_after_done_is_a_new_response():
    s = check_bytes(data(chunk({"content": "a"}, "stop")) + b"data: [DONE]\n\n"
                    + data(chunk({"content": "b"}, "stop", id="c2")) + b"data: [DONE]\n\n")
    assert codes(s) == ["S004"] and [b.response for b in s.blocks] == [0, 1]
    # near miss: a usage chunk with the same id after [DONE] is S004 only, in the same response
    s = check_bytes(data(chunk({"content": "a"}, "stop")) + b"data: [DONE]\n\n" + data(chunk(usage={"x": 1})))
    assert codes(s) == ["S004"] and len(s.responses) == 1


# ------------------------------------------------------------------ Responses
def ev(typ, seq, **kw):
    return {"type": typ, "sequence_number": seq, **kw}


def responses(*events) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def message_stream(done_text="Hi there.", ids=("m1", "m1", "m1")):
    return responses(
        ev("response.created", 0, response={"id": "r", "status": "in_progress"}),
        ev("response.output_item.added", 1, output_index=0, item={"type": "message", "id": "m1", "content": []}),
        ev("response.output_text.delta", 2, item_id=ids[0], output_index=0, content_index=0, delta="Hi "),
        ev("response.output_text.delta", 3, item_id=ids[1], output_index=0, content_index=0, delta="there."),
        ev("response.output_text.done", 4, item_id=ids[2], output_index=0, content_index=0, text=done_text),
        ev("response.output_item.done", 5, output_index=0,
           item={"type": "message", "id": "m1", "content": [{"type": "output_text", "text": done_text}]}),
        ev("response.completed", 6, response={"id": "r", "status": "completed"}))


def test_R009_text_deltas_differ_from_done_and_not_when_equal():
    assert codes(check_bytes(message_stream())) == []
    s = check_bytes(message_stream("Hi, there."))
    assert codes(s) == ["R009"] and s.blocks[0].content == "Hi there."


def test_R010_rotated_item_ids_attributed_by_output_index_once_per_item():
    s = check_bytes(message_stream(ids=("x2", "x3", "x4")))
    assert codes(s) == ["R010"] and s.blocks[0].content == "Hi there." and s.blocks[0].closed
    # near miss: an item_id with no known output_index is still R001
    s = check_bytes(responses(ev("response.created", 0), ev("response.output_text.delta", 1, item_id="zz",
                                                                      delta="?"),
                              ev("response.completed", 2, response={"status": "completed"})))
    assert "R001" in codes(s) and "R010" not in codes(s)


def test_R008_not_for_a_resumed_stream():
    late = responses(ev("response.output_text.delta", 7, item_id="m1", output_index=0, delta="x"))
    assert "R008" not in codes(check_bytes(late))
    first = responses(ev("response.in_progress", 0, response={"status": "in_progress"}))
    assert "R008" in codes(check_bytes(first))


def test_error_only_responses_body_is_responses_with_S006_alone():
    s = check_bytes(responses(ev("error", 2, code=None, message="boom", param=None)))
    assert s.dialect_name == "openai-responses" and codes(s) == ["S006"]


# ------------------------------------------------------------------ Gemini
def gem(*parts, finish=None, **top):
    cand = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        cand["finishReason"] = finish
    return {"candidates": [cand], "modelVersion": "g", **top}


def test_G003_intermediate_finish_once_and_one_text_block():
    s = check_bytes(data(gem({"text": "Leaves "}, finish="STOP"), gem({"text": "fall."}, finish="STOP"),
                         gem({"text": " Wind."}, finish="STOP")))
    assert codes(s) == ["G003"] and finding(s, "G003").severity == "info"
    assert [b.content for b in s.blocks] == ["Leaves fall. Wind."] and s.blocks[0].closed
    # near miss: the STOP is on the last frame only; trailing empty STOP frames add no parts
    s = check_bytes(data(gem({"text": "a"}), gem({"text": "b"}, finish="STOP"), gem(finish="STOP")))
    assert codes(s) == []


def test_G004_finish_before_content_and_its_near_miss():
    s = check_bytes(data(gem(finish="STOP"), gem({"text": "Rain."}), gem(finish="STOP")))
    assert codes(s) == ["G004"] and "before any content" in finding(s, "G004").message
    assert codes(check_bytes(data(gem(finish="STOP")))) == []  # an empty answer, nothing follows


def test_S003_for_gemini_is_judged_on_the_last_frame():
    assert codes(check_bytes(data(gem({"text": "a"}, finish="STOP"), gem({"text": "b"})))) == ["G003", "S003"]


def test_G005_streamed_call_assembled_and_unfinished():
    head = gem({"functionCall": {"name": "get", "willContinue": True}})
    a = gem({"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Tro", "willContinue": True}],
                              "willContinue": True}})
    b = gem({"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "ms\u00f8"},
                                              {"jsonPath": "$.days[0]", "numberValue": 3},
                                              {"jsonPath": "$.ok", "boolValue": True}],
                              "willContinue": True}})
    end = gem({"functionCall": {}}, finish="STOP")
    s = check_bytes(data(head, a, b, end))
    assert codes(s) == [] and s.blocks[0].input == {"city": "Troms\u00f8", "days": [3], "ok": True}
    assert s.blocks[0].status == "complete" and s.blocks[0].deltas >= 2
    s = check_bytes(data(head, a, gem(finish="STOP")))
    assert "G005" in codes(s) and s.blocks[0].status == "partial"


def test_gemini_unknown_fields_are_S008_never_silence():
    s = check_bytes(data(gem({"text": "a", "newThing": 1}, finish="STOP", brandNew=True)))
    assert [f.code for f in s.findings] == ["S008", "S008"]


# ------------------------------------------------------------------ framing and detection
def test_S006_pretty_json_error_is_one_finding_never_S002_per_line():
    body = b'[\n  {\n    "error": {\n      "code": 400,\n      "message": "bad key",\n      "status": "INVALID_ARGUMENT"\n    }\n  }\n]\n'
    s = check_bytes(body)
    assert codes(s) == ["S006"] and s.dialect_name == "gemini"
    after = data(gem({"text": "Partial"})) + b'{\n  "error": {"code": 499, "message": "cancelled", "status": "CANCELLED"}\n}\n'
    s = check_bytes(after)
    assert codes(s) == ["S006"]


def test_gemini_json_array_body_is_read_as_events():
    elements = (json.dumps(c, indent=2).replace("\n", "\r\n") for c in (gem({"text": "Fog "}),
                                                                           gem({"text": "lifts."}, finish="STOP")))
    body = ("[" + ",\r\n".join(elements) + "]").encode()
    s = check_bytes(body)
    assert s.dialect_name == "gemini" and codes(s) == [] and s.blocks[0].content == "Fog lifts."
    first_lines = body.split(b",\r\n{")[0].count(b"\n") + 1
    assert [e.line for e in s.events] == [1, first_lines + 1]  # each element at its own first line
    assert "S010" in codes(check_bytes(body[:-1]))  # the array never closed: the body was cut


def test_S009_double_bom_is_one_finding():
    body = b"\xef\xbb\xbf\xef\xbb\xbf" + sse(START, STOP)
    s = check_bytes(body)
    assert [f.code for f in s.findings if f.code == "S009"] == ["S009"] and "two" in finding(s, "S009").message
    assert "two" not in finding(check_bytes(b"\xef\xbb\xbf" + sse(START, STOP)), "S009").message


def test_S013_only_for_object_or_array_lines():
    assert "S013" not in codes(check_bytes(b"data: 1\ndata: 2\n\n"))
    assert "S013" in codes(check_bytes(b'data: {"a": 1}\ndata: {"b": 2}\n\n'))


def test_T002_before_the_first_content_and_ttfc():
    cap = timed((0.1, sse(START)), (5.0, b": ping\n\n"), (11.0, b": ping\n\n"),
                (12.0, sse(*text_block(0, "hi"), reason("end_turn"), STOP)))
    s = run_capture(cap)
    assert codes(s) == ["T002"] and "before the first content" in finding(s, "T002").message
    assert report_dict("x", s)["ttfc_s"] == 12.0 and report_dict("x", s)["ttfb_s"] == 0.1
    quick = timed((0.1, sse(START)), (0.2, sse(*text_block(0, "hi"), reason("end_turn"), STOP)))
    assert codes(run_capture(quick)) == []


def test_ollama_lines_without_done_are_ollama_and_truncated():
    lines = b"".join(json.dumps({"model": "m", "created_at": "2026-01-01T00:00:00Z",
                                 "message": {"role": "assistant", "content": w}}).encode() + b"\n" for w in ("a", "b"))
    s = check_bytes(lines)
    assert s.dialect_name == "ollama" and codes(s) == ["S003"]


def test_not_a_stream_capture():
    for raw, why in ((b'{"hello": "world"}\n', "keys: hello"), (b"[tool]\nname = 'x'\n", "none of them"),
                     (b"plain words\n", "no SSE event")):
        cap = load_bytes(raw)
        s = run_capture(cap)
        assert why in (not_a_stream(s, cap) or ""), raw
    for raw in (sse(START, STOP), b"data: 1\n\n", b'{"error": {"message": "x"}}\n'):
        cap = load_bytes(raw)
        assert not_a_stream(run_capture(cap), cap) is None, raw


def test_one_cause_one_finding_counts_repeats_and_keeps_distinct_causes():
    unknown = [{"type": "brand_new", "x": i} for i in range(3)]
    s = check_bytes(sse(START, *unknown, {"type": "other_new"}, *text_block(0, "a"), reason("end_turn"), STOP))
    s008 = [f for f in s.findings if f.code == "S008"]
    assert [(f.count, f.event, f.last_event) for f in s008] == [(3, 1, 3), (1, 4, 4)]
    cap = Capture(chunks=[Chunk(0.0, b"data: {bad\n\ndata: {worse\n\ndata: [1,]\n\n")], request_relative=True)
    bad = [(f.count, f.event) for f in run_capture(cap).findings if f.code == "S002"]
    assert bad == [(2, 0), (1, 2)]  # the same malformed shape twice is one cause; a trailing comma another


def test_client_hanging_up_after_done_is_not_connection_lost():
    """openai-python stops reading at [DONE] and closes the connection before a gateway ends its
    body (seen through LiteLLM): nothing was lost, no S012. Near miss: a hang-up before [DONE]."""
    chunk = {"id": "c", "object": "chat.completion.chunk", "model": "m",
             "choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": None}]}
    last = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    body = "data: " + json.dumps(chunk) + "\n\n" + "data: " + json.dumps(last) + "\n\n"
    done = run_capture(timed((0.1, body), (0.2, "data: [DONE]\n\n"), end=(0.3, "cancelled")))
    assert "S012" not in codes(done)
    cut = run_capture(timed((0.1, body), end=(0.3, "cancelled")))
    assert "S012" in codes(cut)
