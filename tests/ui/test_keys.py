"""Keys are never lost and belong to the screen they are pressed on (issue 12, item 2)."""
from __future__ import annotations

from textual import events

from inspector.tui.app import make_app
from inspector.tui.screens.compare import CompareScreen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.timeline import TimelineScreen
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from tests.ui.conftest import CLEAN, PARALLEL, QUIRKS, VIOLATIONS, playback, settle

SIZE = (150, 44)


async def settle_seeks(pilot) -> None:
    """Wait for the seeks to end (a replaced seek worker ends cancelled, which ``settle`` refuses)."""
    app = pilot.app
    for _ in range(500):
        await pilot.pause(0.01)
        if app.seek_target is None and not any(w.is_running for w in app.workers if w.group == "feed"):
            break
    app.refresh_now()
    await pilot.pause()


async def test_five_quick_steps_from_event_2_land_on_event_7():
    pb = playback(CLEAN)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to_event(2)
        await settle(pilot)
        assert pb.event_count == 3
        for _ in range(5):  # as a fast typist or key repeat sends them: no waiting in between
            app.post_message(events.Key("full_stop", "."))
        await settle_seeks(pilot)
        assert pb.event_count == 8 and app.seek_target is None
        await pilot.press(*",,,")
        await settle_seeks(pilot)
        assert pb.event_count == 5


async def test_steps_accumulate_while_a_seek_is_still_running():
    pb = playback(CLEAN)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to_event(20)  # a seek in flight...
        app.action_step_forward()  # ...then two steps before it finished
        app.action_step_forward()
        assert app.seek_target == 22
        await settle_seeks(pilot)
        assert pb.event_count == 23


async def test_the_compare_screen_owns_its_keys_and_footer():
    from tests.ui.conftest import CAPTURES

    pb = playback(CAPTURES / "eager-off-buffered.jsonl")
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        footer_actions = {b.binding.action for b in app.active_bindings.values()}
        assert "toggle_pause" not in footer_actions and "timeline" not in footer_actions
        assert "scrub(-1)" in footer_actions
        await pilot.press("space", "t")  # the hidden replay neither plays nor opens its timeline
        await pilot.pause()
        assert pb.paused and isinstance(app.screen, CompareScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("t")  # back on the main screen its keys work again
        await pilot.pause()
        assert isinstance(app.screen, TimelineScreen)
        await pilot.press("space", "e")
        await pilot.pause()
        assert pb.paused and isinstance(app.screen, TimelineScreen)
        await pilot.press("question_mark")  # help on the timeline lists the timeline's keys
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query(".help-rows"))
        assert "Back" in text and "Step forward" not in text


async def test_esc_closes_the_filter_box_then_clears_the_filter():
    pb = playback(QUIRKS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        findings = app.query_one(FindingsList)
        total = findings.option_count
        await pilot.press("x", *"C008", "escape")
        assert findings.option_count == 1 and app.focused is findings
        pane = app.query_one("#findings-pane")
        assert "“C008”" in pane.border_subtitle and "esc clears" in pane.border_subtitle
        await pilot.press("escape")
        assert findings.option_count == total and not findings.filtered
        assert "filter" not in pane.border_subtitle


async def test_esc_closes_the_search_box_then_clears_the_search_and_no_match_shows_on_the_box():
    pb = playback(PARALLEL, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        log = app.query_one(EventLog)
        await pilot.press("slash", *"zzz-nowhere", "enter")
        box = app.query_one("#search")
        assert box.has_class("-nomatch") and "no event contains" in str(box.border_subtitle)
        assert not app._notifications  # no toast over the box
        await pilot.press("backspace")
        assert not box.has_class("-nomatch")
        await pilot.press(*"ctrl+u".split(), )
        await pilot.press("escape")
        await pilot.press("slash")
        box.value = ""
        await pilot.press(*"get_stock", "enter", "escape")
        assert log.search == "get_stock" and app.focused is log
        assert "esc clears" in app.query_one("#log-pane").border_subtitle
        await pilot.press("escape")
        assert log.search == ""
        assert "search" not in (app.query_one("#log-pane").border_subtitle or "")


async def test_keys_on_a_finished_stream_step_back_from_the_end():
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        total = pb.event_count
        await pilot.press(*",,")
        await settle_seeks(pilot)
        assert pb.event_count == total - 2
        await pilot.press(*"....")  # past the end: the whole stream, closed
        await settle_seeks(pilot)
        assert pb.event_count == total and pb.finished
