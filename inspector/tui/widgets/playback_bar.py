"""The transport line: play state, speed, where we are in the stream, a seek bar, follow mode.

Why this module exists: replay is only useful when you can see and move the playhead. The bar
shows ``▶ playing ×50 · event 57 / 158 · t 3.9 / 336.8 s`` and a proportional bar over the
events; clicking the bar seeks to that event (the app does the seeking). The app hands it a
``PlaybackState`` each frame (``inspector.tui.frame``).
"""
from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widget import Widget
from inspector.tui.frame import PlaybackState
from inspector.tui.text import Content, assemble, shown


class PlaybackBar(Widget):
    """One-line transport display; posts :class:`SeekRequested` when clicked."""

    class SeekRequested(Message):
        """The user clicked the bar at ``fraction`` (0..1) of the events."""

        def __init__(self, fraction: float) -> None:
            self.fraction = fraction
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._state: PlaybackState | None = None
        self._bar_x = (0, 0)

    def receive(self, state: PlaybackState) -> None:
        """Show ``state`` (``inspector.tui.frame``); repaints only when a value changed at the
        tenth of a second the line shows."""
        if self._state is None or _rounded(state) != _rounded(self._state):
            self._state = state
            self.refresh()

    def render(self) -> Content:
        s = self._state
        if s is None:
            return shown("")
        width = self.size.width
        left: list = [(f" {s.play} ", "bold $accent")]
        if not s.live:
            speed = "instant" if s.instant else f"×{s.speed:g}"
            left.append((f"{speed}  ", ""))
        total = s.total
        n_shown = s.events
        # The newest event shown, numbered from 0 as in findings and the log; then how many of how many.
        waiting = "no events" if s.ended else (
            "waiting for the first event" if s.live else "no event yet")
        ev = (f"event {n_shown - 1}" if n_shown else waiting) + (
            f"  ({n_shown} of {total})" if total is not None else "")
        left.append((ev, "bold"))
        now, dur = s.now, s.duration
        if now is not None:
            left.append((f"  ·  t {now:.1f}" + (f" / {dur:.1f} s" if dur is not None else " s"), ""))
        right: list = []
        silence, stall = s.silence, s.stall
        if silence is not None and stall and silence >= stall / 2:
            right.append((f" silent {silence:.1f} s ", "bold $background on $warning" if silence >= stall else "$warning"))
        right.append(("  follow" if s.follow else "  no-follow", "$success" if s.follow else "$text-muted"))
        if s.sources > 1:
            right.append((f"  ·  {s.source_index + 1}/{s.sources} [ ]", "$text-muted"))
        left_c = assemble(*left, ("  ", ""))
        right_c = assemble(*right, (" ", ""))
        room = width - left_c.cell_length - right_c.cell_length
        if room >= 8 and total:
            frac = min(1.0, s.events / total) if total else 0.0
            filled = int(frac * room)
            self._bar_x = (left_c.cell_length, left_c.cell_length + room)
            bar = assemble(("━" * filled, "$accent"), ("╸" if filled < room else "", "$accent"),
                                   ("─" * max(0, room - filled - 1), "$text-muted"))
            return assemble(left_c, bar, right_c)
        self._bar_x = (0, 0)
        pad = shown(" " * max(0, room))
        return assemble(left_c, pad, right_c)

    def on_click(self, event: events.Click) -> None:
        a, b = self._bar_x
        if b > a and a <= event.x < b:
            self.post_message(self.SeekRequested((event.x - a) / max(1, b - a - 1)))


def _rounded(state: PlaybackState) -> tuple:
    """``state`` as the line shows it: seconds to the tenth."""
    return tuple(round(v, 1) if isinstance(v, float) else v for v in state)
