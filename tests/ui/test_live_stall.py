"""A stall shows as T001 while it lasts, in the findings list and the counts (issue 12, item 5)."""
from __future__ import annotations

import asyncio
import contextlib
import time

from inspector.feeds.live import LiveFeed
from inspector.model.capture import Chunk, End, Head
from inspector.tui.app import InspectorApp, make_app
from inspector.tui.widgets.findings_list import OPEN_ID, FindingsList
from inspector.tui.widgets.stream_header import StreamHeader
from tests.helpers import sse
from tests.unit.test_stall_tick import BLOCK, DELTA, START, STOP

STALL_S = 0.6


def silent_until(resume: asyncio.Event):
    """A live source that opens a tool block, then is silent until ``resume`` is set, then ends."""
    async def source():
        t0 = time.monotonic()
        yield Head(200, {"content-type": "text/event-stream"}, None)
        yield Chunk(time.monotonic() - t0, sse(START, BLOCK, DELTA))
        await resume.wait()  # silent until the test has seen the stall in progress
        yield Chunk(time.monotonic() - t0, sse(DELTA, *STOP))
        yield End(time.monotonic() - t0, "eof")
    return source


async def test_t001_appears_while_the_stream_is_silent_and_once_it_ends():
    resume = asyncio.Event()
    feed = LiveFeed(silent_until(resume), label="live", stall_s=STALL_S)
    app = make_app(feed)
    async with app.run_test(size=(150, 44)) as pilot:
        findings = app.query_one(FindingsList)
        for _ in range(400):
            await pilot.pause(0.02)
            if findings._open is not None:
                break
        assert feed.session.open_stall is not None and not feed.finished
        assert findings.get_option_index(OPEN_ID) == findings.option_count - 1
        first = feed.session.open_stall.message
        await pilot.pause(0.6)
        assert feed.session.open_stall.message != first  # the gap grows while it lasts
        assert "▲ 1" in app.query_one(StreamHeader).content.plain
        assert not [f for f in feed.session.findings if f.code == "T001"]
        # Issue 23 item 6: the open T001 is listed, so the border does not say "no findings".
        app.refresh_now()
        await pilot.pause()
        assert "no findings" not in str(app.query_one("#findings-pane").border_subtitle)
        resume.set()
        for _ in range(200):
            await pilot.pause(0.02)
            if feed.finished:
                break
        app.refresh_now()
        await pilot.pause()
        stalls = [f for f in feed.session.findings if f.code == "T001"]
        assert len(stalls) == 1 and stalls[0].event is not None
        assert findings._open is None and findings.option_count == len(feed.session.findings)


async def test_a_live_stream_played_again_is_a_new_stream_with_its_own_clock():
    """Issue 23 item 6: switching away from a live stream and back sends the request again; its
    times count from that request, so no silence (or T001) carries over from the first one."""
    stall = 2.0
    requests: list[float] = []

    def factory():
        async def source():
            t0 = time.monotonic()
            requests.append(t0)
            yield Head(200, {"content-type": "text/event-stream"}, None)
            yield Chunk(time.monotonic() - t0, sse(START, BLOCK, DELTA))
            await asyncio.sleep(30)  # open and quiet, as a model thinking
        return source()

    feed, other = LiveFeed(factory, label="live", stall_s=stall), LiveFeed(factory, label="other", stall_s=stall)
    app = make_app(feed, other)
    async with app.run_test(size=(150, 44)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if feed.session.events:
                break
        await pilot.press("]")  # away: the first request is dropped
        await pilot.pause(stall + 0.2)  # longer than the stall threshold
        await pilot.press("[")  # back: sent again
        for _ in range(200):
            await pilot.pause(0.02)
            if len(requests) >= 3 and app.feed is feed and feed.session.events:
                break
        since_request = time.monotonic() - requests[2]
        now, silence = feed.now(), InspectorApp._silence(feed, feed.session)
    assert len(requests) == 3 and feed.generation > 1
    assert now <= since_request + 0.05, (now, since_request)  # the second request's clock, not the first's
    assert silence <= since_request + 0.05
    if since_request < stall:  # (a loaded machine may take that long to draw)
        assert feed.session.open_stall is None and not [f for f in feed.session.findings if f.code == "T001"]


async def test_silent_counts_from_the_last_arrival_not_the_last_event_drawn():
    """Issue 23 item 7: the viewer's loop is starved (a long frame) while a chunk arrives on the
    reader thread: "silent" counts from that arrival, not from the last chunk the viewer took."""
    def factory():
        async def source():
            t0 = time.monotonic()
            yield Head(200, {"content-type": "text/event-stream"}, None)
            yield Chunk(time.monotonic() - t0, sse(START, BLOCK, DELTA))
            await asyncio.sleep(0.8)
            yield Chunk(time.monotonic() - t0, sse(DELTA))  # arrives while the viewer is busy
            await asyncio.sleep(30)
        return source()

    feed = LiveFeed(factory, label="live", stall_s=STALL_S, threaded=True)
    task = asyncio.create_task(feed.play())
    try:
        for _ in range(200):
            await asyncio.sleep(0.02)
            if feed.session.events:
                break
        taken = feed.session.last_byte_t
        time.sleep(1.2)  # a starved viewer: its loop runs nothing meanwhile
        silence = InspectorApp._silence(feed, feed.session)
        assert feed.session.last_byte_t == taken  # the second chunk is not drawn yet
        assert silence < 0.9, silence  # ~0.4 s since the arrival; ~1.2 s since the last drawn event
        assert feed.last_arrival() > taken + 0.5
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
