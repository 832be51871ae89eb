"""Save the stream shown as a native capture: one path box (``s``).

Returns the path to write (or None when cancelled); asks for a second enter before replacing
an existing file. The app does the writing (``inspector.tui.copy_save``).
"""
from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label
from inspector.tui.text import one_line


class SaveFileScreen(ModalScreen[Path | None]):
    """Ask where to write ``what`` (a short description of the stream), starting from ``default``."""

    HELP_TITLE = "Save the stream"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: Path, what: str) -> None:
        super().__init__()
        self.default = default
        self.what = what
        self._confirm: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box") as box:
            box.border_title = "Save as a native capture"
            box.border_subtitle = "enter: save · esc: cancel"
            yield Label(one_line(self.what), id="save-what")
            yield Input(value=str(self.default), placeholder="file to write", id="save-path")
            yield Label("Secrets in headers, URLs and bodies are redacted before writing.", id="save-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._confirm = None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = Path(event.value.strip()).expanduser()
        hint = self.query_one("#save-hint", Label)
        if not event.value.strip() or path.is_dir():
            hint.update(one_line(f"{path}: give a file name, not a folder"))
            self.app.bell()
            return
        if not path.parent.is_dir():
            hint.update(one_line(f"{path.parent}: no such folder"))
            self.app.bell()
            return
        if path.exists() and self._confirm != path:
            self._confirm = path
            hint.update(one_line(f"{path.name} exists: enter again to replace it"))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
