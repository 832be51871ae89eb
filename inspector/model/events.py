"""Events as the session records them: one dispatched SSE event or NDJSON line, parsed.

``EventRecord`` is what the raw event log shows and what findings point at (by ``index``).
Records are written once, when the event is dispatched, and never change afterwards: the
session's ``events`` list is append-only, which lets replay checkpoints share it.
"""
from __future__ import annotations

from dataclasses import dataclass


class _Done:
    """The ``[DONE]`` sentinel payload (OpenAI Chat's end marker; not JSON)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "[DONE]"

    def __reduce__(self) -> str:
        return "DONE"  # copies and pickles keep the one sentinel


class _NotJson:
    """Payload of an event whose data is not JSON (S002 already reported)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_JSON"

    def __reduce__(self) -> str:
        return "NOT_JSON"


DONE = _Done()
NOT_JSON = _NotJson()

KEEPALIVE_TYPES = frozenset({"ping"})
"""Event names/types that only keep a connection alive (Anthropic ``ping``)."""


@dataclass(slots=True)
class EventRecord:
    """One event as the raw log shows it."""

    index: int
    """0-based position in the stream's events (what findings' ``event`` refers to)."""
    name: str
    """The SSE ``event:`` name, else the payload's ``type``, else ``message``."""
    data: str
    """The event's data exactly as framed (SSE data lines joined with LF, or the NDJSON line)."""
    payload: object
    """Parsed JSON, ``DONE`` or ``NOT_JSON``."""
    line: int | None
    """1-based line in the capture file (native captures) or body where the event starts."""
    offset: int | None
    """Byte offset in the body of the event's first line."""
    t: float | None
    """Arrival time in seconds of the chunk that completed the event; None when untimed."""
    named: bool = False
    """The event carried an SSE ``event:`` field."""
    keepalive: bool = False
    block: int | None = None
    """Position in ``Session.blocks`` of the block this event touched (the TUI jumps to it)."""
    response: int = 0
    """Which response of the body the event belongs to (0-based; see ``Session.responses``)."""
