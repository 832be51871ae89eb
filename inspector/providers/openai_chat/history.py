"""OpenAI Chat request history (Q rules): ``messages[]`` with assistant ``tool_calls[]`` (``id``,
string ``function.arguments``; Gemini-compat ``extra_content.google.thought_signature``) and
``tool`` messages' ``tool_call_id``. Ollama ``/api/chat`` sends the same shape with object
arguments, so it is read here too.
"""
from __future__ import annotations

from inspector.providers.history import (
    HistoryCheck, HistoryShape, compare, is_delta_type, kind_of, last_index, match, parse_args, same_signature,
    show,
)
from inspector.model.members import object_member


def check(ctx: HistoryCheck, msgs: list) -> None:
    """Q001/Q005 on every message, Q003/Q004/Q006 on the last assistant turn."""
    last = last_index(msgs, ("assistant",))
    for mi, m in enumerate(msgs):
        if not isinstance(m, dict):
            continue
        content = m.get("content")
        if isinstance(content, list):
            for pi, part in enumerate(content):
                if isinstance(part, dict) and is_delta_type(part.get("type")):
                    ctx.report("Q001", f"messages[{mi}].content[{pi}] is a stream delta ({part.get('type')!r}) "
                               "where a content part belongs")
        if m.get("role") != "assistant" or not isinstance(m.get("tool_calls"), list):
            continue
        for ci, tc in enumerate(m["tool_calls"]):
            if not isinstance(tc, dict):
                continue
            fn = object_member(tc, "function")
            ok, value = parse_args(fn.get("arguments"))
            if not ok:
                ctx.report("Q005", f"messages[{mi}].tool_calls[{ci}] arguments are not JSON: "
                           f"{show(fn.get('arguments'))}")
            elif not isinstance(value, dict):
                ctx.report("Q005", f"messages[{mi}].tool_calls[{ci}] arguments are {kind_of(value)}, not an object")
    if last is None:
        return
    calls = [tc for tc in (msgs[last].get("tool_calls") or []) if isinstance(tc, dict)] \
        if isinstance(msgs[last].get("tool_calls"), list) else []
    for ci, (tc, sb) in enumerate(zip(calls, match(ctx, calls, [c.get("id") for c in calls]))):
        tid = tc.get("id")
        where = f"messages[{last}].tool_calls[{ci}]"
        if sb is None:
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, f"{where} tool_call")
            continue
        fn = object_member(tc, "function")
        args = fn.get("arguments")
        ok, value = parse_args(args)
        if ok and isinstance(value, dict):
            compare(ctx, sb, value, f"{where} {tid!r}", sent_text=args if isinstance(args, str) else None)
        elif not ok and isinstance(args, str) and args != sb.content:
            ctx.report("Q006", f"{where} sends arguments {show(args)} but the stream produced "
                       f"{show(sb.content)}", sb)
        sig = sb.signature
        if isinstance(sig, str) and sig:
            ec = tc.get("extra_content")
            google = ec.get("google") if isinstance(ec, dict) else None
            back = google.get("thought_signature") if isinstance(google, dict) else None
            if not same_signature(back, sig):
                how = "dropped" if not back else "changed"
                ctx.report("Q004", f"{where}: extra_content.google.thought_signature received in the stream is "
                           f"{how} (Gemini rejects the next turn without it)", sb)
    for m in msgs[last + 1:]:
        if isinstance(m, dict) and m.get("role") == "tool":
            tid = m.get("tool_call_id")
            if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                ctx.unknown_id(tid, "tool message tool_call_id")


SHAPE = HistoryShape("messages", lambda body, dialect: True, check)
"""Claims any ``messages`` list the Anthropic shape did not claim first."""
