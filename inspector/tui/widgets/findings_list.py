"""The findings list: every rule violation as it is found, colour-coded, filterable, selectable.

Why this module exists: findings are the point of the tool, and during a replay they appear over
time. The list grows by appending options (never rebuilt per finding), can be narrowed to a
minimum severity and/or a code / name / message substring, and tells the app which finding the
user selected (enter or click) so it can jump the event log and the block panels to it.
"""
from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

SEVERITIES = ("info", "warning", "error")
RANK = {"info": 1, "warning": 2, "error": 3}
STYLE = {"error": "$error", "warning": "$warning", "info": "$primary"}
MARK = {"error": "✖", "warning": "▲", "info": "●"}


def finding_prompt(f) -> Content:
    """Two lines: mark, code, name and where; then the message."""
    where = f.where(short=True)
    return Content.assemble(
        (f"{MARK[f.severity]} {f.code}", f"bold {STYLE[f.severity]}"),
        (f" {f.name}", ""),
        (f"  {' · '.join(where)}", "$text-muted"),
        ("\n  ", ""),
        (f.message, "$text-muted" if f.severity == "info" else ""),
    )


class FindingsList(OptionList):
    """Options are findings; the option id is the finding's position in ``session.findings``."""

    BINDINGS = [
        Binding("i", "explain", "Explain", tooltip="Show the rule's explanation and what to do"),
        Binding("v", "cycle_severity", "Severity", tooltip="Cycle the minimum severity shown"),
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
        self.findings: list = []
        self._counts: dict[int, int] = {}
        """``count`` of each finding when its prompt was built (repeats fold into one finding)."""
        self.min_severity = "info"
        """Lowest severity shown."""
        self.text_filter = ""
        """Case-insensitive substring of code, name or message ('' = all)."""
        self._seen = 0
        self._generation = -1

    # ------------------------------------------------------------ feeding
    def matches(self, f) -> bool:
        if RANK.get(f.severity, 0) < RANK[self.min_severity]:
            return False
        q = self.text_filter.lower()
        if not q:
            return True
        return any(q in part.lower() for part in (f.code, f.name, f.severity, f.message))

    def sync(self, findings: list, generation: int) -> bool:
        """Append findings added since the last frame; True when the list changed."""
        if generation != self._generation:
            self._generation = generation
            self.findings = findings
            self._seen = 0
            self._counts = {}
            self.clear_options()
        self.findings = findings
        recounted = self._recount(findings)
        if len(findings) == self._seen:
            return recounted
        new = [Option(finding_prompt(f), id=str(i))
               for i, f in enumerate(findings[self._seen:], start=self._seen) if self.matches(f)]
        self._seen = len(findings)
        if new:
            self.add_options(new)
            if self.highlighted is None:
                self.highlighted = 0
        return True

    def _recount(self, findings: list) -> bool:
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

    def current(self) -> tuple[object, int] | None:
        opt = self.highlighted_option
        if opt is None or opt.id is None:
            return None
        pos = int(opt.id)
        return self.findings[pos], pos

    # ------------------------------------------------------------ actions
    def action_cycle_severity(self) -> None:
        nxt = {"info": "warning", "warning": "error", "error": "info"}[self.min_severity]
        self.set_filter(min_severity=nxt)

    def action_explain(self) -> None:
        cur = self.current()
        if cur is not None:
            self.post_message(self.ExplainRequested(*cur))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            pos = int(event.option.id)
            self.post_message(self.Chosen(self.findings[pos], pos))
