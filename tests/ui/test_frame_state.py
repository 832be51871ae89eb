"""One way to draw (issue 26 item 3): each frame builds one frozen, typed view state from the
session, and every registered panel receives its part of it; an unchanged part redraws nothing."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from inspector.tui.app import make_app
from inspector.tui.frame import (BlockDetailState, FindingsState, FrameState, HeaderState, LogState,
                                 PlaybackState)
from inspector.tui.view_state import BlocksState
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.blocks_pane import BlocksPane
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.widgets.playback_bar import PlaybackBar
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.conftest import VIOLATIONS, playback, settle

SIZE = (120, 40)
PARTS = {StreamHeader: HeaderState, PlaybackBar: PlaybackState, BlockList: BlocksState,
         BlocksPane: BlockDetailState, FindingsList: FindingsState, EventLog: LogState}


def _record(app, got: dict) -> None:
    """Wrap each registered panel's ``receive`` to note what it was handed."""
    for panel, _ in app._state_panels:
        original = panel.receive

        def receive(state, panel=panel, original=original) -> None:
            got.setdefault(type(panel), []).append(state)
            original(state)

        panel.receive = receive


async def test_every_panel_receives_its_typed_part_of_one_frozen_frame():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        got: dict = {}
        _record(app, got)
        app.refresh_now()
        frame = app.frame
        assert isinstance(frame, FrameState)
        assert {cls: type(states[-1]) for cls, states in got.items()} == PARTS
        assert got[StreamHeader][-1] is frame.header and got[PlaybackBar][-1] is frame.playback
        assert got[FindingsList][-1].findings == tuple(app.feed.session.findings)
        assert got[EventLog][-1].count == len(app.feed.session.events)
        assert dict(frame.header.counts) == Counter(f.severity for f in app.feed.session.findings)
        assert "✖ 2" in app.query_one(StreamHeader).content.plain
        with pytest.raises(dataclasses.FrozenInstanceError):
            frame.findings.generation = 0  # type: ignore[misc]
        with pytest.raises(AttributeError):
            frame.playback.events = 0  # type: ignore[misc]


async def test_a_frame_with_nothing_new_redraws_no_panel():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.refresh_now()
        before = app.frame
        refreshed: list[str] = []
        for panel, _ in app._state_panels:
            original = panel.refresh

            def refresh(*a, panel=panel, original=original, **kw):
                refreshed.append(type(panel).__name__)
                return original(*a, **kw)

            panel.refresh = refresh
        app.refresh_now()
        app.refresh_now()
        after = app.frame
        assert after is not before and after == before  # built again, equal: the same view
        assert after.blocks is before.blocks
        assert refreshed == []


async def test_the_transport_line_alone_while_seeking_leaves_the_other_panels_alone():
    app = make_app(playback(VIOLATIONS), paused=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        got: dict = {}
        _record(app, got)
        app.feeding.seeking = True
        app._tick()
        app.feeding.seeking = False
        assert list(got) == [PlaybackBar]
        assert got[PlaybackBar][-1].play == "⟳ seeking"
        assert "⟳ seeking" in app.query_one(PlaybackBar).render().plain
