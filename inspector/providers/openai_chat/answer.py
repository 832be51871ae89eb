"""OpenAI Chat as the conformance tools read it: the non-streamed request and answer, the turn a
client sends back, stop-reason classes (``inspector.providers.conformance``).

A non-streamed answer is ``{"choices": [{"message": {content, tool_calls}, "finish_reason"}]}``
(platform.openai.com/docs/api-reference/chat/object); history keeps the assistant message as is.
"""
from __future__ import annotations

from inspector.providers.conformance import Call, Turn, last_index_of, parse_arguments
from inspector.providers.openai_chat.request import ENDPOINT
from inspector.model.members import object_member

STOP_CLASSES = {"tool_calls": "tool", "function_call": "tool", "stop": "end", "length": "length",
                "content_filter": "refusal"}


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")


def plain(body: dict) -> tuple[dict, str]:
    """The request with streaming off (and no ``stream_options``, which requires streaming), and its path."""
    out = {k: v for k, v in body.items() if k != "stream_options"}
    return {**out, "stream": False}, ENDPOINT.path


def message_turn(msg: dict, finish: str | None = None) -> Turn:
    """A Chat (or Ollama) assistant message as a ``Turn``."""
    turn = Turn(stop_reason=finish)
    content = msg.get("content")
    if isinstance(content, str):
        turn.text = content
    elif isinstance(content, list):
        turn.text = "".join(p.get("text") or "" for p in content if isinstance(p, dict))
    for key in ("reasoning_content", "reasoning", "thinking"):
        if msg.get(key):
            turn.kinds.append("reasoning")
            break
    if turn.text:
        turn.kinds.append("text")
    for tc in msg.get("tool_calls") or []:
        if not isinstance(tc, dict):
            continue
        fn = object_member(tc, "function")
        args, raw = parse_arguments(fn.get("arguments"))
        turn.calls.append(Call(tc.get("id"), fn.get("name"), args, raw))
        turn.kinds.append("tool_call")
    return turn


def read(answer) -> Turn:
    """A chat.completion object; raises ``ValueError`` when ``answer`` is not one."""
    choices = answer.get("choices") if isinstance(answer, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("not a Chat completion (no choices)")
    msg = object_member(choices[0], "message")
    return message_turn(msg, choices[0].get("finish_reason"))


def sent_back(request: dict) -> Turn | None:
    """The last assistant message, with the ``tool`` messages after it (by ``tool_call_id``, else ``name``)."""
    msgs = request.get("messages") if isinstance(request, dict) else None
    if not isinstance(msgs, list):
        return None
    k = last_index_of(msgs, "assistant")
    if k is None:
        return None
    turn = message_turn(msgs[k])
    for m in msgs[k + 1:]:
        if isinstance(m, dict) and m.get("role") == "tool":
            ref = m.get("tool_call_id") or m.get("tool_name") or m.get("name")
            if isinstance(ref, str):
                turn.results.append(ref)
    return turn
