"""What the framing layer hands to the dialects: frames, comments and framing issues.

A *frame* is one dispatched SSE event (or one NDJSON line) with where it sat in the body and
when the chunk that completed it arrived. Its fields are those of the WHATWG event-stream
model (HTML 9.2.6: type, data, last event id, reconnection time), the same ones httpx-sse's
``ServerSentEvent`` has; the type is our own so that framing never imports httpx (httpx-sse
stays the test oracle).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Frame:
    """One SSE event (or NDJSON line, or AWS event-stream message), positioned in the body."""

    event: str
    """The event type: the ``event:`` field, ``"message"`` when there was none (HTML 9.2.6)."""
    data: str
    """The data lines joined with LF (one trailing LF stripped), or the NDJSON line."""
    id: str
    """The last event ID buffer when the event was dispatched (sticky across events)."""
    retry: int | None
    """A ``retry:`` field given in this event's block, in milliseconds."""
    named: bool
    """True when the event carried an ``event:`` field (S005 compares only named events)."""
    line: int | None
    """1-based body line of the event's first field line; None in a binary body (AWS event-stream)."""
    offset: int
    """Byte offset in the body of that line's first byte."""
    t: float | None
    """Arrival time (seconds) of the chunk that completed the event; None for untimed input."""
    payload: object = None
    """The parsed data when framing already parsed it (a JSON object; None: not parsed yet)."""


@dataclass(slots=True)
class Comment:
    """An SSE comment line (``: keepalive``): not an event, but bytes that kept the stream alive."""

    text: str
    line: int
    offset: int
    t: float | None


@dataclass(slots=True)
class FramingIssue:
    """Something the framing saw that a finding should report (S001, S009, S010, S011, S013, S015, S016)."""

    code: str
    message: str
    line: int | None
    offset: int | None
    t: float | None


Item = Frame | Comment | FramingIssue
"""What ``feed()``/``close()`` of a decoder return, in body order."""
