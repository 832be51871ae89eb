"""Event-log summaries of Chat chunks: per choice, the content, tool-call fragments, finish."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.summary import compact
from inspector.model.members import object_member


def _choice(choice: dict) -> str:
    parts = []
    if len(choice) and choice.get("index") not in (None, 0):
        parts.append(f"choice {choice.get('index')}")
    delta = object_member(choice, "delta")
    for key in ("role", "content", "reasoning", "reasoning_content", "refusal"):
        if delta.get(key) not in (None, ""):
            parts.append(f"{key} {compact(delta[key])}" if key != "content" else compact(delta[key]))
    calls = delta.get("tool_calls")
    if isinstance(calls, list):
        for call in calls:
            if not isinstance(call, dict):
                continue
            fn = object_member(call, "function")
            bits = [f"#{call['index']}" if "index" in call else "#?"]
            if call.get("id"):
                bits.append(f"id={call['id']}")
            if fn.get("name"):
                bits.append(f"name={fn['name']}")
            if "arguments" in fn:
                bits.append(compact(fn["arguments"]))
            parts.append("tool_call " + " ".join(bits))
        if not calls:
            parts.append("tool_calls []")
    if choice.get("finish_reason"):
        parts.append(f"finish_reason={choice['finish_reason']}")
    return " · ".join(parts) or "{}"


def summarize(p: dict, ev: EventRecord) -> str | None:
    """The choices, then usage or error when present; None for a chunk with no choices list."""
    choices = p.get("choices")
    if not isinstance(choices, list):
        return None
    lead = " | ".join(_choice(c) for c in choices if isinstance(c, dict)) if choices else ""
    rest = {k: v for k, v in p.items() if k in ("usage", "error") and v}
    if not choices and not rest:
        rest = {k: v for k, v in p.items() if not (k == "type" and v == ev.name)}
    return " ".join(x for x in (lead, compact(rest) if rest else "") if x)
