"""What the framing layer hands to the dialects: frames, comments and framing issues.

A *frame* is one dispatched SSE event (or one NDJSON line) with where it sat in the body and
when the chunk that completed it arrived. Its fields are those of the WHATWG event-stream
model (HTML 9.2.6: type, data, last event id, reconnection time), the same ones httpx-sse's
``ServerSentEvent`` has; the type is our own so that framing never imports httpx (httpx-sse
stays the test oracle).
"""
from __future__ import annotations

from itertools import accumulate

from inspector.model.record import Record


class Frame(Record):
    """One SSE event (or NDJSON line, or AWS event-stream message), positioned in the body."""

    __slots__ = ("event", "data", "id", "retry", "named", "line", "offset", "t", "payload")

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
    payload: object
    """The parsed data when framing already parsed it (a JSON object; None: not parsed yet)."""

    def __init__(self, event: str, data: str, id: str, retry: int | None, named: bool, line: int | None, offset: int,
                 t: float | None, payload: object = None) -> None:
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.named = named
        self.line = line
        self.offset = offset
        self.t = t
        self.payload = payload


def unnamed_frames(values: list, offsets, line: int, ident: str, t: float | None) -> list[Frame]:
    """``Frame("message", value, ident, None, False, line + 2 * k, offset, t)`` for the ``k``-th of
    ``values`` and ``offsets`` (events of one ``data:`` line and a blank line each), made without a call of
    ``__init__`` per frame: instantiating a class whose ``__init__`` is Python costs ~0.8 k instructions
    more in 3.11 (the call goes through ``slot_tp_init``), and a stream of short events is mostly frames.
    Sets every field ``__init__`` sets (``tests/unit/test_sse.py`` holds the two equal)."""
    new = Frame.__new__
    frames: list[Frame] = []
    append = frames.append
    for value, offset in zip(values, offsets):
        f = new(Frame)
        f.event = "message"
        f.data = value
        f.id = ident
        f.retry = None
        f.named = False
        f.line = line
        f.offset = offset
        f.t = t
        f.payload = None
        append(f)
        line += 2
    return frames


class Comment(Record):
    """An SSE comment line (``: keepalive``): not an event, but bytes that kept the stream alive."""

    __slots__ = ("text", "line", "offset", "t")

    text: str
    line: int
    offset: int
    t: float | None

    def __init__(self, text: str, line: int, offset: int, t: float | None) -> None:
        self.text = text
        self.line = line
        self.offset = offset
        self.t = t


class FramingIssue(Record):
    """Something the framing saw that a finding should report (S001, S009, S010, S011, S013, S015, S016)."""

    __slots__ = ("code", "message", "line", "offset", "t")

    code: str
    message: str
    line: int | None
    offset: int | None
    t: float | None

    def __init__(self, code: str, message: str, line: int | None, offset: int | None, t: float | None) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.offset = offset
        self.t = t


class FrameRun(Record):
    """Events that follow a just-dispatched frame and repeat its bytes but for one JSON string
    value (a run of deltas: ``partial_json``, ``arguments``, ``text``...), framed in one pass.

    Event ``i`` (0-based) is the frame with ``data = head + raw[i] + tail`` (with ``noise``:
    ``head + raw[i] + mid + noise[i] + tail``), the same
    ``event``/``named``/``id``, at body line ``line + i * lines`` and byte offset
    ``offset + i * fixed`` plus the bodies before it (``raw`` and ``noise``), completed at ``t``. ``raw`` holds each
    value's JSON string body as sent (escapes kept, UTF-8 bytes); ``values`` the decoded strings.
    Only a decoder told which keys may vary (``SSEDecoder.run_keys``) emits runs.
    """

    __slots__ = ("event", "named", "id", "head", "tail", "raw", "values", "line", "lines", "offset", "fixed", "t",
                 "size", "mid", "noise", "_before")

    event: str
    named: bool
    id: str
    head: str
    """The data text before the varying string's body (ends with its opening quote)."""
    tail: str
    """The data text after it (starts with its closing quote)."""
    raw: list
    """``list[bytes]``: each event's string body as sent."""
    values: list | None
    """``list[str]``: the same bodies decoded (None once the session took them)."""
    line: int
    lines: int
    """Body lines per event (2 for ``data:`` + blank line, 3 with an ``event:`` line)."""
    offset: int
    fixed: int
    """Bytes per event besides its string body."""
    t: float | None
    size: int
    """Body bytes of all the events."""
    mid: str
    """With ``noise``: the text between the two varying strings (``tail`` follows the second)."""
    noise: list | None
    """``list[bytes]``: a second string body per event that varies too and that no rule reads
    (OpenAI's ``obfuscation`` padding), or None."""
    _before: list | None
    """Body bytes of the string bodies before each event (made on the first ``frame`` call)."""

    def __init__(self, event: str, named: bool, id: str, head: str, tail: str, raw: list, values: list | None,
                 line: int, lines: int, offset: int, fixed: int, t: float | None, size: int, mid: str = "",
                 noise: list | None = None, _before: list | None = None) -> None:
        self.event = event
        self.named = named
        self.id = id
        self.head = head
        self.tail = tail
        self.raw = raw
        self.values = values
        self.line = line
        self.lines = lines
        self.offset = offset
        self.fixed = fixed
        self.t = t
        self.size = size
        self.mid = mid
        self.noise = noise
        self._before = _before

    def data(self, i: int) -> str:
        """Event ``i``'s data text."""
        if self.noise is None:
            return self.head + self.raw[i].decode("utf-8") + self.tail
        return self.head + self.raw[i].decode("utf-8") + self.mid + self.noise[i].decode("utf-8") + self.tail

    def offset_of(self, i: int) -> int:
        """Body byte offset of event ``i``'s first byte."""
        raw, noise = self.raw, self.noise
        if i == len(raw) - 1:  # the last one (the session takes it alone): no sums needed
            return self.offset + self.size - self.fixed - len(raw[i]) - (len(noise[i]) if noise else 0)
        before = self._before
        if before is None:
            sizes = map(len, raw) if noise is None else map(int.__add__, map(len, raw), map(len, noise))
            before = self._before = [0, *accumulate(sizes)]
        return self.offset + i * self.fixed + before[i]

    def frame(self, i: int) -> Frame:
        """Event ``i`` as the frame the line-by-line path would have made."""
        return Frame(self.event, self.data(i), self.id, None, self.named, self.line + i * self.lines,
                     self.offset_of(i), self.t, None)

Item = Frame | Comment | FramingIssue | FrameRun
"""What ``feed()``/``close()`` of a decoder return, in body order."""
