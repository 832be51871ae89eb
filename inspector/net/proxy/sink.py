"""The hand-off from the forwarding path to inspection: calls queued, in order, on one event loop.

The endpoint never inspects inline: each step it forwards becomes a callback on the inspecting
loop (the proxy's own loop headless, the TUI's loop with ``--format tui``), so inspection runs
after the forwarding step that produced it and a slow frame never holds a byte back.

Imports: ``exchange``, ``log`` and ``inspector.model.capture``, for their types only.
"""
from __future__ import annotations

import asyncio
import threading

from inspector.model.capture import Chunk, End
from inspector.feeds.exchanges.record import Exchange
from inspector.feeds.exchanges.log import ExchangeLog


class LoopSink:
    """Queues calls to an ``ExchangeLog`` on one event loop, in order, from any thread.

    Calls made before ``attach(loop)`` wait in a list and are queued, in order, on attach.
    After the loop is closed, calls are dropped. ``auto_attach``: the endpoint attaches the sink
    to its own loop on the first request (headless); False waits for an explicit ``attach`` (TUI).
    """

    def __init__(self, target: ExchangeLog, *, auto_attach: bool = True) -> None:
        self.target = target
        self.auto_attach = auto_attach
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._pending: list = []
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop, thread: int | None = None) -> None:
        with self._lock:
            self.loop = loop
            self._thread = thread
            pending, self._pending = self._pending, []
            for fn, args in pending:
                loop.call_soon_threadsafe(fn, *args)

    def post(self, fn, *args) -> None:
        loop = self.loop
        if loop is None:
            with self._lock:
                if self.loop is None:
                    self._pending.append((fn, args))
                    return
                loop = self.loop
        try:
            if self._thread == threading.get_ident():
                loop.call_soon(fn, *args)
            else:
                loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed (the TUI quit): nothing is watching any more
            pass

    def begin(self, ex: Exchange) -> None:
        self.post(self.target.begin, ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        self.post(self.target.head, n, status, headers)

    def note(self, n: int, text: str) -> None:
        self.post(self.target.note, n, text)

    def chunk(self, n: int, chunk: Chunk) -> None:
        self.post(self.target.chunk, n, chunk)

    def finish(self, n: int, end: End) -> None:
        self.post(self.target.finish, n, end)
