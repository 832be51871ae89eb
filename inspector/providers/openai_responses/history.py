"""OpenAI Responses request history (Q rules): ``input[]`` items (``function_call`` with
``call_id``/``arguments``, ``function_call_output``).
"""
from __future__ import annotations

from inspector.providers.history import (
    HistoryCheck, HistoryShape, compare, is_delta_type, kind_of, match, parse_args, show,
)


def check(ctx: HistoryCheck, items: list) -> None:
    """Q001/Q005 on every item, Q003/Q006 on the last answer's items (``last_turn``)."""
    for ii, it in enumerate(items):
        if isinstance(it, dict):
            if is_delta_type(it.get("type")):
                ctx.report("Q001", f"input[{ii}] is a stream event ({it.get('type')!r}) where an item belongs")
            if it.get("type") == "function_call":
                ok, value = parse_args(it.get("arguments"))
                if not ok:
                    ctx.report("Q005", f"input[{ii}] function_call arguments are not JSON: {show(it.get('arguments'))}")
                elif not isinstance(value, dict):
                    ctx.report("Q005", f"input[{ii}] function_call arguments are {kind_of(value)}, not an object")
    start = last_turn(items)
    turn = [(i, it) for i, it in enumerate(items[start:], start=start) if isinstance(it, dict)]
    calls = [(i, it) for i, it in turn if it.get("type") == "function_call"]
    ids = [it.get("call_id") or it.get("id") for _, it in calls]
    for (i, it), sb in zip(calls, match(ctx, [c for _, c in calls], ids)):
        where = f"input[{i}] function_call {it.get('name')!r}"
        if sb is None:
            tid = it.get("call_id") or it.get("id")
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, where)
            continue
        args = it.get("arguments")
        ok, value = parse_args(args)
        if ok and isinstance(value, dict):
            compare(ctx, sb, value, where, sent_text=args if isinstance(args, str) else None)
    for i, it in turn:
        if it.get("type") == "function_call_output":
            tid = it.get("call_id")
            if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                ctx.unknown_id(tid, f"input[{i}] function_call_output call_id")


SHAPE = HistoryShape("input", lambda body, dialect: True, check)


def last_turn(items: list) -> int:
    """Where the items of the answer being continued start: after the last user message, and after the
    tool outputs of an earlier round (a ``function_call_output`` before the last ``function_call``). An
    agent loop sends the whole history without ``previous_response_id`` (openai-agents):
    ``[user, call 1, output 1, call 2, output 2]`` continues the answer that streamed call 2 only."""
    def kind(i: int) -> object:
        it = items[i]
        return it.get("type") if isinstance(it, dict) else None

    start = next((i + 1 for i in range(len(items) - 1, -1, -1)
                  if isinstance(items[i], dict) and items[i].get("role") == "user"), 0)
    last_call = next((i for i in range(len(items) - 1, start - 1, -1) if kind(i) == "function_call"), None)
    if last_call is not None:
        start = next((i + 1 for i in range(last_call - 1, start - 1, -1) if kind(i) == "function_call_output"), start)
    return start
