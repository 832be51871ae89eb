"""Which events and URLs are native Ollama (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

URL_HINTS = ('/api/chat', '/api/generate')


def sniff(ev: "EventRecord") -> bool:
    """A chat or generate line: ``message``/``response`` beside ``created_at``/``model``; the
    ``done`` key may be missing until the last line (some servers send it only there)."""
    p = ev.payload
    if not isinstance(p, dict) or not ("created_at" in p or "model" in p) or "choices" in p:
        return False
    if "done" in p and ("message" in p or "response" in p):
        return True
    msg = p.get("message")
    return isinstance(msg, dict) and "role" in msg and "type" not in p


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
