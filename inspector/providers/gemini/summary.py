"""Event-log summaries of Gemini chunks: parts (text, thought, functionCall) and finishReason."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.gemini.stream import finish_reason_name
from inspector.providers.summary import compact
from inspector.model.members import object_member


def summarize(p: dict, ev: EventRecord) -> str | None:
    """Every candidate's parts and finish; an error object as is; None without candidates."""
    if not isinstance(p.get("candidates"), list):
        return None
    out = []
    for cand in p["candidates"]:
        if not isinstance(cand, dict):
            continue
        content = object_member(cand, "content")
        for part in content.get("parts") or []:
            if not isinstance(part, dict):
                continue
            if isinstance(part.get("functionCall"), dict):
                fc = part["functionCall"]
                out.append(f"functionCall {fc.get('name')} {compact(fc.get('args'))}")
            elif "text" in part:
                out.append(("thought " if part.get("thought") else "") + compact(part["text"]))
            if part.get("thoughtSignature"):
                out.append("thoughtSignature")
        finish = finish_reason_name(cand.get("finishReason"))
        if finish:
            out.append(f"finishReason={finish}")
    if p.get("error"):
        out.append(compact({"error": p["error"]}))
    return " · ".join(out)
