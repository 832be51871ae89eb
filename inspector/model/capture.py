"""A capture in memory: the response head, the body as timed network chunks, and how it ended.

Every source (a native capture file, pasted SSE text, NDJSON, HAR, a live socket, the proxy tee)
becomes this shape, so one pipeline serves them all (see DESIGN.md, "One direction of flow").
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from inspector.model.record import Record

if TYPE_CHECKING:
    from inspector.model.websocket import WsMessage

END_KINDS = ("eof", "reset", "timeout", "cancelled", "close")
"""How a stream can end (SPEC.md, native capture ``end`` record); ``close`` ends a WebSocket, with its
close code (README "WebSocket captures")."""
NORMAL_CLOSE_CODES = (1000, 1001)
"""WebSocket close codes that end a socket normally (RFC 6455 §7.4.1: normal closure, going away)."""


class Chunk(Record):
    """One network chunk exactly as received."""

    __slots__ = ("t", "data", "line")

    t: float | None
    """Seconds since the request was sent (native captures) or since the first byte; None if untimed."""
    data: bytes
    line: int | None
    """The capture file's line holding this chunk (native captures), so findings point into the file."""

    def __init__(self, t: float | None, data: bytes, line: int | None = None) -> None:
        self.t = t
        self.data = data
        self.line = line


class End(Record):
    """How the body ended."""

    __slots__ = ("t", "kind", "error", "code")

    t: float | None
    kind: str
    """One of ``END_KINDS``; anything but ``eof`` (or a WebSocket ``close`` with a normal code) is an
    abnormal end (S012)."""
    error: str | None
    """Why it ended so (for ``close``: the close frame's reason)."""
    code: int | None
    """The WebSocket close code (``close`` only; None: the close frame carried no code)."""

    def __init__(self, t: float | None, kind: str = "eof", error: str | None = None, code: int | None = None) -> None:
        self.t = t
        self.kind = kind
        self.error = error
        self.code = code


HUNG_UP_AFTER_END = "closed by the client after the end"
"""How a stream that was complete ends when the client hangs up before the server ends its body
(the SDKs stop reading at ``[DONE]``/``message_stop`` and close): a normal end, not a cancel."""


def normal_end(end: End | None, after_marker: bool) -> bool:
    """True when the body ended normally: ``eof``, or cancelled after the dialect's end marker
    (``after_marker``: the session saw ``[DONE]``, ``message_stop``, ``response.completed``…).
    None (not ended, or ended with no record) counts as normal. A WebSocket ``close`` is normal with
    code 1000 or 1001 (RFC 6455 §7.4.1) wherever it comes; any other code is abnormal even after the
    marker, as a reset is."""
    if end is None or end.kind == "eof":
        return True
    if end.kind == "close":
        return end.code in NORMAL_CLOSE_CODES
    return end.kind == "cancelled" and after_marker


def end_word(end: End | None, after_marker: bool) -> str:
    """How the body ended, for people: ``eof``, ``HUNG_UP_AFTER_END``, or the abnormal ``End.kind``."""
    if end is None or end.kind == "eof":
        return "eof"
    if end.kind == "close":
        return close_word(end)
    return HUNG_UP_AFTER_END if normal_end(end, after_marker) else end.kind


def close_word(end: End) -> str:
    """A WebSocket close for people: ``close 1006``, ``close 4000 (reason)``, ``close (no code)``."""
    code = "(no code)" if end.code is None else str(end.code)
    return f"close {code}" + (f" ({end.error})" if end.error else "")


class Capture(Record):
    """A whole capture: request (redacted), response head, body chunks, end."""

    __slots__ = ("chunks", "request", "response", "end", "source_format", "request_relative", "line_base", "notes",
                 "timing_notes", "entry", "messages", "socket", "followup")

    chunks: list[Chunk]
    request: dict | None
    """``{"method", "url", "headers", "body"}`` or None."""
    response: dict | None
    """``{"status": int, "headers": {name: value}}`` or None (pasted text has none)."""
    end: End | None
    source_format: str
    """``native``, ``sse``, ``ndjson``, ``eventstream`` (a raw AWS event-stream body), ``har``, ``text``
    (SSE pasted inside prose) or ``websocket`` (one response of a WebSocket: each chunk one message)."""
    request_relative: bool
    """True when ``t`` counts from the request (native captures): the wait to the first byte counts."""
    line_base: int
    """Added to body line numbers to give file line numbers (text imported from inside prose)."""
    notes: list[str]
    """Import notes worth a finding or a line of output (e.g. prose around the stream ignored): S014."""
    timing_notes: list[str]
    """Record times that cannot be true (negative, non-finite, out of order), clamped at load: S017."""
    entry: str | None
    """Which part of a many-stream file this is (HAR: ``entry 3: POST https://… 200 text/event-stream, 12 kB``)."""
    messages: list[WsMessage] | None
    """A whole WebSocket (README "WebSocket captures"): every message either way, in order; ``request`` and
    ``response`` are then the opening handshake and ``end`` the close. None for an HTTP body.
    ``inspector.capture.websocket`` cuts a socket into one ``Capture`` per response."""
    socket: Capture | None
    """For one response of a WebSocket: the whole recorded socket it came from (``messages`` set), so
    that a HAR export writes the socket once, as Chrome does."""
    followup: dict | None
    """The request body that continues this response on its socket (the next ``response.create``,
    with the tool outputs it sends back): its history is judged against this answer (Q rules)."""

    def __init__(self, chunks: list[Chunk] | None = None, request: dict | None = None, response: dict | None = None,
                 end: End | None = None, source_format: str = "sse", request_relative: bool = False,
                 line_base: int = 0, notes: list[str] | None = None, timing_notes: list[str] | None = None,
                 entry: str | None = None, messages: list[WsMessage] | None = None, socket: Capture | None = None,
                 followup: dict | None = None) -> None:
        self.chunks = [] if chunks is None else chunks
        self.request = request
        self.response = response
        self.end = end
        self.source_format = source_format
        self.request_relative = request_relative
        self.line_base = line_base
        self.notes = [] if notes is None else notes
        self.timing_notes = [] if timing_notes is None else timing_notes
        self.entry = entry
        self.messages = messages
        self.socket = socket
        self.followup = followup

    @property
    def timed(self) -> bool:
        return any(c.t is not None for c in self.chunks)

    @property
    def body(self) -> bytes:
        return b"".join(c.data for c in self.chunks)


class Head(Record):
    """The response head, first item of every live or replayed source."""

    __slots__ = ("status", "headers", "request")

    status: int | None
    headers: dict
    request: dict | None
    """The (redacted) request, as a native capture header stores it."""

    def __init__(self, status: int | None, headers: dict, request: dict | None = None) -> None:
        self.status = status
        self.headers = headers
        self.request = request


SourceItem = Head | Chunk | End
"""What a source yields: one ``Head``, then ``Chunk``s, then one ``End``."""
