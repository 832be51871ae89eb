"""The comparison screen: a snapshot on the bundled pair, and scrubbing the shared time axis by keys."""
from __future__ import annotations

import pytest
from textual.app import App

from inspector.capture.bundled import bundled_pair
from inspector.tui.screens.compare import CompareScreen, StatePane, bundled_compare_screen, make_compare_app
from inspector.tui.widgets.compare_chart import CompareChart
from tests import eager_pair as built

SIZE = (120, 42)


def _panes(app) -> tuple[StatePane, StatePane]:
    return app.screen.query_one("#state-a", StatePane), app.screen.query_one("#state-b", StatePane)


def test_compare_screen_snapshot(snap_compare):
    a, b = bundled_pair()
    # cursor at 6 s: the eager run half-way through its arguments, the buffered one still silent
    assert snap_compare(make_compare_app(a, b, cursor=6.0), terminal_size=SIZE)


async def test_scrubbing_moves_both_streams_along_the_shared_axis():
    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=2.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        pa, pb = _panes(app)
        assert screen.cursor == 2.0
        assert pa.status == "empty" and pa.arguments == ""
        assert pb.status == "partial" and pb.arguments and built.ARGUMENTS.startswith(pb.arguments)
        before = len(pb.arguments)
        for _ in range(5):
            await pilot.press("right")
        await pilot.pause()
        assert screen.cursor == pytest.approx(2.0 + 5 * 0.01 * screen.end)
        assert len(pb.arguments) > before and built.ARGUMENTS.startswith(pb.arguments)
        assert pa.arguments == "" and "open" in pa.block_text
        assert app.screen.query_one(CompareChart).cursor == screen.cursor
        await pilot.press("shift+left", "shift+left")
        await pilot.pause()
        assert screen.cursor == pytest.approx(2.0 + 5 * 0.01 * screen.end - 0.2 * screen.end)
        assert len(pb.arguments) < before
        await pilot.press("end")
        await pilot.pause()
        assert screen.cursor == screen.end
        assert pa.status == pb.status == "complete"
        assert pa.arguments == pb.arguments == built.ARGUMENTS
        assert pa.stream_text.startswith("ended")
        await pilot.press("home")
        await pilot.pause()
        assert screen.cursor == 0.0
        assert pa.status is None and pb.status is None
        assert "not started" in pa.block_text and pb.stream_text.startswith("waiting")


async def test_next_chunk_key_lands_on_arrival_times():
    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=12.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pa, _ = _panes(app)
        assert pa.arguments == ""
        await pilot.press("full_stop")  # the buffered run's burst starts at 12.80 s
        await pilot.pause()
        assert app.screen.cursor == pytest.approx(built.BUFFERED_FIRST_ARG_BYTE)
        assert pa.arguments and built.ARGUMENTS.startswith(pa.arguments) and pa.status == "partial"
        await pilot.press("comma")
        await pilot.pause()
        assert app.screen.cursor < built.BUFFERED_FIRST_ARG_BYTE and pa.arguments == ""


async def test_pretty_toggle_and_close():
    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=5.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.pretty is False
        await pilot.press("j")
        await pilot.pause()
        assert app.screen.pretty is True
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0


async def test_bundled_screen_can_be_pushed_on_another_app_and_dismissed():
    class Host(App):
        pass

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(bundled_compare_screen(cursor=1.0))
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        assert app.screen.query_one("#state-b", StatePane).status == "partial"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CompareScreen)


def test_unknown_theme_is_a_value_error():
    a, b = bundled_pair()
    with pytest.raises(ValueError):
        make_compare_app(a, b, theme="no-such-theme")


def test_cli_compare_opens_the_app_and_rejects_an_unknown_theme(monkeypatch, capsys):
    from inspector.cli import main
    from inspector.tui.screens import compare as screen_module

    opened = []
    monkeypatch.setattr(screen_module.CompareApp, "run", lambda self: opened.append(self))
    a, b = bundled_pair()
    assert main(["compare", str(a), str(b)]) == 0
    assert len(opened) == 1 and isinstance(opened[0].get_default_screen(), CompareScreen)
    assert opened[0].get_default_screen().cmp.a.path == str(a)
    assert main(["compare", str(a), str(b), "--theme", "no-such-theme"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-such-theme" in err[0]
    assert len(opened) == 1


async def test_help_lists_the_comparison_keys():
    from inspector.tui.screens.help import HelpScreen

    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=5.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(w.render()) for w in app.screen.query("*") if hasattr(w, "render"))
        assert "Prev chunk" in text and "JSON" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
