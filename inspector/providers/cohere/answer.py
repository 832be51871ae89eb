"""Cohere v2 chat as the conformance tools read it: the non-streamed request and answer, the turn a
client sends back, finish-reason classes (``inspector.providers.conformance``).

A non-streamed answer is ``{"id", "finish_reason", "message": {"role": "assistant", "content":
[{"type": "text", "text"}], "tool_plan", "tool_calls": [{"id", "type": "function", "function":
{"name", "arguments"}}], "citations"}, "usage"}`` (cohere-python ``V2ChatResponse``,
``AssistantMessageResponse``). Its ``tool_calls`` and history (assistant messages, ``tool`` messages
by ``tool_call_id``) are Chat-shaped, so Chat's readers read them; ``tool_plan`` and ``thinking``
content blocks are Cohere's own kinds.
"""
from __future__ import annotations

from inspector.providers.cohere.request import ENDPOINT
from inspector.providers.conformance import Turn, last_by_role
from inspector.providers.openai_chat import answer as chat

STOP_CLASSES = {"TOOL_CALL": "tool", "COMPLETE": "end", "STOP_SEQUENCE": "end", "MAX_TOKENS": "length",
                "ERROR": "error", "TIMEOUT": "error"}


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")


def plain(body: dict) -> tuple[dict, str]:
    """The request with streaming off, and its path."""
    return {**body, "stream": False}, ENDPOINT.path


def message_turn(msg: dict, finish: str | None = None) -> Turn:
    """An assistant message (answer or history) as a ``Turn``, with Cohere's ``tool_plan`` and ``thinking`` kinds."""
    turn = chat.message_turn(msg, finish)
    listed = msg.get("content")
    content = listed if isinstance(listed, list) else []
    own = ["tool_plan"] if isinstance(msg.get("tool_plan"), str) and msg["tool_plan"] else []
    own += ["thinking" for b in content if isinstance(b, dict) and b.get("type") == "thinking"]
    turn.kinds[:0] = own
    return turn


def read(answer) -> Turn:
    """A ``V2ChatResponse``; raises ``ValueError`` when ``answer`` is not one."""
    msg = answer.get("message") if isinstance(answer, dict) else None
    if not isinstance(msg, dict) or "finish_reason" not in answer or "choices" in answer:
        raise ValueError("not a Cohere v2 chat response (no message and finish_reason)")
    return message_turn(msg, answer.get("finish_reason"))


def sent_back(request: dict) -> Turn | None:
    """The last assistant message, with the ``tool`` messages after it (by ``tool_call_id``)."""
    turn = chat.sent_back(request)
    if turn is not None:
        last = last_by_role(request["messages"], "assistant")
        if last is not None:  # there is one: chat.sent_back found it
            turn.kinds = message_turn(last).kinds
    return turn
