"""What points at a block or a finding: a chosen finding or event, explain, collapse, focus.

A mixin of ``InspectorApp``: the blocks pane itself receives its view state each frame
(``inspector.tui.widgets.blocks_pane``); this part answers the keys and messages that move it.
"""
from __future__ import annotations

from inspector.capture.redact import EventMasks
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.view_state import block_position
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.screens.event_detail import show_event
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import notice


class PanelRouting:
    """The keys and messages that point at a block or a finding (see the module docstring)."""

    @property
    def shown_blocks(self) -> list:
        """The session's blocks the list shows, in its order (tests compare it with ``session.blocks``)."""
        s = self.feed.session
        state = self.blocks_state
        return [] if state is None else [s.blocks[r.pos] for r in state.rows if r.pos < len(s.blocks)]

    @property
    def detail(self) -> BlockPanel:
        """The panel showing the highlighted block in full."""
        return self.query_one(BlockPanel)

    def action_collapse_all(self) -> None:
        """Fold the detail (the list alone fills the pane) or show it again."""
        self.query_one(BlockList).action_toggle_collapse()
        self._render_frame()

    def action_focus_pane(self, name: str) -> None:
        target = next(r.widget for r in self.PANELS if r.focus == name)  # the registered panels
        # Focused now, not after the next refresh: a key pressed right after (z) acts on this pane.
        self.screen.set_focus(self.query_one(target))

    def jump_to_finding(self, finding) -> None:
        """Select the finding's event in the log and highlight its block in the list, its detail shown."""
        s = self.feed.session
        log = self.query_one(EventLog)
        if finding.event is not None:
            log.center_on(finding.event)
        pos = block_position(s, finding)
        if pos is None and finding.event is not None and 0 <= finding.event < len(s.events):
            b = s.block_of(s.events[finding.event])
            pos = b.pos if b is not None else None
        self._target_block(pos)
        self._render_frame()

    def _target_block(self, pos: int | None) -> None:
        self.query_one(BlockList).select(pos, target=True)

    def on_event_log_event_chosen(self, event: EventLog.EventChosen) -> None:
        """Enter on an event: the event in full; ``b`` there focuses its block."""
        show_event(self, event.index)

    def focus_block_of(self, index: int) -> None:
        """Bring the block event ``index`` touched into view and focus it."""
        s = self.feed.session
        if 0 <= index < len(s.events):
            b = s.block_of(s.events[index])
            pos = b.pos if b is not None else None
            self._target_block(pos)
            if pos is not None:
                self.screen.set_focus(self.query_one(BlockList))

    def on_findings_list_chosen(self, event: FindingsList.Chosen) -> None:
        self.jump_to_finding(event.finding)

    def on_findings_list_explain_requested(self, event: FindingsList.ExplainRequested) -> None:
        self._explain(event.finding, event.position)

    def _explain(self, finding, position: int) -> None:
        s = self.feed.session
        ev = EventMasks(s.events).shown(finding.event) \
            if finding.event is not None and 0 <= finding.event < len(s.events) else None

        def done(jump: bool | None) -> None:
            if jump:
                self.jump_to_finding(finding)

        self.push_screen(FindingDetailScreen(finding, ev), done)

    def action_explain(self) -> None:
        findings = self.query_one(FindingsList)
        cur = findings.current()
        if cur is not None:
            self._explain(*cur)
            return
        total = len(self.feed.session.findings)
        if total:
            message = f"The filter hides all {total} findings: esc on the findings list clears it."
        elif self.feed.finished:
            message = "This stream has no findings: nothing to explain."
        else:
            message = "No findings yet: i explains the highlighted one once there is one."
        self.notify(notice(message), title="explain", timeout=4)

    def action_toggle_json(self) -> None:
        self.pretty = not self.pretty
        self._render_frame()

    def action_toggle_schema(self) -> None:
        self.show_schema = not self.show_schema
        self._render_frame()
