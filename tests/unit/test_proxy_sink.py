"""The proxy's hand-off to inspection (``LoopSink``): in order, in small pieces, never one long run."""
from __future__ import annotations

import asyncio
import threading
import time

from inspector.model.capture import Chunk, End
from inspector.net.proxy.sink import PIECE, LoopSink


class SlowLog:
    """Stands in for the ``ExchangeLog``: notes every call, each chunk costing ~1 ms of work."""

    def __init__(self, order: list) -> None:
        self.order = order
        self.data = bytearray()

    def chunk(self, n: int, chunk: Chunk) -> None:
        assert len(chunk.data) <= PIECE and chunk.t == 0.5
        self.data += chunk.data
        self.order.append("piece")
        time.sleep(0.001)

    def finish(self, n: int, end: End) -> None:
        self.order.append("finish")


def test_a_big_chunk_is_inspected_in_pieces_between_other_callbacks_and_in_order():
    order: list[str] = []
    log = SlowLog(order)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        sink = LoopSink(log)  # type: ignore[arg-type]
        sink.attach(loop)
        data = bytes(range(256)) * 64  # 16 KB: four pieces
        sink.chunk(1, Chunk(0.5, data))
        sink.finish(1, End(0.6, "eof"))
        assert sink.backlog == len(data)
        loop.call_soon(order.append, "other exchange")  # queued after the inspection work
        while "finish" not in order:
            await asyncio.sleep(0)
        assert sink.backlog == 0
        assert bytes(log.data) == data

    asyncio.run(main())
    assert order.count("piece") == 4 and order[-1] == "finish"
    # the other callback did not wait for all four pieces (each piece is over the time budget)
    assert order.index("other exchange") < 4


def test_calls_before_attach_wait_and_run_in_order():
    order: list[str] = []
    log = SlowLog(order)
    sink = LoopSink(log)  # type: ignore[arg-type]
    sink.chunk(1, Chunk(0.5, b"a"))
    sink.finish(1, End(0.6, "eof"))

    async def main() -> None:
        sink.attach(asyncio.get_running_loop())
        while "finish" not in order:
            await asyncio.sleep(0)

    asyncio.run(main())
    assert order == ["piece", "finish"]


def test_an_arrival_is_known_before_it_is_inspected():
    """Issue 23 item 7: "silent" in the proxy's TUI counts from the newest arrival, which the sink
    notes on the forwarding side, not from what the (maybe busy) inspecting loop has taken."""
    from inspector.feeds.exchanges.feed import ExchangeFeed
    from inspector.feeds.exchanges.record import Exchange

    class Nothing:
        def __getattr__(self, name):
            return lambda *a: None

    ex = Exchange(n=1, method="POST", path="/v1/messages", target="/v1/messages", url="http://u/v1/messages",
                  request={}, body=None, started_wall=0.0, t0=0.0)
    sink = LoopSink(Nothing())  # type: ignore[arg-type]  # never attached: nothing is inspected
    sink.begin(ex)
    sink.chunk(1, Chunk(0.5, b"data: {}\n\n"))
    sink.chunk(1, Chunk(2.5, b"data: {}\n\n"))
    assert ex.last_arrival_t == 2.5 and ex.session is None
    ex.session = type("S", (), {"last_byte_t": 0.5})()
    assert ExchangeFeed(ex).last_arrival() == 2.5


class CountingLog:
    """Stands in for the ``ExchangeLog``: keeps every chunk's data, in the order inspected."""

    def __init__(self) -> None:
        self.seen: list[bytes] = []

    def chunk(self, n: int, chunk: Chunk) -> None:
        self.seen.append(chunk.data)


def test_inspection_waits_while_chunks_keep_being_forwarded_then_catches_up(monkeypatch):
    """Issue 32 item 4: while the forwarding side hands over a chunk on every loop iteration, a
    slice of inspection starts at most every ``BUSY_GAP_S`` (the relay goes first); once nothing new
    arrives, everything is inspected, in order."""
    from inspector.net.proxy import sink as sink_module

    monkeypatch.setattr(sink_module, "BUSY_GAP_S", 0.5, raising=False)
    log = CountingLog()
    inspected_while_forwarding: list[int] = []

    async def main() -> None:
        sink = LoopSink(log)  # type: ignore[arg-type]
        sink.attach(asyncio.get_running_loop())
        for i in range(20):  # one forwarding step per loop iteration, far faster than BUSY_GAP_S
            sink.chunk(1, Chunk(0.5, b"%d," % i))
            await asyncio.sleep(0)
            inspected_while_forwarding.append(len(log.seen))
        deadline = time.monotonic() + 5
        while len(log.seen) < 20 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert sink.backlog == 0

    asyncio.run(main())
    # The first chunk is inspected at once (nothing was being forwarded before it); the next ones wait.
    assert inspected_while_forwarding[0] == 1 and inspected_while_forwarding[-1] == 1
    assert log.seen == [b"%d," % i for i in range(20)]


def test_inspection_put_off_runs_at_once_when_forwarding_waits(monkeypatch):
    """The put-off slice does not wait out ``BUSY_GAP_S`` on an idle loop: once the forwarding side
    says it waits for its upstream (``forwarding_idle``), everything handed over is inspected."""
    from inspector.net.proxy import sink as sink_module

    monkeypatch.setattr(sink_module, "BUSY_GAP_S", 30.0)
    log = CountingLog()

    async def main() -> None:
        sink = LoopSink(log)  # type: ignore[arg-type]
        sink.attach(asyncio.get_running_loop(), threading.get_ident())
        for i in range(5):
            sink.chunk(1, Chunk(0.5, b"%d," % i))
            await asyncio.sleep(0)
        assert len(log.seen) == 1 and sink.deferred
        sink.forwarding_idle()
        for _ in range(5):
            await asyncio.sleep(0)
        assert log.seen == [b"%d," % i for i in range(5)] and not sink.deferred

    asyncio.run(main())


def test_inspection_put_off_runs_at_once_when_the_last_forwarded_response_ends(monkeypatch):
    """The put-off slice does not wait out ``BUSY_GAP_S`` after forwarding has ended either: when the
    last response still arriving finishes, nothing is being forwarded, and what was handed over is
    inspected at once. While another response still arrives, the relay keeps going first."""
    from inspector.feeds.exchanges.record import Exchange
    from inspector.net.proxy import sink as sink_module

    class Log(CountingLog):
        def begin(self, ex: Exchange) -> None: ...

        def finish(self, n: int, end: End) -> None: ...

    monkeypatch.setattr(sink_module, "BUSY_GAP_S", 30.0)
    log = Log()

    async def main() -> None:
        sink = LoopSink(log)  # type: ignore[arg-type]  # a stand-in for the ExchangeLog
        sink.attach(asyncio.get_running_loop(), threading.get_ident())
        for n in (1, 2):
            sink.begin(Exchange(n=n, method="POST", path="/v1/messages", target="/v1/messages",
                                url="http://u/v1/messages", request={}, body=None, started_wall=0.0, t0=0.0))
        for i in range(5):
            sink.chunk(1 + i % 2, Chunk(0.5, b"%d," % i))
            await asyncio.sleep(0)
        assert len(log.seen) == 1 and sink.deferred
        sink.finish(1, End(1.0, "eof"))  # exchange 2 is still being forwarded: it goes first
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(log.seen) == 1 and sink.deferred
        sink.finish(2, End(1.0, "eof"))
        for _ in range(5):
            await asyncio.sleep(0)
        assert log.seen == [b"%d," % i for i in range(5)] and not sink.deferred

    asyncio.run(main())


class NumberingLog:
    """Notes each inspected piece as ``(n, t, data, line)``, numbering a chunk's line when its first
    piece comes (as ``feeds.base.Driver`` does); a piece holding ``b"!"`` fails."""

    def __init__(self) -> None:
        self.seen: list[tuple] = []
        self.lines = 0

    def chunk(self, n: int, chunk: Chunk) -> None:
        if chunk.line is None:
            self.lines += 1
            chunk.line = self.lines
        self.seen.append((n, chunk.t, chunk.data, chunk.line))
        if b"!" in chunk.data:
            raise ValueError("a broken frame")

    def finish(self, n: int, end: End) -> None:
        self.seen.append(("finish", n))


def _inspected(post) -> tuple[list[tuple], LoopSink]:
    log = NumberingLog()
    sink = LoopSink(log)  # type: ignore[arg-type]

    async def main() -> None:
        sink.attach(asyncio.get_running_loop())
        post(sink)
        sink.finish(1, End(9.0, "eof"))
        while ("finish", 1) not in log.seen:
            await asyncio.sleep(0)

    asyncio.run(main())
    return log.seen, sink


def test_a_batch_is_inspected_as_its_chunks_one_by_one_would_be(capsys):
    """``chunks`` (one queued call per batch: the relay's cost) hands the log the same pieces, times
    and capture lines, in the same order, as ``chunk`` per chunk; a piece that fails leaves the rest."""
    items = [(0.1, b"a" * (PIECE * 2 + 7)), (0.2, b""), (0.3, b"b" * 10), (0.4, b"c" * PIECE),
             (0.5, b"!" + b"d" * PIECE), (0.6, b"e" * 3)]

    def one_by_one(sink: LoopSink) -> None:
        for t, data in items:
            if data:
                sink.chunk(1, Chunk(t, data))

    expected, by_chunk = _inspected(one_by_one)
    seen, by_batch = _inspected(lambda sink: sink.chunks(1, items))
    assert seen == expected
    assert [row[3] for row in seen[:3]] == [1, 1, 1] and len(seen) == 9  # 3 pieces of one chunk share its line
    assert by_batch.posted_bytes == by_batch.inspected_bytes == by_chunk.posted_bytes == sum(len(d) for _, d in items)
    assert "a broken frame" in capsys.readouterr().err


def test_a_batch_is_inspected_a_piece_per_slice_with_other_work_between():
    order: list[str] = []
    log = SlowLog(order)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        sink = LoopSink(log)  # type: ignore[arg-type]
        sink.attach(loop)
        sink.chunks(1, [(0.5, b"x" * PIECE), (0.5, b"y" * (PIECE * 2))])
        sink.finish(1, End(0.6, "eof"))
        loop.call_soon(order.append, "other exchange")
        while "finish" not in order:
            await asyncio.sleep(0)

    asyncio.run(main())
    assert order.count("piece") == 3 and order[-1] == "finish"
    assert order.index("other exchange") < 3  # each piece is over the time budget: the loop polled between


def test_calls_left_queued_when_the_loop_ended_are_run_by_run_left_in_order():
    """A server's shutdown can end its loop between two slices (a stream's end still queued behind its
    last chunk): ``run_left`` takes them once the loop is gone, in order; without it they were lost."""
    order: list[str] = []
    log = SlowLog(order)
    sink = LoopSink(log)  # type: ignore[arg-type]
    loop = asyncio.new_event_loop()
    try:
        sink.attach(loop, threading.get_ident())
        sink.chunk(1, Chunk(0.5, bytes(3 * PIECE)))  # three pieces, each over the slice's budget
        sink.finish(1, End(0.6, "eof"))
        loop.run_until_complete(asyncio.sleep(0))  # one slice ran, then the loop ends
    finally:
        loop.close()
    assert order and "finish" not in order  # what the loop left
    sink.run_left()
    assert order == ["piece", "piece", "piece", "finish"] and sink.backlog == 0
    sink.run_left()  # nothing left: nothing run twice
    assert order.count("finish") == 1
