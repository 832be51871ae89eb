"""One proxied exchange as a feed: the proxy's exchange log feeds the session, a viewer reads it.

The session belongs to the exchange (``inspector.net.proxy`` creates and feeds it as bytes are
relayed); before the response head arrives, or for an exchange that is not a stream, the feed
shows an empty session holding the request's Q findings. An exchange released from memory
(``ExchangeLog``, ``--keep``) is read back from its recording when there is one. ``play`` only waits for "the exchange
moved" (:meth:`ExchangeFeed.poke`) and reports progress.
"""
from __future__ import annotations

import asyncio
import time

from inspector.capture.load import CaptureError, load_path
from inspector.feeds.base import Progress, new_session
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture

_reloaded: tuple[object, object] | None = None
"""``(exchange, session)``: the one released exchange read back from its recording (only one is held)."""


def reloaded_session(ex):
    """The session of a released exchange, read back from its recording (``--record``), or None.

    Only the last one asked for is kept, so browsing old exchanges never grows memory again."""
    global _reloaded
    if _reloaded is not None and _reloaded[0] is ex:
        return _reloaded[1]
    if not ex.record_path:
        return None
    try:
        session = run_capture(load_path(ex.record_path))
    except (CaptureError, OSError, ValueError):
        return None
    _reloaded = (ex, session)
    return session


class ExchangeFeed:
    """A proxy exchange (``ex``; None = the "waiting for the first request" feed) as a feed."""

    seekable = False
    restartable = False
    total_events = None
    instant = False
    reading = None
    loading = False

    def __init__(self, ex=None, *, waiting: str = "waiting for the first request") -> None:
        self.ex = ex
        self._waiting = waiting
        self._own = new_session(Capture())
        if ex is not None:
            self._own.findings.extend(ex.q_findings)
        self.changed = asyncio.Event()
        self.paused = False
        self.speed = 1.0
        self.error: str | None = None

    @property
    def session(self):
        ex = self.ex
        if ex is None:
            return self._own
        if len(ex.q_findings) > len(self._own.findings):  # a verdict that waited (``ExchangeLog``): given since
            self._own.findings.extend(ex.q_findings[len(self._own.findings):])
        if ex.session is not None:
            return ex.session
        if ex.released:
            return reloaded_session(ex) or self._own
        return self._own

    @property
    def generation(self) -> int:
        """0 before the response head; bumped when the session appears and when it is released."""
        return 0 if self.ex is None else self.ex.generation

    @property
    def label(self) -> str:
        ex = self.ex
        if ex is None:
            return self._waiting
        text = f"#{ex.n} {ex.method} {ex.target}"
        if ex.status is not None:
            text += f" → {ex.status}"
        if ex.done and not ex.linted:
            text += " · not a stream (d: details)"
        return text

    @property
    def finished(self) -> bool:
        return self.ex is not None and self.ex.done

    @property
    def event_count(self) -> int:
        return len(self.session.events)

    @property
    def duration(self) -> float | None:
        return self.ex.duration_s if self.ex is not None and self.ex.done else None

    def now(self) -> float | None:
        ex = self.ex
        if ex is None:
            return None
        if ex.done:
            return ex.duration_s
        return time.monotonic() - ex.t0

    def last_arrival(self) -> float | None:
        """Stream time of the newest chunk that arrived, inspected or not (None: none yet)."""
        ex = self.ex
        if ex is None:
            return None
        last = self.session.last_byte_t
        if ex.last_arrival_t is not None and (last is None or ex.last_arrival_t > last):
            return ex.last_arrival_t
        return last

    def recorded(self) -> Capture | None:
        """The exchange's stream as relayed so far, when the log keeps it (``ExchangeLog.keep``);
        None for an answer that is not a stream (it is shown, not inspected)."""
        ex = self.ex
        return ex.tape if ex is not None and ex.linted else None

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def set_speed(self, speed: float) -> None:
        """Exchanges arrive at their own pace."""

    def restart(self) -> None:
        """An exchange cannot be replayed from here (``serve`` a recording of it instead)."""

    async def ascan(self, progress: Progress | None = None) -> None:
        """Nothing to scan ahead of a stream that is still arriving."""

    async def aseek_event(self, n: int, progress: Progress | None = None) -> None:
        """Exchanges cannot seek."""

    def poke(self) -> None:
        """The exchange moved (head, bytes, end): wake ``play``."""
        self.changed.set()

    async def play(self, progress: Progress | None = None) -> None:
        """Report progress each time the exchange moves, until it ends."""
        while True:
            self.changed.clear()
            if progress is not None:
                progress()
            if self.finished:
                return
            await self.changed.wait()
