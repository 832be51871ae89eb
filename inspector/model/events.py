"""Events as the session records them: one dispatched SSE event or NDJSON line, parsed.

``EventRecord`` is what the raw event log shows and what findings point at (by ``index``).
Records are written once, when the event is dispatched, and never change afterwards: the
session's ``events`` list is append-only, which lets replay checkpoints share it.
"""
from __future__ import annotations

import orjson

from inspector.model.jsondepth import MAX_DEPTH, loads

class _Sentinel:
    """A marker payload with one instance: copies and pickles give back the module's own
    (``__reduce__`` names it), so ``is`` checks hold in checkpoints' deep copies too."""

    __slots__ = ("_name", "_shown")

    def __init__(self, name: str, shown: str) -> None:
        self._name, self._shown = name, shown

    def __repr__(self) -> str:
        return self._shown

    def __reduce__(self) -> str:
        return self._name


DONE = _Sentinel("DONE", "[DONE]")
"""The ``[DONE]`` payload (OpenAI Chat's end marker; not JSON)."""
NOT_JSON = _Sentinel("NOT_JSON", "NOT_JSON")
"""Payload of an event whose data is not JSON (S002 already reported)."""

KEEPALIVE_TYPES = frozenset({"ping"})
"""Event names/types that only keep a connection alive (Anthropic ``ping``)."""


_RELEASED = _Sentinel("_RELEASED", "RELEASED")
"""Stands for a parsed payload given back after dispatch (it is parsed again from ``data`` on
demand). A sentinel copies keep: a checkpoint deep-copies a session, and the records its dialect
points at (the event that set ``stop_reason``) must still parse their payload."""
RELEASED = _RELEASED
"""The same, for a record made already released (an event no rule reads once it is recorded)."""


SHALLOW_LEN = 2 * (MAX_DEPTH + 1)
"""The shortest JSON text that nests deeper than ``MAX_DEPTH`` (each level an opening and a closing
bracket): shorter data is valid and shallow enough, or no JSON at all (``orjson.loads`` decides)."""


def parse_payload(data: str) -> object:
    """An event's payload: parsed JSON, ``DONE`` for ``[DONE]``, or ``NOT_JSON`` (hot: once per event).
    Depth is bounded (S019 beyond ``MAX_DEPTH``); data too short or with too few brackets to go that
    deep is parsed at once, without ``jsondepth.loads``'s layers. Too short means fewer than
    ``2 * (MAX_DEPTH + 1)`` characters: a valid value that deep opens and closes that many containers,
    so shorter data is either valid and shallow enough or not JSON at all (``NOT_JSON`` either way)."""
    try:
        if len(data) < SHALLOW_LEN or data.count("[") + data.count("{") <= MAX_DEPTH:
            return DONE if data == "[DONE]" else orjson.loads(data)
        return loads(data)
    except orjson.JSONDecodeError:
        return NOT_JSON


class EventRecord:
    """One event as the raw log shows it.

    While the event is dispatched, ``payload`` is the parsed value the dialect reads; afterwards the
    session releases it (``release``) and ``payload`` parses ``data`` again when something asks
    (the event log, the detail screen): a long stream keeps its events' text, not two copies of it.
    """

    __slots__ = ("index", "name", "data", "_payload", "line", "t", "named", "keepalive", "block", "response",
                 "offset")

    def __init__(self, index: int, name: str, data: str, payload: object, line: int | None, t: float | None,
                 named: bool = False, keepalive: bool = False, block: int | None = None, response: int = 0,
                 offset: int | None = None) -> None:
        self.index = index
        """0-based position in the stream's events (what findings' ``event`` refers to)."""
        self.name = name
        """The SSE ``event:`` name, else the payload's ``type``, else ``message``."""
        self.data = data
        """The event's data exactly as framed (SSE data lines joined with LF, or the NDJSON line)."""
        self._payload = payload
        self.line = line
        """1-based line in the capture file (native captures) or body where the event starts."""
        self.t = t
        """Arrival time in seconds of the chunk that completed the event; None when untimed."""
        self.named = named
        """The event carried an SSE ``event:`` field."""
        self.keepalive = keepalive
        self.block = block
        """Position in ``Session.blocks`` of the block this event touched (the TUI jumps to it)."""
        self.response = response
        """Which response of the body the event belongs to (0-based; see ``Session.responses``)."""
        self.offset = offset
        """Byte offset in the body (the chunks' bytes joined) of the event's first byte; None when
        the record was not framed from a body (made by hand)."""

    @property
    def payload(self) -> object:
        """Parsed JSON, ``DONE`` or ``NOT_JSON``."""
        p = self._payload
        return parse_payload(self.data) if p is _RELEASED else p

    def release(self) -> None:
        """Give the parsed payload back (it is parsed again from ``data`` when asked for)."""
        self._payload = _RELEASED

    def __repr__(self) -> str:
        return (f"EventRecord(index={self.index}, name={self.name!r}, line={self.line}, t={self.t}, "
                f"block={self.block}, data={self.data[:60]!r})")


class EventRun:
    """Events of one ``FrameRun`` as the session recorded them: one object for all of them;
    ``record(i)`` makes the ``EventRecord`` of the ``i``-th on demand (never cached, so a
    50 000-delta run costs its string bodies, not 50 000 objects). Written once, never changed."""

    __slots__ = ("first", "frames", "skip", "count", "name", "line", "line_base", "block", "response")

    def __init__(self, first: int, frames, skip: int, count: int, name: str, line: int | None,
                 line_base: int | None, block: int | None, response: int) -> None:
        self.first = first
        """Index in the stream of the first event recorded here (the run's event ``skip``)."""
        self.frames = frames
        """The ``FrameRun`` the events came from (positions, string bodies, time)."""
        self.skip = skip
        self.count = count
        """Events recorded here: the stream's ``first`` to ``first + count - 1``."""
        self.name = name
        self.line = line
        """The line of every event (a native capture: their chunk's file line), or None: each its body line..."""
        self.line_base = line_base
        """... plus this (a pasted capture's skipped prose)."""
        self.block = block
        self.response = response

    @property
    def t(self) -> float | None:
        """Every event of a run arrived at one time."""
        return self.frames.t

    def pairs(self, a: int, b: int) -> set:
        """The distinct ``(name, named)`` of this run's events ``a``..``b - 1``: one pair."""
        return {(self.name, self.frames.named)}

    def record(self, i: int) -> EventRecord:
        run, k = self.frames, self.skip + i
        return EventRecord(self.first + i, self.name, run.data(k), _RELEASED,
                           self.line if self.line is not None else run.line + k * run.lines + self.line_base,
                           run.t, run.named, False, self.block, self.response, run.offset_of(k))


class EventSpan:
    """Consecutive untimed events of one block taken in one step, as the session recorded them: its
    deltas (``inspector.session.deltas``), and, for a block's whole life taken in one pass
    (``inspector.session.groups``), the start before them and the stop after them. One object for all
    of them; ``record(i)`` makes the ``EventRecord`` of the ``i``-th on demand (never cached) from its
    frame, as ``take_frame`` would have made it, released. Written once (a stop is added right after
    its span is made, before anything else is recorded), never changed afterwards."""

    __slots__ = ("first", "frames", "count", "name", "line_base", "block", "response", "head", "tail")

    t = None
    """Every event of a span is untimed."""

    def __init__(self, first: int, frames: list, name: str, line_base: int, block: int | None, response: int,
                 head: str | None = None) -> None:
        self.first = first
        """Index in the stream of the first event."""
        self.frames = frames
        """The ``Frame`` of each event (their ``payload`` None: the log keeps text, not parsed values)."""
        self.count = len(frames)
        self.name = name
        """The deltas' name (each event's name: its ``type``, which its SSE name, if any, agrees with)."""
        self.line_base = line_base
        """Added to each frame's body line (a pasted capture's skipped prose)."""
        self.block = block
        self.response = response
        self.head = head
        """The first event's name when it is the block's start (None: the first is a delta)."""
        self.tail: str | None = None
        """The last event's name when it is the block's stop (None: the last is a delta; set by
        ``EventLog.add_stop`` right after the span is recorded)."""

    def _name(self, i: int) -> str:
        if i == 0 and self.head is not None:
            return self.head
        if i == self.count - 1 and self.tail is not None:
            return self.tail
        return self.name

    def record(self, i: int) -> EventRecord:
        f = self.frames[i]
        line = f.line
        name = self.name
        if i == 0 and self.head is not None:
            name = self.head
        elif i == self.count - 1 and self.tail is not None:
            name = self.tail
        return EventRecord(self.first + i, name, f.data, _RELEASED,
                           None if line is None else line + self.line_base, None, f.named, False, self.block,
                           self.response, f.offset)

    def pairs(self, a: int, b: int) -> set:
        """The distinct ``(name, named)`` of this span's events ``a``..``b - 1`` (0-based in the span)."""
        frames = self.frames
        return {(self._name(k), frames[k].named) for k in range(a, b)}


class EventLog:
    """The session's events in stream order: a sequence of ``EventRecord`` (index, slice, iterate,
    ``len``) that stores a run of deltas as one ``EventRun`` (an untimed group of deltas as one
    ``EventSpan``) repeated at its positions (a C-level ``extend``), making each of its records only
    when asked. ``append`` and ``extend`` (records) are ``list``'s."""

    __slots__ = ("_items", "append", "extend", "size")

    def __init__(self, items: list | None = None) -> None:
        self._items = [] if items is None else items
        self.append = self._items.append
        self.extend = self._items.extend
        self.size = self._items.__len__
        """``len(self)`` without a Python call (hot: the short-call path asks it per block)."""

    def add_run(self, run: "EventRun | EventSpan") -> None:
        """Record the ``run.count`` events of ``run`` (its first at ``len(self)``)."""
        self._items += [run] * run.count

    def add_stop(self, frame, name: str) -> None:
        """Record ``frame`` (named ``name``) as the next event of the ``EventSpan`` recorded last: the
        stop of the block whose start and deltas it holds (``inspector.session.groups``)."""
        items = self._items
        span = items[-1]
        span.frames.append(frame)  # ``EventSpan``'s own fields, set here: once per short call
        span.count += 1
        span.tail = name
        items.append(span)

    def _at(self, i: int, item) -> EventRecord:
        return item if item.__class__ is EventRecord else item.record(i - item.first)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __getitem__(self, i):
        items = self._items
        if isinstance(i, slice):
            return [self._at(k, items[k]) for k in range(*i.indices(len(items)))]
        item = items[i]
        if item.__class__ is not EventRecord:
            return item.record((i if i >= 0 else i + len(items)) - item.first)
        return item

    def __iter__(self):
        for k, item in enumerate(self._items):
            yield item if item.__class__ is EventRecord else item.record(k - item.first)

    def __eq__(self, other) -> bool:
        """Equal to a log holding the same records and runs, or to a list of equal records."""
        if isinstance(other, EventLog):
            return self._items == other._items
        return list(self) == other if isinstance(other, list) else NotImplemented

    def times(self) -> list:
        """Each event's arrival time (seconds or None), without building records."""
        return [x.t for x in self._items]

    def names(self, start: int = 0, stop: int | None = None) -> set:
        """The distinct ``(name, named)`` of events ``start``..``stop - 1``, without building records
        (a run is looked at once, not once per event)."""
        items = self._items
        start, stop, _ = slice(start, stop).indices(len(items))
        out = set()
        k = start
        while k < stop:
            x = items[k]
            if x.__class__ is not EventRecord:
                end = min(x.first + x.count, stop)
                out |= x.pairs(k - x.first, end - x.first)
                k = end
            else:
                out.add((x.name, x.named))
                k += 1
        return out

    def copy(self, n: int | None = None) -> "EventLog":
        """A new log holding the first ``n`` (default all) events; records and runs are shared."""
        return EventLog(self._items[:n] if n is not None else list(self._items))

    def __deepcopy__(self, memo) -> "EventLog":
        return self.copy()

    def __repr__(self) -> str:
        return f"EventLog({len(self._items)} events)"
