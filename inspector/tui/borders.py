"""Pane borders: titles and subtitles set only when they change (each change repaints the pane)."""
from __future__ import annotations
from inspector.tui.text import one_line


def set_border(widget, title: str, subtitle: str) -> None:
    """Set ``widget``'s border title and subtitle unless they already say that."""
    if getattr(widget, "_si_border", None) != (title, subtitle):
        widget._si_border = (title, subtitle)
        widget.border_title = one_line(title)
        widget.border_subtitle = one_line(subtitle)
