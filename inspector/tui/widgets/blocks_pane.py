"""The blocks pane: every block's summary row above, the highlighted block's detail below.

Why this module exists: the list (:class:`~inspector.tui.widgets.block_list.BlockList`) and the
detail (:class:`~inspector.tui.widgets.block_panel.BlockPanel`) are one pane: the detail shows
the block under the list's cursor, and the pane's border says how many blocks there are. Each
frame the list receives the ``BlocksState`` and then this pane its ``BlockDetailState``
(``inspector.tui.frame``); the pane binds the one detail panel to the highlighted block, again
whenever the list's cursor moves. The pane costs the rows on screen plus one detail, whatever the
number of blocks (issue 27).
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.message import Message

from inspector.tui.borders import set_border
from inspector.tui.frame import BlockDetailState
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.block_panel import BlockPanel


class BlocksPane(Vertical):
    """The blocks pane (``z`` maximises it); receives :class:`BlockDetailState` each frame."""

    ALLOW_MAXIMIZE = True

    class NeedsFrame(Message):
        """The detail could not be drawn yet (not mounted): draw the next frame even if nothing moves."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._state: BlockDetailState | None = None

    def compose(self) -> ComposeResult:
        yield BlockList(id="block-list")
        yield BlockPanel(id="block-detail")

    def receive(self, state: BlockDetailState) -> None:
        """Bind the detail to the highlighted block and bring it and the border up to date (each
        is skipped when what it shows did not change)."""
        self._state = state
        self.show_selected()

    def show_selected(self) -> None:
        """The detail of the block under the list's cursor, and the border (also when it moved)."""
        state = self._state
        if state is None:
            return
        self._bind_detail(state)
        self._border(state)

    def _border(self, state: BlockDetailState) -> None:
        """The pane's title (raw or pretty) and subtitle (how many blocks, following or not)."""
        blocks = state.blocks
        n = len(blocks.rows)
        follow = self.query_one(BlockList).follow
        sub = (f"{n:,} block{'s' if n != 1 else ''} · " + ("following" if follow else "end: follow")) \
            if n else blocks.empty_note
        set_border(self, "Blocks · " + ("pretty JSON" if blocks.pretty else "raw"), sub)

    def _bind_detail(self, state: BlockDetailState) -> None:
        blocks = self.query_one(BlockList)
        panel = self.query_one(BlockPanel)
        row = blocks.selected
        shown = row is not None and blocks.expanded and row.pos < len(state.items)
        if panel.display != shown:
            panel.display = shown
            self.set_class(not blocks.expanded, "-folded")
        if row is None or not shown:
            return
        b = state.items[row.pos]
        panel.bind(b)
        panel.findings = state.findings.get(b.pos, [])
        if b.tool:
            rules = state.declared
            panel.bind_declared(rules.tool_for(b), rules.violations.get(b.pos, ()), state.show_schema)
        if panel.is_mounted:
            panel.sync(state.blocks.pretty, throttle=state.moving)
        else:
            self.post_message(self.NeedsFrame())

    def on_block_list_selected(self, _: BlockList.Selected) -> None:
        try:
            self.show_selected()
        except NoMatches:
            pass  # the app is tearing its widgets down
