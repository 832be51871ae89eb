"""RULES.md v3: each new or changed rule fires on its shape and not on a near miss.

New: C019, C020, R011, R012. Changed: A004 (error, and what anthropic-python does), C001 (what
openai-python does, measured), C007 (info when every choice finished and the body ended cleanly), R001
(not in a resumed stream), R009 (deltas after `.done` count). The shapes are minimal versions of what
real providers send (values replaced).
"""
from __future__ import annotations

import json

from inspector.model.clients import sayer
from inspector.providers import PROVIDERS
from tests.helpers import check_bytes, codes, sse

says = sayer({k: row for p in PROVIDERS.values() for k, row in (p.clients or {}).items()})


def data(*payloads) -> bytes:
    return "".join(p if isinstance(p, str) else f"data: {json.dumps(p)}\n\n" for p in payloads).encode()


def finding(s, code):
    return next(f for f in s.findings if f.code == code)


# ------------------------------------------------------------------ Chat
def chunk(delta=None, finish=None, **extra):
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m", **extra,
            "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}]}


DONE = "data: [DONE]\n\n"


def call(name, args="", index=0, cid="call_1"):
    return {"tool_calls": [{"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": args}}]}


def args(text, index=0):
    return {"tool_calls": [{"index": index, "function": {"arguments": text}}]}


def test_C020_a_leaked_template_token_or_an_impossible_name():
    for name in ("query_dataset<|channel|>commentary", "<tool_call>get_weather", "[TOOL_CALLS]get_weather",
                 "get weather", "x" * 129):
        s = check_bytes(data(chunk(call(name, "{}")), chunk(finish="tool_calls"), DONE))
        assert codes(s) == ["C020"], name
        assert finding(s, "C020").severity == "error" and s.blocks[0].name == name
    # near misses: names every API accepts
    for name in ("get_weather", "mcp.server:search-v2", "x" * 128):
        assert codes(check_bytes(data(chunk(call(name, "{}")), chunk(finish="tool_calls"), DONE))) == [], name


def test_C020_judges_a_name_that_arrives_after_a_nameless_first_fragment():
    first = {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "", "arguments": ""}}]}
    s = check_bytes(data(chunk(first), chunk(call("get<|call|>", "{}")), chunk(finish="tool_calls"), DONE))
    assert "C020" in codes(s)


def test_C019_content_restated_on_the_finish_chunk():
    said = "Let me check the weather in Oslo."
    s = check_bytes(data(chunk({"content": "Let me check "}), chunk({"content": "the weather in Oslo."}),
                         chunk({"content": said}, "stop"), DONE))
    assert codes(s) == ["C019"] and finding(s, "C019").severity == "warning"
    assert s.blocks[0].content == said + said  # shown as the client assembles it
    # a restatement of the latest sentence only
    s = check_bytes(data(chunk({"content": "Hello there. "}), chunk({"content": "It is sunny today."}),
                         chunk({"content": "It is sunny today."}), chunk(finish="stop"), DONE))
    assert codes(s) == ["C019"]


def test_C019_near_misses_short_tokens_new_text_and_runs_of_one_character():
    assert codes(check_bytes(data(chunk({"content": "the"}), chunk({"content": "the"}), chunk(finish="stop"),
                                  DONE))) == []
    assert codes(check_bytes(data(chunk({"content": "Hello there. "}), chunk({"content": "It is sunny today."}),
                                  chunk(finish="stop"), DONE))) == []
    assert codes(check_bytes(data(chunk({"content": "--------"}), chunk({"content": "--------"}),
                                  chunk(finish="stop"), DONE))) == []
    # one long word said twice (code: `function` … `function`) is no restated sentence
    assert codes(check_bytes(data(chunk({"content": "function"}), chunk({"content": " f() {} "}),
                                  chunk({"content": "function"}), chunk(finish="stop"), DONE))) == []


def test_C019_in_a_run_of_deltas_is_the_same_as_one_by_one():
    from tests.unit.test_runs import _both, _capture, chat as chat_body

    # Thousands of identical-shape content chunks: the framing hands them over as runs, and a
    # restatement inside a run is found as it is one event at a time.
    words = [f" word{i:05d}" for i in range(3000)]
    for text, want in ((words + ["".join(words[-3:])], ["C019"]), (words + ["".join(words[:2])], ["C019"]),
                       (words, []), (words + ["x" * 9, "x" * 9], []), (words + [words[0]], [])):
        body = data(*(chunk({"content": w}) for w in text), chunk(finish="stop"), DONE)
        assert codes(check_bytes(body)) == want
        fast, exact, runs = _both(_capture(chat_body([], text)))
        assert fast == exact and runs > 0


def test_C001_says_what_openai_python_does_by_kind_of_index():
    missing = {"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    s = check_bytes(data(chunk(missing), chunk(finish="tool_calls"), DONE))
    assert says("C001-missing-index") in finding(s, "C001").message
    negative = {"tool_calls": [{"index": -1, "id": "call_1", "type": "function",
                                "function": {"name": "f", "arguments": "{}"}}]}
    s = check_bytes(data(chunk(negative), chunk(finish="tool_calls"), DONE))
    assert says("C001-negative-index") in finding(s, "C001").message
    assert "RuntimeError" not in finding(s, "C001").message


def test_C007_is_info_when_every_choice_finished_and_the_body_ended_cleanly():
    # Writer: a usage chunk then EOF, no [DONE]
    s = check_bytes(data(chunk({"content": "Hi"}), chunk(finish="stop"),
                         {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
                          "usage": {"prompt_tokens": 1, "completion_tokens": 1}}))
    assert codes(s) == ["C007"] and finding(s, "C007").severity == "info"
    # near miss: a choice never finished: S003 and C007 stays a warning
    s = check_bytes(data(chunk({"content": "Hi"})))
    assert "S003" in codes(s) and finding(s, "C007").severity == "warning"


def test_C007_stays_a_warning_when_the_body_did_not_end_cleanly():
    # the last event lacks its blank line (S010): not a clean end
    s = check_bytes(data(chunk({"content": "Hi"})) + f"data: {json.dumps(chunk(finish='stop'))}".encode())
    assert finding(s, "C007").severity == "warning"


# ------------------------------------------------------------------ Anthropic
START = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                              "model": "claude-x", "content": [], "stop_reason": None}}


def text_block(i, t):
    return [{"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": t}},
            {"type": "content_block_stop", "index": i}]


END = [{"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
       {"type": "message_stop"}]


def test_A004_is_an_error_and_says_what_anthropic_python_does_on_a_skipped_index():
    s = check_bytes(sse(START, *text_block(0, "a"), *text_block(2, "b"), *END))
    f = finding(s, "A004")
    assert f.severity == "error" and says("A004-index-out-of-order") in f.message
    assert codes(check_bytes(sse(START, *text_block(0, "a"), *text_block(1, "b"), *END))) == []


# ------------------------------------------------------------------ Responses
def resp_events(*events, start=0):
    return sse(*(dict(e, sequence_number=start + i) for i, e in enumerate(events)))


RESP = {"id": "resp_1", "object": "response", "status": "in_progress", "model": "m", "output": []}
MSG = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress", "content": []}


def part_added(ci, oi=0, iid="msg_1"):
    return {"type": "response.content_part.added", "item_id": iid, "output_index": oi, "content_index": ci,
            "part": {"type": "output_text", "text": "", "annotations": []}}


def text_delta(t, ci=0, oi=0, iid="msg_1"):
    return {"type": "response.output_text.delta", "item_id": iid, "output_index": oi, "content_index": ci, "delta": t}


def text_done(t, ci=0, oi=0, iid="msg_1"):
    return {"type": "response.output_text.done", "item_id": iid, "output_index": oi, "content_index": ci, "text": t}


def item_done(text, oi=0):
    return {"type": "response.output_item.done", "output_index": oi,
            "item": dict(MSG, status="completed", content=[{"type": "output_text", "text": text, "annotations": []}])}


def completed(*items):
    return {"type": "response.completed", "response": dict(RESP, status="completed", output=list(items))}


def message(ci):
    return [{"type": "response.output_item.added", "output_index": 0, "item": MSG}, part_added(ci),
            text_delta("Hi", ci), text_done("Hi", ci), item_done("Hi")]


def test_R011_a_content_index_whose_earlier_parts_were_never_added():
    s = check_bytes(resp_events({"type": "response.created", "response": RESP}, *message(1), completed()))
    assert codes(s) == ["R011"]
    assert finding(s, "R011").severity == "error" and says("R011-content-index-gap") in finding(s, "R011").message
    # a delta at index 1 with no part added at all
    events = [{"type": "response.created", "response": RESP},
              {"type": "response.output_item.added", "output_index": 0, "item": MSG}, text_delta("Hi", 1),
              item_done("Hi"), completed()]
    assert codes(check_bytes(resp_events(*events))) == ["R011"]
    # near miss: parts 0 and 1 both added
    events = [{"type": "response.created", "response": RESP},
              {"type": "response.output_item.added", "output_index": 0, "item": MSG}, part_added(0), part_added(1),
              text_delta("Hi", 1), item_done("Hi"), completed()]
    assert codes(check_bytes(resp_events(*events))) == []
    assert codes(check_bytes(resp_events({"type": "response.created", "response": RESP}, *message(0),
                                         completed()))) == []


FINAL = "Here is the quick brown fox."


def test_R012_a_resumed_stream_is_assembled_from_what_arrives():
    events = [text_delta(" the quick"), text_delta(" brown fox."), text_done(FINAL), item_done(FINAL),
              completed(item_done(FINAL)["item"])]
    s = check_bytes(resp_events(*events, start=11))
    assert codes(s) == ["R012"] and finding(s, "R012").severity == "info"
    assert says("R012-resumed-stream") in finding(s, "R012").message
    assert [(b.kind, b.id, b.content, b.closed) for b in s.blocks] == [("message", "msg_1", FINAL, True)]
    # near miss: the same body from sequence_number 0 is not resumed: R008 and R001, no block
    s = check_bytes(resp_events(*events, start=0))
    assert "R012" not in codes(s) and {"R008", "R001"} <= set(codes(s))


def test_R012_items_known_only_from_output_item_done_or_response_completed():
    call = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "get_weather",
            "arguments": '{"city": "Oslo"}', "status": "completed"}
    events = [{"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1,
               "delta": 'Oslo"}'},
              {"type": "response.output_item.done", "output_index": 1, "item": call},
              completed(item_done(FINAL)["item"], call)]
    s = check_bytes(resp_events(*events, start=40))
    assert codes(s) == ["R012"]
    by_kind = {b.kind: b for b in s.blocks}
    assert by_kind["function_call"].input == {"city": "Oslo"} and by_kind["function_call"].closed
    assert by_kind["message"].content == FINAL and by_kind["message"].closed  # only in response.completed


def test_R012_with_starting_after_in_the_request_and_a_suffix_that_does_not_fit():
    # deltas that are no suffix of the final text: R009 still says so
    events = [text_delta(" brown cat."), text_done(FINAL), item_done(FINAL), completed(item_done(FINAL)["item"])]
    assert set(codes(check_bytes(resp_events(*events, start=11)))) == {"R012", "R009"}


def test_R009_counts_deltas_that_arrive_after_the_parts_done():
    events = [{"type": "response.created", "response": RESP},
              {"type": "response.output_item.added", "output_index": 0, "item": MSG}, part_added(0),
              text_delta("Hi"), text_done("Hi"), text_delta(" there"), item_done("Hi there"), completed()]
    s = check_bytes(resp_events(*events))
    assert codes(s) == ["R009"] and "after the part's .done" in finding(s, "R009").message
    assert s.blocks[0].content == "Hi there"
    # near miss: an empty delta after .done changes nothing
    events[5] = text_delta("")
    events[6] = item_done("Hi")
    assert codes(check_bytes(resp_events(*events))) == []


# ------------------------------------------------------------------ Gemini (PROTOCOLS.md §8)
def gemini(*frames) -> bytes:
    return data(*frames)


def cand(parts=None, finish=None):
    c = {"content": {"role": "model", "parts": parts or []}, "index": 0}
    if finish is not None:
        c["finishReason"] = finish
    return {"candidates": [c]}


def test_gemini_integer_finish_reasons_read_as_their_names():
    s = check_bytes(gemini(cand([{"text": "Fog "}]), cand([{"text": "lifts."}], finish=1)))
    assert s.dialect_name == "gemini" and codes(s) == [] and s.stop_reason == "STOP"
    s = check_bytes(gemini(cand([{"functionCall": {"name": "f", "args": {}}}], finish=9)))
    assert "G001" in codes(s) and s.stop_reason == "MALFORMED_FUNCTION_CALL"
    # a number no enum has: shown as it came, S008, and still the end of the stream (no S003)
    s = check_bytes(gemini(cand([{"text": "x"}], finish=99)))
    assert codes(s) == ["S008"] and s.stop_reason == "99"
    # near miss: no finishReason at all is still a truncated stream
    assert codes(check_bytes(gemini(cand([{"text": "x"}])))) == ["S003"]


def native(body: str, ctype: str, url: str = "https://aiplatform.googleapis.com/v1/x:streamGenerateContent") -> bytes:
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": url, "headers": {}, "body": None},
            "response": {"status": 200, "headers": {"content-type": ctype}}}
    lines = [head, {"t": 0.4, "data": body[:40]}, {"t": 0.5, "data": body[40:]}, {"t": 0.6, "end": "eof"}]
    return "\n".join(json.dumps(x) for x in lines).encode() + b"\n"


def test_a_json_array_body_is_a_gemini_stream_whatever_its_content_type():
    body = json.dumps([cand([{"text": "Fog "}]), cand([{"text": "lifts."}], finish=1)], indent=2)
    for ctype in ("application/json; charset=UTF-8", "text/plain"):
        s = check_bytes(native(body, ctype))
        assert s.dialect_name == "gemini" and codes(s) == [], ctype
        assert s.blocks[0].content == "Fog lifts." and s.stop_reason == "STOP"
    # near misses: an application/json object from Chat is not a stream; a JSON array with status 500 is S007
    chat = json.dumps({"id": "c", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}]})
    assert "S007" in codes(check_bytes(native(chat, "application/json")))
    raw = native(body, "application/json").replace(b'"status": 200', b'"status": 500')
    assert "S007" in codes(check_bytes(raw))


def test_a_gemini_function_call_without_args_is_shown_as_an_empty_object():
    from inspector.report.text import render
    s = check_bytes(gemini(cand([{"functionCall": {"name": "get_time"}}], finish="STOP")))
    b = s.blocks[0]
    assert codes(s) == [] and b.status == "complete" and b.input == {} and b.empty_shown == "{}"
    assert "get_time" in render("x", s) and ": {}" in render("x", s)
    # near miss: a call with arguments shows them, not {}
    s = check_bytes(gemini(cand([{"functionCall": {"name": "f", "args": {"a": 1}}}], finish="STOP")))
    assert s.blocks[0].empty_shown is None and s.blocks[0].content == '{"a":1}'


# ------------------------------------------------------------------ Bedrock (PROTOCOLS.md §8)
def test_bedrock_guardrail_intervened_is_a_known_stop_reason():
    from tests import bedrock_frames as bf
    body = b"".join(bf.chunk(e) for e in [bf.a_message_start(), *bf.a_text_block(0, "I can't"),
                                           *bf.a_end("guardrail_intervened")])
    s = check_bytes(bf.native(body, path="/model/m/invoke-with-response-stream").encode())
    assert s.dialect_name == "bedrock-anthropic" and codes(s) == [] and s.stop_reason == "guardrail_intervened"
    # near miss: the Anthropic API itself never sends it
    s = check_bytes(sse(START, *text_block(0, "x"), {"type": "message_delta", "delta": {"stop_reason":
                        "guardrail_intervened"}, "usage": {"output_tokens": 1}}, {"type": "message_stop"}))
    assert codes(s) == ["S008"]


def test_bedrock_redacted_reasoning_is_shown_by_its_size():
    from inspector.report.text import render
    from tests import bedrock_frames as bf
    blob = "QUJDREVGR0hJSg=="  # 10 bytes
    body = b"".join([bf.message_start(), bf.reasoning(0, redactedContent=blob), bf.stop(0), bf.text(1, "Hi"),
                     bf.stop(1), bf.message_stop(), bf.metadata()])
    s = check_bytes(bf.native(body, path="/model/m/converse-stream").encode())
    r = s.blocks[0]
    assert r.kind == "reasoning" and r.empty_shown == "redacted, 10 bytes"
    assert "redacted, 10 bytes" in render("x", s)
    # near miss: a reasoning block with text shows its text
    body = b"".join([bf.message_start(), bf.reasoning(0, text="Let me think"), bf.stop(0), bf.message_stop(),
                     bf.metadata()])
    assert check_bytes(bf.native(body, path="/model/m/converse-stream").encode()).blocks[0].empty_shown is None


def test_rules_and_the_readme_say_v3_and_list_the_new_codes(capsys):
    from inspector.cli import main
    from tests.conftest import ROOT

    assert main(["rules", "C019", "C020", "R011", "R012"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("Rule catalog v3 ")
    for code, name in (("C019", "content-restated"), ("C020", "invalid-tool-name"), ("R011", "content-index-gap"),
                       ("R012", "resumed-stream")):
        assert f"  {code} {name}" in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`shared/RULES.md` **v3**" in readme
    for code in ("C019", "C020", "R011", "R012"):
        assert f"`{code}` " in readme


def test_rules_takes_a_rule_by_the_name_the_reports_print(capsys):
    """Reports say ``T001 stall``, ``A007 stop-reason-mismatch``: ``rules`` finds a rule by that name
    too (every family's rule of that name)."""
    from inspector.cli import main

    assert main(["rules", "stall", "stop-reason-mismatch"]) == 0
    out = capsys.readouterr().out
    assert "  T001 stall (" in out and "  A007 stop-reason-mismatch (" in out and "  B008 stop-reason-mismatch (" in out
    assert "  J001 " not in out
    assert main(["rules", "no-such-rule"]) == 2
    assert "no rule matches no-such-rule (codes look like J002, names like args-invalid;" in capsys.readouterr().err
