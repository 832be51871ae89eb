"""The diff screen: two answers in two columns, matched blocks side by side, differences highlighted.

One row per block pair of an ``inspector.compare.diff.Diff`` (text, reasoning, each tool call,
other blocks), A on the left, B on the right; a row with a difference is marked and its
differences are listed under it. Below the rows: the stop reasons, the findings on one side only,
the normalisations that made the rest equivalent and the notes (pairing, non-streamed sides).
``n``/``p`` jump between rows that differ. :func:`make_diff_app` is what ``diff`` runs;
:class:`DiffScreen` is also pushed by the ``gateway`` exchange list for one pair.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static

from inspector.compare.diff import Diff
from inspector.compare.diff.answer import Answer
from inspector.tui.screens.help import HelpScreen, key_text
from inspector.tui.screens.compare import CompareApp
from inspector.tui.text import Content, assemble, join, one_line, shown
from inspector.tui.layout import FittedFooter

MAX_SHOWN = 2000
"""Characters of a text or argument shown per cell (the JSON output has them all)."""


def _clip(s: str) -> str:
    return s if len(s) <= MAX_SHOWN else s[:MAX_SHOWN] + f"… ({len(s) - MAX_SHOWN} more characters)"


def cell_text(answer: Answer, kind: str, i: int | None) -> Content:
    """What one side shows for one block pair."""
    if i is None:
        return shown("(none on this side)", "italic $text-muted")
    if kind == "tool":
        c = answer.calls[i]
        head = assemble((f"{c.name or '(no name)'}", "bold"), f"  id {c.id or '(none)'}",
                                (f"  {c.status}" if c.status else "", "$text-muted"))
        when = f"\nfirst argument byte {c.first_arg_t:.3f} s" if c.first_arg_t is not None else ""
        return assemble(head, "\n", _clip(c.arguments or "(no arguments)"), (when, "$text-muted"))
    if kind == "text":
        return shown(_clip(answer.text))
    if kind == "reasoning":
        return shown(_clip(answer.reasoning))
    return shown(kind)


def side_title(a: Answer, which: str) -> Content:
    streamed = "streamed" if a.streamed else "not streamed"
    return one_line(f"{which}: {a.label} · {a.dialect or 'unknown'} · {streamed} · stop {a.stop_reason!r} ({a.stop_class or 'none'})")


class PairRow(Vertical):
    """One block pair: the two cells side by side, the pair's differences under them."""

    DEFAULT_CSS = """
    PairRow { height: auto; margin: 0 0 1 0; }
    PairRow > .pair-label { color: $text-muted; }
    PairRow.differs > .pair-label { color: $error; text-style: bold; }
    PairRow > Horizontal { height: auto; }
    PairRow .cell { width: 1fr; height: auto; padding: 0 1; border-left: wide $panel-lighten-2; }
    PairRow.differs .cell { border-left: wide $error; }
    PairRow > .pair-differences { color: $error; padding: 0 1; }
    """

    def __init__(self, diff: Diff, k: int) -> None:
        self.pair = diff.pairs[k]
        super().__init__(classes="differs" if self.pair.differences else "")
        self.diff = diff

    def compose(self) -> ComposeResult:
        p = self.pair
        how = f"matched by {p.matched_by}" if p.matched_by else "one side only"
        mark = "✗ " if p.differences else "✓ "
        yield Label(one_line(f"{mark}{p.label} ({how})"), classes="pair-label")
        with Horizontal():
            yield Static(cell_text(self.diff.a, p.kind, p.a), classes="cell cell-a")
            yield Static(cell_text(self.diff.b, p.kind, p.b), classes="cell cell-b")
        if p.differences:
            yield Static(join("\n", [one_line(f"{self.diff.differences[i].kind}: {self.diff.differences[i].message}")
                                        for i in p.differences]), classes="pair-differences")


class DiffScreen(Screen):
    """Two answers side by side (see the module docstring)."""

    DEFAULT_CSS = """
    DiffScreen #diff-verdict { padding: 0 1; text-style: bold; }
    DiffScreen #diff-verdict.equivalent { background: $success; color: $background; }
    DiffScreen #diff-verdict.different { background: $error; color: $background; }
    DiffScreen #diff-sides { height: auto; }
    DiffScreen #diff-sides Label { width: 1fr; padding: 0 1; color: $accent; }
    DiffScreen #diff-rows { height: 1fr; }
    DiffScreen #diff-rest { height: auto; padding: 0 1; }
    """

    BINDINGS = [
        Binding("n", "next_difference", "Next difference"),
        Binding("p", "previous_difference", "Previous difference"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q,escape", "close", "Close"),
    ]

    def __init__(self, diff: Diff, *, title: str | None = None) -> None:
        super().__init__()
        self.diff = diff
        self.title_text = title
        self._at = -1

    def compose(self) -> ComposeResult:
        d = self.diff
        n = len(d.differences)
        verdict = "EQUIVALENT" if d.equivalent else f"DIFFERENT: {n} difference{'s' * (n != 1)}"
        if self.title_text:
            verdict = f"{self.title_text} · {verdict}"
        yield Label(one_line(verdict), id="diff-verdict", classes="equivalent" if d.equivalent else "different")
        with Horizontal(id="diff-sides"):
            yield Label(side_title(d.a, "A"))
            yield Label(side_title(d.b, "B"))
        with VerticalScroll(id="diff-rows"):
            for k in range(len(d.pairs)):
                yield PairRow(d, k)
            if not d.pairs:
                yield Label("no blocks on either side")
            yield Static(self._rest(), id="diff-rest")
        yield FittedFooter()  # help and the way out docked on the right, as on the other screens

    def _rest(self) -> Content:
        d = self.diff
        parts: list[Content] = []
        loose = [x for x in d.differences if x.pair is None]
        if loose:
            parts.append(shown("Differences outside the blocks", "bold $error"))
            parts += [shown(f"  {x.kind}: {x.message}", "$error") for x in loose]
        if d.normalisations:
            parts.append(shown("Normalisations applied (equivalent)", "bold $success"))
            parts += [shown(f"  {x}") for x in d.normalisations]
        if d.notes:
            parts.append(shown("Notes", "bold"))
            parts += [shown(f"  {x}") for x in d.notes]
        return join("\n", parts)

    def _differing_rows(self) -> list[PairRow]:
        return [r for r in self.query(PairRow) if r.pair.differences]

    def _jump(self, step: int) -> None:
        rows = self._differing_rows()
        if not rows:
            self.notify("no block differs" if self.diff.equivalent else "no block differs (see below the blocks)")
            return
        self._at = (self._at + step) % len(rows)
        self.query_one("#diff-rows", VerticalScroll).scroll_to_widget(rows[self._at], top=True)

    def action_next_difference(self) -> None:
        self._jump(1)

    def action_previous_difference(self) -> None:
        self._jump(-1)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen([("Diff", [(key_text(b), b.description) for b in self.BINDINGS if isinstance(b, Binding)])]))

    def action_close(self) -> None:
        if self.app.screen_stack and self.app.screen_stack[0] is self:
            self.app.exit(self.diff.exit_code)
        else:
            self.dismiss(None)


class DiffApp(CompareApp):
    """A standalone app showing one :class:`DiffScreen` (``diff``); exits with the diff's code.
    Themes and ``ctrl+t`` as ``compare``'s app."""

    TITLE = "stream-inspector diff"

    def __init__(self, diff: Diff, *, theme: str | None = None) -> None:
        super().__init__(DiffScreen(diff), theme=theme)  # type: ignore[arg-type]  # CompareApp hosts any one screen (typed CompareScreen)
        self.diff = diff


def make_diff_app(diff: Diff, *, theme: str | None = None) -> DiffApp:
    """The diff app; raises ``ValueError`` for an unknown theme."""
    return DiffApp(diff, theme=theme)
