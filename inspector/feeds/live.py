"""Live feeds: any async source (``Head``, ``Chunk``..., ``End``) driving a session for a viewer.

A live stream (``live``, the loopback ``demo``) cannot be rewound: it is shown as it arrives.
Pausing freezes the view; bytes keep arriving and are shown on resume. A feed built from a
factory (a callable returning a fresh source) can be restarted, which sends the request again.

Timing is the point of a live view, so the source can run on a thread of its own
(``threaded=True``, what ``live`` and ``demo`` use): :class:`ThreadedSource` iterates it on a
private event loop, where the network reader stamps each chunk the moment it is read, and hands
the items to the viewer's loop through a thread-safe queue. A busy frame on the viewer's loop
then delays when a chunk is *shown*, never the time it is *recorded* with.

While the stream is open and silent, the feed ticks the session's clock (``Session.tick``) every
``TICK_S``, so a stall is reported as T001 while it lasts (its gap growing), not only once bytes
come back.
"""
from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator

from inspector.feeds.base import Driver, Progress, Settings
from inspector.model.capture import Chunk, End

SourceFactory = Callable[[], AsyncIterator]
"""A callable returning a fresh async iterator of ``Head``/``Chunk``/``End`` (restart calls it again)."""
TICK_S = 0.25
"""How often a silent open stream's clock is ticked (the stall finding's gap is updated)."""
SWITCH_INTERVAL_S = 0.0005
"""The interpreter's thread switch interval while a reader thread and a UI share the process."""
_DONE = object()


@contextlib.contextmanager
def quick_thread_switches() -> Iterator[None]:
    """Hand the GIL over every 0.5 ms instead of 5 ms for the duration: a reader thread (live
    stream, proxy) waiting for the GIL while the UI renders a frame gets it within 0.5 ms, so
    chunks are stamped and forwarded on time."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


class ThreadedSource:
    """Iterate an async source on a daemon thread with its own event loop; consume it here.

    ``ThreadedSource(source)`` where ``source`` is an async iterator or a factory returning one
    (called on the reader thread). Use as an async iterator on any loop (one consumer). Closing it
    (``aclose``, or the consumer being cancelled) cancels the source on its thread, which then
    ends as the source ends on a cancellation (``live_source`` yields ``End(cancelled)``).
    An exception from the source is raised to the consumer.
    """

    def __init__(self, source: SourceFactory | AsyncIterator) -> None:
        self._source = source
        self._queue: asyncio.Queue | None = None
        self._consumer: asyncio.AbstractEventLoop | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.origin: float | None = None
        """``time.monotonic()`` of the source's t = 0, from the chunks' stamps as they arrive (the
        reader thread sets it: a viewer that is late to take the chunks does not move it)."""
        self.last_t: float | None = None
        """The newest chunk time that arrived (handed over, taken by the viewer or not yet)."""

    def __aiter__(self) -> "ThreadedSource":
        return self

    async def __anext__(self):
        if self._thread is None:
            self._start()
        try:
            item = await self._queue.get()
        except asyncio.CancelledError:
            self._cancel()
            raise
        if item is _DONE:
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            raise item
        return item

    async def aclose(self) -> None:
        self._cancel()

    def _start(self) -> None:
        self._consumer = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._thread = threading.Thread(target=self._run, name="stream-reader", daemon=True)
        self._thread.start()

    def _hand_over(self, item) -> None:
        consumer, queue = self._consumer, self._queue
        if consumer is None or queue is None:
            return  # not started (``_start`` runs before the reader thread): nobody to hand it to
        try:
            consumer.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the viewer's loop is gone: nobody is listening any more
            pass

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._task = loop.create_task(self._pump())
            self._ready.set()
            loop.run_until_complete(self._task)
        except asyncio.CancelledError:
            pass
        finally:
            self._ready.set()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            self._hand_over(_DONE)

    async def _pump(self) -> None:
        source = self._source() if callable(self._source) else self._source
        try:
            async for item in source:
                if isinstance(item, Chunk) and item.t is not None and item.data:
                    self._arrived(item.t)
                self._hand_over(item)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - handed to the consumer, which decides
            self._hand_over(e)

    def _arrived(self, t: float) -> None:
        # Stamped t seconds after the request and read just now: t = 0 was at most now - t.
        origin = time.monotonic() - t
        self.origin = origin if self.origin is None else min(self.origin, origin)
        self.last_t = t if self.last_t is None else max(self.last_t, t)

    def _cancel(self) -> None:
        if self._thread is None:
            return
        self._ready.wait(5)
        loop, task = self._loop, self._task
        if loop is not None and task is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop closed meanwhile: the source already ended
                pass


class LiveFeed:
    """Feeds a session from an async source as items arrive (``threaded``: see the module docstring)."""

    seekable = False
    total_events = None
    instant = False
    reading = None
    loading = False

    def __init__(self, source: SourceFactory | AsyncIterator, *, label: str = "live",
                 dialect: str | None = None, stall_s: float = 10.0,
                 severity_overrides: dict | None = None, threaded: bool = False) -> None:
        self._source = source
        self.label = label
        self.threaded = threaded
        self._driver = Driver(Settings(dialect, stall_s, severity_overrides or {}), keep=True)
        self.paused = False
        self.speed = 1.0
        self.started_at: float | None = None
        self._origin: float | None = None
        """``time.monotonic()`` of the source's t = 0, estimated from the chunks' stamps."""
        self.error: str | None = None
        """Why the source failed (one line), if it did."""
        self._restarts = 0
        self._reader: ThreadedSource | None = None
        """The current stream's reader thread (``threaded``): what has arrived, taken or not."""

    @property
    def session(self):
        return self._driver.session

    @property
    def generation(self) -> int:
        return self._driver.generation + self._restarts

    @property
    def finished(self) -> bool:
        return self.session.closed

    @property
    def event_count(self) -> int:
        return len(self.session.events)

    @property
    def duration(self) -> float | None:
        return self.session.duration_s if self.session.closed else None

    @property
    def restartable(self) -> bool:
        return callable(self._source)

    def recorded(self):
        """The stream as received so far (None before its response head)."""
        return self._driver.tape

    def now(self) -> float | None:
        """Seconds on the stream's own clock (since the request was sent), None before it started.

        The clock is set by arrivals only (the chunks' stamps, read by the reader thread when
        ``threaded``), never by when the viewer got round to taking them."""
        if self.session.closed:
            return self.session.duration_s
        origin = self._origin
        reader = self._reader
        if reader is not None and reader.origin is not None:
            origin = reader.origin if origin is None else min(origin, reader.origin)
        if origin is None:
            origin = self.started_at
        if origin is None:
            return None
        return time.monotonic() - origin

    def last_arrival(self) -> float | None:
        """Stream time of the newest chunk that arrived, shown or not (None: none yet): what
        "silent" counts from, so a viewer that is late to draw never reads as a silent stream."""
        last = self.session.last_byte_t
        reader = self._reader
        if reader is not None and reader.last_t is not None:
            last = reader.last_t if last is None else max(last, reader.last_t)
        return last

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def set_speed(self, speed: float) -> None:
        """Live streams arrive at their own pace."""

    def restart(self) -> None:
        """A new stream: a new driver and its own t = 0; ``play`` calls the factory again (only
        when ``restartable``)."""
        if self.restartable:
            self._driver = Driver(self._driver.settings, keep=True)
            self._restarts += 1
            self._origin = None
            self._reader = None
            self.error = None

    async def ascan(self, progress: Progress | None = None) -> None:
        """Nothing to scan ahead of a stream that is still arriving."""

    async def aseek_event(self, n: int, progress: Progress | None = None) -> None:
        """Live streams cannot seek."""

    def _take(self, item) -> None:
        if isinstance(item, Chunk) and item.t is not None:
            # The chunk was stamped t seconds after the request, and is seen now: t = 0 was at most
            # now - t (the hand-over only adds delay), so the smallest such estimate is the best.
            origin = time.monotonic() - item.t
            self._origin = origin if self._origin is None else min(self._origin, origin)
        self._driver.take(item)

    def _open(self) -> AsyncIterator:
        """The source to read: on a reader thread of its own when ``threaded`` (a factory is called
        there), else the factory's new iterator or the iterator given."""
        if self.threaded:
            self._reader = ThreadedSource(self._source)
            return self._reader
        return self._source() if callable(self._source) else self._source

    async def play(self, progress: Progress | None = None) -> None:
        """Consume the source to its end; ``progress()`` after every item, and every ``TICK_S`` of
        silence after the session's clock ticked."""
        if self.started_at is not None and self.restartable:
            # Played before (ended, or stopped when the viewer switched away): the factory sends
            # the request again, so this is a new stream with its own clock, not the old one resumed.
            self.restart()
        source = self._open()
        self.started_at = time.monotonic()
        items = source.__aiter__()
        waiting: asyncio.Future | None = None
        try:
            while True:
                if waiting is None:
                    waiting = asyncio.ensure_future(items.__anext__())
                # Not wait_for: a timeout must not cancel the read (it would end the source).
                done, _ = await asyncio.wait({waiting}, timeout=TICK_S)
                if not done:
                    now = self.now()
                    if now is not None and not self.session.closed:
                        self.session.tick(now)
                    if progress is not None:
                        progress()
                    continue
                finished, waiting = waiting, None
                try:
                    item = finished.result()
                except StopAsyncIteration:
                    break
                self._take(item)
                if progress is not None:
                    progress()
        except Exception as e:  # noqa: BLE001 - a broken source is shown, never a traceback
            self.error = f"{type(e).__name__}: {e}"
            self._driver.close(End(self.now(), "reset", self.error))
        finally:
            if waiting is not None:
                waiting.cancel()  # play itself was cancelled: so is the read in flight
            if isinstance(source, ThreadedSource):
                await source.aclose()
        if not self.session.closed:
            self._driver.close(End(self.now(), "eof"))
        if progress is not None:
            progress()
