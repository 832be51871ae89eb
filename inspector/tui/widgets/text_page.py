"""A page of read-only lines, wrapped to the widget's width and rendered virtually.

Why this module exists: the event detail view shows one event's whole payload and raw bytes; a
Responses ``response.completed`` event can hold the whole answer (hundreds of kilobytes). A
``Static`` would lay all of it out at once; this ``ScrollView`` wraps the lines when its width
changes and renders only the rows on screen (``render_line``), like the event log.

Lines are ``(text, kind)``: ``kind`` picks a component class (``textpage--heading``,
``textpage--muted``, ``textpage--marker``) or none. Every text is escaped on the way to the screen
(``inspector.tui.text.line``). Lines are wrapped, never cut: at spaces where a row has one, and
continuation rows keep the line's indentation (``wrap``), so pretty JSON stays readable at 80
columns.
"""
from __future__ import annotations

import re

from rich.cells import cell_len, chop_cells
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.tui.text import line, words

KINDS = ("heading", "muted", "marker")
_LABEL = re.compile(r"\S+ {2,}")
"""A label column (``time      …``): continuation rows start under the text after it."""


def wrap(text: str, width: int) -> list[str]:
    """``text`` as rows of at most ``width`` cells: cut at the last space of a row when there is
    one in its second half (words stay whole), else at the width (JSON strings, bytes).
    Continuation rows are indented like the text after a label column, or like the line itself
    (at most a third of the width)."""
    if cell_len(text) <= width:
        return [text]
    label = _LABEL.match(text)
    indent = label.end() if label else len(text) - len(text.lstrip(" "))
    indent = min(indent, width // 3)
    rows: list[str] = []
    rest, room = text, width
    while cell_len(rest) > room:
        piece = chop_cells(rest, room)[0]
        space = piece.rfind(" ")
        if space > len(piece) // 2 and piece[:space].strip():
            piece = piece[:space + 1]
        rows.append(piece if not rows else " " * indent + piece)
        rest = rest[len(piece):]
        room = max(1, width - indent)
    rows.append(rest if not rows else " " * indent + rest)
    return rows


class TextPage(ScrollView, can_focus=True):
    """``TextPage(lines)``: ``lines`` is a list of ``(text, kind)``; ``kind`` in :data:`KINDS` or ``""``."""

    BINDINGS = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown,space", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
    ]
    COMPONENT_CLASSES = {f"textpage--{k}" for k in KINDS}
    DEFAULT_CSS = """
    TextPage { overflow-x: hidden; }
    TextPage > .textpage--heading { color: $primary; text-style: bold; }
    TextPage > .textpage--muted { color: $text-muted; }
    TextPage > .textpage--marker { color: $warning; }
    """

    def __init__(self, lines: list[tuple[str, str]], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines = [(words(text), kind) for text, kind in lines]
        """The lines, escaped (a control character is written out before it is measured)."""
        self._rows: list[tuple[str, str]] = []
        """The wrapped rows: ``(text, kind)``."""
        self._starts: list[int] = []
        """Row where each line starts."""
        self._width = 0

    def row_of(self, line_index: int) -> int:
        """The first row of line ``line_index`` (after the page was laid out)."""
        return self._starts[line_index] if line_index < len(self._starts) else 0

    def scroll_to_line(self, line_index: int) -> None:
        """Scroll so that line ``line_index`` is the top row."""
        self.scroll_to(y=self.row_of(line_index), animate=False, force=True)

    def _wrap(self, width: int) -> None:
        rows: list[tuple[str, str]] = []
        starts = []
        for text, kind in self.lines:
            starts.append(len(rows))
            rows += [(piece, kind) for piece in wrap(text, width)]
        self._rows, self._starts, self._width = rows, starts, width
        self.virtual_size = Size(width, len(rows))

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width > 0 and width != self._width:
            self._wrap(width)
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width > 0 and width != self._width:
            self._wrap(width)
        index = self.scroll_offset.y + y
        base = self.rich_style
        if index >= len(self._rows):
            return Strip.blank(width, base)
        text, kind = self._rows[index]
        rendered = line([(text, self.get_component_rich_style(f"textpage--{kind}") if kind else None)])
        rendered.stylize_before(base)
        return Strip(list(rendered.render(self.app.console)), rendered.cell_len).crop_extend(0, width, base)

    def text(self) -> str:
        """Every line, joined (what tests and copy read)."""
        return "\n".join(t for t, _ in self.lines)
