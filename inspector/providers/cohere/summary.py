"""Event-log summaries of Cohere v2 chat events: the index, then the text, plan or argument
fragment (every payload sits under ``delta.message``), or the finish reason."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.summary import compact


def summarize(p: dict, ev: EventRecord) -> str | None:
    """A Cohere event (``delta.message`` or ``delta.finish_reason``); None for anything else."""
    delta = p.get("delta")
    if not isinstance(delta, dict):
        return None
    lead = f"#{p['index']} " if isinstance(p.get("index"), int) else ""
    msg = delta.get("message")
    if isinstance(msg, dict) and len(msg) == 1:
        key, value = next(iter(msg.items()))
        if isinstance(value, dict) and isinstance(value.get("function"), dict):
            fn = value["function"]
            name = f"{fn['name']} " if isinstance(fn.get("name"), str) else ""
            ident = f"{value['id']} " if isinstance(value.get("id"), str) else ""
            return f"{lead}{ident}{name}arguments {compact(fn.get('arguments'))}"
        if isinstance(value, dict) and len(value) <= 2 and any(k in value for k in ("text", "thinking")):
            return lead + " ".join(f"{k} {compact(v)}" for k, v in value.items())
        return f"{lead}{key} {compact(value)}"
    if "finish_reason" in delta:
        rest = {k: v for k, v in delta.items() if k != "finish_reason"}
        return f"finish_reason={delta['finish_reason']} {compact(rest) if rest else ''}".strip()
    return None
