"""Anthropic Messages as the conformance tools read it: the non-streamed request and answer, the
turn a client sends back, stop-reason classes (``inspector.providers.conformance``).

A non-streamed answer is one Message object: ``{"content": [blocks], "stop_reason": …}``
(platform.claude.com/docs/en/api/messages); history keeps the same blocks in
``messages[].content``.
"""
from __future__ import annotations

from inspector.providers.anthropic.request import ENDPOINT
from inspector.providers.conformance import Call, Turn, last_index_of

STOP_CLASSES = {"tool_use": "tool", "end_turn": "end", "stop_sequence": "end", "pause_turn": "end",
                "max_tokens": "length", "model_context_window_exceeded": "length", "refusal": "refusal"}


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")


def plain(body: dict) -> tuple[dict, str]:
    """The request with streaming off, and its path."""
    return {**body, "stream": False}, ENDPOINT.path


def _turn(blocks: list, stop_reason: str | None = None) -> Turn:
    turn = Turn(stop_reason=stop_reason)
    for b in blocks:
        if not isinstance(b, dict):
            continue
        kind = b.get("type")
        turn.kinds.append(str(kind))
        if kind == "text" and isinstance(b.get("text"), str):
            turn.text += b["text"]
        elif kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            turn.calls.append(Call(b.get("id"), b.get("name"), b.get("input")))
    return turn


def read(answer) -> Turn:
    """A Message object; raises ``ValueError`` when ``answer`` is not one."""
    if not isinstance(answer, dict) or not isinstance(answer.get("content"), list):
        raise ValueError("not an Anthropic Message (no content list)")
    return _turn(answer["content"], answer.get("stop_reason"))


def sent_back(request: dict) -> Turn | None:
    """The last assistant message of ``messages`` (string content is one text block)."""
    msgs = request.get("messages") if isinstance(request, dict) else None
    if not isinstance(msgs, list):
        return None
    k = last_index_of(msgs, "assistant")
    if k is None:
        return None
    content = msgs[k].get("content")
    turn = Turn(text=content, kinds=["text"]) if isinstance(content, str) else \
        _turn(content if isinstance(content, list) else [])
    for m in msgs[k + 1:]:
        blocks = m.get("content") if isinstance(m, dict) else None
        for b in blocks if isinstance(blocks, list) else []:
            if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("tool_use_id"), str):
                turn.results.append(b["tool_use_id"])
    return turn
