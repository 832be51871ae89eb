"""Which events and URLs are Claude on Bedrock (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

CHUNK = "chunk"
"""The event-stream event that carries one base64 Anthropic event in ``bytes`` (PROTOCOLS.md §8)."""
URL_HINTS = ("/invoke-with-response-stream",)


def sniff(ev: "EventRecord") -> bool:
    return ev.name == CHUNK and isinstance(ev.payload, dict) and isinstance(ev.payload.get("bytes"), str)


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
