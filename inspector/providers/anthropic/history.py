"""Anthropic Messages request history (Q rules): ``messages[].content[]`` blocks (``text``,
``thinking`` with ``signature``, ``tool_use`` with ``id``/``input``, ``tool_result`` with
``tool_use_id``). Only the last assistant turn is compared with the stream.
"""
from __future__ import annotations

from inspector.providers.history import (
    HistoryCheck, HistoryShape, clip, compare, is_delta_type, kind_of, last_index, match,
    signature_bytes,
)

ANTHROPIC_TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
_ANTHROPIC_MARKERS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use",
                                "document", "search_result"})


def claims(body: dict, dialect: str | None) -> bool:
    """The ``messages`` list is Anthropic-shaped (else OpenAI Chat reads it)."""
    msgs = body["messages"]
    if "contents" in body:
        return False
    for m in msgs:
        if not isinstance(m, dict):
            continue
        if m.get("role") in ("system", "tool", "developer") or "tool_calls" in m:
            return False
        content = m.get("content")
        if isinstance(content, list):
            for blk in content:
                if isinstance(blk, dict) and blk.get("type") in _ANTHROPIC_MARKERS:
                    return True
                if isinstance(blk, dict) and blk.get("type") in ("image_url", "input_audio"):
                    return False
    if isinstance(body.get("system"), (str, list)) or "anthropic_version" in body:
        return True
    return dialect == "anthropic-messages"


def check(ctx: HistoryCheck, msgs: list) -> None:
    """Q001/Q002/Q005 on every message, Q003/Q004/Q006 on the last assistant turn."""
    last = last_index(msgs, ("assistant",))
    for mi, m in enumerate(msgs):
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        content = m.get("content")
        final_prefill = mi == len(msgs) - 1 and role == "assistant"
        if isinstance(content, str):
            if not content.strip() and not final_prefill:
                ctx.report("Q002", f"messages[{mi}] ({role}) has empty text content (rejected: text must be non-empty)")
            continue
        if not isinstance(content, list):
            continue
        for bi, blk in enumerate(content):
            if not isinstance(blk, dict):
                continue
            typ = blk.get("type")
            where = f"messages[{mi}].content[{bi}]"
            if is_delta_type(typ):
                ctx.report("Q001", f"{where} is a stream delta ({typ!r}) where a content block belongs: "
                           "the client stored deltas instead of assembled blocks")
            elif typ == "text" and not (isinstance(blk.get("text"), str) and blk["text"].strip()):
                ctx.report("Q002", f"{where} ({role}) is an empty text block (rejected: text content "
                           "blocks must be non-empty)")
            elif typ in ANTHROPIC_TOOL_TYPES and not isinstance(blk.get("input"), dict):
                ctx.report("Q005", f"{where} {typ} input is {kind_of(blk.get('input'))}, not an object")
    if last is None or not isinstance(msgs[last].get("content"), list):
        return
    turn = [b for b in msgs[last]["content"] if isinstance(b, dict)]
    calls = [b for b in turn if b.get("type") in ANTHROPIC_TOOL_TYPES]
    for blk, sb in zip(calls, match(ctx, calls, [c.get("id") for c in calls])):
        tid = blk.get("id")
        if sb is None:
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, f"messages[{last}] {blk.get('type')}")
            continue
        if isinstance(blk.get("input"), dict):
            compare(ctx, sb, blk["input"], f"messages[{last}] {blk.get('type')} {tid!r}")
    for m in msgs[last + 1:]:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            for blk in content:
                if isinstance(blk, dict) and blk.get("type") == "tool_result":
                    tid = blk.get("tool_use_id")
                    if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                        ctx.unknown_id(tid, "tool_result tool_use_id")
    sent = {signature_bytes(b.get("signature")) for b in turn if b.get("type") == "thinking"}
    thinking_sent = [b for b in turn if b.get("type") == "thinking"]
    for sb in ctx.blocks:
        sig = sb.signature
        if sb.kind != "thinking" or not isinstance(sig, str) or not sig or signature_bytes(sig) in sent:
            continue
        same = [b for b in thinking_sent if b.get("thinking") == sb.content]
        how = "sent back without its signature" if same and not same[0].get("signature") else \
            "sent back with a different signature" if same else "not sent back"
        ctx.report("Q004", f"thinking block {sb.index} (signature {clip(sig, 16)}) is {how} in "
                   f"messages[{last}]: the API rejects or ignores unsigned thinking", sb)


SHAPE = HistoryShape("messages", claims, check)
