"""Every size readable (issue 12, item 4; issue 27, item 2): the main screen (demo stream 1 at its
end, a 50 000-delta replay paused mid-call), compare, the proxy list and explain at 80×24, 100×30,
120×40, 160×48 and 200×60, as SVG snapshots and as Pilot checks of what must stay on screen: the
tool name, its parse status, the stop reason, a finding's code and message, the newest argument
text, an event's payload, and the footer's help and quit keys.

At 80 columns the panes stack; the header keeps the model, the stop reason and the state; block
titles start with the tool name; the event log keeps the payload; the proxy list keeps status,
duration and findings; ``z`` maximises the focused pane. The proxy list is fed through the
``ExchangeLog`` with the bundled captures' own chunk times and a fixed clock, so its snapshot is
the same on every run.
"""
from __future__ import annotations

import functools
import re
import time

import pytest

from inspector.capture.load import load_path
from inspector.feeds.replay import Playback
from inspector.model.capture import Capture
from inspector.tui.widgets.argument_view import ArgumentView
from tests.ui.capture_factory import big_capture
from inspector.feeds.exchanges.record import Exchange
from inspector.net.proxy.server import ProxyThread
from inspector.tui.app import make_app
from inspector.tui.screens.compare import make_compare_app
from inspector.tui.screens.exchanges import ProxyApp
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.stream_header import StreamHeader
from inspector.capture.bundled import bundled_pair
from tests.ui.conftest import CLEAN, PARALLEL, VIOLATIONS, playback, settle

SIZES = [(80, 24), (100, 30), (120, 40), (160, 48), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
CLOCK = 1_767_225_600.0
"""2026-01-01 00:00:00 UTC: the proxy list's clock column in the snapshots."""


def _finished(path):
    return make_app(playback(path, instant=True))


def _strip_text(app, widget) -> str:
    """What ``widget`` shows on screen, as text."""
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def _screen_text(app) -> str:
    """The whole screen as text, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@functools.cache
def _big() -> Capture:
    return big_capture(50_000)


def _mid_call():
    """A 50 000-delta replay, paused."""
    return make_app(Playback(_big(), label="big-50000.jsonl"), paused=True)


async def _to_mid_call(pilot) -> None:
    await settle(pilot)
    await pilot.press("g", *"25000", "enter")  # half way through the call's arguments
    await settle(pilot)


def _newest_line(app) -> str:
    """The argument view's last line of text on screen (under any "lines below" marker)."""
    view = app.detail.query_one(ArgumentView)
    lines = [view.render_line(y).text.rstrip() for y in range(view.scrollable_content_region.height)]
    return next(t for t in reversed(lines) if t and not t.startswith(("↑ ", "↓ ")))


# ------------------------------------------------------------------ the proxy list, fed by hand
def _feed_exchange(log, n: int, path, target: str) -> None:
    cap = load_path(path)
    ex = Exchange(n=n, method="POST", path=target, target=target, url=f"http://127.0.0.1:9/{target}",
                  request={"method": "POST", "url": target, "headers": {}, "body": None},
                  body={"model": "from-request"}, started_wall=CLOCK + 60 * n, t0=0.0)
    log.begin(ex)
    log.head(n, cap.response["status"] if cap.response else 200,
             cap.response["headers"] if cap.response else {"content-type": "text/event-stream"})
    for chunk in cap.chunks:
        log.chunk(n, chunk)
    log.finish(n, cap.end)


def _proxy_app(monkeypatch) -> ProxyApp:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    proxy = ProxyThread("http://127.0.0.1:9", external=True)
    return ProxyApp(proxy, listen_url="http://127.0.0.1:8787", upstream="http://127.0.0.1:9")


async def _fill(pilot) -> None:
    app = pilot.app
    await pilot.pause()
    log = app.proxy.log
    _feed_exchange(log, 1, CLEAN, "/v1/messages")
    _feed_exchange(log, 2, VIOLATIONS, "/v1/messages")
    _feed_exchange(log, 3, PARALLEL, "/v1/chat/completions")
    app._sync_list()
    for _ in range(3):  # the feeds switch to the newest exchange (their workers may be cancelled)
        await pilot.pause()
        app.refresh_now()
    await pilot.pause()


# ------------------------------------------------------------------ snapshots
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_main_screen(snap_compare, size):
    assert snap_compare(_finished(CLEAN), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_main_screen_mid_call(snap_compare, size):
    assert snap_compare(_mid_call(), terminal_size=size, run_before=_to_mid_call)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_what_matters_is_on_screen_at_every_size(size):
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        s = pb.session
        text = _screen_text(app)
        finding = s.findings[0]
        block = s.blocks[0]
        for part in (block.name, "partial", f"stop {s.stop_reason}", finding.code, finding.message[:30],
                     "? Help", "q Quit"):
            assert part in text, (size, part)
        assert block.content.endswith(_newest_line(app)) and _newest_line(app) in text
        assert re.search(r'input_json_delta "\S{3}', text), size  # a delta row keeps its payload


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_newest_argument_text_is_on_screen_mid_call(size):
    app = _mid_call()
    async with app.run_test(size=size) as pilot:
        await _to_mid_call(pilot)
        block = app.feed.session.blocks[0]
        assert not block.closed and app.detail.block is block
        text = _screen_text(app)
        newest = _newest_line(app)
        assert block.content.endswith(newest) and newest in text, size
        for part in (block.name, "partial", "lines above", "? Help", "q Quit"):
            assert part in text, (size, part)
        assert re.search(r'input_json_delta "\S{3}', text), size


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_explain(snap_compare, size):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("2", "down", "i")  # the second finding
        await pilot.pause()

    assert snap_compare(_finished(VIOLATIONS), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_compare(snap_compare, size):
    a, b = bundled_pair()
    assert snap_compare(make_compare_app(a, b, cursor=6.0), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_proxy_list(snap_compare, size, monkeypatch):
    assert snap_compare(_proxy_app(monkeypatch), terminal_size=size, run_before=_fill)


# ------------------------------------------------------------------ what must stay visible
async def test_at_80x24_the_panes_stack_and_the_key_fields_stay():
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.has_class("-narrow", "-short")
        blocks, findings, log = (app.query_one(q).region for q in ("#blocks", "#findings-pane", "#log-pane"))
        assert blocks.x == findings.x == log.x and blocks.width == 80
        assert blocks.bottom <= findings.y and findings.bottom <= log.y
        assert log.height >= 5
        session = app.feed.session
        header = app.query_one(StreamHeader)
        shown = header.render().plain
        assert len(shown) <= header.size.width
        for part in (session.model, f"stop {session.stop_reason}", "ended"):
            assert part in shown, part
        tool = app.detail
        assert tool.block.name and tool.block is session.blocks[-1]  # the tool call, under the cursor
        assert _strip_text(app, tool.query_one(".block-head")).lstrip().startswith(f"{tool.block.name} ·")
        # the event log keeps the payload: a delta line shows its text after the name column
        text = _strip_text(app, app.query_one(EventLog))
        assert "content_block_delta" in text and "text_delta" in text or "input_json_delta" in text
        assert app.query_one(EventLog).styles.overflow_x == "hidden"


async def test_wide_terminals_put_the_panes_side_by_side():
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        assert app.screen.has_class("-wide", "-tall")
        blocks, side = app.query_one("#blocks").region, app.query_one("#side").region
        assert blocks.y == side.y and blocks.right <= side.x and side.width > blocks.width


async def test_z_maximises_the_focused_pane_and_z_again_puts_it_back():
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3", "z")
        await pilot.pause()
        pane = app.query_one("#log-pane")
        assert app.screen.maximized is pane and pane.region.height >= 20
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is None and app.query_one("#blocks").region.height > 0


async def test_explain_fits_80_columns():
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2", "i")
        await pilot.pause()
        assert isinstance(app.screen, FindingDetailScreen)
        assert app.screen.query_one("#detail-body").region.right <= 80


async def test_proxy_list_keeps_status_duration_and_findings_at_80_columns(monkeypatch):
    app = _proxy_app(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await _fill(pilot)
        table = app.query_one(ExchangeList)
        text = _strip_text(app, table)
        for header in ("status", "duration", "findings"):
            assert header in text, header
        assert "✖" in text and " s " in text and "200" in text


async def test_a_short_terminal_keeps_the_search_box_to_one_row_and_says_no_match():
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3", "slash", *"zzz", "enter")
        await pilot.pause()
        assert app.query_one("#search").region.height == 1
        assert "no event contains “zzz”" in app.query_one("#log-pane").border_subtitle
        await pilot.press("escape")
        await pilot.pause()
        assert "no event contains" not in (app.query_one("#log-pane").border_subtitle or "")


async def test_a_maximised_pane_keeps_the_footer_and_its_help_and_quit_keys():
    """``z`` gives the pane the screen but not the footer: ``? Help`` and ``q Quit`` stay listed
    (the README promises them at any width, and a maximised pane is no way out otherwise)."""
    app = _finished(VIOLATIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3", "z")
        await pilot.pause()
        assert app.screen.maximized is app.query_one("#log-pane")
        last = _screen_text(app).splitlines()[-1]
        assert "Help" in last and "Quit" in last


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (100, 35), (100, 40), (100, 48)],
                         ids=["80x24", "100x30", "100x35", "100x40", "100x48"])
async def test_stacked_panes_end_above_the_footer_with_findings_shown(size):
    """Stacked (below 110 columns), the findings pane grows with its findings and the event log
    keeps 5 rows: the column they share must hold both, or the log runs under the footer (its
    last events and its bottom border hidden)."""
    app = _finished(VIOLATIONS)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        log, footer = app.query_one("#log-pane").region, app.query_one("FittedFooter").region
        assert log.height >= 5 and log.bottom <= footer.y


@pytest.mark.parametrize("keys,blocks", [([], 7), (["0", "up"], 7), (["2", "x", "z", "z", "z"], 6),
                                         (["0", "up", "2", "x", "T"], 6)],
                         ids=["no-findings", "findings", "filter-no-match", "filter-match"])
async def test_the_proxy_stacked_at_80x24_ends_above_the_footer(monkeypatch, keys, blocks):
    """Under the exchange list 14 rows are left: the blocks keep 7 of them (the tool and its
    arguments) whether findings are listed or not (6 while the filter box takes a row), and the
    log ends above the footer."""
    app = _proxy_app(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await _fill(pilot)
        await pilot.press(*keys)
        for _ in range(3):
            await pilot.pause()
            app.refresh_now()
        log, footer = app.query_one("#log-pane").region, app.query_one("FittedFooter").region
        assert log.bottom <= footer.y and log.height >= 3 and app.query_one("#blocks").region.height >= blocks


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (100, 35)], ids=["80x24", "100x30", "100x35"])
@pytest.mark.parametrize("path,typed", [(CLEAN, "zzz"), (VIOLATIONS, "T")], ids=["no-match", "match"])
async def test_the_findings_filter_box_keeps_the_log_above_the_footer(size, path, typed):
    app = _finished(path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("2", "x", *typed)
        for _ in range(3):
            await pilot.pause()
        log, footer = app.query_one("#log-pane").region, app.query_one("FittedFooter").region
        assert log.height >= 5 and log.bottom <= footer.y


async def test_the_compare_title_is_cut_with_an_ellipsis_not_wrapped_out_of_sight():
    """At 80 columns the title (cursor, then both file names) does not fit: it is cut at the
    edge with ``…``; wrapped, its one row showed ``vs B`` and no name."""
    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=6.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        row = _strip_text(app, app.screen.query_one("#compare-title")).rstrip()
        assert "vs B e" in row and row.endswith("…")
