"""Replaying a WebSocket capture: its responses come up in the same picker as a HAR's entries, and
``FILE#N`` opens one directly (README "WebSocket captures")."""
from __future__ import annotations

from inspector.feeds.opening import OpeningFeed
from inspector.tui.app import make_app
from inspector.tui.screens.entry_picker import EntryPickerScreen
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.conftest import settle
from tests.ui.test_open_save import SIZE, wait_until
from tests.websocket import fixtures as fx


async def test_a_socket_with_several_responses_asks_which_one(tmp_path):
    path = tmp_path / "ws.jsonl"
    path.write_text(fx.two_tool_rounds().text())
    app = make_app(OpeningFeed(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EntryPickerScreen), "the response picker")
        assert [n for n, _ in app.screen.choices] == [0, 1, 2]
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.feed.seekable, "response 1 to load")
        await settle(pilot)
        assert "response 1" in app.query_one(StreamHeader).content.plain
        assert app.feed.session.dialect_name == "openai-responses"


async def test_file_hash_n_opens_that_realtime_response(tmp_path):
    path = tmp_path / "rt.jsonl"
    path.write_text(fx.realtime_function_call().text())
    app = make_app(OpeningFeed(f"{path}#0", instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.feed.seekable, "response 0 to load")
        await wait_until(pilot, lambda: app.feed.finished, "response 0 to play")
        await settle(pilot)
        assert app.feed.session.dialect_name == "openai-realtime"
        assert [b.name for b in app.feed.session.blocks if b.tool] == ["get_weather"]
