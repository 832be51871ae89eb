"""Open a capture from inside the inspector: a path box over a directory tree (``o``).

Why this module exists: looking at one capture usually leads to the next (the run before, the
one a colleague sent); leaving the TUI to type a new command loses the place. The screen returns
the chosen file's path (or None when cancelled); the app opens it in the background
(``inspector.tui.opening``). Hidden files and folders are left out of the tree.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DirectoryTree, Input, Label
from inspector.tui.text import one_line


class CaptureTree(DirectoryTree):
    """A directory tree without hidden entries."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")]


class OpenFileScreen(ModalScreen[Path | None]):
    """Pick a capture: type a path (enter) or choose a file in the tree (enter / click)."""

    HELP_TITLE = "Open a capture"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+u", "parent", "Parent folder", tooltip="Show the folder above in the tree"),
    ]

    def __init__(self, start: Path | None = None) -> None:
        super().__init__()
        self.start = (start or Path.cwd()).resolve()

    def compose(self) -> ComposeResult:
        with Vertical(id="open-box") as box:
            box.border_title = "Open a capture"
            box.border_subtitle = "enter: open · tab: tree / path · ctrl+u: parent folder · esc: cancel"
            yield Label("Native capture, pasted SSE, NDJSON or HAR: detected from the content.", id="open-hint")
            yield Input(value=f"{self.start}/", placeholder="path to a capture", id="open-path")
            yield CaptureTree(self.start, id="open-tree")

    def on_mount(self) -> None:
        self.query_one("#open-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = Path(event.value).expanduser()
        if path.is_dir():
            self.query_one(CaptureTree).path = path.resolve()
            self.query_one("#open-hint", Label).update(one_line(f"{path}: a folder; pick a file in the tree"))
            return
        if not path.is_file():
            self.query_one("#open-hint", Label).update(one_line(f"{path}: no such file"))
            self.app.bell()
            return
        self.dismiss(path)

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self.dismiss(Path(event.path))

    def on_directory_tree_directory_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        self.query_one("#open-path", Input).value = f"{event.path}/"

    def action_parent(self) -> None:
        tree = self.query_one(CaptureTree)
        parent = Path(tree.path).resolve().parent
        tree.path = parent
        self.query_one("#open-path", Input).value = f"{parent}/"

    def action_cancel(self) -> None:
        self.dismiss(None)
