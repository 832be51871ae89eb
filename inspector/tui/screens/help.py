"""The help screen: every key binding of the app and its panes, generated from the binding tables.

Why this module exists: a screen of keys that is written by hand drifts from the code; this one
is built from the same ``Binding`` lists the app and widgets use, so it is always complete.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from inspector.tui.widgets.hanging import Rows
from inspector.tui.text import one_line, shown

KEY_NAMES = {
    "full_stop": ".", "comma": ",", "plus": "+", "equals_sign": "=", "minus": "-", "slash": "/",
    "question_mark": "?", "left_square_bracket": "[", "right_square_bracket": "]", "space": "space",
    "escape": "esc", "enter": "enter", "pageup": "pgup", "pagedown": "pgdn",
}


def key_text(binding: Binding) -> str:
    """``full_stop,right`` -> ``. / right``; honours ``key_display`` for the first key."""
    keys = [k.strip() for k in binding.key.split(",")]
    shown = [KEY_NAMES.get(k, k) for k in keys]
    if binding.key_display:
        shown[0] = binding.key_display
    return " / ".join(dict.fromkeys(shown))


class HelpScreen(ModalScreen[None]):
    """Lists ``groups``: ``[(title, [(keys, description), ...]), ...]``."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close", key_display="esc"),
    ]

    def __init__(self, groups: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys"
            body.border_subtitle = "esc to close · ctrl+p: every command by name"
            for title, rows in self.groups:
                yield Label(one_line(title), classes="help-group")
                width = max((len(k) for k, _ in rows), default=4) + 2
                yield Static(Rows([(shown(k.ljust(width), "bold $accent"), shown(d)) for k, d in rows]),
                             classes="help-rows")

    def action_dismiss(self) -> None:  # type: ignore[override]  # the key closes it with no result
        self.dismiss(None)
