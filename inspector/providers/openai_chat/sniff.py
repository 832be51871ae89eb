"""Which events and URLs are OpenAI Chat Completions (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

CHUNK_OBJECT = "chat.completion.chunk"
LEGACY_OBJECT = "text_completion"
"""Chunks of the legacy ``/v1/completions`` stream: ``choices[].text`` instead of a delta."""
URL_HINTS = ('/chat/completions',)


def sniff(ev: "EventRecord") -> bool:
    """A chunk object, or any object with a ``choices`` list and no Anthropic/Responses ``type``.

    Gemini's compat endpoint omits ``object`` (PROTOCOLS.md §4), so ``choices`` alone counts.
    A lone ``[DONE]`` decides nothing (RULES.md, dialect detection): OpenAI's Assistants and
    other APIs end with it too.
    """
    p = ev.payload
    if not isinstance(p, dict):
        return False
    if p.get("object") in (CHUNK_OBJECT, LEGACY_OBJECT):
        return True
    if isinstance(p.get("type"), str):
        return False
    return isinstance(p.get("choices"), list)


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
