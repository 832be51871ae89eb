"""What points at a block or a finding: a chosen finding or event, explain, collapse, focus.

A controller composed into ``InspectorApp`` (``app.routing``): the blocks pane itself receives its view state each frame
(``inspector.tui.widgets.blocks_pane``); this part answers the keys and messages that move it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.capture.redact import EventMasks
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.view_state import block_position
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.screens.event_detail import show_event
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import notice

if TYPE_CHECKING:
    from inspector.model.findings import Finding
    from inspector.tui.app import InspectorApp


class PanelRouting:
    """The keys and messages that point at a block or a finding (see the module docstring)."""

    def __init__(self, app: InspectorApp) -> None:
        self.app = app

    def collapse_all(self) -> None:
        """Fold the detail (the list alone fills the pane) or show it again."""
        self.app.query_one(BlockList).action_toggle_collapse()
        self.app.render_frame()

    def focus_pane(self, name: str) -> None:
        """Focus the registered panel whose focus name is ``name`` (``blocks``, ``findings``, ``log``)."""
        app = self.app
        target = next(r.widget for r in app.PANELS if r.focus == name)
        # Focused now, not after the next refresh: a key pressed right after (z) acts on this pane.
        app.screen.set_focus(app.query_one(target))

    def jump_to_finding(self, finding: Finding) -> None:
        """Select the finding's event in the log and highlight its block in the list, its detail shown."""
        app = self.app
        s = app.feed.session
        log = app.query_one(EventLog)
        if finding.event is not None:
            log.center_on(finding.event)
        pos = block_position(s, finding)
        if pos is None and finding.event is not None and 0 <= finding.event < len(s.events):
            b = s.block_of(s.events[finding.event])
            pos = b.pos if b is not None else None
        self._target_block(pos)
        app.render_frame()

    def _target_block(self, pos: int | None) -> None:
        self.app.query_one(BlockList).select(pos, target=True)

    def show_event(self, index: int) -> None:
        """Enter on an event: the event in full; ``b`` there focuses its block."""
        show_event(self.app, index)

    def focus_block_of(self, index: int) -> None:
        """Bring the block event ``index`` touched into view and focus it."""
        app = self.app
        s = app.feed.session
        if 0 <= index < len(s.events):
            b = s.block_of(s.events[index])
            pos = b.pos if b is not None else None
            self._target_block(pos)
            if pos is not None:
                app.screen.set_focus(app.query_one(BlockList))

    def explain_finding(self, finding: Finding) -> None:
        """The finding's rule and advice (``FindingDetailScreen``); its jump key jumps to it."""
        app = self.app
        s = app.feed.session
        ev = EventMasks(s.events).shown(finding.event) \
            if finding.event is not None and 0 <= finding.event < len(s.events) else None

        def done(jump: bool | None) -> None:
            if jump:
                self.jump_to_finding(finding)

        app.push_screen(FindingDetailScreen(finding, ev), done)

    def explain(self) -> None:
        """``i``: explain the highlighted finding, or say why there is none."""
        app = self.app
        cur = app.query_one(FindingsList).current()
        if cur is not None:
            self.explain_finding(cur[0])
            return
        total = len(app.feed.session.findings)
        if total:
            message = f"The filter hides all {total} findings: esc on the findings list clears it."
        elif app.feed.finished:
            message = "This stream has no findings: nothing to explain."
        else:
            message = "No findings yet: i explains the highlighted one once there is one."
        app.notify(notice(message), title="explain", timeout=4)
