"""The declared schema beside a tool call (``d``): shown on demand, failing paths marked, listed in help."""
from __future__ import annotations

from inspector.capture.load import load_path
from inspector.feeds.replay import Playback
from inspector.tui.app import make_app
from inspector.tui.commands import COMMANDS
from inspector.tui.widgets.argument_view import ArgumentView
from tests.conftest import ROOT
from tests.ui.conftest import settle

CASE = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string.jsonl"
NEAR = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string-near-miss.jsonl"


def _schema_text(app) -> str:
    panel = app.detail
    box = panel.query_one(".block-schema")
    return str(box.render()) if box.display else ""


async def test_d_shows_the_schema_with_the_failing_path_marked_and_hides_it_again():
    app = make_app(Playback(load_path(CASE), instant=True, label=CASE.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        assert _schema_text(app) == ""  # off until asked
        await pilot.press("k")
        await settle(pilot)
        text = _schema_text(app)
        assert "declared at tools[0].function.parameters" in text
        assert '✖     "kinds": {' in text  # the property on the failing path is marked
        assert "✖ $.kinds: '[\"dataset\"]' is not of type 'array' (type)" in text
        assert '✖     "query"' not in text
        await pilot.press("k")
        await settle(pilot)
        assert _schema_text(app) == ""


async def test_a_call_that_validates_says_so():
    app = make_app(Playback(load_path(NEAR), instant=True, label=NEAR.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        text = _schema_text(app)
        assert "✔ the arguments validate" in text and "✖" not in text


def test_the_key_is_a_command_with_help_text():
    [cmd] = [c for c in COMMANDS if c.action == "toggle_schema"]
    assert cmd.keys == "k" and "schema" in cmd.help  # listed in help (?) and the palette


def _marked_in_arguments(app) -> tuple[list[str], list[str]]:
    """(the text of every cell run drawn in the violation style, every line) of the call's ArgumentView."""
    panel = app.detail
    view = panel.query_one(ArgumentView)
    bg = view.get_component_rich_style("argview--violation").bgcolor
    marked, lines = [], []
    for y in range(view.size.height):
        strip = view.render_line(y)
        lines.append("".join(s.text for s in strip).rstrip())
        run = "".join(s.text for s in strip if s.style is not None and s.style.bgcolor == bg)
        if run:
            marked.append(run)
    return marked, lines


async def test_the_failing_argument_is_marked_inside_the_call_text_raw_and_pretty():
    """V002 on ``$.kinds``: the argument text marks exactly the value at that path (the string sent
    where an array was declared), names the violation below it, in raw and in pretty (``j``) view;
    without ``d`` too (the mark is on the call itself)."""
    app = make_app(Playback(load_path(CASE), instant=True, label=CASE.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        marked, lines = _marked_in_arguments(app)
        assert marked == ['"[\\"dataset\\"]"']
        # the note wraps at the pane's width: read its lines as one text
        assert "✖ $.kinds: '[\"dataset\"]' is not of type 'array' (type)" in " ".join(lines)
        await pilot.press("j")
        await settle(pilot)
        marked, lines = _marked_in_arguments(app)
        assert marked == ['"[\\"dataset\\"]"'] and any('"kinds":' in ln for ln in lines)
        assert sum("✖ $.kinds" in ln for ln in lines) == 1  # said once, not once per frame


async def test_a_call_that_validates_has_nothing_marked_in_its_text():
    app = make_app(Playback(load_path(NEAR), instant=True, label=NEAR.name))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        marked, lines = _marked_in_arguments(app)
        assert marked == [] and not any("✖" in ln for ln in lines)
