"""The summary of a ``check`` over many files: findings by code, the worst files, one total line.

Built from :class:`FileOutcome` records (small and picklable: ``check --jobs`` sends them back
from its worker processes), printed after the per-file reports in ``--format text``.
"""
from __future__ import annotations


from inspector.report.text import counts_text, plural, safe
from inspector.model.severity import WORST_FIRST
from inspector.model.record import Record

WORST_FILES = 5
"""How many files the "worst files" table lists."""


class FileOutcome(Record):
    """What one file's check came to."""

    __slots__ = ("name", "status", "findings")

    name: str
    status: str
    """``checked``, ``skipped`` (found by a folder walk or a glob, holds no stream) or ``unreadable``."""
    findings: list[tuple[str, str, str]]
    """``(code, name, severity)`` per finding."""

    def __init__(self, name: str, status: str = "checked", findings: list[tuple[str, str, str]] | None = None) -> None:
        self.name = name
        self.status = status
        self.findings = [] if findings is None else findings

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, _, sev in self.findings:
            out[sev] = out.get(sev, 0) + 1
        return out

    def rank(self) -> tuple[int, int, int]:
        """Errors, then warnings, then info findings: bigger is worse."""
        c = self.counts()
        errors, warnings, infos = (c.get(k, 0) for k in WORST_FIRST)
        return errors, warnings, infos


def total_line(outcomes: list[FileOutcome]) -> str:
    """``12 files: 3 with findings (5 errors, 2 warnings), 1 skipped, 1 unreadable``."""
    checked = [o for o in outcomes if o.status == "checked"]
    with_findings = [o for o in checked if o.findings]
    counts: dict[str, int] = {}
    for o in checked:
        for k, v in o.counts().items():
            counts[k] = counts.get(k, 0) + v
    line = f"{plural(len(outcomes), 'file')}: "
    line += f"{len(with_findings)} with findings ({counts_text(counts)})" if with_findings else "no findings"
    for status in ("skipped", "unreadable"):
        n = sum(1 for o in outcomes if o.status == status)
        if n:
            line += f", {n} {status}"
    return line


def render(outcomes: list[FileOutcome]) -> str:
    """The summary table (findings by code, worst files) and the total line."""
    by_code: dict[str, list] = {}
    for o in outcomes:
        for code, name, sev in o.findings:
            entry = by_code.setdefault(code, [name, sev, 0, set()])
            entry[2] += 1
            entry[3].add(o.name)
    lines = ["", "Summary"]
    if by_code:
        lines.append("  findings by code:")
        width = max(len(f"{c} {v[0]}") for c, v in by_code.items())
        for code in sorted(by_code, key=lambda c: (WORST_FIRST.index(by_code[c][1]), -by_code[c][2], c)):
            name, sev, n, files = by_code[code]
            lines.append(f"    {f'{code} {name}':<{width}}  {sev:<7}  {n:>5}  in {plural(len(files), 'file')}")
        worst = sorted((o for o in outcomes if o.findings), key=lambda o: (tuple(-x for x in o.rank()), o.name))
        lines.append("  worst files:")
        for o in worst[:WORST_FILES]:
            lines.append(f"    {safe(o.name)}: {counts_text(o.counts())}")
        if len(worst) > WORST_FILES:
            lines.append(f"    … and {plural(len(worst) - WORST_FILES, 'more file')} with findings")
    lines.append(total_line(outcomes))
    return "\n".join(lines)
