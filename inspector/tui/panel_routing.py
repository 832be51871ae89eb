"""Block panels of the inspector: one per content block, findings routed to them, jumps to them.

A mixin of ``InspectorApp``: it owns the panels (``_panels``), keeps them in step with the
session's blocks, puts each finding on the panel of the block it is about, and answers the keys
and messages that target a block (a chosen finding or event, explain, collapse, focus).
"""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll

from inspector.capture.redact import EventMasks
from inspector.tui.borders import set_border
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.screens.event_detail import show_event
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import notice


class BlocksPane(VerticalScroll, inherit_bindings=False):
    """The scrolling column of block panels (no left/right bindings: those step the playback)."""

    ALLOW_MAXIMIZE = True

    BINDINGS = [
        Binding("up", "scroll_up", "Scroll up", show=False),
        Binding("down", "scroll_down", "Scroll down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
    ]


class PanelRouting:
    """The block panels and everything that points at one (see the module docstring)."""

    @property
    def panels(self) -> list[BlockPanel]:
        """The block panels in ``session.blocks`` order (removed ones excluded even before unmounting)."""
        return list(self._panels)

    def _sync_panels(self, s) -> None:
        pane = self.query_one("#blocks", BlocksPane)
        blocks = s.blocks
        if len(self._panels) > len(blocks):
            for p in self._panels[len(blocks):]:
                p.remove()
            del self._panels[len(blocks):]
        if len(blocks) > len(self._panels):
            new = [BlockPanel(i) for i in range(len(self._panels), len(blocks))]
            for p in new:
                if self._all_collapsed:
                    p.add_class("-collapsed")
            self._panels.extend(new)
            pane.mount_all(new)
        rules = s.declared
        for p, b in zip(self._panels, blocks):
            p.bind(b)
            if b.tool:
                p.bind_declared(rules.tool_for(b), rules.violations.get(b.pos, ()), self.show_schema)
        if len(s.findings) > self._findings_routed:
            for f in s.findings[self._findings_routed:]:
                pos = self._block_position(s, f)
                if pos is not None:
                    self._panels[pos].add_finding(f)
            self._findings_routed = len(s.findings)
        moving = not self.feed.paused and not self.feed.finished
        for p in self._panels:
            if p.is_mounted:
                p.sync(self.pretty, throttle=moving)
            else:
                self._dirty = True  # not composed yet: fill it on the next frame
        set_border(pane, "Blocks · " + ("pretty JSON" if self.pretty else "raw"),
                   f"{len(blocks)} block{'s' if len(blocks) != 1 else ''}" if blocks else self._no_blocks(s))

    @staticmethod
    def _no_blocks(s) -> str:
        if not s.closed:
            return "no content blocks yet"
        status = (s.response or {}).get("status")
        if isinstance(status, int) and status >= 400:
            return f"no content blocks: the answer was HTTP {status} (see the findings)"
        return "no content blocks"

    def _block_position(self, s, f) -> int | None:
        """Which panel a finding belongs on: the block its event touched, else the last block with its index."""
        if f.index is None:
            return None
        target = None
        if f.event is not None and 0 <= f.event < len(s.events):
            b = s.block_of(s.events[f.event])
            if b is not None and b.index == f.index:
                target = b
        if target is None:
            for b in reversed(s.blocks):
                if b.index == f.index:
                    target = b
                    break
        return None if target is None else target.pos

    def action_collapse_all(self) -> None:
        self._all_collapsed = not self._all_collapsed
        for p in self._panels:
            p.set_collapsed(self._all_collapsed)
        self._render_frame()

    def action_focus_pane(self, name: str) -> None:
        target = {"blocks": "#blocks", "findings": "#findings", "log": "#log"}[name]
        if name == "blocks" and self._panels:
            self._panels[0].focus()
        else:
            self.query_one(target).focus()

    def jump_to_finding(self, finding) -> None:
        """Select the finding's event in the log and bring its block panel into view, highlighted."""
        s = self.feed.session
        log = self.query_one(EventLog)
        if finding.event is not None:
            log.center_on(finding.event)
        pos = self._block_position(s, finding)
        if pos is None and finding.event is not None and 0 <= finding.event < len(s.events):
            b = s.block_of(s.events[finding.event])
            pos = b.pos if b is not None else None
        self._target_panel(pos)
        self._render_frame()

    def _target_panel(self, pos: int | None) -> None:
        for i, p in enumerate(self._panels):
            p.set_class(i == pos, "-target")
        if pos is not None and pos < len(self._panels):
            panel = self._panels[pos]
            if panel.collapsed:
                panel.set_collapsed(False)
            self.query_one("#blocks", BlocksPane).scroll_to_widget(panel, animate=False, top=True)

    def on_event_log_event_chosen(self, event: EventLog.EventChosen) -> None:
        """Enter on an event: the event in full; ``b`` there focuses its block."""
        show_event(self, event.index)

    def focus_block_of(self, index: int) -> None:
        """Bring the block event ``index`` touched into view and focus it."""
        s = self.feed.session
        if 0 <= index < len(s.events):
            b = s.block_of(s.events[index])
            pos = b.pos if b is not None else None
            self._target_panel(pos)
            if pos is not None:
                self._panels[pos].focus()

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
