"""Grow a line-API widget's virtual size without a screen-wide layout pass when nothing moves.

Why this module exists: ``Widget.virtual_size`` is a layout reactive, so every new line in the
event log or an argument pane would trigger a layout pass and a full-screen repaint, thirty times
a second during a fast stream. When the widget's own size cannot change (its content already
overflows it and a vertical scrollbar is already shown), updating the scrollbars is enough.
"""
from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget


def set_virtual_size(widget: Widget, size: Size) -> None:
    """Set ``widget.virtual_size``; skip the layout pass when the widget's geometry is unaffected."""
    old = widget.virtual_size
    if old == size:
        return
    height = widget.scrollable_content_region.height
    if (widget.is_mounted and widget.show_vertical_scrollbar and old.width == size.width
            and height > 0 and old.height > height and size.height > height):
        widget.set_reactive(Widget.virtual_size, size)
        widget._scroll_update(size)  # scrollbar window sizes (what a layout pass would do)
        widget.refresh()
    else:
        widget.virtual_size = size
