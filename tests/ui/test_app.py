"""Pilot tests: the replay TUI driven by keys on the bundled captures."""
from __future__ import annotations

import pytest
from textual.widgets import Input

from inspector.tui.app import COMMANDS, InspectorApp, make_app
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.screens.help import HelpScreen, key_text
from inspector.tui.screens.jump import JumpScreen
from inspector.tui.screens.timeline import TimelineScreen
from inspector.tui.widgets.argument_view import ARGUMENT_KEYS
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.conftest import CLEAN, PARALLEL, QUIRKS, VIOLATIONS, playback, settle

SIZE = (150, 44)


async def test_replay_with_violations_shows_panels_and_findings(violations):
    app = make_app(violations)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        s = violations.session
        assert len(app.query(BlockPanel)) == 1 and len(s.blocks) == 1
        assert app.shown_blocks == s.blocks
        panel = app.detail
        assert panel.block is s.blocks[0]
        assert panel.badge == "partial"  # closed before its JSON was complete
        assert panel.has_class("-invalid") is False
        codes = [f.code for f in s.findings]
        assert {"T001", "J002", "A005"} <= set(codes)
        assert {f.code for f in panel.findings} >= {"J002", "A005"}
        findings = app.query_one(FindingsList)
        assert findings.option_count == len(codes)
        assert app.query_one(EventLog).count == violations.total_events
        header = app.query_one(StreamHeader).content.plain
        assert "anthropic-messages" in header and "stop tool_use" in header
        assert "✖ 2" in header and "▲ 1" in header
        assert "ended" in header


async def test_findings_grow_while_the_stream_plays():
    pb = playback(VIOLATIONS)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.query_one(FindingsList).option_count == 0
        stop = next(f.event for f in pb.final.findings if f.code == "J002")
        app.jump_to_event(stop)
        await settle(pilot)
        assert pb.event_count == stop + 1
        shown = {f.code for f in pb.session.findings}
        assert "J002" in shown and "A005" not in shown  # the late delta has not arrived yet
        assert app.query_one(FindingsList).option_count == len(pb.session.findings)
        assert app.query_one(EventLog).pointer == stop


async def test_step_forward_and_back_rebuilds_the_session():
    pb = playback(CLEAN)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(5):
            await pilot.press("full_stop")
        await settle(pilot)
        assert pb.event_count == 5
        gen = pb.generation
        await pilot.press("comma")
        await settle(pilot)
        assert pb.event_count == 4
        assert pb.generation == gen + 1  # stepping back rebuilt a fresh session
        await pilot.press("right", "right")
        await settle(pilot)
        assert pb.event_count == 6
        await pilot.press("left")
        await settle(pilot)
        assert pb.event_count == 5
        assert app.query_one(EventLog).count == 5


async def test_jump_to_event_n_with_g():
    pb = playback(CLEAN)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        assert isinstance(app.screen, JumpScreen)
        await pilot.press("2", "5", "enter")
        await settle(pilot)
        assert pb.event_count == 26
        assert app.query_one(EventLog).pointer == 25
        await pilot.press("g", "3", "enter")  # backwards
        await settle(pilot)
        assert pb.event_count == 4
        assert app.shown_blocks == pb.session.blocks


async def test_selecting_a_finding_jumps_to_its_event_and_block(violations):
    app = make_app(violations)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        findings = app.query_one(FindingsList)
        findings.focus()
        target = next(i for i, f in enumerate(violations.session.findings) if f.code == "A005")
        findings.highlighted = findings.get_option_index(str(target))
        await pilot.press("enter")
        await pilot.pause()
        f = violations.session.findings[target]
        log = app.query_one(EventLog)
        assert log.pointer == f.event
        assert not log.follow
        blocks = app.query_one(BlockList)
        assert blocks.target == blocks.cursor == 0 and app.detail.display


async def test_finding_detail_explains_the_rule_and_can_jump(violations):
    app = make_app(violations)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        findings = app.query_one(FindingsList)
        findings.focus()
        j002 = next(i for i, f in enumerate(violations.session.findings) if f.code == "J002")
        findings.highlighted = findings.get_option_index(str(j002))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, FindingDetailScreen)
        text = " ".join(str(w.render()) for w in app.screen.query(".detail-text"))
        assert "non-empty" in text and "Do not execute" in text
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, FindingDetailScreen)
        assert app.query_one(EventLog).pointer == violations.session.findings[j002].event


async def test_filter_findings_by_severity_and_text():
    pb = playback(QUIRKS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        findings = app.query_one(FindingsList)
        total = len(pb.session.findings)
        assert findings.option_count == total
        await pilot.press("v")  # warnings and errors
        assert findings.option_count == sum(f.severity != "info" for f in pb.session.findings)
        await pilot.press("v")  # errors only
        assert findings.option_count == sum(f.severity == "error" for f in pb.session.findings)
        await pilot.press("v")  # back to all
        assert findings.option_count == total
        await pilot.press("x")
        assert isinstance(app.focused, Input)
        await pilot.press(*"C008")
        assert findings.option_count == 1
        assert "C008" in app.query_one("#findings-pane").border_subtitle
        await pilot.press("escape")
        assert findings.option_count == 1  # the filter stays until cleared
        await pilot.press("x", "backspace", "backspace", "backspace", "backspace", "enter")
        assert findings.option_count == total


async def test_search_the_event_log():
    pb = playback(PARALLEL, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        assert app.focused.id == "search"
        await pilot.press(*"convert_currency", "enter")
        log = app.query_one(EventLog)
        assert log.pointer is not None
        assert "convert_currency" in pb.session.events[log.pointer].data
        first = log.pointer
        await pilot.press("escape")
        assert app.focused is log
        await pilot.press("n")
        assert log.pointer == first  # the name appears once: the search wraps to the same event


async def test_theme_switch_at_runtime_and_by_option():
    app = make_app(playback(CLEAN, instant=True), theme="light")
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "inspector-light"
        await pilot.press("ctrl+t")
        assert app.theme != "inspector-light"
        seen = {app.theme}
        for _ in range(len(app.inspector_themes)):
            await pilot.press("ctrl+t")
            seen.add(app.theme)
        assert {"inspector-dark", "inspector-light", "inspector-high-contrast"} <= seen
    with pytest.raises(ValueError, match="unknown theme"):
        make_app(playback(CLEAN), theme="no-such-theme")


async def test_help_lists_every_binding():
    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query(".help-rows"))
        for c in COMMANDS:
            assert key_text(c.binding()) in text and c.help in text
        for b in FindingsList.BINDINGS + EventLog.BINDINGS + BlockList.BINDINGS + ARGUMENT_KEYS:
            assert key_text(b) in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_every_command_is_in_the_palette():
    app = make_app(playback(CLEAN, instant=True), playback(PARALLEL, instant=True))
    async with app.run_test(size=SIZE):
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for c in COMMANDS:
            if c.action != "quit":
                assert c.title in titles


async def test_timeline_has_a_row_per_block():
    pb = playback(PARALLEL, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TimelineScreen)
        app.refresh_now()
        await pilot.pause()
        chart = app.screen.query_one("#timeline-chart")
        rendered = str(chart.render())
        assert "get_stock" in rendered and "convert_currency" in rendered
        await pilot.press("escape")
        assert not isinstance(app.screen, TimelineScreen)


async def test_pause_resume_restart_speed_and_collapse():
    pb = playback(CLEAN, speed=2.0)
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert pb.paused and pb.event_count == 0
        await pilot.press("plus")
        assert pb.speed == 5
        await pilot.press("minus", "minus")
        assert pb.speed == 1
        pb.set_speed(1000)
        await pilot.press("space")  # play
        assert not pb.paused
        await settle(pilot)
        assert pb.finished
        assert app.detail.display
        await pilot.press("C")  # the detail folds: the summary rows alone
        await pilot.pause()
        assert not app.detail.display and app.query_one("#blocks").has_class("-folded")
        await pilot.press("r")  # restart: a fresh session from event 0
        await settle(pilot)
        assert pb.finished
        assert app.shown_blocks == pb.session.blocks


async def test_switch_between_sources():
    a, b = playback(CLEAN, instant=True), playback(PARALLEL, instant=True)
    app = make_app(a, b)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.feed is a
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert app.feed is b and b.finished
        assert app.shown_blocks == b.session.blocks and len(b.session.blocks) == 2
        header = app.query_one(StreamHeader).content.plain
        assert "openai-chat" in header


async def test_live_source_from_an_async_iterator():
    source = playback(PARALLEL, instant=True)
    app = make_app(source.items)  # a callable returning an async iterator: a restartable live source
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        feed = app.feed
        assert not feed.seekable and feed.finished
        assert [b.name for b in feed.session.blocks] == ["get_stock", "convert_currency"]
        await pilot.press("full_stop")  # seeking is not offered for live streams
        assert feed.event_count == len(feed.session.events)


async def test_a_failing_live_source_is_shown_not_raised():
    async def broken():
        raise ConnectionResetError("peer went away")
        yield  # pragma: no cover

    app = make_app(broken)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "peer went away" in app.feed.error
        assert "source failed" in app.query_one(StreamHeader).content.plain
        assert isinstance(app, InspectorApp)


async def test_enter_on_an_event_shows_it_and_b_there_focuses_its_block():
    from inspector.tui.screens.event_detail import EventDetailScreen

    pb = playback(PARALLEL, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        log = app.query_one(EventLog)
        second = next(i for i, ev in enumerate(pb.session.events) if ev.block == 1)
        log.focus()
        log.center_on(second)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EventDetailScreen)
        await pilot.press("b")
        await pilot.pause()
        blocks = app.query_one(BlockList)
        assert app.focused is blocks
        assert blocks.cursor == blocks.target == 1 and not blocks.follow
        app.refresh_now()
        assert app.detail.block is pb.session.blocks[1]
        await pilot.press("c")  # fold the highlighted block's detail
        await pilot.pause()
        assert not blocks.expanded and not app.detail.display


async def test_panels_fill_in_by_themselves_when_the_stream_ended_before_they_mounted():
    # One untimed chunk: the whole stream is fed before the first panel is composed; the frame timer
    # must still fill the panel afterwards (no refresh_now here on purpose).
    from inspector.tui.widgets.text_line import SplitLine
    from inspector.capture.load import load_path
    from inspector.feeds.replay import Playback
    from tests.conftest import SHARED_CORPUS

    corpus = SHARED_CORPUS / "anthropic-stop-before-json-complete.sse"
    pb = Playback(load_path(corpus), instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        head = app.detail.query_one(SplitLine)
        assert "search_docs" in head.content.plain
        assert app.detail.badge == "partial"


async def test_T003_detail_and_e_open_the_eager_comparison():
    from inspector.tui.screens.compare import CompareScreen
    from tests.ui.conftest import CAPTURES

    pb = playback(CAPTURES / "eager-off-buffered.jsonl", instant=True)  # T003 reads the recorded times
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        findings = app.query_one(FindingsList)
        findings.focus()
        t003 = next(i for i, f in enumerate(pb.session.findings) if f.code == "T003")
        findings.highlighted = findings.get_option_index(str(t003))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, FindingDetailScreen)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CompareScreen)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)


async def test_timeline_of_an_untimed_capture_says_there_is_no_timing(tmp_path):
    from tests.conftest import SHARED_CORPUS

    app = make_app(playback(SHARED_CORPUS / "openai-parallel-indexed.sse", instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TimelineScreen)
        text = " ".join(str(w.render()) for w in app.screen.query("*"))
        assert "No timing in this capture" in text
