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
from textual.containers import Vertical
from textual.widgets import Footer

MEDIUM = 110
"""Columns from which the panes sit side by side."""
WIDE = 170
"""Columns from which the side column (findings, events) gets the larger share."""
TALL = 36
"""Rows from which the event log gets the larger share of the side column."""

HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MEDIUM, "-medium"), (WIDE, "-wide")]
VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]


class Pane(Vertical):
    """A bordered pane of the main screen that ``z`` can maximise."""

    ALLOW_MAXIMIZE = True


class FittedFooter(Footer):
    """The footer, compact and without the palette hint below ``MEDIUM`` columns so that more
    keys fit at 80 columns (ctrl+p still opens the palette; ``?`` lists every key)."""

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < MEDIUM
        if self.compact != narrow:
            self.compact = narrow
            self.show_command_palette = not narrow
            self.refresh(recompose=True)
