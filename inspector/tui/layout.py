"""Sizes the inspector adapts to, and the panes it lays out (issue 12: every size readable).

Textual sets a class on the screen for the width and the height it has (``App``'s
``HORIZONTAL_BREAKPOINTS`` / ``VERTICAL_BREAKPOINTS``); ``app.tcss`` lays the panes out per class:
below ``MEDIUM`` columns they stack, from ``WIDE`` the side column widens. Widgets that format
their own lines (the header, the event log, the findings, the exchange list) read their width
instead. A :class:`Pane` can be maximised to the whole screen (``z``); :class:`FittedFooter`
fits more keys into a narrow terminal.
"""
from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

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


class FittedFooter(Footer):
    """The footer, compact and without the palette hint below ``MEDIUM`` columns so that more
    keys fit at 80 columns (ctrl+p still opens the palette; ``?`` lists every key).

    Cheaper than Textual's: every change of focus or screen asks a footer to recompose (~40 ms of
    widgets and styles for the inspector's keys, three times while the app starts); this one
    recomposes at most once per refresh and only when the keys it would show changed, and its
    keys are built in their final style (no restyling per key on mount)."""

    _recompose_pending = False
    _composed: tuple | None = None
    """What the last compose showed (see ``_shown``)."""

    def _shown(self) -> tuple:
        """Everything the composed keys depend on."""
        if not self._bindings_ready:
            return ()
        keys = tuple((b.key, b.action, b.description, b.group, b.show, enabled, tooltip)
                     for _, b, enabled, tooltip in self.screen.active_bindings.values())
        return keys, self.compact, self.show_command_palette

    def compose(self) -> ComposeResult:
        self._composed = self._shown()
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # The compact style set before mounting: Textual's keys start compact and are then
                # bound to the footer's value, restyling each one twice. The palette key is not bound.
                compact = self.compact or widget.has_class("-command-palette")
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._recompose_pending:
            return
        if self.is_attached and screen is self.screen:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._recompose_pending = False
        if self.is_attached and self._shown() != self._composed:
            await self.recompose()

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < MEDIUM
        if self.compact != narrow:
            self.compact = narrow
            self.show_command_palette = not narrow
            self.refresh(recompose=True)
