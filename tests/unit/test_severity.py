"""The severity scale is declared once (``inspector/model/severity.py``) and read from there."""
from __future__ import annotations

import re

from inspector.model.catalog import RULES
from inspector.model.severity import MARKS, SEVERITIES, WORST_FIRST, severity_rank
from tests.conftest import ROOT

# Two different severity names as keys of one literal (a mark or a style per severity), or side by
# side in a tuple or list (an order): the scale declared again. Docstrings (``...``) may show it.
_KEY = re.compile(r'"(error|warning|info)"\s*:')
_SEQUENCE = re.compile(r'"(error|warning|info)"\s*,\s*"(error|warning|info)"')
_ALLOWED = {"inspector/model/severity.py",
            "inspector/tui/themes.py",  # SEVERITY_STYLE: the theme variable per severity, the TUI's one table
            "inspector/report/github.py"}  # GitHub's own annotation levels (error, warning, notice)


def test_the_order_and_the_marks() -> None:
    assert [severity_rank(s) for s in SEVERITIES] == [0, 1, 2]
    assert WORST_FIRST == tuple(reversed(SEVERITIES))
    assert set(MARKS) == set(SEVERITIES)
    assert {r.severity for r in RULES.values()} <= set(SEVERITIES)


def test_no_module_declares_the_scale_again() -> None:
    found = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in _ALLOWED:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            pairs = [p for p in _SEQUENCE.findall(line) if p[0] != p[1]]
            if "``" not in line and (len(set(_KEY.findall(line))) >= 2 or pairs):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "the severity scale spelled outside inspector/model/severity.py:\n" + "\n".join(found)
