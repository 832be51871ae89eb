"""One way to draw (issue 26 item 3): each frame builds one frozen, typed view state from the
session, and every registered panel receives its part of it; an unchanged part redraws nothing."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from textual.widget import Widget

from inspector.tui.app import InspectorApp, make_app
from inspector.tui.frame import (BlockDetailState, FindingsState, FrameState, HeaderState, LogState,
                                 PlaybackState, Registration)
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


class FindingTally(Widget, can_focus=True):
    """The README's exercise (add a panel): one widget that receives its part of each frame."""

    DEFAULT_CSS = "FindingTally { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.received: list[FindingsState] = []

    def receive(self, state: FindingsState) -> None:
        if self.received and state == self.received[-1]:
            return
        self.received.append(state)
        self.refresh()

    def render(self) -> str:
        return f"{len(self.received[-1].findings)} findings" if self.received else ""


class TallyApp(InspectorApp):
    PANELS = (*InspectorApp.PANELS, Registration(FindingTally, "findings", focus="tally", slot="top", id="tally"))


async def test_a_panel_added_with_one_registration_line_is_composed_receives_its_state_and_takes_the_focus():
    feed = playback(VIOLATIONS, instant=True)
    app = TallyApp([feed])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tally = app.query_one(FindingTally)
        assert tally.received and tally.received[-1] == app.frame.findings
        assert tally.render() == f"{len(feed.session.findings)} findings"
        drawn = len(tally.received)
        app.refresh_now()
        assert len(tally.received) == drawn  # an equal state: nothing drawn again
        app.action_focus_pane("tally")  # the focus map comes from the registration
        assert app.focused is tally
