"""Which events and URLs are OpenAI Realtime (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

URL_HINTS = ("/realtime",)
SESSION_PREFIXES = ("session.", "conversation.", "input_audio_buffer.", "output_audio_buffer.", "rate_limits.",
                    "mcp_list_tools.", "transcription_session.")
"""Server events that belong to the socket's session, not to a response (shown, not judged)."""


def sniff(ev: "EventRecord") -> bool:
    """A Realtime server event: a ``type`` and an ``event_id`` (every Realtime server event has one,
    openai-python ``types/realtime``; Responses events never do), with a response or session type."""
    p = ev.payload
    if not isinstance(p, dict) or not isinstance(p.get("event_id"), str):
        return False
    typ = p.get("type")
    return isinstance(typ, str) and (typ.startswith(("response.", *SESSION_PREFIXES)) or typ == "error")


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
