"""``Pump``: the relay's read-ahead of one upstream body (issue 32 item 4).

What had arrived when the relay asks is one batch, in order, with each chunk's own arrival time;
a chunk is never held back to fill a batch; reading stops once ``read_ahead`` bytes wait; the
body's end is an ``End`` (eof, timeout, reset) and any other failure is raised to the relay.
"""
from __future__ import annotations

import asyncio

import httpx
import pytest

from inspector.net.proxy.pump import Pump


class Body:
    """A stand-in for ``httpx.Response``: ``aiter_raw`` yields what ``give`` hands it, then ``fail``s or ends."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        self.pulled = 0
        self.extensions: dict = {}  # no body read straight from aiohttp (``upstream.body_reader``)

    def give(self, *items) -> None:
        for item in items:
            self.queue.put_nowait(item)

    async def aiter_raw(self):
        while True:
            item = await self.queue.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            self.pulled += 1
            yield item


def clock():
    ticks = iter(range(1000))
    return lambda: float(next(ticks))


def run(coro):
    return asyncio.run(coro)


def test_what_arrived_together_is_one_batch_in_order_with_its_own_times():
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up")
        body.give(b"a", b"", b"b", b"c")  # an empty chunk is skipped
        first = await pump.batch()
        body.give(b"d")
        second = await pump.batch()
        body.give(None)
        rest = await pump.batch()
        return first, second, rest, pump.end

    first, second, rest, end = run(go())
    assert first == [(0.0, b"a"), (1.0, b"b"), (2.0, b"c")]
    assert second == [(3.0, b"d")]
    assert rest == [] and end.kind == "eof" and end.t == 4.0


def test_a_lone_chunk_is_handed_over_at_once():
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up")
        waiting = asyncio.ensure_future(pump.batch())
        await asyncio.sleep(0.01)
        assert not waiting.done()  # nothing yet: the relay waits
        body.give(b"x")
        got = await asyncio.wait_for(waiting, 1)
        await pump.aclose()
        return got

    assert run(go()) == [(0.0, b"x")]


def test_reading_stops_once_read_ahead_bytes_wait_and_goes_on_when_taken():
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up", read_ahead=10)
        body.give(*[b"1234"] * 10)
        for _ in range(5):
            await asyncio.sleep(0)
        held = body.pulled
        batch = await pump.batch()
        for _ in range(5):
            await asyncio.sleep(0)
        after = body.pulled
        await pump.aclose()
        return held, batch, after

    held, batch, after = run(go())
    assert held == 3  # 12 bytes >= 10: no further read until the relay takes them
    assert [d for _, d in batch] == [b"1234"] * 3
    assert after == 6


@pytest.mark.parametrize("error, kind, says", [
    (httpx.ReadTimeout("slow"), "timeout", "no bytes for 5 s (--timeout)"),
    (httpx.RemoteProtocolError("peer closed connection without sending complete message body"), "reset",
     "peer closed"),
])
def test_a_transport_failure_ends_the_body_after_what_came_before(error, kind, says):
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up")
        body.give(b"a", error)
        return await pump.batch(), await pump.batch(), pump.end

    got, rest, end = run(go())
    assert got == [(0.0, b"a")] and rest == []
    assert end.kind == kind and says in end.error


def test_any_other_failure_is_raised_to_the_relay_after_what_came_before():
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up")
        body.give(b"a", RuntimeError("broken"))
        got = await pump.batch()
        with pytest.raises(RuntimeError, match="broken"):
            await pump.batch()
        return got

    assert run(go()) == [(0.0, b"a")]


def test_aclose_cancels_the_read_in_flight():
    async def go():
        body = Body()
        pump = Pump(body, clock(), timeout=5, url="http://up")
        await asyncio.sleep(0)
        await pump.aclose()
        body.give(b"late")
        await asyncio.sleep(0.01)
        return body.pulled, body.queue.qsize()

    assert run(go()) == (0, 1)  # nothing is read any more
