"""Hostile captures: every field of every dialect carries terminal escape sequences, C1 controls,
bidi overrides and markup (issue 24). Used by the terminal-bytes test under Pilot
(``tests/ui/test_hostile.py``) and the text sinks' tests (``tests/unit/test_hostile_text.py``)."""
from __future__ import annotations

import json
from pathlib import Path

HOSTILE = ("\x1b]52;c;SElKQUNLRUQ=\x07\x1b[2J\x1b[31;5mRED\x9b6n\x1bP+q\x1b\\\x90q\x9c"
           "\u202eevil\u2066\u200f[link=https://evil.example]L[/link]\r")
"""OSC 52 (write the clipboard), CSI clear, SGR, C1 CSI, DCS (ESC and C1 forms), bidi overrides,
a Textual markup link, a carriage return."""

FORBIDDEN = ["\x1b]52", "\x1b[2J", "\x1b[31;5m", "\x9b", "\x1bP", "\x90", "\x9c", "\u202e", "\u2066", "\u200f",
             "\x1b]8;", "\r"]
"""What must never reach the terminal from such data (Textual itself writes none of them; it
does write BEL, ending its own OSC 22, so BEL is judged inside the OSC 52 sequence only)."""


def _h(tag: str) -> str:
    """A hostile value that also says which field it sits in."""
    return f"{tag}:{HOSTILE}"


def _sse(events: list[tuple[str | None, object]]) -> str:
    out = []
    for name, payload in events:
        data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        out.append((f"event: {name}\n" if name else "") + f"data: {data}\n\n")
    return "".join(out)


def anthropic() -> str:
    args = json.dumps({_h("argkey"): _h("argvalue")}, ensure_ascii=False)
    return _sse([
        ("message_start", {"type": "message_start", "message": {
            "id": _h("msgid"), "type": "message", "role": "assistant", "model": _h("model"), "content": [],
            "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": _h("text")}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {
            "type": "tool_use", "id": _h("toolid"), "name": _h("toolname"), "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1,
                                 "delta": {"type": "input_json_delta", "partial_json": args[:20]}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1,
                                 "delta": {"type": "input_json_delta", "partial_json": args[20:]}}),
        (_h("eventname"), {"type": _h("eventtype"), "index": 1}),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ("content_block_start", {"type": "content_block_start", "index": 2,
                                 "content_block": {"type": _h("blocktype")}}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": _h("stop"),
                                                              "stop_sequence": _h("stopseq")},
                           "usage": {"output_tokens": 2}}),
        ("error", {"type": "error", "error": {"type": _h("errtype"), "message": _h("errmessage")}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def openai_chat() -> str:
    base = {"id": _h("chatid"), "object": "chat.completion.chunk", "created": 1, "model": _h("model")}

    def chunk(delta, finish=None):
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    args = json.dumps({"q": _h("argvalue")}, ensure_ascii=False)
    return _sse([
        (None, chunk({"role": "assistant", "content": _h("text")})),
        (None, chunk({"tool_calls": [{"index": 0, "id": _h("callid"), "type": "function",
                                      "function": {"name": _h("toolname"), "arguments": args[:10]}}]})),
        (None, chunk({"tool_calls": [{"index": 0, "function": {"arguments": args[10:]}}]})),
        (None, chunk({}, _h("finish"))),
        (None, {"error": {"message": _h("errmessage"), "type": _h("errtype"), "code": _h("code")}}),
        (None, "[DONE]"),
    ])


def openai_responses() -> str:
    resp = {"id": _h("respid"), "object": "response", "model": _h("model"), "status": "in_progress", "output": []}
    item = {"type": "function_call", "id": _h("itemid"), "call_id": _h("callid"), "name": _h("toolname"),
            "arguments": "", "status": "in_progress"}
    args = json.dumps({"q": _h("argvalue")}, ensure_ascii=False)
    return _sse([
        ("response.created", {"type": "response.created", "sequence_number": 0, "response": resp}),
        ("response.output_item.added", {"type": "response.output_item.added", "sequence_number": 1,
                                        "output_index": 0, "item": item}),
        ("response.function_call_arguments.delta", {"type": "response.function_call_arguments.delta",
                                                    "sequence_number": 2, "output_index": 0,
                                                    "item_id": _h("itemid"), "delta": args}),
        ("response.function_call_arguments.done", {"type": "response.function_call_arguments.done",
                                                   "sequence_number": 3, "output_index": 0,
                                                   "item_id": _h("itemid"), "arguments": args}),
        ("response.output_item.done", {"type": "response.output_item.done", "sequence_number": 4,
                                       "output_index": 0, "item": {**item, "arguments": args,
                                                                   "status": "completed"}}),
        (_h("eventname"), {"type": _h("eventtype"), "sequence_number": 5}),
        ("error", {"type": "error", "sequence_number": 6, "code": _h("code"), "message": _h("errmessage")}),
        ("response.failed", {"type": "response.failed", "sequence_number": 7, "response": {
            **resp, "status": "failed", "error": {"code": _h("code"), "message": _h("errmessage")},
            "incomplete_details": {"reason": _h("reason")}}}),
    ])


def gemini() -> str:
    return _sse([
        (None, {"candidates": [{"content": {"role": "model", "parts": [{"text": _h("text")}]}, "index": 0}],
                "modelVersion": _h("model"), "responseId": _h("respid")}),
        (None, {"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": _h("toolname"), "args": {_h("argkey"): _h("argvalue")}, "id": _h("callid")}}]},
            "finishReason": _h("finish"), "finishMessage": _h("finishmessage"), "index": 0}],
            "modelVersion": _h("model")}),
        (None, {"error": {"code": 500, "message": _h("errmessage"), "status": _h("status")}}),
    ])


def ollama() -> str:
    lines = [
        {"model": _h("model"), "created_at": "2025-01-01T00:00:00Z",
         "message": {"role": "assistant", "content": _h("text")}, "done": False},
        {"model": _h("model"), "created_at": "2025-01-01T00:00:01Z",
         "message": {"role": "assistant", "content": "", "tool_calls": [
             {"function": {"name": _h("toolname"), "arguments": {_h("argkey"): _h("argvalue")}}}]}, "done": False},
        {"error": _h("errmessage")},
        {"model": _h("model"), "created_at": "2025-01-01T00:00:02Z", "message": {"role": "assistant", "content": ""},
         "done": True, "done_reason": _h("stop")},
    ]
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def cohere() -> str:
    args = json.dumps({"q": _h("argvalue")}, ensure_ascii=False)
    return _sse([
        ("message-start", {"type": "message-start", "id": _h("msgid"), "delta": {"message": {
            "role": "assistant", "content": [], "tool_plan": "", "tool_calls": [], "citations": []}}}),
        ("tool-plan-delta", {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": _h("plan")}}}),
        ("tool-call-start", {"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
            "id": _h("callid"), "type": "function", "function": {"name": _h("toolname"), "arguments": ""}}}}}),
        ("tool-call-delta", {"type": "tool-call-delta", "index": 0,
                             "delta": {"message": {"tool_calls": {"function": {"arguments": args}}}}}),
        ("tool-call-end", {"type": "tool-call-end", "index": 0}),
        (_h("eventname"), {"type": _h("eventtype")}),
        ("message-end", {"type": "message-end", "delta": {"finish_reason": _h("finish"),
                                                          "error": _h("errmessage")}}),
    ])


BODIES = {"anthropic": (anthropic, "text/event-stream", "/v1/messages"),
          "openai-chat": (openai_chat, "text/event-stream", "/v1/chat/completions"),
          "openai-responses": (openai_responses, "text/event-stream", "/v1/responses"),
          "gemini": (gemini, "text/event-stream", "/v1beta/models/m:streamGenerateContent"),
          "ollama": (ollama, "application/x-ndjson", "/api/chat"),
          "cohere": (cohere, "text/event-stream", "/v2/chat")}
"""Dialect -> (body builder, content type, request path)."""


def native(dialect: str) -> str:
    """A native capture of ``dialect``'s hostile body, with hostile request and response headers,
    URL and request body, and an ``end`` record whose error is hostile."""
    build, ctype, path = BODIES[dialect]
    body = build()
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": f"https://api.example{path}?q={HOSTILE}",
                        "headers": {_h("reqheader"): _h("reqvalue"), "content-type": "application/json"},
                        "body": {"model": _h("reqmodel"), "stream": True,
                                 "messages": [{"role": "user", "content": _h("prompt")}]}},
            "response": {"status": 200, "headers": {"content-type": ctype, _h("respheader"): _h("respvalue")}}}
    third = len(body) // 3
    lines = [json.dumps(head, ensure_ascii=False)]
    lines += [json.dumps({"t": t, "data": d}, ensure_ascii=False)
              for t, d in ((0.1, body[:third]), (0.2, body[third:2 * third]), (0.3, body[2 * third:]))]
    lines.append(json.dumps({"t": 0.4, "end": "reset", "error": _h("enderror")}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def write_all(folder: Path) -> dict[str, Path]:
    """Every dialect's hostile native capture in ``folder``: dialect -> path."""
    out = {}
    for dialect in BODIES:
        p = folder / f"hostile-{dialect}.jsonl"
        p.write_text(native(dialect), encoding="utf-8")
        out[dialect] = p
    return out
