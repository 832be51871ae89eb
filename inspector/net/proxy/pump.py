"""The upstream side of a relay: reads one response body ahead of the relay, in batches.

Why (issue 32 item 4): one socket read holds many chunks of a fast stream (an SSE event per
chunk, 64 KiB per read), and the HTTP parser hands them over one by one without waiting. Relayed one at a
time, each cost a write to the client's socket, a trip through the ASGI send chain and a loop
iteration: the proxy passed on a quarter of what the client could read directly. The
:class:`Pump` runs the read loop in a task of its own and keeps what has arrived; the relay
takes everything received so far (``batch``) and sends it in one write, records it in one
write and queues it for inspection chunk by chunk. Chunks are never held back to fill a batch:
a batch is what had already arrived when the relay asked, so a chunk that arrives alone (a
slow stream, the common case) is relayed alone, as soon as it arrives.

Backpressure: the pump stops reading once ``read_ahead`` bytes wait for the relay (a slow
client holds the relay in ``send``), so at most that much more than before is held per exchange.

Times are the caller's clock (``now()``, seconds since the request was sent), taken as a chunk
comes out of the parser (``upstream``: one per HTTP chunk). The chunks the parser already held when
the pump took one (aiohttp's buffer: ``upstream._Body.buffered``; the pump has not waited since)
share that chunk's time: they came from the same socket reads, before it was taken, and one
``now()`` (~0.5 µs, the ``round``) per chunk was a fifth of the pump's cost at 64 events per chunk.
How the body ended is an ``End`` (``eof``, ``timeout``, ``reset``); any other exception of the read
loop is raised by ``batch``.

Imports: ``httpx``, ``inspector.model.capture``, ``inspector.net.live`` (error wording), ``upstream`` (a body
read straight from aiohttp). Nothing else of the proxy.
"""
from __future__ import annotations

import asyncio
import collections
from typing import Awaitable, Callable

import httpx

from inspector.model.capture import End
from inspector.net.live import describe_error
from inspector.net.proxy.upstream import body_reader

READ_AHEAD = 256 * 1024
"""Bytes read from the upstream and not taken by the relay yet above which the pump waits. A batch
is at most about this much, so its fixed costs (a loop round, one write to the client, one to the
recording) are shared by more chunks when the relay falls behind a fast stream: 256 KiB against
64 KiB cut the relay's CPU per event to ~0.77 with ``--record``, at most ~0.5 MB held per exchange
with aiohttp's own buffer (``upstream.READ_BUFFER``)."""


def _unknown() -> bool:
    """Whether more of a body read through httpx is buffered is not known: every chunk gets its own time."""
    return False


def _items(resp: httpx.Response) -> Callable[[], Awaitable[bytes]]:
    """``resp.aiter_raw()`` one non-empty item per call, ``b""`` at the end (as ``upstream.body_reader``)."""
    items = resp.aiter_raw()

    async def next_item() -> bytes:
        async for data in items:
            if data:
                return data
        return b""
    return next_item


class Pump:
    """Reads ``resp``'s raw body (``aiter_raw``: de-chunked, not decoded; from aiohttp directly when
    it read it: ``upstream.body_reader``) in a task; ``batch()`` takes
    what has arrived. ``timeout``: the read timeout in seconds (for the ``End`` message); ``url``:
    the upstream's, for error wording. ``aclose()`` stops the task (the response is not closed)."""

    def __init__(self, resp: httpx.Response, now: Callable[[], float], *, timeout: float, url: str,
                 read_ahead: int = READ_AHEAD) -> None:
        body = body_reader(resp)
        self._next = body.next if body is not None else _items(resp)
        self._buffered = body.buffered if body is not None else _unknown
        self._now = now
        self._timeout = timeout
        self._url = url
        self._read_ahead = read_ahead
        self._ready: collections.deque[tuple[float, bytes]] = collections.deque()
        self._ready_bytes = 0
        self._loop = asyncio.get_running_loop()
        self._arrived: asyncio.Future | None = None
        """Set while the relay waits for a chunk."""
        self._room: asyncio.Future | None = None
        """Set while the pump waits for the relay to take what it holds."""
        self.end: End | None = None
        """How the body ended, once it has (``batch`` returns ``[]`` from then on)."""
        self._error: BaseException | None = None
        self._task = self._loop.create_task(self._run())

    async def _run(self) -> None:
        t = 0.0
        waits = True
        """The next item may not have arrived yet: it is stamped when it has (and the relay woken)."""
        try:
            while True:
                try:
                    data = await self._next()
                except httpx.ReadTimeout:
                    self._ended(End(self._now(), "timeout", f"no bytes for {self._timeout:g} s (--timeout)"))
                    return
                except (httpx.HTTPError, OSError) as e:
                    self._ended(End(self._now(), "reset", describe_error(e, self._url)))
                    return
                if not data:  # the end of the body
                    self._ended(End(self._now(), "eof"))
                    return
                if waits:  # else it was here when ``t`` was taken, and the relay cannot have run since
                    t = self._now()
                    self._wake(self._arrived)
                self._ready.append((t, data))
                self._ready_bytes += len(data)
                if self._ready_bytes >= self._read_ahead:
                    self._room = self._loop.create_future()
                    await self._room
                    waits = True
                else:
                    waits = not self._buffered()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - handed to the relay, which raises it as before
            self._error = e
            self._wake(self._arrived)

    def _ended(self, end: End) -> None:
        self.end = end
        self._wake(self._arrived)

    @staticmethod
    def _wake(waiter: asyncio.Future | None) -> None:
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    @property
    def ready(self) -> bool:
        """Something is waiting for ``batch`` (chunks, the end, or an error)."""
        return bool(self._ready) or self.end is not None or self._error is not None

    async def batch(self) -> list[tuple[float, bytes]]:
        """Every ``(t, data)`` received since the last call, in order, waiting for the first one;
        ``[]`` once the body has ended (``end`` says how). Raises what the read loop raised, if
        anything other than a transport error."""
        while not self._ready and self.end is None and self._error is None:
            self._arrived = self._loop.create_future()
            try:
                await self._arrived
            finally:
                self._arrived = None
        if self._ready:
            out = list(self._ready)
            self._ready.clear()
            self._ready_bytes = 0
            self._wake(self._room)
            return out
        if self._error is not None:
            raise self._error
        return []

    async def aclose(self) -> None:
        """Stop reading (the upstream read in flight is cancelled); the caller closes the response."""
        if not self._task.done():
            self._task.cancel()
            await asyncio.wait([self._task])
