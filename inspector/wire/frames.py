"""What the framing layer hands to the dialects: frames, comments and framing issues.

A *frame* is one dispatched SSE event (or one NDJSON line) with where it sat in the body and
when the chunk that completed it arrived. The SSE payload itself is httpx-sse's
``ServerSentEvent``, so the frame model is the one every Python SSE client already knows.
"""
from __future__ import annotations

from dataclasses import dataclass

from httpx_sse import ServerSentEvent


@dataclass(slots=True)
class Frame:
    """One SSE event (or NDJSON line), positioned in the body."""

    sse: ServerSentEvent
    """The event: ``event`` (``"message"`` when no ``event:`` field), ``data``, ``id``, ``retry``."""
    named: bool
    """True when the event carried an ``event:`` field (S005 compares only named events)."""
    line: int
    """1-based body line of the event's first field line."""
    offset: int
    """Byte offset in the body of that line's first byte."""
    t: float | None
    """Arrival time (seconds) of the chunk that completed the event; None for untimed input."""


@dataclass(slots=True)
class Comment:
    """An SSE comment line (``: keepalive``): not an event, but bytes that kept the stream alive."""

    text: str
    line: int
    offset: int
    t: float | None


@dataclass(slots=True)
class FramingIssue:
    """Something the framing saw that a finding should report (S001, S009, S010, S011, S013)."""

    code: str
    message: str
    line: int | None
    offset: int | None
    t: float | None


Item = Frame | Comment | FramingIssue
"""What ``feed()``/``close()`` of a decoder return, in body order."""
