"""SVG snapshots of the replay TUI (pytest-textual-snapshot), grouped per feature.

Every state is reached deterministically: replays start paused and are stepped or jumped with
keys, or run ``instant`` to the end; the elapsed clock is capture time, so it is frozen in both.
Regenerate with ``uv run pytest tests/ui --snapshot-update`` and look at the SVGs.
"""
from __future__ import annotations

import pytest

from inspector.tui.app import make_app
from tests.ui.conftest import CLEAN, PARALLEL, QUIRKS, VIOLATIONS, playback, settle

SIZE = (150, 42)


def _paused(path, **kw):
    return make_app(playback(path), paused=True, **kw)


def _finished(path, **kw):
    return make_app(playback(path, instant=True), **kw)


class TestMainScreen:
    def test_mid_stream_tool_call_assembling(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("g", *"27", "enter")  # inside the tool_use block's arguments
            await settle(pilot)

        assert snap_compare(_paused(CLEAN), terminal_size=SIZE, run_before=run_before)

    def test_mid_stream_pretty_json(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("g", *"27", "enter", "j")
            await settle(pilot)

        assert snap_compare(_paused(CLEAN), terminal_size=SIZE, run_before=run_before)

    def test_finished_stream_with_errors(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)

        assert snap_compare(_finished(VIOLATIONS), terminal_size=SIZE, run_before=run_before)

    def test_parallel_tool_calls_finished(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)

        assert snap_compare(_finished(PARALLEL), terminal_size=SIZE, run_before=run_before)


class TestFindings:
    def test_finding_detail(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("down", "i")  # the second finding: J002
            await pilot.pause()

        assert snap_compare(_finished(VIOLATIONS), terminal_size=SIZE, run_before=run_before)

    def test_finding_selected_jumps_to_event_and_block(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("down", "down", "enter")
            await pilot.pause()

        assert snap_compare(_finished(VIOLATIONS), terminal_size=SIZE, run_before=run_before)

    def test_filtered_to_errors(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("v", "v")
            await pilot.pause()

        assert snap_compare(_finished(QUIRKS), terminal_size=SIZE, run_before=run_before)


class TestTimeline:
    def test_timeline_with_stall(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("t")
            await pilot.pause()
            pilot.app.refresh_now()
            await pilot.pause()

        assert snap_compare(_finished(VIOLATIONS), terminal_size=SIZE, run_before=run_before)

    def test_timeline_parallel_calls(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("t")
            await pilot.pause()
            pilot.app.refresh_now()
            await pilot.pause()

        assert snap_compare(_finished(PARALLEL), terminal_size=SIZE, run_before=run_before)


class TestHelp:
    def test_help_screen(self, snap_compare):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()

        assert snap_compare(_finished(CLEAN), terminal_size=(150, 50), run_before=run_before)


class TestThemes:
    @pytest.mark.parametrize("theme", ["dark", "light", "high-contrast"])
    def test_theme(self, snap_compare, theme):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("down", "enter")
            await pilot.pause()

        assert snap_compare(_finished(VIOLATIONS, theme=theme), terminal_size=SIZE, run_before=run_before)
