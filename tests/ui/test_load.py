"""A 50 000-delta capture replayed with --instant keeps the app responsive (no timing asserts:
keys pressed mid-replay must be handled before the replay ends; figures live in bench/)."""
from __future__ import annotations

import asyncio

import pytest

from inspector.feeds.replay import Playback
from inspector.tui.app import make_app
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from tests.ui.capture_factory import big_capture
from tests.ui.conftest import settle


@pytest.fixture(scope="module")
def big():
    return big_capture(50_000)


async def test_keys_are_handled_during_an_instant_replay_of_50k_deltas(big):
    pb = Playback(big, instant=True, label="big")
    app = make_app(pb)
    async with app.run_test(size=(150, 44)) as pilot:
        while (pb.reading or 0) < 1000:  # read off the event loop, shown once it stops
            assert pb.event_count == 0 and not pb.finished
            await asyncio.sleep(0.005)
        await pilot.press("space")  # pause mid-stream
        assert pb.paused
        await app.workers.wait_for_complete()
        assert not pb.finished  # the key got through long before the end
        paused_at = pb.event_count
        assert paused_at >= 1000 and pb.reading is None  # what was read is shown
        await pilot.press("j")  # the pretty view of a huge partial argument
        await pilot.press("space")  # resume to the end
        await settle(pilot)
        assert pb.finished and pb.event_count > paused_at
        panel = app.query_one(BlockPanel)
        assert panel.badge == "complete"
        assert app.query_one(EventLog).count == pb.total_events > 50_000
