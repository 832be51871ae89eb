"""Opening, saving and copying from inside the inspector (issue 12, items 3 and 7).

Captures open in the background under a loading indicator; a HAR with several streams asks which
one; ``o`` opens another file; ``s`` saves the stream shown from any mode (replay, live, demo,
proxy) as a native capture that replays to the same findings; ``y`` copies what is highlighted.
"""
from __future__ import annotations

import asyncio
import json
import threading

import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.feeds.live import LiveFeed
from inspector.feeds.opening import OpeningFeed
from inspector.feeds.replay import ReplayFeed
from inspector.feeds.run import run_capture
from inspector.tui import opening
from inspector.tui.app import make_app
from inspector.tui.screens.entry_picker import EntryPickerScreen
from inspector.tui.screens.open_file import OpenFileScreen
from inspector.tui.screens.save_file import SaveFileScreen
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.capture_factory import big_capture
from tests.ui.conftest import CLEAN, PARALLEL, VIOLATIONS, highlight_finding, playback, settle
from tests.unit.test_import_har import CHAT, RESPONSES, entry, har

SIZE = (150, 44)


async def wait_until(pilot, predicate, what: str, tries: int = 1000) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.01)
    pytest.fail(f"timed out waiting for {what}")


def _codes(session) -> list[tuple[str, int | None]]:
    return [(f.code, f.event) for f in session.findings]


async def test_a_capture_opens_behind_a_loading_indicator(monkeypatch):
    release = threading.Event()
    real_open = OpeningFeed.open

    def slow_open(self, entry=None):
        release.wait(10)
        return real_open(self, entry)

    monkeypatch.setattr(OpeningFeed, "open", slow_open)
    app = make_app(OpeningFeed(VIOLATIONS, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "opening" in app.query_one(StreamHeader).content.plain  # at once
        await wait_until(pilot, lambda: app.query_one("#blocks").loading, "the loading indicator")
        assert VIOLATIONS.name in app.query_one(StreamHeader).content.plain
        await pilot.press("full_stop")  # nothing to step yet: no crash, no seek
        release.set()
        await wait_until(pilot, lambda: app.feed.seekable and app.feed.finished, "the capture to load and play")
        await settle(pilot)
        assert not app.query_one("#blocks").loading
        assert {"T001", "J002"} <= {f.code for f in app.feed.session.findings}
        assert app.shown_blocks and app.shown_blocks[0].name == "search_docs"


async def test_a_capture_read_quickly_shows_no_loading_indicator(monkeypatch):
    monkeypatch.setattr(opening, "LOADING_DELAY_S", 2.0)  # far longer than reading this file takes
    app = make_app(OpeningFeed(VIOLATIONS, instant=True))
    covered: list[bool] = []
    async with app.run_test(size=SIZE) as pilot:
        blocks = app.query_one("#blocks")
        original = blocks.set_loading

        def set_loading(loading: bool) -> None:
            covered.append(loading)
            original(loading)

        blocks.set_loading = set_loading
        await wait_until(pilot, lambda: app.feed.seekable and app.feed.finished, "the capture to load and play")
        await settle(pilot)
        assert app._loading_timer is None  # stopped: it will not cover the blocks later
    assert True not in covered and app.shown_blocks


async def test_a_big_capture_shows_its_first_events_while_its_total_is_still_being_learned(tmp_path, monkeypatch):
    path = tmp_path / "big.jsonl"
    write_capture(big_capture(30_000), path)
    # The background scan for the total is held until the end: on a loaded machine it once finished
    # before the first events were seen, and the test raced it. Held, it is "still being learned" for
    # sure, and the first events must come without it.
    scanning, release = asyncio.Event(), asyncio.Event()
    real_ascan = ReplayFeed.ascan

    async def held_ascan(self, *args, **kw):
        scanning.set()
        await release.wait()
        await real_ascan(self, *args, **kw)

    monkeypatch.setattr(ReplayFeed, "ascan", held_ascan)
    app = make_app(OpeningFeed(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.feed.seekable and app.feed.event_count > 0, "the first events")
        app.refresh_now()
        await pilot.pause()
        assert app.query_one(EventLog).count > 0 and app.shown_blocks
        await wait_until(pilot, scanning.is_set, "the background scan to start")
        assert app.feed.total_events is None  # the background scan has not reached the end
        await pilot.press("space")  # and it answers keys meanwhile
        assert app.feed.paused
        release.set()


async def test_an_unreadable_capture_ends_the_app_with_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "stream-inspector-capture", "version": 1}\nnot json\n{"t": 1, "end": "eof"}\n')
    app = make_app(OpeningFeed(bad))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.failure is not None, "the failure")
    assert "capture record is not JSON" in app.failure and app.return_code == 2


async def test_a_har_with_several_streams_asks_which_one_and_names_it(tmp_path):
    path = tmp_path / "session.har"
    path.write_bytes(har(entry("https://api.example.test/v1/chat/completions", CHAT),
                         entry("https://api.example.test/v1/responses", RESPONSES)))
    app = make_app(OpeningFeed(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EntryPickerScreen), "the entry picker")
        assert [n for n, _ in app.screen.choices] == [0, 1]
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.feed.seekable, "entry 1 to load")
        await settle(pilot)
        assert "entry 1" in app.feed.label and "/v1/responses" in app.feed.label
        assert "entry 1" in app.query_one(StreamHeader).content.plain
        assert app.feed.session.dialect_name == "openai-responses"


async def test_o_opens_another_capture_as_one_more_stream(tmp_path):
    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        assert isinstance(app.screen, OpenFileScreen)
        box = app.screen.query_one("#open-path")
        box.value = str(tmp_path / "nope.jsonl")
        await pilot.press("enter")
        assert isinstance(app.screen, OpenFileScreen)  # no such file: said on the screen, stays open
        assert "no such file" in str(app.screen.query_one("#open-hint").render())
        box.value = str(PARALLEL)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(app.feeds) == 2 and app.feed.seekable and app.feed.finished,
                         "the second capture")
        await settle(pilot)
        assert app.feed_index == 1 and app.feed.label == PARALLEL.name
        assert [b.name for b in app.feed.session.blocks] == ["get_stock", "convert_currency"]
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert app.feed.label == CLEAN.name


async def _save(pilot, path) -> None:
    app = pilot.app
    await pilot.press("s")
    assert isinstance(app.screen, SaveFileScreen)
    app.screen.query_one("#save-path").value = str(path)
    await pilot.press("enter")
    await pilot.pause()


async def test_s_saves_a_replay_that_replays_to_the_same_findings(tmp_path):
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    out = tmp_path / "saved.jsonl"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _save(pilot, out)
        assert out.exists()
        out.write_text("old")  # a second save to an existing file asks before replacing it
        await pilot.press("s")
        app.screen.query_one("#save-path").value = str(out)
        await pilot.press("enter")
        assert isinstance(app.screen, SaveFileScreen) and "exists" in str(app.screen.query_one("#save-hint").render())
        await pilot.press("enter")
        await pilot.pause()
    assert _codes(run_capture(load_path(out))) == _codes(pb.session)


async def test_s_saves_a_live_stream_as_received_even_before_it_ends(tmp_path):
    source = playback(PARALLEL, instant=True)
    live = LiveFeed(source.items, label="live")
    app = make_app(live)
    done, part = tmp_path / "live.jsonl", tmp_path / "part.jsonl"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert live.finished
        await _save(pilot, done)
        # Mid-stream: what arrived so far, ended "cancelled" by the save.
        cap = live.recorded()
        half = type(cap)(chunks=cap.chunks[:3], request=cap.request, response=cap.response, request_relative=True)
        assert app.save_capture(half, part)
    saved = load_path(done)
    assert saved.body == load_path(PARALLEL).body
    assert _codes(run_capture(saved)) == _codes(live.session)
    partial = load_path(part)
    assert partial.end.kind == "cancelled" and len(partial.chunks) == 3
    header = json.loads(done.read_text().splitlines()[0])
    assert header["format"] == "stream-inspector-capture"


async def test_s_before_any_response_says_there_is_nothing_to_save():
    async def silent():
        if False:  # pragma: no cover
            yield None

    app = make_app(LiveFeed(silent, label="live"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        assert not isinstance(app.screen, SaveFileScreen)
        assert any("Nothing to save" in n.message for n in app._notifications)


async def test_y_copies_the_finding_the_event_or_the_block_in_focus():
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        j002 = highlight_finding(app, "J002")
        await pilot.press("y")
        f = pb.session.findings[j002]
        assert app.clipboard.startswith("J002 args-incomplete-at-close (error) at event") and f.message in app.clipboard
        log = app.query_one(EventLog)
        log.focus()
        log.center_on(f.event)
        await pilot.press("y")
        assert app.clipboard == pb.session.events[f.event].data
        await pilot.press("1")  # the blocks list: y copies the highlighted block's arguments
        await pilot.press("y")
        assert app.clipboard == pb.session.blocks[0].content and app.clipboard.startswith('{"query"')


def test_a_capture_file_is_read_with_the_collector_paused_and_restored_after(tmp_path, monkeypatch):
    import gc

    from inspector.feeds import opening as opening_feed

    path = tmp_path / "clean.jsonl"
    write_capture(load_path(CLEAN), path)
    seen: list[bool] = []
    real = opening_feed.load_path

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(opening_feed, "load_path", watched)
    assert gc.isenabled()
    feed = OpeningFeed(path, instant=True).open()
    assert seen == [False] and gc.isenabled()  # paused while reading, on again after
    assert feed.capture.chunks
    gc.disable()
    try:
        OpeningFeed(path).open()
        assert not gc.isenabled()  # a collector paused by someone else stays paused
    finally:
        gc.enable()
