"""The hand-off from the forwarding path to inspection: calls queued, in order, on one event loop.

The endpoint never inspects inline: each step it forwards becomes a queued call on the inspecting
loop (the proxy's own loop headless, the TUI's loop with ``--format tui``), run after the
forwarding step that produced it, so a slow frame never holds a byte back.

Fairness (issue 17: one fire-hose stream raised the other exchanges' time to first byte from 8 ms
to ~0.5 s): inspecting a 64 KB chunk of small SSE events takes milliseconds, and on the
forwarding loop that work sat between every other exchange's steps. So the queue is drained in
slices of at most ``BUDGET_S`` of work per loop iteration (the loop polls its sockets between two
slices), and a chunk is queued in pieces of at most ``PIECE`` bytes (the session is chunk-split
invariant: same report). The bytes waiting for inspection are counted (``backlog``); the endpoint
waits (``wait_for_room``) before reading more from an upstream once they pass ``BACKLOG_LIMIT``,
so a stream faster than inspection is slowed to inspection's pace instead of queueing without
bound. The queue wakes the loop once per batch, not once per chunk.

Inspection yields to forwarding (issue 32 item 4): while chunks keep being handed over (a
stream is being forwarded right now), a slice starts at most every ``BUSY_GAP_S`` (about a
frame: the TUI needs the session's state per frame, not per chunk), so a fire-hose stream is
relayed at close to its own pace and inspected behind it (up to ``BACKLOG_LIMIT``); once nothing
new arrives, the forwarding side waits for its upstream (``forwarding_idle``), or the last
response being forwarded ends (``finish``), slices follow each other and inspection catches up:
it never waits on an idle loop. Every call still runs, in
order: reports are unchanged.

Imports: ``exchange``, ``log`` and ``inspector.model.capture``, for their types only.
"""
from __future__ import annotations

import asyncio
import collections
import sys
import threading
import time

from inspector.model.capture import Chunk, End
from inspector.feeds.exchanges.record import Exchange
from inspector.feeds.exchanges.log import ExchangeLog

BACKLOG_LIMIT = 8 * 1024 * 1024
"""Bytes handed to inspection and not inspected yet above which the forwarding of new bytes waits."""

BUDGET_S = 0.0005
"""Longest run of inspection work between two polls of the loop's sockets."""

BUSY_GAP_S = 0.01
"""Shortest time from the end of one inspection slice to the start of the next while chunks keep being handed over."""

PIECE = 4096
"""Largest piece of a chunk inspected in one go (a few hundred small events at most)."""


class LoopSink:
    """Queues calls to an ``ExchangeLog`` on one event loop, in order, from any thread.

    Calls made before ``attach(loop)`` wait and are run, in order, once attached. After the loop
    is closed, calls are dropped. ``auto_attach``: the endpoint attaches the sink to its own loop
    on the first request when nothing else did; False waits for an explicit ``attach`` (TUI).
    """

    def __init__(self, target: ExchangeLog, *, auto_attach: bool = True) -> None:
        self.target = target
        self.auto_attach = auto_attach
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._queue: collections.deque = collections.deque()
        self._scheduled = False
        self._lock = threading.Lock()
        self.posted_bytes = 0
        """Chunk bytes handed over so far (written by the forwarding side only)."""
        self._arriving: dict[int, Exchange] = {}
        """Exchanges whose response is still arriving (their ``last_arrival_t`` is set here)."""
        self.inspected_bytes = 0
        """Chunk bytes inspected so far (written by the inspecting loop only)."""
        self._posted_seen = 0
        """``posted_bytes`` when the last drain slice started: more now means forwarding is busy."""
        self._slice_end = float("-inf")
        """When the last drain slice ended (``time.perf_counter``)."""
        self._deferred: asyncio.TimerHandle | None = None
        """The drain put off while forwarding was busy (``forwarding_idle`` runs it at once)."""

    @property
    def backlog(self) -> int:
        """Chunk bytes handed over and not inspected yet."""
        return self.posted_bytes - self.inspected_bytes

    async def wait_for_room(self, limit: int = BACKLOG_LIMIT) -> None:
        """Return once ``backlog`` is at most ``limit`` (at once in the common case)."""
        while self.posted_bytes - self.inspected_bytes > limit and self.loop is not None:
            await asyncio.sleep(0.002)

    def attach(self, loop: asyncio.AbstractEventLoop, thread: int | None = None) -> None:
        with self._lock:
            self.loop = loop
            self._thread = thread
            if self._queue:
                self._scheduled = True
                loop.call_soon_threadsafe(self._drain)

    def post(self, fn, *args) -> None:
        self._queue.append((fn, args))
        if self._scheduled:
            return
        loop = self.loop
        if loop is None:
            return  # attach() schedules what waits
        # Set before scheduling: the drain clears it before it empties the queue, so an item
        # appended after its last look always finds it clear and schedules another drain.
        self._scheduled = True
        try:
            if self._thread == threading.get_ident():
                loop.call_soon(self._drain)
            else:
                loop.call_soon_threadsafe(self._drain)
        except RuntimeError:  # the loop is closed (the TUI quit): nothing is watching any more
            self._queue.clear()

    @property
    def deferred(self) -> bool:
        """A drain is put off while forwarding is busy (``forwarding_idle`` would run it)."""
        return self._deferred is not None

    def forwarding_idle(self) -> None:
        """The forwarding side has been waiting for its upstream: a drain put off for it runs now (any thread)."""
        if self._deferred is None or self.loop is None:
            return
        try:
            if self._thread == threading.get_ident():
                self._run_deferred()
            else:
                self.loop.call_soon_threadsafe(self._run_deferred)
        except RuntimeError:  # the loop is closed
            pass

    def _run_deferred(self) -> None:
        handle, self._deferred = self._deferred, None
        if handle is not None and self.loop is not None:
            handle.cancel()
            self.loop.call_soon(self._drain, True)

    def _drain(self, now_idle: bool = False) -> None:
        loop = self.loop
        if loop is None:  # a drain is scheduled on an attached loop only
            return
        self._deferred = None
        now = time.perf_counter()
        posted, busy = self.posted_bytes, self.posted_bytes != self._posted_seen
        self._posted_seen = posted
        if busy and not now_idle and now - self._slice_end < BUSY_GAP_S:  # forwarding first; _scheduled stays set
            self._deferred = loop.call_later(BUSY_GAP_S - (now - self._slice_end), self._drain)
            return
        self._scheduled = False
        queue = self._queue
        deadline = now + BUDGET_S
        while queue:
            fn, args = queue.popleft()
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 - one broken step must not stop inspecting the others
                print(f"stream-inspector: proxy: inspection failed: {type(e).__name__}: {e}", file=sys.stderr)
            if queue and time.perf_counter() > deadline:
                # The rest on a later iteration: sockets that became ready meanwhile go first.
                self._scheduled = True
                loop.call_soon(self._drain)
                break
        self._slice_end = time.perf_counter()

    def run_left(self) -> None:
        """Run every call still queued, in order, now, in this thread: only once the inspecting loop has
        stopped for good (its thread gone, or this thread its own). A server's shutdown can end its
        loop with the last steps still queued (a stream's end, the verdicts and reports it releases):
        those would be lost."""
        if self._deferred is not None:
            self._deferred.cancel()
            self._deferred = None
        queue = self._queue
        while queue:
            fn, args = queue.popleft()
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 - as ``_drain``: one broken step must not stop the others
                print(f"stream-inspector: proxy: inspection failed: {type(e).__name__}: {e}", file=sys.stderr)
        self._scheduled = False

    def begin(self, ex: Exchange) -> None:
        self._arriving[ex.n] = ex
        self.post(self.target.begin, ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        self.post(self.target.head, n, status, headers)

    def note(self, n: int, text: str) -> None:
        self.post(self.target.note, n, text)

    def chunk(self, n: int, chunk: Chunk) -> None:
        data = chunk.data
        self.posted_bytes += len(data)
        ex = self._arriving.get(n)
        if ex is not None and data and chunk.t is not None:
            ex.last_arrival_t = chunk.t  # when it arrived, whenever the inspection gets to it
        if len(data) <= PIECE:
            self.post(self._chunk, n, chunk)
            return
        first = Chunk(chunk.t, data[:PIECE], chunk.line)
        self.post(self._chunk, n, first)
        for i in range(PIECE, len(data), PIECE):
            self.post(self._piece, n, Chunk(chunk.t, data[i:i + PIECE]), first)

    def chunks(self, n: int, items: list[tuple[float, bytes]]) -> None:
        """``chunk`` for each ``(t, data)`` of a batch the relay forwarded together, in order, handed
        over as one queued call: the relay's cost is per batch, not per chunk and piece (issue 32 item
        4: at 64 SSE events per chunk a batch holds ~9 chunks, 2 pieces each). The pieces are cut and
        inspected one per call on the inspecting loop (``_inspect_batch``), as ``chunk`` would queue
        them: the same calls in the same order, the same slices between them."""
        size = 0
        last_t = None
        for t, data in items:
            if data:
                size += len(data)
                last_t = t
        if not size:
            return
        self.posted_bytes += size
        ex = self._arriving.get(n)
        if ex is not None and last_t is not None:
            ex.last_arrival_t = last_t
        self.post(self._inspect_batch, n, items, 0, 0, None)

    def _inspect_batch(self, n: int, items: list[tuple[float, bytes]], i: int, at: int, first: Chunk | None) -> None:
        """Inspect one piece of a batch: ``items[i]`` from byte ``at`` (``first``: that chunk's first
        piece, once inspected). What follows is queued first in line before this piece is inspected,
        so a piece that fails leaves the rest to be inspected, as separate calls did."""
        while not items[i][1]:  # nothing to inspect in this chunk
            i += 1
            if i == len(items):
                return
        t, data = items[i]
        end = at + PIECE
        if at == 0:
            piece = first = Chunk(t, data if len(data) <= PIECE else data[:PIECE])
        else:
            piece = Chunk(t, data[at:end])
        if end < len(data):
            self._queue.appendleft((self._inspect_batch, (n, items, i, end, first)))
        elif i + 1 < len(items):
            self._queue.appendleft((self._inspect_batch, (n, items, i + 1, 0, None)))
        if first is None or piece is first:
            self._chunk(n, piece)
        else:
            self._piece(n, piece, first)

    def _chunk(self, n: int, chunk: Chunk) -> None:
        try:
            self.target.chunk(n, chunk)
        finally:
            self.inspected_bytes += len(chunk.data)

    def _piece(self, n: int, piece: Chunk, first: Chunk) -> None:
        """A later piece of a chunk: the same record as its first piece, so the same capture line
        (numbered when the first was inspected: ``feeds.base.Driver``), not a line of its own."""
        piece.line = first.line
        self._chunk(n, piece)

    def finish(self, n: int, end: End) -> None:
        self._arriving.pop(n, None)
        self.post(self.target.finish, n, end)
        if not self._arriving:
            # The last response being forwarded has ended: nothing is busy any more, so a slice put off
            # for forwarding runs now, not when its timer rings (up to ``BUSY_GAP_S`` of an idle loop).
            self.forwarding_idle()
