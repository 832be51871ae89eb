"""The blocks pane at any scale (issue 27 item 1): one virtual list of summary rows, one detail.

The pane's widgets do not grow with the number of blocks; each block has a one-line row (index,
kind, name, status, size, stop); follow mode keeps the block being written under the cursor; the
arguments take the focus and scroll from their first byte, with "N lines above / below" markers.
"""
from __future__ import annotations

from inspector.feeds.replay import Playback
from inspector.tui.app import make_app
from inspector.tui.view_state import BlocksStateBuilder
from inspector.tui.widgets.argument_view import ArgumentView
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.block_panel import BlockPanel
from tests.ui.capture_factory import big_capture, many_calls_capture
from tests.ui.conftest import CLEAN, playback, settle

SIZE = (120, 40)


def _row_text(blocks: BlockList, row: int) -> str:
    """The text the list draws for ``row`` (scrolled into view first)."""
    blocks.scroll_to(y=row, animate=False, immediate=True)
    return blocks.render_line(row - blocks.scroll_offset.y).text


async def _pane_widgets(calls: int) -> tuple[int, int]:
    """(widgets in the blocks pane, rows in its list) once ``calls`` short tool calls are shown."""
    app = make_app(Playback(many_calls_capture(calls), instant=True, label="calls"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.query_one("#blocks")
        return len(list(pane.query("*"))), len(app.query_one(BlockList).rows)


async def test_the_pane_has_the_same_widgets_for_3_blocks_and_for_400():
    few, few_rows = await _pane_widgets(3)
    many, many_rows = await _pane_widgets(400)
    assert (few_rows, many_rows) == (3, 400)
    assert few == many  # one list and one detail, whatever the number of blocks


async def test_each_block_has_a_summary_row_with_index_kind_name_status_size_and_stop():
    pb = playback(CLEAN, instant=True)
    app = make_app(pb)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        blocks = app.query_one(BlockList)
        assert app.shown_blocks == pb.session.blocks
        text, tool = _row_text(blocks, 0), _row_text(blocks, 1)
        assert "#0 text" in text and "77 ch" in text
        for part in ("#1", "get_weather", "tool_use", "complete", "171 ch", "stop content_block_stop"):
            assert part in tool, part
        assert tool.startswith("▾")  # the highlighted row, its detail shown below


async def test_follow_keeps_the_block_being_written_under_the_cursor():
    cap = many_calls_capture(30)
    pb = Playback(cap, label="calls")
    app = make_app(pb, paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        blocks = app.query_one(BlockList)
        await pilot.press("g", *"52", "enter")  # 1 + 5 a call: inside call #10 (its deltas)
        await settle(pilot)
        writing = next(b for b in pb.session.blocks if not b.closed)
        assert writing.index == 10
        assert blocks.follow and blocks.cursor == writing.pos
        assert app.detail.block is writing
        assert app.query_one("#blocks").border_subtitle.endswith("· following")
        await pilot.press("1", "up")  # the user moves: follow stops
        assert not blocks.follow and blocks.cursor == writing.pos - 1
        assert app.query_one("#blocks").border_subtitle.endswith("· end: follow")
        await pilot.press("g", *"78", "enter")  # inside call #15
        await settle(pilot)
        assert blocks.cursor == writing.pos - 1  # stays where the user put it
        await pilot.press("1", "end")  # follow again
        await settle(pilot)
        now = next(b for b in pb.session.blocks if not b.closed)
        assert blocks.follow and blocks.cursor == now.pos and app.detail.block is now


async def test_state_rows_are_rebuilt_only_for_blocks_that_changed():
    pb = Playback(many_calls_capture(20), instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        s = pb.session
        builder = BlocksStateBuilder()
        first = builder.build(s, pretty=False, empty_note="")
        again = builder.build(s, pretty=False, empty_note="")
        assert first == again and all(a is b for a, b in zip(first.rows, again.rows))
        assert [r.pos for r in first.rows] == list(range(20)) and first.writing is None


async def test_arguments_take_the_focus_and_scroll_from_their_first_byte_with_markers():
    pb = Playback(big_capture(3_000), instant=True, label="big")
    app = make_app(pb)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = app.detail.query_one(ArgumentView)
        view.focus()
        await pilot.pause()
        assert app.focused is view
        height = view.scrollable_content_region.height
        above, below = view.hidden_lines()
        assert above > 100 and below == 0  # at the end: the newest text
        assert view.render_line(0).text.startswith(f"↑ {above:,} lines above")
        await pilot.press("home")
        await pilot.pause()
        assert view.scroll_offset.y == 0
        assert view.render_line(0).text.startswith('{"path": "big.txt"')  # the first byte
        assert view.render_line(height - 1).text.startswith("↓ ") and "lines below" in view.render_line(
            height - 1).text
        await pilot.press("pagedown", "down")
        await pilot.pause()
        assert view.scroll_offset.y > 1
        await pilot.press("up", "pageup")
        await pilot.pause()
        assert view.scroll_offset.y == 0


async def test_enter_folds_the_detail_and_the_list_fills_the_pane():
    app = make_app(Playback(many_calls_capture(40), instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        blocks = app.query_one(BlockList)
        before = blocks.region.height
        await pilot.press("1", "enter")
        await pilot.pause()
        assert not app.query_one(BlockPanel).display and blocks.region.height > before
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(BlockPanel).display


async def test_gap_sparkline_has_a_scale():
    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        scales = [str(w.content) for w in app.detail.query(".spark-scale")]
        assert scales[0].startswith("max ") and " B/" in scales[0]
        assert scales[1].startswith("max ") and scales[1].endswith(" s")


async def test_a_registered_panel_receives_each_frames_frozen_view_state():
    import dataclasses

    import pytest

    from inspector.tui.view_state import BlocksState

    got: list = []

    class Recorder:
        def receive(self, state) -> None:
            got.append(state)

    pb = playback(CLEAN, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.register_panel(Recorder())
        app.refresh_now()
        state = got[-1]
        assert isinstance(state, BlocksState) and state is app.blocks_state
        assert [r.pos for r in state.rows] == [b.pos for b in pb.session.blocks]
        with pytest.raises(dataclasses.FrozenInstanceError):
            state.rows = ()  # type: ignore[misc]


async def test_a_row_keeps_its_finding_marks_in_a_narrow_pane():
    from tests.ui.conftest import VIOLATIONS

    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=(120, 40)) as pilot:  # the blocks pane is 48 columns wide
        await settle(pilot)
        blocks = app.query_one(BlockList)
        row = blocks.render_line(0).text
        assert len(row) <= blocks.size.width and "search_docs" in row and "partial ✖2" in row
