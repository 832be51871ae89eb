"""What every dialect is: a small state machine turning a provider's events into session operations.

A dialect never owns state the sinks need: blocks, findings and the stop reason live on the
``Session``; the dialect keeps only its own bookkeeping (which index maps to which block, what
has been seen). It is fed events in order and told when the stream ended.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from inspector.capture.model import End
    from inspector.session.session import EventRecord, Session


class Dialect:
    """Base class. Subclasses set ``name`` and implement ``sniff``, ``on_event`` and ``on_end``."""

    name: ClassVar[str] = "unknown"
    accepts_done: ClassVar[bool] = False
    """``data: [DONE]`` is part of this dialect (OpenAI); elsewhere it is S002 (RULES.md S002)."""
    url_hints: ClassVar[tuple[str, ...]] = ()
    """Substrings of a request URL that identify the dialect when no event does (e.g. an HTTP error)."""

    def __init__(self, session: "Session") -> None:
        self.s = session

    @classmethod
    def sniff(cls, ev: "EventRecord") -> bool:
        """True when this event alone identifies the dialect."""
        return False

    @classmethod
    def sniff_url(cls, url: str) -> bool:
        return any(h in url for h in cls.url_hints)

    def on_event(self, ev: "EventRecord") -> None:
        """Handle one event (``ev.payload`` is parsed JSON, ``DONE`` or ``NOT_JSON``)."""
        self.generic_error(ev)

    def on_end(self, end: "End") -> None:
        """The body ended: judge what needs the whole stream (S003, never-closed blocks...)."""

    # helpers shared by dialects
    def generic_error(self, ev: "EventRecord") -> bool:
        """S006 for an ``{"error": …}`` payload or ``event: error``; True when it was one."""
        p = ev.payload
        if not isinstance(p, dict):
            return False
        err = p.get("error")
        # An OpenRouter-style chunk can carry both ``error`` and ``choices``: any truthy ``error``
        # is an error (the OpenAI SDK raises APIError on it, PROTOCOLS.md §2).
        if ev.name == "error" or p.get("type") == "error" or err:
            detail = err if err is not None else p
            if isinstance(detail, dict):
                kind = detail.get("type") or detail.get("code") or "error"
                msg = detail.get("message") or str(detail)
                text = f"{kind}: {msg}"
            else:
                text = str(detail)
            self.s.report("S006", f"error inside the stream: {text}"[:400])
            return True
        return False

    def truncated(self, what: str) -> None:
        """S003 unless the body was already reported as an HTTP error (S007), or no byte ever
        arrived before the transport failed (S012 alone says that: there was no stream to cut)."""
        end = self.s.end
        if not self.s.bytes_received and end is not None and end.kind != "eof":
            return
        if not self.s.http_error:
            self.s.report("S003", f"stream ended before {what}", event=False)
