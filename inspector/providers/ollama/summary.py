"""Event-log summaries of Ollama NDJSON lines: thinking, content, tool calls, done."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.summary import compact
from inspector.model.members import object_member


def summarize(p: dict, ev: EventRecord) -> str | None:
    """A chat (``message``) or generate (``response``) line; None for anything else."""
    if "done" not in p or not ("message" in p or "response" in p):
        return None
    msg = object_member(p, "message")
    out = []
    for key in ("thinking", "content"):
        if msg.get(key):
            out.append((f"{key} " if key != "content" else "") + compact(msg[key]))
    if isinstance(p.get("response"), str) and p["response"]:
        out.append(compact(p["response"]))
    for call in msg.get("tool_calls") or []:
        fn = object_member(call, "function") if isinstance(call, dict) else {}
        out.append(f"tool_call {fn.get('name')} {compact(fn.get('arguments'))}")
    if p.get("done"):
        out.append(f"done done_reason={p.get('done_reason')}")
    return " · ".join(out) or "{}"
