"""Every content block of the answer as one summary line, drawn virtually (only the lines on screen).

Why this module exists: an answer can hold thousands of blocks (1 250 short tool calls is a real
agent's turn); one widget subtree per block cost ~8.5 ms and ~300 KB each (issue 27). This
``ScrollView`` draws only the visible rows (``render_line``, as Textual's ``Log`` does) from the
frame's :class:`~inspector.tui.view_state.BlocksState`, so its cost follows the rows on screen,
not the blocks in the answer. One row per block: ``▸ #3 get_weather · tool_use · partial ✖1 ·
48 ch · stop tool_use``. A cursor picks the block whose detail (arguments, timing,
findings) the pane shows below the list; Enter expands or folds that detail.

Follow mode (on at start, End turns it back on, moving the cursor turns it off) keeps the block
being written under the cursor, so the detail shows the newest text as it arrives.
"""
from __future__ import annotations

from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.tui.text import line
from inspector.tui.view_state import BlockRow, BlocksState
from inspector.tui.widgets.virtual_size import set_virtual_size

SEVERITY_MARK = (("errors", "✖", "blocklist--error"), ("warnings", "▲", "blocklist--warning"),
                 ("infos", "●", "blocklist--info"))
STATUS_COMPONENT = {
    "-status-text": "blocklist--muted",
    "-status-empty": "blocklist--empty",
    "-status-partial": "blocklist--partial",
    "-status-complete": "blocklist--complete",
    "-status-invalid": "blocklist--invalid",
}


def size_text(chars: int) -> str:
    """Characters as a short size: ``48 ch``, ``12.3 k ch``, ``1.2 M ch``."""
    if chars < 10_000:
        return f"{chars:,} ch"
    if chars < 1_000_000:
        return f"{chars / 1000:.1f} k ch"
    return f"{chars / 1_000_000:.1f} M ch"


class BlockList(ScrollView, can_focus=True):
    """The summary rows of :class:`BlocksState`, a cursor over them and follow mode."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Previous block", show=False),
        Binding("down", "cursor(1)", "Next block", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First block", show=False),
        Binding("end", "last", "Last block, follow", tooltip="Last block; follow the block being written"),
        Binding("c,enter", "toggle_collapse", "Expand", tooltip="Show or fold the highlighted block's detail"),
    ]

    COMPONENT_CLASSES = {
        "blocklist--cursor", "blocklist--index", "blocklist--name", "blocklist--muted", "blocklist--empty",
        "blocklist--partial", "blocklist--complete", "blocklist--invalid", "blocklist--error",
        "blocklist--warning", "blocklist--info", "blocklist--target",
    }

    class Selected(Message):
        """The cursor moved to the block at ``pos`` (or the detail was expanded or folded)."""

        def __init__(self, pos: int | None) -> None:
            super().__init__()
            self.pos = pos

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: BlocksState | None = None
        self.rows: tuple[BlockRow, ...] = ()
        self.cursor: int | None = None
        """Row of the highlighted block (None: no blocks)."""
        self.follow = True
        """Keep the block being written (else the last block) under the cursor."""
        self.expanded = True
        """The highlighted block's detail is shown below the list."""
        self.target: int | None = None
        """Row marked as the target of a jump (a chosen finding or event)."""
        self._base: Style | None = None
        self._cache: LRUCache[tuple, Strip] = LRUCache(maxsize=256)

    # ------------------------------------------------------------ feeding
    def receive(self, state: BlocksState) -> None:
        """Show ``state`` (the frame's blocks); costs the rows on screen, not the rows in the state."""
        new_session = self.state is None or state.generation != self.state.generation
        old = self.rows
        self.state, self.rows = state, state.rows
        if new_session:
            self.target = None
        before = self.cursor
        if not self.rows:
            self.cursor = None
        elif self.follow:
            self.cursor = state.writing if state.writing is not None else len(self.rows) - 1
        elif self.cursor is None or self.cursor >= len(self.rows):
            self.cursor = len(self.rows) - 1
        set_virtual_size(self, Size(self.scrollable_content_region.width or 1, len(self.rows)))
        if self.cursor is not None and (self.cursor != before or len(old) != len(self.rows)):
            self._keep_cursor_visible()
        if old is not self.rows:
            self.refresh()
        if self.cursor != before or new_session:
            self.post_message(self.Selected(self.cursor))

    @property
    def selected(self) -> BlockRow | None:
        return None if self.cursor is None or self.cursor >= len(self.rows) else self.rows[self.cursor]

    def select(self, pos: int | None, *, target: bool = False) -> None:
        """Put the cursor on the block at ``pos`` (stops following); ``target``: mark it as a jump's target."""
        if pos is None or not 0 <= pos < len(self.rows):
            self.target = None
            self.refresh()
            return
        self.follow = False
        self.target = pos if target else None
        self.expanded = True
        self._move(pos)

    # ------------------------------------------------------------ keys
    def action_cursor(self, step: int) -> None:
        if self.cursor is not None:
            self.follow = False
            self._move(max(0, min(len(self.rows) - 1, self.cursor + step)))

    def action_page(self, pages: int) -> None:
        self.action_cursor(pages * max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        if self.rows:
            self.follow = False
            self._move(0)

    def action_last(self) -> None:
        """The last block, and follow the block being written from now on."""
        self.follow = True
        if self.rows:
            writing = self.state.writing if self.state is not None else None
            self._move(writing if writing is not None else len(self.rows) - 1)

    def action_toggle_collapse(self) -> None:
        self.expanded = not self.expanded
        self.refresh()
        self.post_message(self.Selected(self.cursor))

    def _move(self, row: int) -> None:
        self.cursor = row
        self._keep_cursor_visible()
        self.refresh()
        self.post_message(self.Selected(row))

    def _keep_cursor_visible(self) -> None:
        if self.cursor is not None:
            self.scroll_to_region(Region(0, self.cursor, 1, 1), animate=False, force=True, immediate=True)

    def on_click(self, event) -> None:
        row = self.scroll_offset.y + event.y
        if 0 <= row < len(self.rows):
            if row == self.cursor:
                self.action_toggle_collapse()
            else:
                self.follow = False
                self._move(row)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ------------------------------------------------------------ drawing
    def _base_style(self) -> Style:
        """``rich_style`` (walks every ancestor's styles: costly per line), kept until the styles change."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def notify_style_update(self) -> None:
        self._base = None
        self._cache.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self._base_style()
        if index >= len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        current = index == self.cursor
        key = (row, current, current and self.expanded, index == self.target, self.has_focus)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._draw(row, current, index == self.target, base)
            self._cache[key] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _draw(self, row: BlockRow, current: bool, target: bool, base: Style) -> Strip:
        style = self.get_component_rich_style
        muted = style("blocklist--muted")
        arrow = ("▾ " if self.expanded else "▸ ") if current else "  "
        where = f"#{row.block_index}" if row.block_index is not None else "#?"
        if row.choice is not None:
            where = f"c{row.choice}{where}"
        pieces: list[tuple[str, Style | None]] = [(arrow, None), (where, style("blocklist--index")), (" ", None)]
        if row.name:
            pieces += [(row.name, style("blocklist--name")), (" · ", muted)]
        pieces.append((row.kind, None))
        if row.status_class != "-status-text":  # a text block's status is its kind and size
            pieces += [(" · ", muted), (row.status, style(STATUS_COMPONENT[row.status_class]))]
        if row.state != "closed":
            pieces += [(f" ({row.state})", muted)]
        # The finding marks before the size and the stop: a narrow pane cuts the row from the right.
        for attr, mark, component in SEVERITY_MARK:
            n = getattr(row, attr)
            if n:
                pieces += [(f" {mark}{n}", style(component))]
        pieces += [(" · ", muted), (size_text(row.chars), muted)]
        if row.stop:
            pieces += [(" · ", muted), (f"stop {row.stop}", None)]
        text = line(pieces)
        text.stylize_before(base)
        if current:
            text.stylize(style("blocklist--cursor"))
        elif target:
            text.stylize(style("blocklist--target"))
        return Strip(list(text.render(self.app.console)), text.cell_len)
