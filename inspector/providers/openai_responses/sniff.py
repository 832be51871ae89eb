"""Which events and URLs are OpenAI Responses (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

URL_HINTS = ('/responses',)


def sniff(ev: "EventRecord") -> bool:
    """A ``response.*`` event, or an ``error`` event with a ``sequence_number`` (every
    Responses event has one, PROTOCOLS.md §3: an error-only body is still this dialect's)."""
    p = ev.payload
    if isinstance(p, dict):
        typ = p.get("type")
        if isinstance(typ, str) and typ.startswith("response."):
            return True
        if typ == "error" and isinstance(p.get("sequence_number"), int):
            return True
    return False


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
