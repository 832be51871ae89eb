"""``ExchangeLog`` keeps at most ``keep`` ended exchanges and ``keep_bytes`` of their bodies whole (issue 17)."""
from __future__ import annotations

import time

from inspector.feeds.exchanges.log import REQUEST_BODY_KEEP, ExchangeLog
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import Chunk, End

SSE = (b'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant",'
       b'"model":"m-1","content":[],"usage":{}}}\n\n'
       b'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
       b'"content_block":{"type":"text","text":""}}\n\n')


def exchange(n: int, body: dict | None = None, size: int = 16) -> Exchange:
    body = body if body is not None else {"stream": True}
    return Exchange(n=n, method="POST", path="/v1/messages", target="/v1/messages", url="http://up/v1/messages",
                    request={"method": "POST", "url": "http://up/v1/messages", "headers": {}, "body": body},
                    body=body, started_wall=time.time(), t0=time.monotonic(), request_bytes=size)


def run(log: ExchangeLog, ex: Exchange, end: str = "eof") -> None:
    log.begin(ex)
    log.head(ex.n, 200, {"content-type": "text/event-stream"})
    log.chunk(ex.n, Chunk(0.01, SSE))
    log.finish(ex.n, End(0.02, end))


def test_only_the_last_keep_ended_exchanges_stay_whole_and_listeners_hear_each_release():
    log = ExchangeLog(keep=3)
    heard: list[tuple[str, int]] = []
    log.listeners.append(lambda event, ex: heard.append((event, ex.n)))
    for n in range(1, 8):
        run(log, exchange(n))
    assert [ex.released for ex in log.exchanges] == [True] * 4 + [False] * 3
    assert [n for event, n in heard if event == "release"] == [1, 2, 3, 4]
    # each "end" is heard before its exchange could be released
    assert heard.index(("end", 1)) < heard.index(("release", 1))
    old = log.exchanges[0]
    assert old.session is None and old.body_excerpt == bytearray() and old.q_findings == []
    assert old.summary["events"] == 2 and old.summary["dialect"] == "anthropic-messages"
    assert old.counts() == log.exchanges[-1].counts() and old.model == "m-1"


def test_running_exchanges_are_never_released():
    log = ExchangeLog(keep=1, keep_bytes=1)
    running = exchange(1)
    log.begin(running)
    log.head(1, 200, {"content-type": "text/event-stream"})
    for n in range(2, 5):
        run(log, exchange(n))
    assert not running.released and running.session is not None


def test_a_large_request_body_goes_when_its_exchange_ends_even_when_the_exchange_is_kept():
    log = ExchangeLog(keep=10, keep_bytes=10 * REQUEST_BODY_KEEP)
    ex = exchange(1, {"stream": True, "model": "m-req", "messages": [{"role": "user", "content": "x"}]},
                  size=REQUEST_BODY_KEEP + 1)
    run(log, ex)
    assert not ex.released
    assert ex.request["body"].startswith("(request body of") and ex.session.request is ex.request
    assert ex.held_bytes == len(SSE)


def test_the_byte_budget_releases_the_oldest_first():
    log = ExchangeLog(keep=100, keep_bytes=3 * (len(SSE) + 16))
    for n in range(1, 6):
        run(log, exchange(n))
    assert [ex.released for ex in log.exchanges] == [True, True, False, False, False]


def test_full_collections_wait_until_no_exchange_is_in_flight():
    import gc

    from inspector.net.proxy.collect import IdleCollector

    log = ExchangeLog(keep=1)
    collector = IdleCollector(lambda: log.running, every=3, batch=1)
    log.listeners.append(collector)
    old = gc.get_threshold()
    collector.start()
    try:
        assert gc.get_threshold()[2] == IdleCollector.NO_AUTOMATIC_FULL
        busy = exchange(99)
        log.begin(busy)  # in flight throughout: only the every-3-releases fallback collects
        for n in range(1, 5):
            run(log, exchange(n))
        assert (collector.pending, collector.collections) == (0, 1)
        log.finish(99, End(0.1, "eof"))  # now idle: what was released since is collected
        assert (collector.pending, collector.collections) == (0, 2)
    finally:
        collector.stop()
    assert gc.get_threshold() == old


def test_rows_bound_what_released_exchanges_leave_behind():
    log = ExchangeLog(keep=3, rows=2)
    heard: list[tuple[str, int]] = []
    log.listeners.append(lambda event, ex: heard.append((event, ex.n)))
    for n in range(1, 9):
        run(log, exchange(n))
    assert [ex.n for ex in log.exchanges] == [4, 5, 6, 7, 8]  # 2 released rows, 3 kept whole
    assert [ex.released for ex in log.exchanges] == [True, True, False, False, False]
    assert sorted(log.by_n) == [4, 5, 6, 7, 8]
    assert [n for event, n in heard if event == "forget"] == [1, 2, 3]
    assert heard.index(("release", 1)) < heard.index(("forget", 1))


def test_the_headless_log_stops_growing_once_keep_is_reached():
    import gc
    import tracemalloc

    log = ExchangeLog(keep=100, rows=0)  # what the headless proxy runs with
    tracemalloc.start()  # before the first: what was allocated untraced would not count when freed
    try:
        for n in range(1, 1001):
            run(log, exchange(n))
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for n in range(1001, 4001):
            run(log, exchange(n))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(log.exchanges) == 100 and len(log.by_n) == 100
    assert grown / 3000 < 50, f"{grown / 3000:.0f} bytes kept per exchange"  # was ~2 KB per exchange
