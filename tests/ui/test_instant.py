"""``replay --instant`` draws the final state once and builds per-event pieces only on a seek
(issue 12 item 9, issue 16 item 5); how long it takes is measured in ``bench/bench_tui.py``."""
from __future__ import annotations

from inspector.feeds.replay import ReplayFeed
from inspector.tui.app import make_app
from inspector.model.capture import Chunk
from inspector.tui.widgets.event_log import NAME_W, EventLog, short_name
from inspector.tui.widgets.playback_bar import PlaybackBar
from tests.ui.capture_factory import big_capture
from tests.ui.conftest import settle


async def test_instant_replay_draws_the_panes_only_once_it_has_ended():
    feed = ReplayFeed(big_capture(3000), instant=True, label="big", scan=False)
    app = make_app(feed)
    drawn: list[bool] = []
    original = app._sync_panels

    def sync(session) -> None:
        drawn.append(feed.finished)
        original(session)

    app._sync_panels = sync
    bars: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while not feed.finished:
            await pilot.pause(0.01)
            bars.append(app.query_one(PlaybackBar).render().plain)
        await settle(pilot)
        assert drawn and all(drawn), "a half-read state was drawn"
        assert len(feed.checkpoints) == 1  # none taken while reading
        assert any("⟳ reading" in b for b in bars) or len(bars) < 3
        total = feed.total_events
        await pilot.press("comma")  # the first step back feeds from the start, taking checkpoints
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert feed.event_count == total - 1 and len(feed.checkpoints) > 1
        await pilot.press("comma")
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert feed.event_count == total - 2


async def test_a_long_event_name_in_the_middle_of_an_instant_read_widens_the_log_at_once():
    """Every name is measured (the session's log gives the distinct names of a run without building
    its records), so a long one in the middle sets the column before its line is ever drawn."""
    cap = big_capture(6000)
    middle = len(cap.chunks) // 2
    odd = b'event: vendor_extension_event\ndata: {"type":"vendor_extension_event"}\n\n'
    cap.chunks.insert(middle, Chunk(cap.chunks[middle].t, odd))
    feed = ReplayFeed(cap, instant=True, label="big", scan=False)
    app = make_app(feed)
    async with app.run_test(size=(120, 40)) as pilot:
        while not feed.finished:
            await pilot.pause(0.01)
        await settle(pilot)
        log = app.query_one(EventLog)
        assert log._name_w == NAME_W  # the (cut) long name, though only the tail is on screen
        at = next(i for i in range(len(feed.session.events)) if feed.session.events[i].name == "vendor_extension_event")
        log.center_on(at)
        await settle(pilot)
        line, name = log._line_text(at).plain, short_name(feed.session.events[at])
        assert len(name) == NAME_W and name in line
        assert log._line_text(at - 1).plain.index("#0") == line.index(name) + NAME_W + 1  # aligned
