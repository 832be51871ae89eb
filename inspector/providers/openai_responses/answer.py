"""OpenAI Responses as the conformance tools read it: the non-streamed request and answer, the
turn a client sends back, stop-reason classes (``inspector.providers.conformance``).

A non-streamed answer is a Response: ``{"status", "output": [items]}`` with ``message`` items
(``output_text`` parts) and ``function_call`` items (``call_id``, ``name``, ``arguments``);
history sends the same items back in ``input`` (developers.openai.com/docs/guides/function-calling).
"""
from __future__ import annotations

from inspector.providers.conformance import Call, Turn, parse_arguments
from inspector.providers.openai_responses.request import ENDPOINT

STOP_CLASSES = {"completed": "end", "incomplete": "length", "failed": "error", "cancelled": "error"}


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")


def plain(body: dict) -> tuple[dict, str]:
    return {**body, "stream": False}, ENDPOINT.path


def _turn(items: list, status: str | None = None) -> Turn:
    turn = Turn(stop_reason=status)
    for it in items:
        if not isinstance(it, dict):
            continue
        kind = it.get("type") or ("message" if it.get("role") == "assistant" else None)
        turn.kinds.append(str(kind))
        if kind == "message":
            content = it.get("content")
            if isinstance(content, str):
                turn.text += content
            elif isinstance(content, list):
                turn.text += "".join(p.get("text") or "" for p in content if isinstance(p, dict))
        elif kind == "function_call":
            args, raw = parse_arguments(it.get("arguments"))
            turn.calls.append(Call(it.get("call_id") or it.get("id"), it.get("name"), args, raw))
    return turn


def read(answer) -> Turn:
    if not isinstance(answer, dict) or not isinstance(answer.get("output"), list):
        raise ValueError("not a Response object (no output list)")
    return _turn(answer["output"], answer.get("status"))


def sent_back(request: dict) -> Turn | None:
    """The items after the last user message in ``input`` that the model produced."""
    items = request.get("input") if isinstance(request, dict) else None
    if not isinstance(items, list):
        return None
    last_user = max((i for i, it in enumerate(items) if isinstance(it, dict) and it.get("role") == "user"), default=-1)
    produced = [it for it in items[last_user + 1:] if isinstance(it, dict) and
                (it.get("type") in ("function_call", "reasoning") or it.get("role") == "assistant")]
    if not produced:
        return None
    turn = _turn(produced)
    turn.results = [it["call_id"] for it in items[last_user + 1:] if isinstance(it, dict)
                    and it.get("type") == "function_call_output" and isinstance(it.get("call_id"), str)]
    return turn
