"""Which dialect a stream speaks: from its first identifying event, else from the request URL.

Detection asks each provider that detects a dialect, in ``inspector.providers.DETECTORS`` order
(``Provider.priority``), whether an event identifies it (``Provider.sniff``: the folder's cheap
``sniff`` module, so no dialect is imported until one is chosen); a body with no identifying event
(an HTTP error page, an empty stream) falls back to the request URL (``Provider.sniff_url``), then
to ``unknown``.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from inspector.model.events import DONE, NOT_JSON
from inspector.providers import DETECTORS, dialect_class

if TYPE_CHECKING:
    from inspector.model.events import EventRecord
    from inspector.providers.base import Dialect, StreamWriter


def from_event(ev: "EventRecord") -> str | None:
    """The dialect ``ev`` alone identifies, or None."""
    for p in DETECTORS:
        try:
            if p.sniff is not None and p.sniff(ev):
                return p.dialect_name
        except (TypeError, AttributeError):  # a list or an object where a shape has a scalar: not this one
            continue
    return None


def event_type(ev: "EventRecord") -> str:
    """What an event calls itself: its SSE ``event:`` name, else its payload's ``type``,
    ``event_type`` (Google's Interactions API) or ``object``, else ``[DONE]``/``untyped``."""
    if ev.named:
        return ev.name
    p = ev.payload
    if isinstance(p, dict):
        for key in ("type", "event_type", "object"):
            if isinstance(p.get(key), str) and p[key]:
                return p[key]
        return "untyped object"
    return "[DONE]" if p is DONE else "not JSON" if p is NOT_JSON else f"JSON {type(p).__name__}"


def describe_types(events, limit: int = 8) -> str:
    """The distinct event types of ``events`` in order of first appearance, at most ``limit`` shown."""
    seen: dict[str, None] = {}
    for ev in events:
        seen.setdefault(event_type(ev))
    names = list(seen)
    return ", ".join(names[:limit]) + (f", … ({len(names)} in all)" if len(names) > limit else "")


def fallback(request: dict | None) -> str:
    """The dialect the request URL suggests, else ``unknown``."""
    url = str((request or {}).get("url") or "")
    for p in DETECTORS:
        if p.sniff_url is not None and p.sniff_url(url):
            return p.dialect_name
    return "unknown"


def make(name: str, writer: "StreamWriter") -> "Dialect":
    """A fresh dialect instance writing to ``writer``. Raises ``ValueError`` for an unknown name."""
    return dialect_class(name)(writer)
