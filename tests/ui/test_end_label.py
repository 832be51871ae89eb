"""Issue 23 item 12: a client that hangs up after the end marker ended the stream normally, so the
viewer says ``ended (closed by the client after the end)``, not ``ended (cancelled)``; a hang-up
before the end marker is still a cancel."""
from __future__ import annotations

import pytest

from inspector.feeds.live import LiveFeed
from inspector.model.capture import HUNG_UP_AFTER_END, Chunk, End, Head
from inspector.tui.app import make_app
from inspector.tui.widgets.stream_header import StreamHeader
from tests.helpers import sse
from tests.ui.conftest import settle
from tests.unit.test_stall_tick import BLOCK, DELTA, START, STOP


@pytest.mark.parametrize("events, after_marker, state", [
    ((START, BLOCK, DELTA, *STOP), True, f"ended ({HUNG_UP_AFTER_END})"),
    ((START, BLOCK, DELTA), False, "ended (cancelled)"),
])
async def test_the_state_word_after_a_hang_up(events, after_marker, state):
    async def source():
        yield Head(200, {"content-type": "text/event-stream"}, None)
        yield Chunk(0.01, sse(*events))
        yield End(0.02, "cancelled", "client disconnected")

    feed = LiveFeed(source, label="live")
    app = make_app(feed)
    async with app.run_test(size=(200, 44)) as pilot:
        await settle(pilot)
        shown = app.query_one(StreamHeader).content.plain
    assert feed.session.ended is after_marker
    assert state in shown, shown
