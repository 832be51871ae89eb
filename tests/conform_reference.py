"""Good answers to every case of a conformance matrix, as captures ``serve`` can replay.

A reference server in capture form: for each case (in the matrix's order) the streamed answer a
conforming server sends, and, for cases with ``compare``, its non-streamed twin (a JSON body).
Served in rotation they answer ``conform``'s requests in order. The content follows the case's
``expect``: the tools it names (with small arguments, ``expect.arguments``, or long ones with
unicode, escapes and nested arrays), a thinking/reasoning block where the case asks for one, a
tool call cut by the length limit for ``stop = "length"``.

Rendered in the Anthropic Messages or the OpenAI Chat dialect, whatever the matrix's provider:
an OpenAI matrix sent through a translating gateway (LiteLLM) meets Anthropic answers upstream.
"""
from __future__ import annotations

import json

from inspector.model.capture import Capture, Chunk, End
from inspector.net.conform.matrix import Case, Matrix

SIGNATURE = "RXVyZWthIHNpZ25hdHVyZQ=="


def long_document() -> dict:
    """Arguments of 8 k+ characters: accents, emoji, quotes, backslashes, line breaks, nested arrays."""
    para = ("Os cafés de Lisboa — “bicas”, pastéis de nata, açúcar e canela ☕ — servem \"uma bica\" "
            "por 0,80 €; C:\\menu\\preços.txt\ne à tarde há sempre alguém a ler o jornal. ")
    return {"title": "Café notes — “quoted” \\ backslash", "body": para * 60,
            "sections": [[f"secção {i}", "ação", "café"] for i in range(12)]}


def content_for(case: Case) -> dict:
    """``{"text", "calls": [(name, arguments)], "stop", "thinking"}`` for a case."""
    e = case.expect
    names = list(e.get("tools", []))
    count = max(e.get("calls", 0), e.get("min_calls", 0), len(names))
    calls = []
    for k in range(count):
        name = names[k % len(names)] if names else "get_weather"
        if "arguments" in e:
            args = e["arguments"]
        elif e.get("min_argument_chars") or e.get("stop") == "length":
            args = long_document()
        else:
            args = {"city": ["Lisbon", "Porto", "Faro"][k % 3]}
        calls.append((name, args))
    thinking = "thinking" in e.get("kinds", ()) or case.name.startswith(("thinking", "reasoning"))
    return {"text": "" if calls else "Hello.\nBonjour.\nOlá.", "calls": calls, "stop": e.get("stop", "tool" if calls else "end"),
            "thinking": thinking}


def _pieces(text: str, size: int | None = None) -> list[str]:
    """Fragments as a model streams them: a few characters each (longer ones for long texts)."""
    size = size or (6 if len(text) < 200 else 48)
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _args_text(args) -> str:
    return json.dumps(args, ensure_ascii=False) if args != {} else ""


# -------------------------------------------------------------------------------------- Anthropic
def anthropic_stream(c: dict) -> bytes:
    events = [{"type": "message_start", "message": {"id": "msg_ref", "type": "message", "role": "assistant",
                                                    "model": "claude-ref", "content": [], "stop_reason": None,
                                                    "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}]
    idx = 0
    if c["thinking"]:
        events += [{"type": "content_block_start", "index": idx, "content_block": {"type": "thinking", "thinking": ""}},
                   {"type": "content_block_delta", "index": idx, "delta": {"type": "thinking_delta", "thinking": "Lisbon is milder."}},
                   {"type": "content_block_delta", "index": idx, "delta": {"type": "signature_delta", "signature": SIGNATURE}},
                   {"type": "content_block_stop", "index": idx}]
        idx += 1
    if c["text"]:
        events.append({"type": "content_block_start", "index": idx, "content_block": {"type": "text", "text": ""}})
        events += [{"type": "content_block_delta", "index": idx, "delta": {"type": "text_delta", "text": p}}
                   for p in _pieces(c["text"], 6)]
        events.append({"type": "content_block_stop", "index": idx})
        idx += 1
    for k, (name, args) in enumerate(c["calls"]):
        text = _args_text(args)
        if c["stop"] == "length":
            text = text[: len(text) // 3]
        events.append({"type": "content_block_start", "index": idx,
                       "content_block": {"type": "tool_use", "id": f"toolu_ref{k}", "name": name, "input": {}}})
        events += [{"type": "content_block_delta", "index": idx, "delta": {"type": "input_json_delta", "partial_json": p}}
                   for p in _pieces(text)]
        events.append({"type": "content_block_stop", "index": idx})
        idx += 1
    reason = {"tool": "tool_use", "end": "end_turn", "length": "max_tokens"}[c["stop"]]
    events += [{"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None}, "usage": {"output_tokens": 20}},
               {"type": "message_stop"}]
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n".encode() for e in events)


def anthropic_json(c: dict) -> bytes:
    content = []
    if c["thinking"]:
        content.append({"type": "thinking", "thinking": "Lisbon is milder.", "signature": SIGNATURE})
    if c["text"]:
        content.append({"type": "text", "text": c["text"]})
    content += [{"type": "tool_use", "id": f"toolu_plain{k}", "name": n, "input": a} for k, (n, a) in enumerate(c["calls"])]
    reason = {"tool": "tool_use", "end": "end_turn", "length": "max_tokens"}[c["stop"]]
    return json.dumps({"id": "msg_plain", "type": "message", "role": "assistant", "model": "claude-ref",
                       "content": content, "stop_reason": reason, "stop_sequence": None,
                       "usage": {"input_tokens": 10, "output_tokens": 20}}, ensure_ascii=False).encode()


# ------------------------------------------------------------------------------------ OpenAI Chat
def _chunk(delta: dict, finish=None, **extra) -> dict:
    return {"id": "chatcmpl-ref", "object": "chat.completion.chunk", "created": 1767225600, "model": "gpt-ref",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}


def chat_stream(c: dict) -> bytes:
    chunks = [_chunk({"role": "assistant", "content": ""})]
    if c["thinking"]:
        chunks.append(_chunk({"reasoning_content": "Lisbon is milder."}))
    chunks += [_chunk({"content": p}) for p in _pieces(c["text"], 6)] if c["text"] else []
    for k, (name, args) in enumerate(c["calls"]):
        text = _args_text(args) or "{}"
        if c["stop"] == "length":
            text = text[: len(text) // 3]
        chunks.append(_chunk({"tool_calls": [{"index": k, "id": f"call_ref{k}", "type": "function",
                                              "function": {"name": name, "arguments": ""}}]}))
        chunks += [_chunk({"tool_calls": [{"index": k, "function": {"arguments": p}}]}) for p in _pieces(text)]
    reason = {"tool": "tool_calls", "end": "stop", "length": "length"}[c["stop"]]
    chunks.append(_chunk({}, reason))
    usage = {"id": "chatcmpl-ref", "object": "chat.completion.chunk", "created": 1767225600, "model": "gpt-ref",
             "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}}
    lines = [f"data: {json.dumps(ch, ensure_ascii=False)}\n\n" for ch in [*chunks, usage]] + ["data: [DONE]\n\n"]
    return "".join(lines).encode()


def chat_json(c: dict) -> bytes:
    msg: dict = {"role": "assistant", "content": c["text"] or None}
    if c["calls"]:
        msg["tool_calls"] = [{"id": f"call_plain{k}", "type": "function",
                              "function": {"name": n, "arguments": _args_text(a) or "{}"}}
                             for k, (n, a) in enumerate(c["calls"])]
    reason = {"tool": "tool_calls", "end": "stop", "length": "length"}[c["stop"]]
    return json.dumps({"id": "chatcmpl-plain", "object": "chat.completion", "created": 1767225600, "model": "gpt-ref",
                       "choices": [{"index": 0, "message": msg, "finish_reason": reason}],
                       "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}},
                      ensure_ascii=False).encode()


RENDER = {"anthropic": (anthropic_stream, anthropic_json), "openai": (chat_stream, chat_json)}


def _capture(data: bytes, ctype: str) -> Capture:
    return Capture(chunks=[Chunk(0.01, data)], response={"status": 200, "headers": {"content-type": ctype}},
                   end=End(0.02, "eof"), source_format="native", request_relative=True)


def captures(matrix: Matrix, dialect: str | None = None) -> list[tuple[str, Capture]]:
    """``[(name, capture)]`` in the order ``conform`` sends the matrix: each case's stream, then its twin.
    ``dialect``: ``anthropic`` or ``openai`` (default: the matrix's provider)."""
    stream, plain = RENDER[dialect or matrix.provider]
    out = []
    for n, case in enumerate(matrix.cases, 1):
        c = content_for(case)
        out.append((f"{n:02d}-{case.name}", _capture(stream(c), "text/event-stream")))
        if case.compare:
            out.append((f"{n:02d}-{case.name}.plain", _capture(plain(c), "application/json")))
    return out
