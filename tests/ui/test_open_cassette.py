"""Replaying a VCR cassette: several streamed interactions bring up the same picker as a HAR (only
the streamed ones offered, by their index), and ``cassette.yaml#N`` opens one directly."""
from __future__ import annotations

import yaml

from inspector.feeds.opening import OpeningFeed
from inspector.tui.app import make_app
from inspector.tui.screens.entry_picker import EntryPickerScreen
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.conftest import settle
from tests.ui.test_open_save import SIZE, wait_until
from tests.unit.test_import_har import CHAT, RESPONSES


def _interaction(uri: str, body: str, ctype: str = "text/event-stream") -> dict:
    return {"request": {"method": "POST", "uri": uri, "body": "{}", "headers": {}},
            "response": {"status": {"code": 200, "message": "OK"}, "headers": {"Content-Type": [ctype]},
                         "body": {"string": body}}}


def _cassette(tmp_path):
    path = tmp_path / "agent.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "interactions": [
        _interaction("https://api.example.test/v1/chat/completions", CHAT),
        _interaction("https://api.example.test/v1/models", '{"data": []}', "application/json"),
        _interaction("https://api.example.test/v1/responses", RESPONSES)]}))
    return path


async def test_a_cassette_with_several_streams_asks_which_one(tmp_path):
    app = make_app(OpeningFeed(_cassette(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EntryPickerScreen), "the entry picker")
        assert [n for n, _ in app.screen.choices] == [0, 2]
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.feed.seekable, "interaction 2 to load")
        await settle(pilot)
        assert "interaction 2" in app.query_one(StreamHeader).content.plain
        assert app.feed.session.dialect_name == "openai-responses"


async def test_file_hash_n_opens_that_interaction(tmp_path):
    app = make_app(OpeningFeed(f"{_cassette(tmp_path)}#0"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.feed.seekable, "interaction 0 to load")
        await settle(pilot)
        assert app.feed.session.dialect_name == "openai-chat"
