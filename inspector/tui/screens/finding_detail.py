"""Finding detail: what the rule means, what to do about it, and the event that triggered it.

Why this module exists: a finding's one-line message says what happened here; a person new to
the protocol also needs the rule in full (``RULES[code].explain``, from the project's rule
catalog), practical advice (``inspector.tui.advice``), and the raw event in front of them.
"""
from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from inspector.model.catalog import RULES
from inspector.session.advice import advice_for
from inspector.tui.screens.compare import bundled_compare_screen

STYLE = {"error": "$error", "warning": "$warning", "info": "$primary"}
MAX_EVENT_LINES = 40


def event_text(ev) -> str:
    """The event's data, pretty-printed when it is JSON, cut to ``MAX_EVENT_LINES`` lines."""
    try:
        text = json.dumps(json.loads(ev.data), indent=2, ensure_ascii=False)
    except (ValueError, TypeError):
        text = ev.data
    lines = text.splitlines()
    if len(lines) > MAX_EVENT_LINES:
        lines = lines[:MAX_EVENT_LINES] + [f"… {len(lines) - MAX_EVENT_LINES} more lines"]
    lines = [line if len(line) <= 400 else line[:400] + "…" for line in lines]
    # Keep the indentation visible when a long line wraps (wrapping drops leading spaces).
    return "\n".join("\u00a0" * (len(line) - len(line.lstrip(" "))) + line.lstrip(" ") for line in lines)


class FindingDetailScreen(ModalScreen[bool]):
    """Dismisses with True when the user asks to jump to the finding."""

    BINDINGS = [
        Binding("escape,q,i", "close", "Close"),
        Binding("enter", "jump", "Jump to it"),
        Binding("e", "compare", "Compare eager vs buffered", show=False),
    ]

    def __init__(self, finding, event=None) -> None:
        super().__init__()
        self.finding = finding
        self.event = event

    def compose(self) -> ComposeResult:
        f = self.finding
        rule = RULES.get(f.code)
        with VerticalScroll(id="detail-body") as body:
            body.border_title = f"{f.code} {f.name}"
            body.border_subtitle = "enter: jump · esc: close"
            yield Label(Content.assemble((f" {f.severity} ", f"bold reverse {STYLE[f.severity]}"),
                                         (f"  {f.code} · {f.name}", "bold")), classes="detail-title")
            yield Label(" · ".join(f.where()) or "the whole stream", classes="detail-where")
            yield Static(Content(f.message), classes="detail-message")
            if rule is not None:
                yield Label(f"The rule ({rule.family})", classes="detail-heading")
                yield Static(Content(rule.explain), classes="detail-text")
            yield Label("What to do", classes="detail-heading")
            yield Static(Content(advice_for(f.code)), classes="detail-text")
            if self.event is not None:
                yield Label(f"Event {self.event.index} · {self.event.name}", classes="detail-heading")
                yield Static(Content(event_text(self.event)), classes="detail-event")
            with Horizontal(id="detail-buttons"):
                yield Button("Jump to it", id="detail-jump", variant="primary")
                if f.code == "T003":  # buffered arguments: show what eager streaming changes
                    yield Button("Compare eager vs buffered (e)", id="detail-compare")
                yield Button("Close", id="detail-close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "detail-compare":
            self.action_compare()
            return
        self.dismiss(event.button.id == "detail-jump")

    def action_compare(self) -> None:
        if self.finding.code != "T003":
            return
        self.dismiss(False)
        self.app.push_screen(bundled_compare_screen())

    def action_close(self) -> None:
        self.dismiss(False)

    def action_jump(self) -> None:
        self.dismiss(True)
