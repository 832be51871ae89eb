"""Which events and URLs are Bedrock ConverseStream (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

EVENT_TYPES = ("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop",
               "metadata")
URL_HINTS = ("/converse-stream",)


def sniff(ev: "EventRecord") -> bool:
    return ev.named and ev.name in EVENT_TYPES and isinstance(ev.payload, dict)


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
