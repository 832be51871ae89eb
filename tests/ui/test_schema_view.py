"""The declared schema beside a tool call (``d``): shown on demand, failing paths marked, listed in help."""
from __future__ import annotations

from inspector.capture.load import load_path
from inspector.feeds.replay import Playback
from inspector.tui.app import make_app
from inspector.tui.commands import COMMANDS
from inspector.tui.widgets.block_panel import BlockPanel
from tests.conftest import ROOT
from tests.ui.conftest import settle

CASE = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string.jsonl"
NEAR = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string-near-miss.jsonl"


def _schema_text(app) -> str:
    panel = next(p for p in app.query(BlockPanel) if p.block is not None and p.block.tool)
    box = panel.query_one(".block-schema")
    return str(box.render()) if box.display else ""


async def test_d_shows_the_schema_with_the_failing_path_marked_and_hides_it_again():
    app = make_app(Playback(load_path(CASE), instant=True, label=CASE.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        assert _schema_text(app) == ""  # off until asked
        await pilot.press("d")
        await settle(pilot)
        text = _schema_text(app)
        assert "declared at tools[0].function.parameters" in text
        assert '✖     "kinds": {' in text  # the property on the failing path is marked
        assert "✖ $.kinds: '[\"dataset\"]' is not of type 'array' (type)" in text
        assert '✖     "query"' not in text
        await pilot.press("d")
        await settle(pilot)
        assert _schema_text(app) == ""


async def test_a_call_that_validates_says_so():
    app = make_app(Playback(load_path(NEAR), instant=True, label=NEAR.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        text = _schema_text(app)
        assert "✔ the arguments validate" in text and "✖" not in text


def test_the_key_is_a_command_with_help_text():
    [cmd] = [c for c in COMMANDS if c.action == "toggle_schema"]
    assert cmd.keys == "d" and "schema" in cmd.help  # listed in help (?) and the palette
