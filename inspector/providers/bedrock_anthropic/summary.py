"""Event-log summaries of Bedrock ``chunk`` events: the Anthropic event inside, summarised as such."""
from __future__ import annotations

from inspector.model.events import EventRecord
from inspector.providers.bedrock_anthropic.stream import decode_chunk, inner_event
from inspector.providers.summary import generic
from inspector.model.members import string_member


def summarize(p: dict, ev: EventRecord) -> str | None:
    """``content_block_delta #1 input_json_delta "{\\"q\\""`` for a chunk; None for other events."""
    inner = decode_chunk(p)
    if inner is None:
        return None
    typ = string_member(inner, "type", "?")
    return f"{typ} {generic(inner, inner_event(ev, inner))}".strip()
