"""Checkpoints: snapshots of a session taken while a capture is fed, so seeking back is cheap.

Sessions are append-only (rules judge events in order and cannot be undone), so showing an
earlier event means rebuilding. Rebuilding from event 0 costs the whole prefix (seconds on a
50 000-event capture); restoring the nearest snapshot and feeding the few events after it costs
milliseconds. A snapshot is ``copy.deepcopy(session)`` without its event list: event records
never change once dispatched and the list only grows, so a checkpoint keeps a reference to the
list and its length, and a restored session starts from a copy of that prefix.

Spacing adapts to the stream: every 32 events at first, then every ``len(events) // 16``, at most
``EVERY``, so small captures step back instantly and large ones keep a bounded number of copies.
"""
from __future__ import annotations

import bisect
import copy
from dataclasses import dataclass

from inspector.model.events import EventLog
from inspector.session.session import Session

EVERY = 500
"""Most events between two checkpoints: a step back feeds at most this many after a restore."""
FIRST = 32
"""Fewest events between two checkpoints."""


@dataclass(slots=True)
class Checkpoint:
    """The state after feeding ``pos`` body bytes (and closing, when ``closed``)."""

    pos: int
    closed: bool
    events: int
    """``len(session.events)`` at that point."""
    clock: float | None
    """Capture time of the last chunk fed by then."""
    snapshot: Session
    """The session without its events (see ``record_list``)."""
    record_list: EventLog
    """The session's event list when the snapshot was taken; its first ``events`` records are the
    snapshot's (the list may have grown since)."""


class Checkpoints:
    """Checkpoints of one capture, ordered by position; each taken at most once."""

    def __init__(self, every: int = EVERY) -> None:
        self.every = every
        self._items: list[Checkpoint] = []
        self._events: list[int] = []

    def __len__(self) -> int:
        return len(self._items)

    @property
    def furthest(self) -> Checkpoint | None:
        return self._items[-1] if self._items else None

    def spacing(self, events: int) -> int:
        """Events wanted between the checkpoint at ``events`` and the next one."""
        return max(FIRST, min(self.every, events // 16))

    def take(self, session: Session, pos: int, clock: float | None, *, force: bool = False) -> bool:
        """Snapshot ``session`` at ``pos`` if it is past the furthest checkpoint and far enough
        after it (``spacing``; ``force``: whatever the events). True when one was taken."""
        last = self.furthest
        n = len(session.events)
        if last is not None:
            if pos <= last.pos and not (pos == last.pos and session.closed and not last.closed):
                return False
            if not force and n - last.events < self.spacing(last.events):
                return False
        for block in session.blocks:
            block.content  # noqa: B018 - join the parts once, so the copy holds one string per block
        records = session.events
        session.events = EventLog()
        try:
            snapshot = copy.deepcopy(session)
        finally:
            session.events = records
        self._items.append(Checkpoint(pos, session.closed, n, clock, snapshot, records))
        self._events.append(n)
        return True

    def at_most(self, events: int) -> Checkpoint | None:
        """The furthest checkpoint holding at most ``events`` events."""
        i = bisect.bisect_right(self._events, events) - 1
        return self._items[i] if i >= 0 else None

    def nearest(self, events: int | None = None) -> Checkpoint:
        """``at_most(events)`` (the furthest checkpoint when ``events`` is None), else the first
        one: a feed takes one at position 0 before anything else. Raises ``LookupError`` when no
        checkpoint was taken."""
        if not self._items:
            raise LookupError("no checkpoint taken yet")
        cp = self._items[-1] if events is None else self.at_most(events)
        return self._items[0] if cp is None else cp

    @staticmethod
    def restore(cp: Checkpoint) -> Session:
        """A fresh session equal to the one snapshotted (the checkpoint stays reusable)."""
        session = copy.deepcopy(cp.snapshot)
        session.events = cp.record_list.copy(cp.events)
        return session
