"""A stall shows as T001 while it lasts, in the findings list and the counts (issue 12, item 5)."""
from __future__ import annotations

import asyncio
import time

from inspector.feeds.live import LiveFeed
from inspector.model.capture import Chunk, End, Head
from inspector.tui.app import make_app
from inspector.tui.widgets.findings_list import OPEN_ID, FindingsList
from inspector.tui.widgets.stream_header import StreamHeader
from tests.helpers import sse
from tests.unit.test_stall_tick import BLOCK, DELTA, START, STOP

STALL_S = 0.6


async def test_t001_appears_while_the_stream_is_silent_and_once_it_ends():
    resume = asyncio.Event()

    async def source():
        t0 = time.monotonic()
        yield Head(200, {"content-type": "text/event-stream"}, None)
        yield Chunk(time.monotonic() - t0, sse(START, BLOCK, DELTA))
        await resume.wait()  # silent until the test has seen the stall in progress
        yield Chunk(time.monotonic() - t0, sse(DELTA, *STOP))
        yield End(time.monotonic() - t0, "eof")

    feed = LiveFeed(source, label="live", stall_s=STALL_S)
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
