"""Gemini request history (Q rules): ``contents[].parts[]`` (``functionCall`` with ``args``,
sibling ``thoughtSignature``). Only the last ``model`` turn is compared with the stream.
"""
from __future__ import annotations

from inspector.providers.history import (HistoryCheck, HistoryShape, compare, kind_of, last_index, match,
                                         signature_bytes)


def check(ctx: HistoryCheck, contents: list) -> None:
    """Q005 on every part, Q003/Q004/Q006 on the last ``model`` turn."""
    last = last_index(contents, ("model",))
    for ci, c in enumerate(contents):
        parts = c.get("parts") if isinstance(c, dict) else None
        if not isinstance(parts, list):
            continue
        for pi, part in enumerate(parts):
            fc = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(fc, dict) and fc.get("args") is not None and not isinstance(fc.get("args"), dict):
                ctx.report("Q005", f"contents[{ci}].parts[{pi}].functionCall.args is {kind_of(fc.get('args'))}, "
                           "not an object")
    if last is None or not isinstance(contents[last].get("parts"), list):
        return
    parts = [p for p in contents[last]["parts"] if isinstance(p, dict)]
    calls = [p for p in parts if isinstance(p.get("functionCall"), dict)]
    ids = [p["functionCall"].get("id") for p in calls]
    for k, (part, sb) in enumerate(zip(calls, match(ctx, calls, ids))):
        fc = part["functionCall"]
        where = f"contents[{last}] functionCall #{k} {fc.get('name')!r}"
        if sb is None:
            if isinstance(fc.get("id"), str) and fc["id"]:
                ctx.unknown_id(fc["id"], where)
            continue
        args = fc.get("args", {})
        if isinstance(args, dict):
            compare(ctx, sb, args, where)
    sent = {signature_bytes(p.get("thoughtSignature")) for p in parts}
    for sb in ctx.blocks:
        sig = sb.signature
        if isinstance(sig, str) and sig and signature_bytes(sig) not in sent:
            what = f"function call {sb.name!r}" if sb.tool else f"{sb.kind} block {sb.index}"
            ctx.report("Q004", f"thoughtSignature received with {what} is not sent back in contents[{last}] "
                       "(Gemini 3 rejects function calling turns without it)", sb)


SHAPE = HistoryShape("contents", lambda body, dialect: True, check)
