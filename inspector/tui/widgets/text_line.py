"""A one-line text widget that repaints itself without asking for a new layout.

Why this module exists: ``Static.update``/``Label.update`` request a layout pass (their size may
change), and a layout pass repaints the whole screen. Lines that change on every frame (elapsed
time, delta counts) would then cost a full-screen render thirty times a second. A ``TextLine``
has a fixed height of one line, so changing its text only repaints that line.
"""
from __future__ import annotations

from textual.widget import Widget
from inspector.tui.text import Content, assemble, join, shown


class TextLine(Widget):
    """One line of styled ``Content``; :meth:`set` repaints only when the content changed."""

    DEFAULT_CSS = """
    TextLine {
        height: 1;
    }
    """

    def __init__(self, content: Content | str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._content = shown(content) if isinstance(content, str) else content

    @property
    def content(self) -> Content:
        return self._content

    def set(self, content: Content | str) -> None:
        content = shown(content) if isinstance(content, str) else content
        if content.plain != self._content.plain or content.spans != self._content.spans:
            self._content = content
            self.refresh()

    def render(self) -> Content:
        return self._content


class SplitLine(TextLine):
    """One line with a left part and a right-aligned part (e.g. a title and a status badge)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._right = shown("")

    def set_parts(self, left: Content, right: Content) -> None:
        if (left.plain, left.spans, right.plain, right.spans) != (
                self._content.plain, self._content.spans, self._right.plain, self._right.spans):
            self._content, self._right = left, right
            self.refresh()

    def render(self) -> Content:
        width = self.size.width
        room = width - self._right.cell_length
        left = self._content
        if left.cell_length > room - 1:
            left = left.truncate(max(0, room - 2), ellipsis=True)
        return assemble(left, " " * max(1, room - left.cell_length), self._right)


class PartsLine(TextLine):
    """One line of parts joined by `` · ``, most important first: a part that does not fit whole
    is left out with every part after it (never cut in the middle of a number)."""

    SEP = "  ·  "

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._parts: tuple[Content, ...] = ()

    def set_parts(self, parts: list[Content]) -> None:
        """``parts``: Content made by ``inspector.tui.text`` (``shown``), most important first."""
        parts_ = tuple(parts)
        if [p.plain for p in parts_] != [p.plain for p in self._parts]:
            self._parts = parts_
            self._content = join(self.SEP, parts_)
            self.refresh()

    def render(self) -> Content:
        width = self.size.width
        if not width or self._content.cell_length <= width:
            return self._content
        kept: list[Content] = []
        for part in self._parts:
            if join(self.SEP, [*kept, part]).cell_length > width:
                break
            kept.append(part)
        return join(self.SEP, kept) if kept else self._content.truncate(width, ellipsis=True)
