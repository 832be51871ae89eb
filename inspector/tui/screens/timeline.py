"""The timeline screen: every block on one time axis (see ``widgets/timeline_chart.py``).

A full screen rather than a pane because the time axis needs the terminal's whole width. The
app keeps feeding it on its frame timer while it is shown, so a replay can be watched here too.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label

from inspector.tui.widgets.timeline_chart import TimelineChart
from inspector.tui.layout import FittedFooter
from inspector.tui.text import one_line


class TimelineScreen(Screen[None]):
    """Shows a :class:`TimelineChart`; the app calls :meth:`update_from` every frame."""

    BINDINGS = [Binding("escape,t", "close", "Back", key_display="esc")]

    def compose(self) -> ComposeResult:
        yield Label("", id="timeline-title")
        with VerticalScroll(id="timeline-body"):
            yield TimelineChart(id="timeline-chart")
        yield Label("░▒▓█ bytes in that slice of time (darker = more)   ─ block open, no bytes   ━ stall (no bytes ≥ --stall)   │ playhead",
                    id="timeline-legend")
        yield FittedFooter()

    def update_from(self, session, *, label: str, start: float, end: float, now: float | None) -> None:
        n = len(session.blocks)
        self.query_one("#timeline-title", Label).update(one_line(
            f" Timeline · {label} · {n} block{'' if n == 1 else 's'} · {start:.1f} – {end:.1f} s"))
        self.query_one(TimelineChart).show(session, start=start, end=end, now=now)

    def action_close(self) -> None:
        self.dismiss(None)
