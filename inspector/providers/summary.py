"""One-line summaries of events for the raw event log: the shared part.

Why it exists: the log's name column already says ``content_block_delta``; repeating
``{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta",…`` pushes the part a
person looks for (which block, which fragment) off the screen. A summary leads with that part and
keeps the rest compact; the full event stays one key away. Each provider folder's ``summary``
module knows its own shapes; ``generic`` serves typed-event dialects (Anthropic, Responses) and
streams no dialect claimed. ``inspector.providers.summarize`` picks one and masks secrets.
"""
from __future__ import annotations

import orjson

from inspector.model.events import EventRecord


def compact(value) -> str:
    """``value`` as compact JSON (``repr`` for what JSON cannot hold)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return repr(value)


def _delta_text(delta: dict) -> str:
    """``input_json_delta "{\\"q\\": "`` for a typed delta with one string field, else compact JSON."""
    rest = {k: v for k, v in delta.items() if k != "type"}
    head = str(delta.get("type", "")) if isinstance(delta.get("type"), str) else ""
    if len(rest) == 1 and isinstance(next(iter(rest.values())), str):
        body = compact(next(iter(rest.values())))
    else:
        body = compact(rest) if rest else ""
    return f"{head} {body}".strip()


def generic(p: dict, ev: EventRecord) -> str:
    """Lead with the block index and the typed delta or started block; the rest compact."""
    rest = {k: v for k, v in p.items() if not (k == "type" and v == ev.name)}
    lead = []
    if isinstance(rest.get("index"), int):
        lead.append(f"#{rest.pop('index')}")
    if isinstance(rest.get("delta"), dict) and "type" in rest["delta"]:
        lead.append(_delta_text(rest.pop("delta")))
    elif isinstance(rest.get("content_block"), dict):
        lead.append(compact(rest.pop("content_block")))
    tail = compact(rest) if rest else ""
    return " ".join(x for x in (*lead, tail) if x)
