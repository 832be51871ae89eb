"""A first line and an indented body that wraps under itself: a hanging indent.

Why this module exists: a finding (or a help row) is a heading line and a longer message; when
the message wraps, its continuation lines must line up under its first word, not start at column
0, or a list of findings reads as one block of text. Textual ``Content`` wraps at words but has
no indent of its own, so this ``Visual`` renders the body narrower and pads it.
"""
from __future__ import annotations

from textual.css.styles import RulesMap
from textual.geometry import Spacing
from textual.strip import Strip
from textual.style import Style
from textual.visual import Padding, RenderOptions, Visual
from inspector.tui.text import Content


class Hanging(Visual):
    """``head`` (wrapped at words), then ``body`` wrapped at words ``indent`` cells in."""

    def __init__(self, head: Content, body: Content, indent: int = 2) -> None:
        self.head = head
        self.body = body
        self._padded = Padding(body, Spacing(0, 0, 0, indent))
        self.plain = f"{head.plain}\n{' ' * indent}{body.plain}"
        """The text as one string (search, copy and tests read it)."""

    def __str__(self) -> str:
        return self.plain

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return [*self.head.render_strips(width, None, style, options),
                *self._padded.render_strips(width, None, style, options)]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max(self.head.get_optimal_width(rules, container_width),
                   self._padded.get_optimal_width(rules, container_width))

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.head.get_height(rules, width) + self._padded.get_height(rules, width)


class Rows(Visual):
    """Rows of ``(label, text)``: each text after its label, wrapped under its own first word; the
    texts line up at the widest label (a key column, a bullet)."""

    def __init__(self, rows: list[tuple[Content, Content]]) -> None:
        self.rows = rows
        self._indent = max((label.cell_length for label, _ in rows), default=0)
        self._padded = [Padding(text, Spacing(0, 0, 0, self._indent)) for _, text in rows]
        self.plain = "\n".join(f"{label.plain}{text.plain}" for label, text in rows)

    def __str__(self) -> str:
        return self.plain

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        if width <= self._indent:
            return []
        out: list[Strip] = []
        for (label, _), padded in zip(self.rows, self._padded):
            strips = padded.render_strips(width, None, style, options)
            if strips and self._indent:
                mark = label.render_strips(self._indent, None, style, options)[0]
                strips[0] = Strip.join([mark.extend_cell_length(self._indent), strips[0].crop(self._indent, width)])
            out += strips
        return out

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((p.get_optimal_width(rules, container_width) for p in self._padded), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return sum(p.get_height(rules, width) for p in self._padded)


def bulleted(items: list[Content], marker: Content) -> Rows:
    """``items`` as a bulleted list, each wrapped under its own first word."""
    return Rows([(marker, item) for item in items])
