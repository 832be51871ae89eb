"""Which events and URLs are Cohere v2 chat (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

EVENT_TYPES = frozenset({"message-start", "content-start", "content-delta", "content-end", "tool-plan-delta",
                         "tool-call-start", "tool-call-delta", "tool-call-end", "citation-start", "citation-end",
                         "message-end", "debug"})
"""``V2ChatStreamResponse``'s members (cohere/v2/types/v2chat_stream_response.py)."""


def sniff(ev: "EventRecord") -> bool:
    p = ev.payload
    return isinstance(p, dict) and p.get("type") in EVENT_TYPES and p.get("type") != "debug"


def sniff_url(url: str) -> bool:
    path = url.split("?", 1)[0].rstrip("/")
    return path.endswith("/v2/chat") or "api.cohere.com/" in url or "api.cohere.ai/" in url
