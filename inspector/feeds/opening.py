"""A capture file being opened: shown under its name at once, read in the background.

Why this module exists: a big capture (tens of thousands of events, a HAR of a whole browsing
session) takes a moment to read and parse, and a person should see the inspector, with a
loading indicator, right away instead of a blank terminal (issue 12). :class:`OpeningFeed` is a
``Feed`` with an empty session and ``loading = True``; the viewer calls :meth:`OpeningFeed.open`
off its event loop (a thread) and swaps in the ``ReplayFeed`` it returns. A HAR holding several
streams raises ``SeveralStreams`` from ``open`` so the viewer can offer them; ``open(entry=N)``
then reads the one chosen.
"""
from __future__ import annotations

import os
from pathlib import Path

from inspector.capture.errors import CaptureError
from inspector.capture.memory import MemoryLimitReached
from inspector.capture.load import load_path
from inspector.feeds.base import Progress, new_session, paused_gc
from inspector.feeds.replay import ReplayFeed
from inspector.feeds.run import stream_problem
from inspector.model.capture import Capture

class OpeningFeed:
    """``path`` being read; ``replay`` holds the ``ReplayFeed`` options (speed, instant, dialect,
    stall_s, severity_overrides). Implements the ``Feed`` protocol as an empty, unplayable stream."""

    seekable = False
    restartable = False
    total_events = None
    duration = None
    instant = False
    reading = None
    loading = True
    finished = False
    event_count = 0

    def __init__(self, path: str | os.PathLike, *, entry: int | None = None, max_bytes: int | None = None,
                 keep_audio: bool = False, **replay) -> None:
        self.path = Path(path)
        self.entry = entry
        self.max_bytes = max_bytes
        """Refuse a file larger than this (``--max-size``; None: ``load_path``'s default)."""
        self.keep_audio = keep_audio
        """A WebSocket's audio payloads kept (``--keep-audio``), not replaced by their sizes."""
        """HAR: the entry to read (None: the only stream, or ask)."""
        self.replay = replay
        self.label = self.path.name
        self.session = new_session(Capture())
        self.generation = 0
        self.paused = False
        self.speed = float(replay.get("speed", 1.0))
        self.error: str | None = None

    @property
    def size(self) -> int | None:
        """The file's size in bytes (None when it cannot be read)."""
        try:
            return self.path.stat().st_size
        except OSError:
            return None

    def open(self, entry: int | None = None) -> ReplayFeed:
        """Read and parse the file (blocking: call it from a thread) and return its ``ReplayFeed``,
        which scans for its total in the background. Raises ``CaptureError``; ``SeveralStreams``
        when a HAR holds several streams and no ``entry`` was chosen (here or at construction)."""
        entry = self.entry if entry is None else entry
        # No collections while the file is read: each would scan the new chunks and whatever the
        # viewer is building meanwhile (on a 50 000-delta capture four took ~25 ms of its start).
        with paused_gc():
            cap = load_path(self.path, entry=entry, max_bytes=self.max_bytes, keep_audio=self.keep_audio)
        try:
            why = stream_problem(cap, dialect=self.replay.get("dialect"))
        except MemoryLimitReached as e:
            raise e.named(str(self.path)) from None
        if why:
            raise CaptureError(f"{self.path}: not a stream capture: {why}")
        label = self.path.name if cap.entry is None else f"{self.path.name} · {cap.entry}"
        return ReplayFeed(cap, label=label, scan=False, **self.replay)

    def now(self) -> float | None:
        return None

    def recorded(self) -> Capture | None:
        return None

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self.replay["speed"] = speed

    def restart(self) -> None:
        """Nothing to restart before the file is read."""

    async def play(self, progress: Progress | None = None) -> None:
        """Nothing to play before the file is read."""

    async def aseek_event(self, n: int, progress: Progress | None = None) -> None:
        """Nothing to seek before the file is read."""

    async def ascan(self, progress: Progress | None = None) -> None:
        """Nothing to scan before the file is read."""
