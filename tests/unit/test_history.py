"""Q rules: the history a client sends next, judged against the streamed answer (check --request)."""
from __future__ import annotations

import copy
import json

import pytest

from inspector.capture.load import CaptureError
from inspector.cli import main
from inspector.feeds.run import check_request_file
from inspector.session.history import check_request
from tests.helpers import check_bytes, sse

ARGS = {"path": "a.txt", "content": "hello world"}

# --------------------------------------------------------------------------- Anthropic
ANTHROPIC = sse(
    {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "c",
                                          "content": [], "stop_reason": None}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "plan"}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "SIG1"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Writing."}},
    {"type": "content_block_stop", "index": 1},
    {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_1",
                                                                  "name": "write", "input": {}}},
    {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta",
                                                          "partial_json": '{"path": "a.txt", '}},
    {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta",
                                                          "partial_json": '"content": "hello world"}'}},
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}},
    {"type": "message_stop"})

ANTHROPIC_HISTORY = {
    "model": "c", "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "write a file"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "plan", "signature": "SIG1"},
            {"type": "text", "text": "Writing."},
            {"type": "tool_use", "id": "toolu_1", "name": "write", "input": dict(ARGS)}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
    ],
}


def q(session) -> list[str]:
    return [f.code for f in session.findings if f.code.startswith("Q")]


def judge(stream: bytes, body: dict) -> list[str]:
    s = check_bytes(stream)
    assert not [f for f in s.findings if f.severity != "info"], s.findings
    check_request(s, body)
    assert all(f.event is None for f in s.findings if f.code.startswith("Q"))
    return q(s)


def edit(body: dict, fn) -> dict:
    out = copy.deepcopy(body)
    fn(out)
    return out


def turn(body):
    return body["messages"][1]["content"]


def test_anthropic_clean_history():
    assert judge(ANTHROPIC, ANTHROPIC_HISTORY) == []


def test_Q001_delta_in_history():
    body = edit(ANTHROPIC_HISTORY, lambda b: turn(b).append({"type": "input_json_delta", "partial_json": "{}"}))
    assert judge(ANTHROPIC, body) == ["Q001"]


def test_Q002_empty_text_block_and_near_miss():
    body = edit(ANTHROPIC_HISTORY, lambda b: turn(b).insert(1, {"type": "text", "text": ""}))
    assert judge(ANTHROPIC, body) == ["Q002"]
    prefill = edit(ANTHROPIC_HISTORY, lambda b: b["messages"].append({"role": "assistant", "content": ""}))
    assert judge(ANTHROPIC, prefill) == []


def test_Q003_unknown_tool_id():
    def f(b):
        turn(b)[2]["id"] = "toolu_made_up"
        b["messages"][2]["content"][0]["tool_use_id"] = "toolu_made_up"
    assert judge(ANTHROPIC, edit(ANTHROPIC_HISTORY, f)) == ["Q003"]


def test_Q003_near_miss_earlier_turns_are_not_compared():
    def f(b):
        b["messages"][1:1] = [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_old", "name": "x", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_old", "content": "r"}]}]
    body = edit(ANTHROPIC_HISTORY, f)
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    assert judge(ANTHROPIC, body) == []


def test_Q004_thinking_signature_dropped():
    assert judge(ANTHROPIC, edit(ANTHROPIC_HISTORY, lambda b: turn(b)[0].pop("signature"))) == ["Q004"]
    assert judge(ANTHROPIC, edit(ANTHROPIC_HISTORY, lambda b: turn(b).pop(0))) == ["Q004"]


def test_Q005_input_not_object():
    body = edit(ANTHROPIC_HISTORY, lambda b: turn(b)[2].update(input=json.dumps(ARGS)))
    assert judge(ANTHROPIC, body) == ["Q005"]


def test_Q006_truncated_tool_input_in_history():
    body = edit(ANTHROPIC_HISTORY, lambda b: turn(b)[2].update(input={"path": "a.txt"}))
    s = check_bytes(ANTHROPIC)
    check_request(s, body)
    (f,) = [f for f in s.findings if f.code.startswith("Q")]
    assert f.code == "Q006" and f.index == 2 and f.severity == "warning"


def test_Q006_near_miss_same_object_other_key_order():
    body = edit(ANTHROPIC_HISTORY, lambda b: turn(b)[2].update(input={"content": "hello world", "path": "a.txt"}))
    assert judge(ANTHROPIC, body) == []


def test_Q006_when_the_stream_never_completed_the_arguments():
    cut = ANTHROPIC.replace(b'"content\\": \\"hello world\\"}', b'"content\\": \\"hel')
    s = check_bytes(cut)
    assert s.blocks[2].status == "partial"
    check_request(s, edit(ANTHROPIC_HISTORY, lambda b: turn(b)[2].update(input={"path": "a.txt", "content": "hel"})))
    assert "Q006" in q(s)


# --------------------------------------------------------------------------- OpenAI Chat
def chat_chunk(delta, finish=None):
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


CHAT = sse(
    chat_chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                     "function": {"name": "write", "arguments": ""},
                                                     "extra_content": {"google": {"thought_signature": "GSIG"}}}]}),
    chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": json.dumps(ARGS)}}]}),
    chat_chunk({}, "tool_calls"), "[DONE]", named=False)

CHAT_HISTORY = {"model": "m", "messages": [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "write"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "write", "arguments": json.dumps(ARGS)},
         "extra_content": {"google": {"thought_signature": "GSIG"}}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
]}


def chat_call(b):
    return b["messages"][2]["tool_calls"][0]


def test_chat_clean_history():
    assert judge(CHAT, CHAT_HISTORY) == []


def test_chat_Q003_Q004_Q005_Q006():
    assert judge(CHAT, edit(CHAT_HISTORY, lambda b: chat_call(b).update(id="call_x"))) == ["Q003"]
    assert judge(CHAT, edit(CHAT_HISTORY, lambda b: chat_call(b).pop("extra_content"))) == ["Q004"]
    assert judge(CHAT, edit(CHAT_HISTORY, lambda b: chat_call(b)["function"].update(arguments='"x"'))) == ["Q005"]
    assert judge(CHAT, edit(CHAT_HISTORY, lambda b: chat_call(b)["function"].update(arguments='{"path": "a.txt"}'))) == ["Q006"]
    assert judge(CHAT, edit(CHAT_HISTORY, lambda b: chat_call(b)["function"].update(arguments='{"path": "a.t'))) == [
        "Q005", "Q006"]


def test_chat_near_miss_reformatted_arguments():
    body = edit(CHAT_HISTORY, lambda b: chat_call(b)["function"].update(arguments=json.dumps(ARGS, indent=2)))
    assert judge(CHAT, body) == []


def test_chat_Q003_tool_message_for_unknown_call():
    body = edit(CHAT_HISTORY, lambda b: b["messages"].append({"role": "tool", "tool_call_id": "call_zz", "content": ""}))
    assert judge(CHAT, body) == ["Q003"]


# --------------------------------------------------------------------------- Gemini
GEMINI = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in [
    {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "write", "args": ARGS}, "thoughtSignature": "TSIG"}]}, "index": 0}]},
    {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP", "index": 0}]},
])

GEMINI_HISTORY = {"contents": [
    {"role": "user", "parts": [{"text": "write"}]},
    {"role": "model", "parts": [{"functionCall": {"name": "write", "args": dict(ARGS)}, "thoughtSignature": "TSIG"}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "write", "response": {"ok": True}}}]},
]}


def gem_part(b):
    return b["contents"][1]["parts"][0]


def test_gemini_clean_history():
    assert judge(GEMINI, GEMINI_HISTORY) == []


def test_gemini_Q004_Q005_Q006():
    assert judge(GEMINI, edit(GEMINI_HISTORY, lambda b: gem_part(b).pop("thoughtSignature"))) == ["Q004"]
    assert judge(GEMINI, edit(GEMINI_HISTORY, lambda b: gem_part(b)["functionCall"].update(args="{}"))) == ["Q005"]
    assert judge(GEMINI, edit(GEMINI_HISTORY, lambda b: gem_part(b)["functionCall"].update(args={}))) == ["Q006"]


# --------------------------------------------------------------------------- Responses
RESPONSES = sse(
    {"type": "response.created", "sequence_number": 0, "response": {"id": "r", "status": "in_progress", "output": []}},
    {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_r", "name": "write", "arguments": ""}},
    {"type": "response.function_call_arguments.delta", "sequence_number": 2, "item_id": "fc_1", "output_index": 0,
     "delta": json.dumps(ARGS)},
    {"type": "response.function_call_arguments.done", "sequence_number": 3, "item_id": "fc_1", "output_index": 0,
     "arguments": json.dumps(ARGS)},
    {"type": "response.output_item.done", "sequence_number": 4, "output_index": 0,
     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_r", "name": "write", "arguments": json.dumps(ARGS)}},
    {"type": "response.completed", "sequence_number": 5, "response": {"id": "r", "status": "completed", "output": []}})

RESPONSES_HISTORY = {"input": [
    {"role": "user", "content": "write"},
    {"type": "function_call", "call_id": "call_r", "name": "write", "arguments": json.dumps(ARGS)},
    {"type": "function_call_output", "call_id": "call_r", "output": "ok"},
]}


def test_responses_history():
    assert judge(RESPONSES, RESPONSES_HISTORY) == []
    assert judge(RESPONSES, edit(RESPONSES_HISTORY, lambda b: b["input"][1].update(arguments="{}"))) == ["Q006"]
    assert judge(RESPONSES, edit(RESPONSES_HISTORY, lambda b: b["input"][2].update(call_id="call_q"))) == ["Q003"]


def test_responses_history_of_an_agent_loop_is_judged_on_the_last_round():
    """openai-agents sends the whole history (no ``previous_response_id``): the calls of an earlier round,
    streamed by an earlier answer, are not this answer's (no Q003); this answer's call is still judged."""
    earlier = [{"type": "function_call", "call_id": "call_0", "name": "read", "arguments": "{}"},
               {"type": "function_call_output", "call_id": "call_0", "output": "text"}]
    two_rounds = edit(RESPONSES_HISTORY, lambda b: b["input"].__setitem__(slice(1, 1), earlier))
    assert judge(RESPONSES, two_rounds) == []
    assert judge(RESPONSES, edit(two_rounds, lambda b: b["input"][3].update(arguments="{}"))) == ["Q006"]


# --------------------------------------------------------------------------- files and the CLI
def test_request_file_errors(tmp_path):
    s = check_bytes(ANTHROPIC)
    with pytest.raises(CaptureError, match="no such request file"):
        check_request_file(s, tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(CaptureError, match="not JSON"):
        check_request_file(s, bad)
    empty = tmp_path / "empty.json"
    empty.write_text('{"model": "x"}')
    with pytest.raises(CaptureError, match="no history"):
        check_request_file(s, empty)


def test_request_file_wrapped_in_a_request_record(tmp_path):
    p = tmp_path / "req.json"
    p.write_text(json.dumps({"method": "POST", "url": "u", "headers": {},
                             "body": edit(ANTHROPIC_HISTORY, lambda b: turn(b)[2].update(input={}))}))
    s = check_bytes(ANTHROPIC)
    check_request_file(s, p)
    assert q(s) == ["Q006"]


def test_check_request_flag(tmp_path, capsys):
    cap = tmp_path / "a.sse"
    cap.write_bytes(ANTHROPIC)
    req = tmp_path / "req.json"
    req.write_text(json.dumps(edit(ANTHROPIC_HISTORY, lambda b: turn(b).insert(1, {"type": "text", "text": ""}))))
    assert main(["check", "--format", "json", "--request", str(req), str(cap)]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert [f["code"] for f in rep["findings"]] == ["Q002"]
    assert main(["check", "--request", str(tmp_path / "nope.json"), str(cap)]) == 2


def test_odd_shapes_never_crash():
    s = check_bytes(ANTHROPIC)
    for body in ({"messages": [1, {"role": "assistant", "content": [1, {"type": None}]}]},
                 {"contents": [None, {"role": "model", "parts": "x"}]}, {"input": "hi"},
                 {"messages": [{"role": "assistant", "tool_calls": [None, {"function": 3}]}]}):
        check_request(s, body)
    check_request(s, [])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- signatures are bytes (issue 23 item 2)
STANDARD_SIG, URLSAFE_SIG = "Et8E+x/9Zw==", "Et8E-x_9Zw"  # the same 7 bytes; google-genai sends the second


def with_signature(stream: bytes, old: str, new: str) -> bytes:
    return stream.replace(old.encode(), new.encode())


def test_gemini_signature_sent_back_url_safe_is_the_same_signature():
    stream = with_signature(GEMINI, "TSIG", STANDARD_SIG)
    assert judge(stream, edit(GEMINI_HISTORY, lambda b: gem_part(b).update(thoughtSignature=URLSAFE_SIG))) == []
    # Other bytes are still another signature.
    assert judge(stream, edit(GEMINI_HISTORY, lambda b: gem_part(b).update(thoughtSignature="Et8E-x_9Zg"))) == ["Q004"]


def test_chat_google_signature_sent_back_url_safe_is_the_same_signature():
    stream = with_signature(CHAT, "GSIG", STANDARD_SIG)
    back = edit(CHAT_HISTORY, lambda b: chat_call(b)["extra_content"]["google"].update(thought_signature=URLSAFE_SIG))
    assert judge(stream, back) == []


def test_anthropic_signature_compared_as_bytes():
    stream = with_signature(ANTHROPIC, "SIG1", STANDARD_SIG)
    back = edit(ANTHROPIC_HISTORY, lambda b: turn(b)[0].update(signature=URLSAFE_SIG))
    assert judge(stream, back) == []


def test_signature_bytes_keeps_a_non_base64_signature_as_text():
    from inspector.providers.history import same_signature, signature_bytes

    assert signature_bytes("not base64!") == "not base64!" and signature_bytes("") is None
    assert same_signature(STANDARD_SIG, URLSAFE_SIG) and not same_signature("abc!", "abd!")
    assert not same_signature(None, None)
