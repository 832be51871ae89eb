"""Cyclic garbage collection for a long-running headless proxy: none while streams are in flight.

Why: a session is many long-lived objects (an event, its payload, block state...), and a
streaming answer of a few MB is hundreds of thousands of them. Python's automatic generation-2
collection scans every long-lived object each time their number has grown by a quarter, so a big
stream in flight freezes the loop for 100 ms and more, again and again: every other exchange's
bytes wait (issue 16: the proxy's p99 tail; issue 17: fairness). Yet sessions hold a few
reference cycles, so a released session is only freed by a full collection.

:class:`IdleCollector` therefore switches automatic generation-2 collections off (young
generations stay automatic: they are short), freezes what exists at start-up (modules, the
parser) out of every scan, and runs one full collection when ``batch`` exchanges have been
released and no exchange is in flight, or after ``every`` releases whatever is running (so a
proxy that is never idle still frees them). It is an ``ExchangeLog`` listener; ``stop`` restores the interpreter's
settings.

Imports: the standard library only.
"""
from __future__ import annotations

import asyncio
import gc


class IdleCollector:
    """``ExchangeLog`` listener running full collections only between streams (module docstring).

    ``running``: a callable returning how many exchanges are in flight (``ExchangeLog.running``).
    """

    NO_AUTOMATIC_FULL = 1 << 30
    """A generation-2 threshold no run reaches (it counts generation-1 collections)."""

    def __init__(self, running, every: int = 64, batch: int = 8) -> None:
        self.running = running
        self.every = every
        self.batch = batch
        """Releases to wait for before an idle-time collection (one per exchange would delay the
        next request of an agent that sends them back to back)."""
        self.pending = 0
        """Exchanges released since the last full collection."""
        self.collections = 0
        self._old: tuple[int, int, int] | None = None
        self._scheduled = False

    def start(self) -> "IdleCollector":
        self._old = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(self._old[0], self._old[1], self.NO_AUTOMATIC_FULL)
        return self

    def stop(self) -> None:
        if self._old is not None:
            gc.set_threshold(*self._old)
            gc.unfreeze()
            self._old = None

    def __call__(self, event: str, ex) -> None:
        if event == "release":
            self.pending += 1
        if self.pending and event in ("release", "end") and not self._scheduled:
            self._scheduled = True
            try:
                asyncio.get_running_loop().call_soon(self._maybe_collect)
            except RuntimeError:  # no loop (a test driving the log by hand): decide now
                self._maybe_collect()

    def _maybe_collect(self) -> None:
        self._scheduled = False
        if self.pending >= self.every or (self.pending >= self.batch and self.running() == 0):
            gc.collect()
            self.pending = 0
            self.collections += 1
