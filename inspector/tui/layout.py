"""Sizes the inspector adapts to, and the panes it lays out (issue 12: every size readable).

Textual sets a class on the screen for the width and the height it has (``App``'s
``HORIZONTAL_BREAKPOINTS`` / ``VERTICAL_BREAKPOINTS``); ``app.tcss`` lays the panes out per class:
below ``MEDIUM`` columns they stack, from ``WIDE`` the side column widens. Widgets that format
their own lines (the header, the event log, the findings, the exchange list) read their width
instead. A :class:`Pane` can be maximised to the whole screen (``z``); :class:`FittedFooter`
fits more keys into a narrow terminal.
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from textual import events
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.geometry import Size
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from inspector.tui.text import segment

PINNED = ("help", "close", "quit", "quit_app")
"""Actions whose keys the footer keeps in view on the right at any width (a screen's close is its way out)."""
MEDIUM = 110
"""Columns from which the panes sit side by side."""
WIDE = 170
"""Columns from which the side column (findings, events) gets the larger share."""
TALL = 36
"""Rows from which the event log gets the larger share of the side column."""

HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MEDIUM, "-medium"), (WIDE, "-wide")]
VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]


def breakpoint_classes(size: Size) -> dict[str, bool]:
    """The breakpoint classes Textual gives a screen of ``size`` (each class: on or off).

    A screen gets them at its first resize, after its widgets were mounted and styled, and then
    styles every widget again; a screen that has them from the start is styled once."""
    classes = {name: False for _, name in HORIZONTAL_BREAKPOINTS + VERTICAL_BREAKPOINTS}
    for extent, breakpoints in ((size.width, HORIZONTAL_BREAKPOINTS), (size.height, VERTICAL_BREAKPOINTS)):
        classes[max(b for b in breakpoints if extent >= b[0])[1]] = True
    return classes


class Pane(Vertical):
    """A bordered pane of the main screen that ``z`` can maximise."""

    ALLOW_MAXIMIZE = True


class FittedFooter(Widget, can_focus=False):
    """The key bar at the bottom: every key the screen's bindings show, as Textual's ``Footer``
    draws them, compact below ``MEDIUM`` columns so that more keys fit at 80 columns; help, quit
    and the palette key are docked on the right and stay in view at any width (the palette key
    without its description when compact; ``?`` lists every key).

    One widget that draws all its keys on one line, instead of Textual's footer of one widget per
    key: that footer composes, styles and lays out a dozen widgets again on every change of focus
    or screen (~40 ms each time, twice while the inspector starts); this one redraws a line. The
    colours come from the same theme variables (``$footer-*``) through the same cascade: a key
    (``fitted-footer--item``, with ``-hover`` or ``-disabled``) holds its key text
    (``fitted-footer--key``) and description (``fitted-footer--description``), styled by the app's
    stylesheet as node chains that are never mounted. Clicking a key presses it (a disabled one
    rings the bell), hovering shows its tooltip, the mouse wheel scrolls keys that do not fit.
    Binding groups (which the inspector does not use) are shown key by key."""

    ALLOW_SELECT = False

    DEFAULT_CSS = """
    FittedFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    FittedFooter > .fitted-footer--item {
        background: $footer-item-background;
        &.-hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-disabled {
            text-style: dim;
        }
        & > .fitted-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .fitted-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .fitted-footer--border {
            color: $foreground 20%;
        }
    }
    """

    compact = reactive(False, toggle_class="-compact")
    """Compact keys (no padding around the key, one cell between keys): below ``MEDIUM`` columns."""
    show_command_palette = reactive(True)
    """The palette key's description, on the right (not when compact: the key alone)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._bindings_ready = False
        self._items: list[_FooterItem] | None = None
        """The keys drawn, left to right, the palette key last (None: measure again)."""
        self._styles: dict[tuple, Style] = {}
        """Rich style per (part, hover, disabled), from the stylesheet (see ``_style``)."""
        self._hover: int | None = None
        """Index in ``_items`` of the key under the mouse."""
        self._offset = 0
        """Cells scrolled to the right (the mouse wheel, when the keys do not fit)."""

    # ------------------------------------------------------------ bindings
    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return  # the terminal lost focus: Textual reports no bindings then (as its footer does)
        if self.is_attached and screen is self.screen:
            items = self._read_items()
            if items != self._items:
                self._items = items
                self._hover = None
                self.refresh()

    def _read_items(self) -> list[_FooterItem]:
        """The keys to draw from the screen's active bindings (one per action, as ``Footer``)."""
        if not self._bindings_ready:
            return []
        active = self.screen.active_bindings
        items: list[_FooterItem] = []
        pinned: list[_FooterItem] = []
        seen: set[str] = set()
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                pin = binding.action in PINNED
                (pinned if pin else items).append(_FooterItem(
                    binding.key, self.app.get_key_display(binding), binding.description, not enabled, tooltip or "",
                    palette=False, docked=pin, action=binding.action))
        pinned.sort(key=lambda it: PINNED.index(it.action))
        if self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, _ = found
                pinned.append(_FooterItem(binding.key, self.app.get_key_display(binding),
                                          binding.description if self.show_command_palette else "",
                                          not enabled, binding.tooltip or binding.description, palette=True,
                                          docked=True))
        return items + pinned

    # ------------------------------------------------------------ styles
    def notify_style_update(self) -> None:
        self._styles.clear()  # a theme or class change: read the colours again
        super().notify_style_update()

    def _style(self, part: str, hover: bool, disabled: bool) -> Style:
        """The rich style of ``part`` (``item``, ``key``, ``description``, ``border``, ``padding``) of a key."""
        key = (part, hover, disabled)
        style = self._styles.get(key)
        if style is None:
            stylesheet = self.app.stylesheet
            item = DOMNode(classes="fitted-footer--item" + (" -hover" if hover else "")
                           + (" -disabled" if disabled else ""))
            item._attach(self)
            stylesheet.apply(item, animate=False)
            if part == "item":
                style = item.rich_style
            elif part == "padding":  # the background only, as Textual pads a widget
                style = Style(bgcolor=(self.rich_style + item.rich_style).bgcolor)
            else:
                node = DOMNode(classes=f"fitted-footer--{part}")
                node._attach(item)
                stylesheet.apply(node, animate=False)
                style = item.rich_style + node.rich_style
            self._styles[key] = style
        return style

    # ------------------------------------------------------------ drawing
    def _cells(self) -> list[tuple[int, int, list[tuple[str, Style]]]]:
        """Each key's ``(x, width, pieces)`` in the line: keys from the left (scrolled by ``_offset``),
        the docked keys (help, quit, the palette) on the right, always in view."""
        items = self._items or []
        compact = self.compact
        out = []
        x = -self._offset
        for i, it in enumerate(items):
            hover, off = i == self._hover, it.disabled
            key_style, desc_style = self._style("key", hover, off), self._style("description", hover, off)
            if it.docked:
                # Textual's palette key look: a border on its left, padding on its right.
                pieces = [("▏", self._style("border", hover, off)), (it.display, key_style)]
                if it.description:
                    pieces.append((" " + it.description, desc_style))
                pieces.append((" ", self._style("padding", hover, off)))
            elif compact:
                pieces = [(it.display, key_style)] + ([(" " + it.description, desc_style)] if it.description else [])
            else:
                pieces = [(f" {it.display} ", key_style)] + ([(it.description + " ", desc_style)] if it.description else [])
            w = sum(cell_len(t) for t, _ in pieces)
            out.append((0 if it.docked else x, w, pieces))
            if not it.docked:
                x += w + (1 if compact else 0)
        docked_x = self.size.width - sum(w for (_, w, _), it in zip(out, items) if it.docked)
        for i, ((_, w, pieces), it) in enumerate(zip(out, items)):
            if it.docked:
                out[i] = (docked_x, w, pieces)
                docked_x += w
        return out

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        blank = Style(bgcolor=base.bgcolor)  # empty cells carry the background only (as Textual's)
        if y or not self._items:
            return Strip.blank(width, blank)
        keys: list = []
        palette: list = []
        cells = self._cells()
        room = max(0, width - sum(w for (_, w, _), item in zip(cells, self._items) if item.docked))
        for (x, w, pieces), item in zip(cells, self._items):
            into = palette if item.docked else keys
            if into is keys and self._offset == 0 and x + w > room:
                continue  # a key that does not fit whole is left out (the wheel scrolls to it)
            if keys and into is keys and self.compact:
                keys.append(segment(" ", blank))
            into += [segment(text, style if style.color is None else base + style) for text, style in pieces]
        line = Strip(keys).crop(self._offset, self._offset + room).extend_cell_length(room, blank)
        return Strip.join([line, Strip(palette)]).crop(0, width).extend_cell_length(width, blank)

    def _item_at(self, x: int) -> int | None:
        for i, (left, w, _) in enumerate(self._cells()):
            if left <= x < left + w:
                return i
        return None

    # ------------------------------------------------------------ mouse
    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = self._item_at(event.x)
        if hover != self._hover:
            self._hover = hover
            self.tooltip = None if hover is None or self._items is None else (self._items[hover].tooltip or None)
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        i = self._item_at(event.x)
        if i is None or self._items is None:
            return
        item = self._items[i]
        if item.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(item.key)

    def _scroll(self, cells: int) -> None:
        cells_ = self._cells()
        keys = [c for c, it in zip(cells_, self._items or []) if not it.docked]
        room = self.size.width - sum(c[1] for c, it in zip(cells_, self._items or []) if it.docked)
        total = (keys[-1][0] + keys[-1][1] + self._offset) if keys else 0
        offset = max(0, min(self._offset + cells, total - room))
        if offset != self._offset:
            self._offset = offset
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll(4)
        event.stop()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll(-4)
        event.stop()

    # ------------------------------------------------------------ size
    def _watch_compact(self) -> None:
        self._items = self._read_items() if self.is_attached else None
        self._offset = 0
        self.refresh()

    def _watch_show_command_palette(self) -> None:
        self._watch_compact()

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < MEDIUM
        if self.compact != narrow:
            self.compact = narrow
            self.show_command_palette = not narrow


@dataclass(frozen=True)
class _FooterItem:
    """One key of :class:`FittedFooter`: the key pressed when clicked, as shown, its description."""

    key: str
    display: str
    description: str
    disabled: bool
    tooltip: str
    palette: bool
    docked: bool = False
    """Drawn on the right, always in view (help, quit, the palette key)."""
    action: str = ""
