"""Event-log summaries of ConverseStream events: which block, which fragment, why it stopped."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.summary import compact


def summarize(p: dict, ev: EventRecord) -> str | None:
    """``#1 toolUse "{\\"city\\""``, ``#0 start toolUse get_weather tooluse_1``, ``stopReason=tool_use``…;
    None for events this dialect does not know (the generic summary then)."""
    rest = {k: v for k, v in p.items() if k != "p"}  # "p": Bedrock's padding, never content
    idx = rest.pop("contentBlockIndex", None)
    lead = f"#{idx}" if isinstance(idx, int) else ""
    if ev.name == "contentBlockDelta" and isinstance(rest.get("delta"), dict):
        parts = []
        for member, value in rest["delta"].items():
            if member == "toolUse" and isinstance(value, dict) and set(value) == {"input"}:
                parts.append(f"toolUse {compact(value['input'])}")
            elif member == "text":
                parts.append(compact(value))
            else:
                parts.append(f"{member} {compact(value)}")
        return " ".join([lead, *parts]).strip()
    if ev.name == "contentBlockStart" and isinstance(rest.get("start"), dict):
        parts = []
        for member, value in rest["start"].items():
            if member == "toolUse" and isinstance(value, dict):
                parts.append(f"start toolUse {value.get('name')} {value.get('toolUseId')}")
            else:
                parts.append(f"start {member} {compact(value)}")
        return " ".join([lead, *parts]).strip()
    if ev.name == "contentBlockStop":
        return f"{lead} stop".strip()
    if ev.name == "messageStop":
        return f"stopReason={rest.pop('stopReason', None)}" + (f" {compact(rest)}" if rest else "")
    if ev.name in ("messageStart", "metadata"):
        return compact(rest)
    return None
