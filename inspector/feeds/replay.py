"""Replay: a recorded capture played back as a feed, with its recorded timing, and seekable.

Why this module exists: ``replay`` and ``demo`` must show a stream *as it arrived* (gaps,
bursts, stalls), and a person looking at a bug wants to stop, step one event forward or back,
and jump to event N. Replay is a source like any other (DESIGN.md, "One direction of flow"):
the same chunks, with the same arrival times, go through the same framing, dialect and
session code as a live socket.

Positions are body byte offsets. Playing feeds whole chunks (huge ones in slices); stepping
feeds one line at a time, so each step completes at most one event whatever the chunking
(chunk boundaries never change a session's result, DESIGN.md). Going back restores the nearest
checkpoint (``inspector.feeds.checkpoints``) and feeds forward from there; checkpoints are
taken on the way every ``Checkpoints.every`` events, by playing, seeking or the scan.

``instant`` from the start reads the whole capture on a thread, into a session of its own that
nothing else sees, and hands it over on the event loop once it has stopped (at the end, or at a
chunk boundary on ``pause``): the viewer's loop stays free for keys, and never sees a half-fed
session (sessions are not thread-safe). No checkpoint is taken on the way; the first seek back
feeds from the start and takes them.

No Textual here: the TUI drives a :class:`ReplayFeed` from a worker; ``items()`` serves any
other consumer as a plain async source (``Head``, ``Chunk``..., ``End``).
"""
from __future__ import annotations

import asyncio
import bisect
import threading
import time
from array import array
from collections.abc import AsyncIterator

from inspector.feeds.base import Driver, Progress, Settings
from inspector.feeds.checkpoints import EVERY, Checkpoint, Checkpoints
from inspector.model.capture import Capture, Chunk, End, Head, SourceItem
from inspector.model.websocket import is_upgrade
from inspector.session.session import Session

BATCH_BUDGET_S = 0.008
"""How long one batch of feeding may hold the event loop before yielding (keeps keys responsive)."""
INSTANT_BUDGET_S = 0.004
"""The same for ``instant`` resumed part-way (from the start it reads on a thread): it feeds
without a pause, and a key travels through several message queues (app, screen, widget), each
hop waiting for the batch in progress."""
INSTANT_YIELD_S = 0.0005
"""Pause after each such ``instant`` batch (see ``play``)."""
TICK_S = 0.05
"""Longest single sleep while waiting for a chunk's time, so pause and speed changes apply fast."""
SLICE = 1 << 16
"""Largest slice of a chunk fed at once while playing (a pasted capture is one huge chunk)."""
_EOL = (0x0A, 0x0D)
YIELD_EVERY_S = 0.002
"""How long an ``instant`` read on a thread holds the GIL at most before it sleeps for a moment
(``time.sleep(0)``, ~0.1 ms on Linux), so that the event loop, waiting for the GIL, runs at once:
without it the loop gets the GIL only after a switch interval (5 ms) and then loses it again at
its next ``select``, so each step of a key or a paint takes about twice as long; with
``os.sched_yield`` instead the read takes the GIL back before the loop's thread wakes up, and a
busy loop is starved (20 ms of its work took 60-200 ms)."""


class _Read:
    """One ``instant`` read on a thread: how to stop it, and how many events it has read."""

    __slots__ = ("stop", "events")

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.events = 0


class ReplayFeed:
    """A capture played with its recorded timing; seekable to any event (see the module docstring).

    ``scan`` runs the whole capture once at construction (so ``total_events`` and ``final`` are
    known and checkpoints exist everywhere); the TUI passes False and scans in the background.
    """

    seekable = True
    restartable = True
    loading = False

    def __init__(self, capture: Capture, *, speed: float = 1.0, instant: bool = False,
                 dialect: str | None = None, stall_s: float = 10.0, severity_overrides: dict | None = None,
                 label: str | None = None, scan: bool = True, every: int = EVERY) -> None:
        self.capture = capture
        self.label = label or "capture"
        """Short name shown in the TUI (usually the file name)."""
        self.speed = speed
        """Playback speed factor (1 = as recorded)."""
        self.instant = instant
        """Deliver every chunk without waiting."""
        self.paused = False
        self.error: str | None = None
        self.settings = Settings(dialect, stall_s, severity_overrides or {})
        self._timed = capture.timed
        self._starts = array("q")
        pos = 0
        for c in capture.chunks:
            self._starts.append(pos)
            pos += len(c.data)
        self._size = pos
        """Body bytes in the capture."""
        self._whole = capture.source_format == "websocket" or is_upgrade(capture.response)
        """Each chunk is one WebSocket message, fed whole (never cut at a line end or a slice)."""
        self._origin = 0.0 if capture.request_relative else (
            next((c.t for c in capture.chunks if c.t is not None), None) or 0.0)
        self.checkpoints = Checkpoints(every)
        self.generation = 0
        """Bumped every time :attr:`session` is replaced (sinks drop their caches)."""
        self._driver = Driver.for_capture(capture, self.settings)
        self.pos = 0
        """Body bytes fed into :attr:`session`."""
        self._clock = self._origin
        self._anchor_wall: float | None = None
        """Monotonic time when the clock last started running (None: the clock stands still)."""
        self._final: Session | None = None
        self.defer_checkpoints = False
        """True while an ``instant`` play feeds the shown session: it takes no checkpoints (the
        viewer sees only the end; issue 16: per-event pieces are built on step or seek). The
        first seek back after it feeds from the start and takes them on its way."""
        self._read: _Read | None = None
        """The ``instant`` read running on a thread, if any."""
        self.checkpoints.take(self.session, 0, self._clock, force=True)
        if scan:
            self.scan()

    # ----------------------------------------------------------------- reading
    @property
    def session(self) -> Session:
        """The session shown now."""
        return self._driver.session

    @property
    def final(self) -> Session:
        """The session after the whole capture (runs the scan when no pass reached the end yet)."""
        if self._final is None:
            self.scan()
        if self._final is None:
            raise RuntimeError("the scan ended before the capture did")
        return self._final

    @property
    def total_events(self) -> int | None:
        """Events in the whole capture, None until some pass reached the end."""
        return len(self._final.events) if self._final is not None else None

    @property
    def reading(self) -> int | None:
        """Events read so far by an ``instant`` read on a thread, not shown yet (None: no such read)."""
        return self._read.events if self._read is not None else None

    @property
    def event_count(self) -> int:
        """Events shown so far."""
        return len(self.session.events)

    @property
    def finished(self) -> bool:
        return self.session.closed

    @property
    def position(self) -> int:
        """Body bytes fed (plus one once the session is closed)."""
        return self.pos + (1 if self.session.closed else 0)

    @property
    def duration(self) -> float | None:
        """Capture time of the end (seconds), None when untimed."""
        end = self.capture.end
        if end is not None and end.t is not None:
            return end.t
        return next((c.t for c in reversed(self.capture.chunks) if c.t is not None), None)

    @property
    def timed(self) -> bool:
        return self._timed

    @property
    def fraction(self) -> float:
        """How far playback is through the body, 0..1 (for a seek bar before the total is known)."""
        if self.session.closed:
            return 1.0
        return self.pos / self._size if self._size else 0.0

    def now(self) -> float | None:
        """The playback clock: capture seconds (request-relative for native captures); None if untimed."""
        if not self._timed:
            return None
        return self._clock_now()

    def recorded(self) -> Capture:
        """The capture being replayed (all of it, whatever is shown)."""
        return self.capture

    # ----------------------------------------------------------------- the clock
    def _clock_now(self) -> float:
        if self._anchor_wall is None:
            return self._clock
        t = self._clock + (time.monotonic() - self._anchor_wall) * self.speed
        nxt = self._next_t()
        return min(t, nxt) if nxt is not None else t

    def _next_t(self) -> float | None:
        """Capture time at which the next bytes (or the end) are due."""
        if self.session.closed:
            return None
        if self.pos < self._size:
            return self._chunk_at(self.pos)[1].t
        return self.duration

    def _stop_clock(self) -> None:
        self._clock = self._clock_now()
        self._anchor_wall = None

    def _start_clock(self) -> None:
        self._clock = self._clock_now()
        self._anchor_wall = time.monotonic()

    # ----------------------------------------------------------------- feeding
    def _chunk_at(self, pos: int) -> tuple[int, Chunk]:
        k = bisect.bisect_right(self._starts, pos) - 1
        while k + 1 < len(self._starts) and self._starts[k + 1] == pos:
            k += 1  # skip empty chunks
        return k, self.capture.chunks[k]

    def _advance(self, driver: Driver, pos: int, clock: float | None, *, exact: bool) -> tuple[int, float | None]:
        """Feed ``driver``'s session (at body offset ``pos``) its next slice: one line (``exact``) or at
        most ``SLICE`` bytes of the current chunk; at the end of the body, close it with the
        capture's end record. Takes a checkpoint when one is due. Returns the new ``(pos, clock)``."""
        if pos >= self._size:
            session = driver.close(self.capture.end)
            if self._final is None:
                self._final = session
            t = self.duration
        else:
            k, chunk = self._chunk_at(pos)
            start = self._starts[k]
            a = pos - start
            stop = len(chunk.data)
            if self._whole:  # a WebSocket message is one event: never cut it
                pass
            elif exact:
                cut = _next_eol(chunk.data, a)
                stop = min(stop, cut) if cut >= 0 else stop
            else:
                stop = min(stop, a + SLICE)
            driver.take(Chunk(chunk.t, chunk.data[a:stop], chunk.line))
            pos = start + stop
            t = chunk.t
        clock = t if t is not None else clock
        if not (self.defer_checkpoints and driver is self._driver):
            self.checkpoints.take(driver.session, pos, clock if self._timed else None)
        return pos, clock

    def _feed_next(self, *, exact: bool) -> None:
        """Advance the shown session by one slice (see ``_advance``)."""
        self.pos, clock = self._advance(self._driver, self.pos, self._clock, exact=exact)
        if self._anchor_wall is None and clock is not None:
            self._clock = clock

    def _restore(self, cp: Checkpoint) -> None:
        self._driver.session = self.checkpoints.restore(cp)
        self.pos = cp.pos
        self._clock = cp.clock if cp.clock is not None else self._origin
        self.generation += 1

    def scan(self) -> None:
        """Run the rest of the capture once, from the furthest checkpoint, without touching
        :attr:`session`: the total, the final session, and checkpoints all the way."""
        if self._final is not None:
            return
        scout, pos, clock = self._scout()
        while not scout.session.closed:
            pos, clock = self._advance(scout, pos, clock, exact=False)

    def _scout(self) -> tuple[Driver, int, float | None]:
        """A driver of its own at the furthest checkpoint, for a scan."""
        cp = self.checkpoints.nearest()
        scout = Driver.for_capture(self.capture, self.settings)
        scout.session = self.checkpoints.restore(cp)
        return scout, cp.pos, cp.clock

    async def ascan(self, progress: Progress | None = None, budget_s: float = 0.004, rest_s: float = 0.02) -> None:
        """:meth:`scan` in small time-budgeted batches with rests in between (a background task
        that must not take the event loop from the viewer); ``progress()`` once it is done."""
        if self._final is not None:
            return
        scout, pos, clock = self._scout()
        while not scout.session.closed and self._final is None:
            started = time.monotonic()
            while not scout.session.closed and time.monotonic() - started < budget_s:
                pos, clock = self._advance(scout, pos, clock, exact=False)
            await asyncio.sleep(rest_s)
        if progress is not None:
            progress()

    # ----------------------------------------------------------------- moving
    def step(self) -> None:
        """Feed the next line (or close at the end)."""
        self._feed_next(exact=True)

    def seek_event(self, n: int) -> None:
        """Show exactly events 0..n (n < 0: none; n past the end: the whole capture, closed).

        Backwards (or far forwards, when a pass already went there) restores the nearest
        checkpoint; then feeds line by line until event n exists.
        """
        running = self._anchor_wall is not None
        self._stop_clock()
        self._seek_prepare(n)
        while not self.finished and self.event_count <= n:
            self._feed_next(exact=True)
        if running:
            self._start_clock()

    async def aseek_event(self, n: int, progress: Progress | None = None,
                          budget_s: float = BATCH_BUDGET_S) -> None:
        """:meth:`seek_event` in time-budgeted batches (a long way forward stays responsive)."""
        self._stop_clock()
        self._seek_prepare(n)
        started = time.monotonic()
        # Far from the target: whole slices, then back to the checkpoint before n if they overshot.
        while not self.finished and self.event_count < n - self.checkpoints.every:
            self._feed_next(exact=False)
            if time.monotonic() - started >= budget_s:
                if progress is not None:
                    progress()
                await asyncio.sleep(0)
                started = time.monotonic()
        if self.event_count > n + 1:
            self._restore(self.checkpoints.nearest(n + 1))
        while not self.finished and self.event_count <= n:
            self._feed_next(exact=True)
            if time.monotonic() - started >= budget_s:
                if progress is not None:
                    progress()
                await asyncio.sleep(0)
                started = time.monotonic()

    def _seek_prepare(self, n: int) -> None:
        """Restore a checkpoint when it gets closer to showing events 0..n than feeding on."""
        cp = self.checkpoints.nearest(max(n + 1, 0))
        if self.event_count > n + 1 or (cp.pos > self.pos and cp.events > self.event_count):
            self._restore(cp)

    def step_forward(self) -> None:
        """One more event (or the end when no event is left)."""
        self.seek_event(self.event_count)

    def step_back(self) -> None:
        """One event fewer (restores a checkpoint)."""
        self.seek_event(self.event_count - 2)

    def restart(self) -> None:
        """Back to position 0 (a fresh session); ``play`` plays it again."""
        self._anchor_wall = None
        self._restore(self.checkpoints.nearest(0))

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
        self.instant = False
        if running:
            self._start_clock()

    # ----------------------------------------------------------------- pacing
    async def play(self, progress: Progress | None = None, budget_s: float | None = None) -> None:
        """Feed the rest with recorded timing (or at once when ``instant``) until the end or
        :meth:`pause`. ``progress()`` after every batch; a batch holds the loop at most ``budget_s``
        (default ``BATCH_BUDGET_S``, ``INSTANT_BUDGET_S`` when instant)."""
        if self.paused or self.finished:
            return
        if self.instant and self.pos == 0:
            await self._read_instant(progress)
            if self.finished or self.paused:
                return
            # The speed changed while it read: play the rest with recorded timing.
        if budget_s is None:
            budget_s = INSTANT_BUDGET_S if self.instant else BATCH_BUDGET_S
        self.defer_checkpoints = self.instant
        self._start_clock()
        try:
            while not self.finished and not self.paused:
                started = time.monotonic()
                fed = False
                while not self.finished and not self.paused:
                    due = self._next_t()
                    if not self.instant and due is not None and due > self._clock_now():
                        break
                    if self.instant and due is not None:
                        self._clock = max(self._clock, due)
                        self._anchor_wall = time.monotonic()
                    self._feed_next(exact=False)
                    fed = True
                    if time.monotonic() - started >= budget_s:
                        break
                if fed and progress is not None:
                    progress()
                if self.finished or self.paused:
                    break
                due = self._next_t()
                if self.instant:
                    # A real sleep, however short, lets every queued message hop through the
                    # app's queues before the next batch (``sleep(0)`` lets one hop in per batch).
                    await asyncio.sleep(INSTANT_YIELD_S)
                elif due is None or due <= self._clock_now():
                    await asyncio.sleep(0)
                else:
                    await asyncio.sleep(min(TICK_S, (due - self._clock_now()) / self.speed))
        finally:
            self.defer_checkpoints = False
            self._stop_clock()
            if self.finished and self.duration is not None:
                self._clock = self.duration

    async def _read_instant(self, progress: Progress | None) -> None:
        """``instant`` from position 0: read on a thread, then show what it read (module docstring).
        ``progress()`` once, after the hand-over; a cancelled play stops the thread and shows nothing."""
        read = self._read = _Read()
        try:
            driver, pos, clock = await asyncio.to_thread(self._read_off_loop, read)
        except BaseException:
            read.stop.set()
            raise
        finally:
            if self._read is read:
                self._read = None
        if pos == 0 and not driver.session.closed:
            return  # stopped before the first chunk: nothing to show
        self._driver = driver
        self.pos = pos
        self._clock = clock if clock is not None else self._origin
        self._anchor_wall = None
        self.generation += 1
        if driver.session.closed and self._final is None:
            self._final = driver.session
        if progress is not None:
            progress()

    def _read_off_loop(self, read: "_Read") -> tuple[Driver, int, float | None]:
        """Feed a fresh driver the capture from position 0 until the end, or until ``read.stop``,
        ``pause`` or a speed change (between slices); returns the driver and the ``(pos, clock)``
        it reached. Runs on a thread: it reads only the capture, ``paused`` and ``instant``, and
        writes only ``read.events``."""
        driver = Driver.for_capture(self.capture, self.settings)
        session = driver.session
        pos, clock = 0, self._origin
        yielded = time.perf_counter()
        step = (1 << 62) if self._whole else SLICE  # a WebSocket message is one event: never cut it
        for chunk in self.capture.chunks:
            data = chunk.data
            for a in range(0, len(data), step):  # an empty chunk: none (as ``_chunk_at`` skips it)
                if read.stop.is_set() or self.paused or not self.instant:
                    return driver, pos, clock
                driver.take(chunk if len(data) <= step else Chunk(chunk.t, data[a:a + step], chunk.line))
                pos += min(step, len(data) - a)
                if chunk.t is not None:
                    clock = chunk.t
                read.events = len(session.events)
                if time.perf_counter() - yielded >= YIELD_EVERY_S:
                    time.sleep(0)  # the event loop, if it waits for the GIL, takes it now
                    yielded = time.perf_counter()
        driver.close(self.capture.end)
        return driver, pos, self.duration if self.duration is not None else clock

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


def _next_eol(data: bytes, start: int) -> int:
    """Offset just after the first CR or LF at or after ``start`` (-1: none)."""
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start)
    if lf < 0 and cr < 0:
        return -1
    first = min(x for x in (lf, cr) if x >= 0)
    return first + 1


Playback = ReplayFeed
"""The name tests and older callers use."""
