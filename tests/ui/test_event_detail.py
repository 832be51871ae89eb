"""The event detail view (issue 27 item 3): enter on an event shows it whole: time, the block it
fed, its findings, its payload as pretty JSON, its raw bytes (secrets masked, controls written
out, a binary body as a hex dump); esc closes, ``b`` focuses its block; snapshots at the five
sizes of ``tests/ui/test_sizes``."""
from __future__ import annotations

import json

import pytest

from inspector.capture.load import load_bytes
from inspector.tui.app import make_app
from inspector.tui.screens.event_detail import EventDetailScreen
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.text_page import TextPage
from tests import bedrock_frames
from tests.helpers import sse
from tests.ui.conftest import CLEAN, VIOLATIONS, playback, settle
from tests.ui.test_sizes import SIZE_IDS, SIZES

LONG_TEXT = "The weather in Lisbon is sunny with a light breeze from the north-west, 21 degrees. " * 6
KEY = "sk-ant-api03-" + "a1B2c3D4" * 12


def _anthropic(text: str, *, crlf: bool = False) -> bytes:
    body = sse(
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                              "model": "claude-x", "content": [], "usage": {"input_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 3}},
        {"type": "message_stop"})
    return body.replace(b"\n", b"\r\n") if crlf else body


async def _open(app, pilot, index: int) -> EventDetailScreen:
    await settle(pilot)
    log = app.query_one(EventLog)
    log.focus()
    log.center_on(index)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, EventDetailScreen)
    return app.screen


def _page(screen) -> str:
    return screen.query_one(TextPage).text()


async def test_enter_shows_the_whole_payload_its_time_its_block_and_its_raw_bytes():
    app = make_app(load_bytes(_anthropic(LONG_TEXT)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot, 2)
        page = _page(screen)
        assert json.dumps(LONG_TEXT)[1:-1] in page  # the whole text, not cut at the row's width
        assert "block #0 text (added to it)" in page
        assert "event 2 of 6" in page and "body byte" in page
        assert "Raw bytes" in page and "event: content_block_delta\\n" in page and 'data: {"type": "content_block_delta"' \
            in page
        rows = [screen.query_one(TextPage).render_line(y).text for y in range(screen.query_one(TextPage).size.height)]
        assert all(len(r.rstrip()) <= 80 for r in rows)  # wrapped, never cut
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, EventDetailScreen) and isinstance(app.focused, EventLog)


async def test_the_raw_bytes_show_each_line_end_and_mask_secrets_and_controls():
    text = f"key {KEY} then \x1b]52;c;SElKQUNL\x07 done"
    app = make_app(load_bytes(_anthropic(text, crlf=True)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot, 2)
        page = _page(screen)
        assert KEY not in page and KEY[20:40] not in page
        assert "\x1b" not in page and "\x07" not in page
        assert "\\x0d\\n" in page  # CRLF shown as what it is
        raw = page[page.index("Raw bytes"):]
        assert "\\u001b]52" in raw  # the JSON escape as sent, not interpreted


async def test_b_closes_the_view_and_focuses_the_block_the_event_fed():
    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=(120, 40)) as pilot:
        s = app.feed.session
        await settle(pilot)
        index = next(e.index for e in s.events if e.block is not None and s.blocks[e.block].tool)
        await _open(app, pilot, index)
        assert "tool_use" in _page(app.screen)
        await pilot.press("b")
        await pilot.pause()
        blocks = app.focused
        assert isinstance(blocks, BlockList) and s.blocks[blocks.cursor].tool
        assert blocks.cursor == s.events[index].block


async def test_a_binary_body_is_shown_as_a_hex_dump():
    app = make_app(load_bytes(bedrock_frames.message_start() + bedrock_frames.text(0, "hi")))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot, 0)
        page = _page(screen)
        assert "hex dump" in page and "00000000  00 00" in page


async def test_findings_on_the_event_are_listed_and_sections_are_keys():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = next(f for f in app.feed.session.findings if f.event is not None)
        screen = await _open(app, pilot, f.event)
        assert f"finding   {f.code} {f.name}" in _page(screen)
        page = screen.query_one(TextPage)
        await pilot.press("r")
        await pilot.pause()
        assert page.scroll_offset.y == page.row_of(screen.raw_at) or page.scroll_offset.y == page.max_scroll_y
        await pilot.press("p")
        await pilot.pause()
        assert page.scroll_offset.y == min(page.row_of(screen.payload_at), page.max_scroll_y)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_event_detail_snapshot(snap_compare, size):
    async def run_before(pilot):
        app = pilot.app
        await _open(app, pilot, 6)  # the tool call closed early: two findings on it

    assert snap_compare(make_app(playback(VIOLATIONS, instant=True)), terminal_size=size, run_before=run_before)


async def test_help_on_the_detail_view_lists_its_keys_and_the_main_help_says_what_enter_does():
    from inspector.tui.screens.help import HelpScreen

    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        log_rows = dict(next(rows for title, rows in app.help_groups() if title == "Event log"))
        assert "payload" in log_rows["enter"] and "raw bytes" in log_rows["enter"]
        await _open(app, pilot, 1)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        (title, rows), _ = app.screen.groups
        assert title == "Event detail" and ("r", "Scroll to the raw bytes") in rows
