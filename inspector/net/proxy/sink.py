"""The hand-off from the forwarding path to inspection: calls queued, in order, on one event loop.

The endpoint never inspects inline: each step it forwards becomes a call on the inspecting loop
(headless: a loop of its own in an ``InspectionThread``; with ``--format tui`` the TUI's loop),
so inspection runs after the forwarding step that produced it and a slow frame never holds a
byte back. Inspecting a 64 KB chunk of small SSE events takes milliseconds; on the forwarding
loop that work sat between every other exchange's steps (one fire-hose stream raised the others'
time to first byte from 8 ms to ~0.5 s, issue 17). On its own thread it only competes for the
GIL, which the proxy hands over every 0.5 ms (``FORWARDING_SWITCH_S``).

Calls are batched: the forwarding side appends to a queue and wakes the inspecting loop only when
that queue was idle, so a busy stream costs one wake-up per batch, not per chunk. The bytes
waiting for inspection are counted (``backlog``); the endpoint waits for room
(``wait_for_room``) before reading more from an upstream once they pass ``BACKLOG_LIMIT``, so a
stream faster than inspection is slowed to inspection's pace instead of queueing without bound.

Imports: ``exchange``, ``log`` and ``inspector.model.capture``, for their types only.
"""
from __future__ import annotations

import asyncio
import collections
import sys
import threading

from inspector.model.capture import Chunk, End
from inspector.feeds.exchanges.record import Exchange
from inspector.feeds.exchanges.log import ExchangeLog

BACKLOG_LIMIT = 8 * 1024 * 1024
"""Bytes handed to inspection and not inspected yet above which the forwarding of new bytes waits."""

FORWARDING_SWITCH_S = 0.0005
"""``sys.setswitchinterval`` while the proxy runs: the longest the inspecting thread holds the GIL
while the forwarding thread has a byte to pass on (Python's default is 5 ms)."""


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
        self.inspected_bytes = 0
        """Chunk bytes inspected so far (written by the inspecting loop only)."""

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

    def _drain(self) -> None:
        self._scheduled = False
        queue = self._queue
        while queue:
            fn, args = queue.popleft()
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 - one broken step must not stop inspecting the others
                print(f"stream-inspector: proxy: inspection failed: {type(e).__name__}: {e}", file=sys.stderr)

    def begin(self, ex: Exchange) -> None:
        self.post(self.target.begin, ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        self.post(self.target.head, n, status, headers)

    def note(self, n: int, text: str) -> None:
        self.post(self.target.note, n, text)

    def chunk(self, n: int, chunk: Chunk) -> None:
        self.posted_bytes += len(chunk.data)
        self.post(self._chunk, n, chunk)

    def _chunk(self, n: int, chunk: Chunk) -> None:
        try:
            self.target.chunk(n, chunk)
        finally:
            self.inspected_bytes += len(chunk.data)

    def finish(self, n: int, end: End) -> None:
        self.post(self.target.finish, n, end)


class InspectionThread:
    """An event loop on a daemon thread where a headless proxy inspects (``start``, then ``stop``).

    ``stop`` runs everything already queued (the last exchanges' ends and reports) before the
    loop closes. While it runs the interpreter's switch interval is ``FORWARDING_SWITCH_S``.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="proxy inspection", daemon=True)
        self._old_switch: float | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self, sink: LoopSink) -> "InspectionThread":
        self._old_switch = sys.getswitchinterval()
        sys.setswitchinterval(min(self._old_switch, FORWARDING_SWITCH_S))
        self._thread.start()
        sink.attach(self.loop, self._thread.ident)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread.is_alive():
            try:
                self.loop.call_soon_threadsafe(self.loop.stop)
            except RuntimeError:
                pass
            self._thread.join(timeout)
        if not self._thread.is_alive() and not self.loop.is_closed():
            self.loop.close()
        if self._old_switch is not None:
            sys.setswitchinterval(self._old_switch)
            self._old_switch = None
