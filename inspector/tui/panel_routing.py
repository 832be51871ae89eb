"""The blocks pane of the inspector: every block's summary row, the highlighted block's detail.

A mixin of ``InspectorApp``: each frame it builds the blocks' view state
(``inspector.tui.view_state``), hands it to every registered panel (the virtual
:class:`~inspector.tui.widgets.block_list.BlockList` so far), binds the one
:class:`~inspector.tui.widgets.block_panel.BlockPanel` to the highlighted block, and answers the
keys and messages that target a block (a chosen finding or event, explain, collapse, focus).
The pane costs the rows on screen plus one detail, whatever the number of blocks (issue 27).
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches

from inspector.capture.redact import EventMasks
from inspector.tui.borders import set_border
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.view_state import BlocksState, BlocksStateBuilder, StatePanel, block_position
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.screens.event_detail import show_event
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import notice


class BlocksPane(Vertical):
    """The blocks pane: the summary list above, the highlighted block's detail below (``z`` maximises it)."""

    ALLOW_MAXIMIZE = True

    def compose(self) -> ComposeResult:
        yield BlockList(id="block-list")
        yield BlockPanel(id="block-detail")


class PanelRouting:
    """The blocks pane and everything that points at a block (see the module docstring)."""

    blocks_state: BlocksState | None = None
    """The view state the last frame handed to the panels."""
    _state_panels: list[StatePanel]
    _blocks_builder: BlocksStateBuilder

    def register_panel(self, panel: StatePanel) -> None:
        """Hand ``panel`` each frame's view state from now on (the app registers the blocks list
        when it mounts; a panel drawn the same way later registers here)."""
        if panel not in self._state_panels:
            self._state_panels.append(panel)

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

    def _sync_panels(self, s) -> None:
        builder: BlocksStateBuilder = self._blocks_builder
        gen = hash(self._generation)
        if builder.generation != gen:
            builder.reset(gen)
        empty = self._no_blocks(s)
        state = builder.build(s, pretty=self.pretty, empty_note=empty)
        self.blocks_state = state
        for panel in self._state_panels:
            panel.receive(state)
        self._sync_detail(s)
        self._blocks_border()

    def _blocks_border(self) -> None:
        """The pane's title (raw or pretty) and subtitle (how many blocks, following or not)."""
        state = self.blocks_state
        if state is None:
            return
        n = len(state.rows)
        follow = self.query_one(BlockList).follow
        sub = (f"{n:,} block{'s' if n != 1 else ''} · " + ("following" if follow else "end: follow")) \
            if n else state.empty_note
        set_border(self.query_one("#blocks", BlocksPane), "Blocks · " + ("pretty JSON" if state.pretty else "raw"), sub)

    def _sync_detail(self, s) -> None:
        """Bind the detail panel to the highlighted block and bring it up to date."""
        blocks = self.query_one(BlockList)
        panel = self.detail
        row = blocks.selected
        shown = row is not None and blocks.expanded and row.pos < len(s.blocks)
        if panel.display != shown:
            panel.display = shown
            self.query_one("#blocks", BlocksPane).set_class(not blocks.expanded, "-folded")
        if not shown:
            return
        b = s.blocks[row.pos]
        panel.bind(b)
        panel.findings = self._blocks_builder.findings.setdefault(b.pos, [])
        if b.tool:
            rules = s.declared
            panel.bind_declared(rules.tool_for(b), rules.violations.get(b.pos, ()), self.show_schema)
        if panel.is_mounted:
            moving = not self.feed.paused and not self.feed.finished
            panel.sync(self.pretty, throttle=moving)
        else:
            self._dirty = True

    def on_block_list_selected(self, _: BlockList.Selected) -> None:
        try:
            self._sync_detail(self.feed.session)
            self._blocks_border()
        except NoMatches:
            pass  # the app is tearing its widgets down

    @staticmethod
    def _no_blocks(s) -> str:
        if not s.closed:
            return "no content blocks yet"
        status = (s.response or {}).get("status")
        if isinstance(status, int) and status >= 400:
            return f"no content blocks: the answer was HTTP {status} (see the findings)"
        return "no content blocks"

    def action_collapse_all(self) -> None:
        """Fold the detail (the list alone fills the pane) or show it again."""
        self.query_one(BlockList).action_toggle_collapse()
        self._render_frame()

    def action_focus_pane(self, name: str) -> None:
        target = {"blocks": BlockList, "findings": FindingsList, "log": EventLog}[name]
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
