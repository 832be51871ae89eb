"""Which events and URLs are Anthropic Messages (detection: cheap to import, no dialect loaded).

Imports: nothing (the event type is for the checker only).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

EVENT_TYPES = frozenset({"message_start", "content_block_start", "content_block_delta", "content_block_stop",
                         "message_delta", "message_stop", "ping", "error"})
"""Documented event types (docs: new ones may appear; unknown ones are S008 info)."""
IDENTIFYING = EVENT_TYPES - {"ping", "error"}
ERROR_TYPES = frozenset({"invalid_request_error", "authentication_error", "permission_error", "not_found_error",
                         "rate_limit_error", "timeout_error", "overloaded_error", "api_error", "billing_error"})
"""``error.type`` values of an Anthropic ``error`` event (PROTOCOLS.md §1): they identify an
error-only body as Anthropic's."""
URL_HINTS = ("api.anthropic.com", "/v1/messages")


def sniff(ev: "EventRecord") -> bool:
    """A Messages event type, or an error-only body in Anthropic's error shape and enum."""
    p = ev.payload
    if not isinstance(p, dict):
        return False
    typ = p.get("type")
    if typ in IDENTIFYING:
        return True
    # An error-only body (an overload before any output): Anthropic's error shape and enum.
    err = p.get("error")
    return (typ == "error" and "sequence_number" not in p and isinstance(err, dict)
            and err.get("type") in ERROR_TYPES)


def sniff_url(url: str) -> bool:
    return any(h in url for h in URL_HINTS)
