"""Live feeds: any async source (``Head``, ``Chunk``..., ``End``) driving a session for the TUI.

Why this module exists: the TUI shows two kinds of stream. A recorded capture is a
:class:`inspector.net.replay.Playback` (seekable, re-timed). A live stream (``live``, ``proxy``,
the loopback ``demo``) is an async iterator of ``SourceItem`` that cannot be rewound. This
adapter gives a live source the same small surface the app reads from a ``Playback``
(``session``, ``generation``, ``play()``, ``now()``, ``paused``...), so one app serves both.
Pausing a live feed freezes the view; bytes keep arriving and are shown on resume.
"""
from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from inspector.capture.model import Capture, Chunk, End, Head
from inspector.session.run import session_for

SourceFactory = Callable[[], AsyncIterator]
"""A callable returning a fresh async iterator of ``Head``/``Chunk``/``End`` (restart calls it again)."""


class LiveFeed:
    """Feeds a session from an async source as items arrive."""

    seekable = False

    def __init__(self, source: SourceFactory | AsyncIterator, *, label: str = "live",
                 dialect: str | None = None, stall_s: float = 10.0,
                 severity_overrides: dict | None = None) -> None:
        self._source = source
        self.label = label
        self._kw = {"dialect": dialect, "stall_s": stall_s, "severity_overrides": severity_overrides or {}}
        self.session = session_for(Capture(request_relative=True), **self._kw)
        self.generation = 0
        self.paused = False
        self.speed = 1.0
        self.instant = False
        self.started_at: float | None = None
        self.error: str | None = None
        """Why the source failed (one line), if it did."""

    @property
    def finished(self) -> bool:
        return self.session.closed

    @property
    def event_count(self) -> int:
        return len(self.session.events)

    total_events = None
    duration = None

    @property
    def restartable(self) -> bool:
        return callable(self._source)

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

    async def play(self, progress: Callable[[], None] | None = None) -> None:
        """Consume the source to its end; ``progress()`` after every item."""
        source = self._source() if callable(self._source) else self._source
        self.started_at = time.monotonic()
        try:
            async for item in source:
                if isinstance(item, Head):
                    cap = Capture(request=item.request, response={"status": item.status, "headers": item.headers},
                                  request_relative=True)
                    self.session = session_for(cap, **self._kw)
                    self.generation += 1
                elif isinstance(item, Chunk):
                    self.session.feed(item)
                elif isinstance(item, End):
                    self.session.close(item)
                if progress is not None:
                    progress()
        except Exception as e:  # noqa: BLE001 - a broken source is shown, never a traceback
            self.error = f"{type(e).__name__}: {e}"
            self.session.close(End(self.now(), "reset", self.error))
        if not self.session.closed:
            self.session.close(End(self.now(), "eof"))
        if progress is not None:
            progress()
