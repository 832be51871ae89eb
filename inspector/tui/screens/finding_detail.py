"""Explain a finding (``i``): what happened, why it breaks clients, what to do, and the event.

Why this module exists: a finding's one-line message says what happened here; a person new to
the protocol also needs the rule in their own terms. The words come from the explain tables
(``inspector.session.advice``: ``RuleText`` per code, advice per family), rendered as Markdown;
the implementer's definition from the catalog (``inspector.model.catalog``) closes the page for
those who build streams, and the raw event that triggered the finding is shown last.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown, Static

from inspector.capture.redact import scrub_secrets
from inspector.model.jsondepth import loads
from inspector.model.catalog import RULES
from inspector.session.advice import family_advice, rule_text
from inspector.tui.screens.compare import bundled_compare_screen
from inspector.tui.text import MarkdownText, assemble, markdown_quote, one_line, shown
from inspector.tui.themes import SEVERITY_STYLE

MAX_EVENT_LINES = 40


def event_text(ev) -> str:
    """The event's data, pretty-printed when it is JSON, cut to ``MAX_EVENT_LINES`` lines, secrets masked."""
    try:
        text = json.dumps(loads(ev.data), indent=2, ensure_ascii=False)  # bounded depth (jsondepth)
    except (ValueError, TypeError):
        text = ev.data
    text = scrub_secrets(text)
    lines = text.splitlines()
    if len(lines) > MAX_EVENT_LINES:
        lines = lines[:MAX_EVENT_LINES] + [f"… {len(lines) - MAX_EVENT_LINES} more lines"]
    lines = [line if len(line) <= 400 else line[:400] + "…" for line in lines]
    # Keep the indentation visible when a long line wraps (wrapping drops leading spaces).
    return "\n".join("\u00a0" * (len(line) - len(line.lstrip(" "))) + line.lstrip(" ") for line in lines)


def explanation(finding) -> MarkdownText:
    """The finding explained, as Markdown: its message, then what happened, why it breaks
    clients, what to do (for this rule, then for its family), and the rule's exact definition."""
    text = rule_text(finding.code)
    rule = RULES.get(finding.code)
    parts = [f"> {markdown_quote(finding.message)}"]
    if text is not None:
        parts += ["### What happened", text.happened, "### Why it breaks clients", text.breaks,
                  "### What to do", text.todo]
    family = family_advice(finding.code)
    if family:
        parts.append(family)
    if rule is not None:
        parts += ["### The exact rule", f"*For tool authors ({rule.family}):* **{finding.code} fires when** "
                  f"{rule.explain}."]
    return "\n\n".join(parts)


if TYPE_CHECKING:
    from textual.widgets._markdown import MarkdownBlock as _Paragraph
else:
    _Paragraph = Markdown.BLOCKS["paragraph_open"]  # the paragraph class is private; BLOCKS is not


class DetailParagraph(_Paragraph):
    """A paragraph of the explanation (``.detail-text``: themed, and what tests read)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.add_class("detail-text")


class Explanation(Markdown):
    """The explanation's Markdown, paragraphs as :class:`DetailParagraph`, built when the screen
    is composed (``Markdown`` parses in a thread after mounting: the page would open empty and
    fill in a moment later, jumping under the reader's eyes)."""

    BLOCKS = {**Markdown.BLOCKS, "paragraph_open": DetailParagraph}

    def __init__(self, markdown: str, *, classes: str | None = None) -> None:
        super().__init__(None, classes=classes)
        self.text = markdown
        """The Markdown shown."""

    def compose(self):
        self._markdown = self.text
        yield from self._build_from_source(self.text)

    async def _on_mount(self, event) -> None:  # type: ignore[override]  # async in Markdown, sync in Widget: Textual's own mismatch
        """Built in ``compose`` already: the base class would parse it again and mount an empty
        document meanwhile."""
        event.prevent_default()


class FindingDetailScreen(ModalScreen[bool]):
    """Dismisses with True when the user asks to jump to the finding."""

    HELP_TITLE = "Finding explained"
    BINDINGS = [
        Binding("escape,q,i", "close", "Close"),
        Binding("enter", "jump", "Jump to it"),
        Binding("e", "compare", "Example: eager vs buffered", show=False),
    ]

    def __init__(self, finding, event=None) -> None:
        super().__init__()
        self.finding = finding
        self.event = event

    def compose(self) -> ComposeResult:
        f = self.finding
        with VerticalScroll(id="detail-body") as body:
            body.border_title = one_line(f"{f.code} {f.name}")
            body.border_subtitle = "enter: jump · esc: close"
            yield Label(assemble((f" {f.severity} ", f"bold reverse {SEVERITY_STYLE[f.severity]}"),
                                         (f"  {f.code} · {f.name}", "bold")), classes="detail-title")
            yield Label(one_line(" · ".join(f.where()) or "the whole stream"), classes="detail-where")
            yield Explanation(explanation(f), classes="detail-markdown")
            if self.event is not None:
                yield Label(one_line(f"Event {self.event.index} · {self.event.name}"), classes="detail-heading")
                yield Static(shown(event_text(self.event)), classes="detail-event")
            with Horizontal(id="detail-buttons"):
                yield Button("Jump to it", id="detail-jump", variant="primary")
                if f.code == "T003":  # buffered arguments: an example of what eager streaming changes
                    yield Button("Example: eager vs buffered (e)", id="detail-compare")
                yield Button("Close", id="detail-close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "detail-compare":
            self.action_compare()
            return
        self.dismiss(event.button.id == "detail-jump")

    def action_compare(self) -> None:
        """The bundled pair (one tool call with and without ``eager_input_streaming``): an example,
        not this stream (``compare A B`` compares two runs of your own)."""
        if self.finding.code != "T003":
            return
        self.dismiss(False)
        self.app.push_screen(bundled_compare_screen())

    def action_close(self) -> None:
        self.dismiss(False)

    def action_jump(self) -> None:
        self.dismiss(True)
