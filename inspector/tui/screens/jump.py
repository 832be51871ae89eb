"""Go to event N: a one-field modal that returns the event number (or None when cancelled)."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label
from inspector.tui.text import one_line


class JumpScreen(ModalScreen[int | None]):
    """Ask for an event number in ``0 .. last``."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, last: int | None, current: int) -> None:
        super().__init__()
        self.last = last
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="jump-box") as box:
            box.border_title = "Go to event"
            hint = f"0 – {self.last}" if self.last is not None and self.last >= 0 else "event number"
            yield Label(one_line(f"Event number ({hint}); now showing {self.current} events."), id="jump-hint")
            yield Input(placeholder=hint, type="integer", id="jump-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            n = int(event.value)
        except ValueError:
            self.app.bell()
            return
        self.dismiss(n)

    def action_cancel(self) -> None:
        self.dismiss(None)
