"""Which events and URLs are Gemini (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

URL_HINTS = ('generativelanguage.googleapis.com', 'streamGenerateContent')


def sniff(ev: "EventRecord") -> bool:
    """A ``GenerateContentResponse`` chunk, or Google's error object as the first event.

    Google APIs report errors as ``{"error": {"code": int, "message": str, "status": "UPPER_CASE"}}``
    (google.rpc.Status JSON mapping, cloud.google.com/apis/design/errors); no other provider
    here uses the ``status`` string.
    """
    p = ev.payload
    if not isinstance(p, dict) or "choices" in p:
        return False
    if "candidates" in p or "promptFeedback" in p:
        return True
    err = p.get("error")
    return (len(p) == 1 and isinstance(err, dict) and isinstance(err.get("code"), int)
            and isinstance(err.get("status"), str) and err["status"].isupper())


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
