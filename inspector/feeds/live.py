"""Live feeds: any async source (``Head``, ``Chunk``..., ``End``) driving a session for a viewer.

A live stream (``live``, the loopback ``demo``) cannot be rewound: it is shown as it arrives.
Pausing freezes the view; bytes keep arriving and are shown on resume. A feed built from a
factory (a callable returning a fresh source) can be restarted, which sends the request again.
"""
from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from inspector.feeds.base import Driver, Progress, Settings
from inspector.model.capture import End

SourceFactory = Callable[[], AsyncIterator]
"""A callable returning a fresh async iterator of ``Head``/``Chunk``/``End`` (restart calls it again)."""


class LiveFeed:
    """Feeds a session from an async source as items arrive."""

    seekable = False
    total_events = None
    instant = False
    loading = False

    def __init__(self, source: SourceFactory | AsyncIterator, *, label: str = "live",
                 dialect: str | None = None, stall_s: float = 10.0,
                 severity_overrides: dict | None = None) -> None:
        self._source = source
        self.label = label
        self._driver = Driver(Settings(dialect, stall_s, severity_overrides or {}), keep=True)
        self.paused = False
        self.speed = 1.0
        self.started_at: float | None = None
        self.error: str | None = None
        """Why the source failed (one line), if it did."""
        self._restarts = 0

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
        if self.session.closed:
            return self.session.duration_s
        if self.started_at is None:
            return None
        return time.monotonic() - self.started_at

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def set_speed(self, speed: float) -> None:
        """Live streams arrive at their own pace."""

    def restart(self) -> None:
        """A new driver; ``play`` calls the factory again (only when ``restartable``)."""
        if self.restartable:
            self._driver = Driver(self._driver.settings, keep=True)
            self._restarts += 1
            self.error = None

    async def ascan(self, progress: Progress | None = None) -> None:
        """Nothing to scan ahead of a stream that is still arriving."""

    async def aseek_event(self, n: int, progress: Progress | None = None) -> None:
        """Live streams cannot seek."""

    async def play(self, progress: Progress | None = None) -> None:
        """Consume the source to its end; ``progress()`` after every item."""
        if self.session.closed and self.restartable:
            self.restart()
        source = self._source() if callable(self._source) else self._source
        self.started_at = time.monotonic()
        try:
            async for item in source:
                self._driver.take(item)
                if progress is not None:
                    progress()
        except Exception as e:  # noqa: BLE001 - a broken source is shown, never a traceback
            self.error = f"{type(e).__name__}: {e}"
            self._driver.close(End(self.now(), "reset", self.error))
        if not self.session.closed:
            self._driver.close(End(self.now(), "eof"))
        if progress is not None:
            progress()
