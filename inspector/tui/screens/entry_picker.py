"""Which stream of a HAR to inspect: a list of its streamed entries (method, URL, status, size).

Why this module exists: a HAR exported from a browser or a proxy holds every request of a
session, often several streamed answers; on the command line ``--entry N`` picks one, in the TUI
this list does. Returns the chosen entry number, or None when cancelled.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option
from inspector.tui.text import one_line


class EntryPickerScreen(ModalScreen[int | None]):
    """``choices``: ``[(entry number, description)]`` of the streamed entries of ``name``."""

    HELP_TITLE = "Choose a stream"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str, choices: list[tuple[int, str]]) -> None:
        super().__init__()
        self.file_name = name
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="entry-box") as box:
            box.border_title = one_line(f"{self.file_name}: {len(self.choices)} streams")
            box.border_subtitle = "enter: inspect it · esc: cancel"
            yield Label("This HAR holds several streamed answers. Which one?", id="entry-hint")
            yield OptionList(*(Option(one_line(text), id=str(n)) for n, text in self.choices), id="entry-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:  # every option has its entry number as id
            self.dismiss(int(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)
