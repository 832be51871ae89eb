"""Replay: a recorded capture played back as a source, with its recorded timing, and seekable.

Why this module exists: ``replay`` and ``demo`` must show a stream *as it arrived* (gaps,
bursts, stalls), and a person looking at a bug wants to stop, step one event forward or back,
and jump to event N. Replay is a source like any other (DESIGN.md, "One direction of flow"):
the same chunks, with the same arrival times, go through the same framing, dialect and
session code as a live socket.

Seeking backwards cannot undo a session (sessions are append-only by design), so a seek
rebuilds a fresh ``Session`` from the start of the capture up to the target. To land exactly on
event N even when one network chunk holds many events, the capture is pre-run once to learn
where each event starts in the body (``EventRecord.offset``), and every chunk is cut at those
offsets into *pieces* that keep their chunk's arrival time. Chunk boundaries never change a
session's result (DESIGN.md), so playing the pieces gives the same blocks and findings as
playing the original chunks; each piece completes at most the events that start before it.

No Textual here: the TUI drives a :class:`Playback` from a worker; ``items()`` serves any
other consumer as a plain async source (``Head``, ``Chunk``..., ``End``).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from inspector.capture.model import Capture, Chunk, End, Head, SourceItem
from inspector.session.run import run_capture, session_for
from inspector.session.session import Session

BATCH_BUDGET_S = 0.006
"""How long one batch of feeding may hold the event loop before yielding (keeps keys responsive)."""
BREATHE_S = 0.003
"""Idle time after a batch: long enough for a key press to travel through the app's message queues."""
TICK_S = 0.05
"""Longest single sleep while waiting for a chunk's time, so pause and speed changes apply fast."""


@dataclass(slots=True)
class Piece:
    """One step of playback: a slice of a network chunk (``data``), or the end (``data is None``)."""

    t: float | None
    """Arrival time of the chunk this slice came from (the end record's time for the end step)."""
    data: bytes | None
    line: int | None = None
    """The capture file line of the chunk this slice came from (native captures)."""


class Playback:
    """A capture played with its recorded timing; seekable to any event.

    ``position`` counts the steps already fed into :attr:`session` (0 = nothing yet;
    ``len(steps)`` = closed). All methods that move the position are synchronous and exact;
    :meth:`play` paces the remaining steps in recorded time (scaled by ``speed``) or as fast
    as possible in time-budgeted batches (``instant``).
    """

    seekable = True
    """Replays can step backwards and jump (live feeds cannot)."""
    restartable = True
    error: str | None = None

    def __init__(self, capture: Capture, *, speed: float = 1.0, instant: bool = False,
                 dialect: str | None = None, stall_s: float = 10.0,
                 severity_overrides: dict | None = None, label: str | None = None) -> None:
        self.capture = capture
        self.label = label or "capture"
        """Short name shown in the TUI (usually the file name)."""
        self.speed = speed
        """Playback speed factor (1 = as recorded)."""
        self.instant = instant
        """Deliver every chunk without waiting."""
        self.paused = False
        self._kw = {"dialect": dialect, "stall_s": stall_s, "severity_overrides": severity_overrides or {}}
        self._timed = capture.timed
        self.final: Session = run_capture(capture, **self._kw)
        """The session after the whole capture (totals for the seek bar and the timeline)."""
        self.steps: list[Piece] = self._cut(self.final)
        self.generation = 0
        """Bumped every time :attr:`session` is replaced by a rebuild (sinks drop their caches)."""
        self.session: Session = self._fresh()
        self.position = 0
        self._clock = 0.0 if capture.request_relative else (self._first_t() or 0.0)
        self._anchor_wall: float | None = None
        """Monotonic time when the clock last started running (None: the clock stands still)."""

    # ----------------------------------------------------------------- building
    def _fresh(self) -> Session:
        return session_for(self.capture, **self._kw)

    def _first_t(self) -> float | None:
        return next((p.t for p in self.steps if p.t is not None), None)

    def _cut(self, probe: Session) -> list[Piece]:
        """Cut every chunk at the body offsets where events start (learned from one pre-run)."""
        starts = sorted({e.offset for e in probe.events if e.offset is not None})
        pieces: list[Piece] = []
        pos, k = 0, 0
        for chunk in self.capture.chunks:
            data = chunk.data
            a, b = pos, pos + len(data)
            cut = 0
            while k < len(starts) and starts[k] < b:
                if starts[k] > a and starts[k] - a > cut:
                    pieces.append(Piece(chunk.t, data[cut:starts[k] - a], chunk.line))
                    cut = starts[k] - a
                k += 1
            if cut < len(data) or not data:
                pieces.append(Piece(chunk.t, data[cut:], chunk.line))
            pos = b
        end = self.capture.end
        last_t = next((p.t for p in reversed(pieces) if p.t is not None), None)
        pieces.append(Piece(end.t if end is not None and end.t is not None else last_t, None))
        return pieces

    def _apply(self, s: Session, piece: Piece) -> None:
        if piece.data is None:
            s.close(self.capture.end)
        else:
            s.feed(Chunk(piece.t, piece.data, piece.line))

    # ----------------------------------------------------------------- reading
    @property
    def total_steps(self) -> int:
        return len(self.steps)

    @property
    def total_events(self) -> int:
        return len(self.final.events)

    @property
    def event_count(self) -> int:
        """Events shown so far."""
        return len(self.session.events)

    @property
    def finished(self) -> bool:
        return self.position >= len(self.steps)

    @property
    def duration(self) -> float | None:
        """Capture time of the last step (seconds), None when untimed."""
        return self.steps[-1].t

    @property
    def timed(self) -> bool:
        return self.capture.timed

    def now(self) -> float | None:
        """The playback clock: capture seconds (request-relative for native captures); None if untimed."""
        if not self._timed:
            return None
        if self._anchor_wall is None:
            return self._clock
        return self._clock_now()

    def _clock_now(self) -> float:
        if self._anchor_wall is None:
            return self._clock
        t = self._clock + (time.monotonic() - self._anchor_wall) * self.speed
        nxt = self._next_t()
        return min(t, nxt) if nxt is not None else t

    def _next_t(self) -> float | None:
        if self.position < len(self.steps):
            return self.steps[self.position].t
        return None

    def _stop_clock(self) -> None:
        self._clock = self._clock_now()
        self._anchor_wall = None

    def _start_clock(self) -> None:
        self._clock = self._clock_now()
        self._anchor_wall = time.monotonic()

    # ----------------------------------------------------------------- moving
    def step(self) -> None:
        """Feed the next step (a piece, or the end)."""
        piece = self.steps[self.position]
        self._apply(self.session, piece)
        self.position += 1

    def _step_exact(self) -> None:
        piece = self.steps[self.position]
        self.step()
        if piece.t is not None and self._anchor_wall is None:
            self._clock = piece.t

    def rebuild(self, position: int = 0) -> None:
        """Replace :attr:`session` with a fresh one fed up to ``position`` steps (exact)."""
        position = max(0, min(position, len(self.steps)))
        self.session = self._fresh()
        self.generation += 1
        self.position = 0
        self._clock = 0.0 if self.capture.request_relative else (self._first_t() or 0.0)
        while self.position < position:
            self._step_exact()

    def seek_position(self, position: int) -> None:
        """Go to exactly ``position`` steps: forward by feeding, backward by rebuilding."""
        position = max(0, min(position, len(self.steps)))
        running = self._anchor_wall is not None
        self._stop_clock()
        if position < self.position:
            self.rebuild(position)
        else:
            while self.position < position:
                self._step_exact()
        if position == 0:
            self._clock = 0.0 if self.capture.request_relative else (self._first_t() or 0.0)
        if running:
            self._start_clock()

    def _needs_rebuild(self, n: int) -> bool:
        return self.event_count > max(n + 1, 0)

    def seek_event(self, n: int) -> None:
        """Show exactly events 0..n (n < 0: none; n past the end: the whole capture, closed).

        Backwards rebuilds the session from the start; forwards feeds pieces until event n exists.
        """
        running = self._anchor_wall is not None
        self._stop_clock()
        if self._needs_rebuild(n):
            self.rebuild(0)
        while not self.finished and self.event_count <= n:
            self._step_exact()
        if running:
            self._start_clock()

    async def aseek_event(self, n: int, progress: Callable[[], None] | None = None,
                          budget_s: float = BATCH_BUDGET_S) -> None:
        """:meth:`seek_event` in time-budgeted batches (rebuilding a huge capture stays responsive)."""
        self._stop_clock()
        if self._needs_rebuild(n):
            self.rebuild(0)
        started = time.monotonic()
        while not self.finished and self.event_count <= n:
            self._step_exact()
            if time.monotonic() - started >= budget_s:
                if progress is not None:
                    progress()
                await asyncio.sleep(BREATHE_S)
                started = time.monotonic()

    def step_forward(self) -> None:
        """One more event (or the end when no event is left)."""
        self.seek_event(self.event_count)

    def step_back(self) -> None:
        """One event fewer (rebuilds the session)."""
        self.seek_event(self.event_count - 2)

    def pause(self) -> None:
        self.paused = True
        self._stop_clock()

    def resume(self) -> None:
        self.paused = False

    def set_speed(self, speed: float) -> None:
        """Change the speed factor without jumping the clock."""
        running = self._anchor_wall is not None
        self._stop_clock()
        self.speed = max(0.01, speed)
        if running:
            self._start_clock()

    # ----------------------------------------------------------------- pacing
    async def play(self, progress: Callable[[], None] | None = None,
                   budget_s: float = BATCH_BUDGET_S) -> None:
        """Feed the remaining steps with recorded timing until the end or :meth:`pause`.

        ``progress()`` is called after every batch (the TUI posts a replaceable message there).
        Every batch holds the event loop at most ``budget_s`` seconds.
        """
        if self.paused or self.finished:
            return
        self._start_clock()
        try:
            while not self.finished and not self.paused:
                started = time.monotonic()
                fed = False
                while not self.finished and not self.paused:
                    due = self.steps[self.position].t
                    if not self.instant and due is not None and due > self._clock_now():
                        break
                    if self.instant and due is not None:
                        self._clock = max(self._clock, due)
                        self._anchor_wall = time.monotonic()
                    self.step()
                    fed = True
                    if time.monotonic() - started >= budget_s:
                        break
                if fed and progress is not None:
                    progress()
                if self.finished or self.paused:
                    break
                due = self.steps[self.position].t
                if self.instant or due is None or due <= self._clock_now():
                    await asyncio.sleep(BREATHE_S)
                else:
                    await asyncio.sleep(min(TICK_S, (due - self._clock_now()) / self.speed))
        finally:
            self._stop_clock()
            if self.finished and self.duration is not None:
                self._clock = self.duration

    async def items(self) -> AsyncIterator[SourceItem]:
        """The capture as a plain source: ``Head``, then timed ``Chunk``s, then ``End``.

        Honours ``speed`` and ``instant``; ignores pause and seek (a plain source cannot rewind).
        """
        resp = self.capture.response or {}
        yield Head(resp.get("status"), dict(resp.get("headers") or {}), self.capture.request)
        start = time.monotonic()
        base = 0.0 if self.capture.request_relative else (self.capture.chunks[0].t if self.capture.chunks else 0.0) or 0.0
        for chunk in self.capture.chunks:
            if not self.instant and chunk.t is not None:
                wait = (chunk.t - base) / self.speed - (time.monotonic() - start)
                if wait > 0:
                    await asyncio.sleep(wait)
            yield chunk
        end = self.capture.end or End(self.duration, "eof")
        yield end
