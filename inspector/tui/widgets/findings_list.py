"""The findings list: every rule violation as it is found, colour-coded, filterable, selectable.

Why this module exists: findings are the point of the tool, and during a replay they appear over
time. The list grows by appending options (never rebuilt per finding), can be narrowed to a
minimum severity and/or a code / name / message substring, and tells the app which finding the
user selected (enter or click) so it can jump the event log and the block panels to it.
"""
from __future__ import annotations

from collections.abc import Sequence

from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from inspector.model.findings import Finding
from inspector.tui.frame import FindingsState
from inspector.tui.widgets.hanging import Hanging
from inspector.tui.text import assemble, shown
from inspector.tui.themes import SEVERITY_STYLE
from inspector.model.severity import MARKS, SEVERITIES, severity_rank



OPEN_ID = "open"
"""Option id of the finding still in progress (a stall while it lasts)."""


def finding_prompt(f, note: str | None = None) -> Hanging:
    """Mark, code, name and where (or ``note``); then the message, wrapped under itself."""
    where = [note] if note else f.where(short=True)
    head = assemble(
        (f"{MARKS[f.severity]} {f.code}", f"bold {SEVERITY_STYLE[f.severity]}"),
        (f" {f.name}", ""),
        (f"  {' · '.join(where)}", "$warning" if note else "$text-muted"),
    )
    return Hanging(head, shown(f.message, "$text-muted" if f.severity == "info" else ""))


class FindingsList(OptionList):
    """Options are findings; the option id is the finding's position in ``session.findings``."""

    BINDINGS = [
        Binding("i", "explain", "Explain", tooltip="Show the rule's explanation and what to do"),
        Binding("v", "cycle_severity", "Severity", tooltip="Cycle the minimum severity shown"),
        Binding("escape", "clear_filter", "Clear filter", tooltip="Show every finding again (when a filter is on)"),
    ]

    class Chosen(Message):
        """A finding was selected (enter / click): jump to its event and block."""

        def __init__(self, finding, position: int) -> None:
            self.finding = finding
            self.position = position
            super().__init__()

    class ExplainRequested(Message):
        """``i`` on a finding: open the detail screen."""

        def __init__(self, finding, position: int) -> None:
            self.finding = finding
            self.position = position
            super().__init__()

    class FilterChanged(Message):
        """The severity or text filter changed (the app updates the panel title)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.findings: Sequence = ()
        self._counts: dict[int, int] = {}
        """``count`` of each finding when its prompt was built (repeats fold into one finding)."""
        self.min_severity = "info"
        """Lowest severity shown."""
        self.text_filter = ""
        """Case-insensitive substring of code, name or message ('' = all)."""
        self._seen = 0
        self._generation = -1
        self._open = None
        """The finding in progress shown last (``OPEN_ID``), if any."""
        self._received: FindingsState | None = None

    # ------------------------------------------------------------ feeding
    def matches(self, f) -> bool:
        if severity_rank(f.severity) < severity_rank(self.min_severity):
            return False
        q = self.text_filter.lower()
        if not q:
            return True
        return any(q in part.lower() for part in (f.code, f.name, f.severity, f.message))

    def receive(self, state: FindingsState) -> None:
        """Show ``state`` (``inspector.tui.frame``); nothing to do when it equals the last one."""
        if state != self._received:
            self._received = state
            self.sync(state.findings, state.generation, state.in_progress)

    def sync(self, findings: Sequence, generation: int, in_progress=None) -> bool:
        """Append findings added since the last frame; True when the list changed.

        ``in_progress``: a finding still open (a stall while it lasts, ``Session.open_stall``),
        shown last and rewritten each frame until it is gone."""
        if generation != self._generation:
            self._generation = generation
            self.findings = findings
            self._seen = 0
            self._open = None
            self._counts = {}
            self.clear_options()
        self.findings = findings
        changed = self._recount(findings)
        if self._open is not None and (in_progress is None or len(findings) != self._seen):
            self.remove_option(OPEN_ID)
            self._open, changed = None, True
        if len(findings) != self._seen:
            new = [Option(finding_prompt(f), id=str(i))
                   for i, f in enumerate(findings[self._seen:], start=self._seen) if self.matches(f)]
            self._seen = len(findings)
            if new:
                self.add_options(new)
            changed = True
        if in_progress is not None and self.matches(in_progress):
            if self._open is None:
                self.add_option(Option(finding_prompt(in_progress, note="still open"), id=OPEN_ID))
                changed = True
            elif in_progress.message != self._open.message:
                self.replace_option_prompt(OPEN_ID, finding_prompt(in_progress, note="still open"))
                changed = True
            self._open = in_progress
        if changed and self.highlighted is None and self.option_count:
            self.highlighted = 0
        return changed

    def _recount(self, findings: Sequence) -> bool:
        """Repeats of a cause fold into one finding (its ``count`` grows): refresh those prompts."""
        changed = False
        for i, f in enumerate(findings[: self._seen]):
            if f.count != self._counts.get(i, 1):
                self._counts[i] = f.count
                changed = True
                try:
                    self.replace_option_prompt(str(i), finding_prompt(f))
                except OptionDoesNotExist:
                    pass  # filtered out of the list
        return changed

    def refilter(self) -> None:
        """Rebuild the options after a filter change, keeping the highlighted finding when still shown."""
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        self._open = None  # shown again by the next sync when it still matches
        self.clear_options()
        self.add_options(Option(finding_prompt(f), id=str(i))
                         for i, f in enumerate(self.findings[:self._seen]) if self.matches(f))
        if self.option_count:
            try:
                self.highlighted = self.get_option_index(keep) if keep is not None else 0
            except Exception:  # noqa: BLE001 - the kept option was filtered out
                self.highlighted = 0
        self.post_message(self.FilterChanged())

    def set_filter(self, *, min_severity: str | None = None, text: str | None = None) -> None:
        if min_severity is not None:
            self.min_severity = min_severity
        if text is not None:
            self.text_filter = text
        self.refilter()

    @property
    def shown(self) -> int:
        return self.option_count

    def current(self) -> tuple[Finding, int] | None:
        """The highlighted finding and its position in the session's findings (-1: the one in progress)."""
        opt = self.highlighted_option
        if opt is None or opt.id is None:
            return None
        if opt.id == OPEN_ID:
            return (self._open, -1) if self._open is not None else None
        pos = int(opt.id)
        return self.findings[pos], pos

    # ------------------------------------------------------------ actions
    def action_cycle_severity(self) -> None:
        nxt = SEVERITIES[(severity_rank(self.min_severity) + 1) % len(SEVERITIES)]
        self.set_filter(min_severity=nxt)

    @property
    def filtered(self) -> bool:
        """A severity or text filter is on."""
        return self.min_severity != "info" or bool(self.text_filter)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "clear_filter":
            return self.filtered  # nothing to clear: let esc go on to the screen
        if action == "explain":
            return self.current() is not None  # nothing highlighted: the app's i says why
        return True

    def action_clear_filter(self) -> None:
        self.set_filter(min_severity="info", text="")

    def action_explain(self) -> None:
        cur = self.current()
        if cur is not None:
            self.post_message(self.ExplainRequested(*cur))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        cur = self.current()
        if cur is not None:
            self.post_message(self.Chosen(*cur))
