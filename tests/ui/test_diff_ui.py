"""The diff screen: two columns, matched blocks side by side, differing rows marked; keys; a snapshot."""
from __future__ import annotations

from inspector.compare.diff import answer_from_session, diff_answers
from inspector.feeds.run import run_capture
from inspector.tui.screens.diff import DiffScreen, PairRow, make_diff_app
from tests.dialect_answers import CallSpec, Spec, render

SIZE = (120, 36)
BASE = Spec(text="Let me look.", calls=[CallSpec("get_weather", {"city": "Lisbon"}),
                                        CallSpec("get_time", {"tz": "UTC"}, key="b2")], stop="tool")


def _diff(spec_b: Spec):
    a = answer_from_session(run_capture(render("anthropic-messages", BASE)), "upstream.jsonl")
    b = answer_from_session(run_capture(render("openai-chat", spec_b)), "front.jsonl")
    return diff_answers(a, b)


def broken():
    return _diff(BASE.with_(calls=[CallSpec("get_weather", {"city": "Porto"})], stop="end"))


async def test_rows_pair_blocks_side_by_side_and_mark_the_differing_ones():
    app = make_diff_app(broken())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        rows = list(app.screen.query(PairRow))
        assert [r.pair.label for r in rows] == ["text", "tool #0 get_weather", "tool #1 get_time"]
        assert [r.has_class("differs") for r in rows] == [False, True, True]
        cells = [str(c.render()) for c in rows[1].query(".cell")]
        assert '"Lisbon"' in cells[0] and '"Porto"' in cells[1]
        assert "(none on this side)" in str(rows[2].query(".cell").last().render())
        verdict = str(app.screen.query_one("#diff-verdict").render())
        assert verdict.startswith("DIFFERENT: ")
        await pilot.press("n")
        await pilot.press("n")
        await pilot.press("q")
    assert app.return_value == 1


async def test_an_equivalent_pair_says_so_and_exits_0():
    app = make_diff_app(_diff(BASE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert str(app.screen.query_one("#diff-verdict").render()) == "EQUIVALENT"
        assert "tool ids rewritten one-to-one" in str(app.screen.query_one("#diff-rest").render())
        await pilot.press("n")  # nothing differs: a notice, no error
        await pilot.press("q")
    assert app.return_value == 0


def test_diff_screen_snapshot(snap_compare):
    assert snap_compare(make_diff_app(broken()), terminal_size=SIZE)


async def test_a_narrow_diff_keeps_help_and_close_on_the_footers_right():
    """As on the inspector's screens: ``? Help`` and the way out stay in view at any width (Textual's
    own footer cut them off the right edge)."""
    app = make_diff_app(broken())
    async with app.run_test(size=(48, 20)) as pilot:
        await pilot.pause()
        last = "\n".join(s.text for s in app.screen._compositor.render_strips()).splitlines()[-1]
        assert "? Help" in last and "q Close" in last
