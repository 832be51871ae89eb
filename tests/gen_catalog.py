"""Regenerate the RULES.md part of ``inspector/model/catalog.py`` from ``shared/RULES.md``.

Run ``uv run python -m tests.gen_catalog`` after RULES.md changes; the project's additions (the
block after ``# Project additions``) are kept as they are. ``tests/unit/test_catalog.py`` fails
while the two disagree.
"""
from __future__ import annotations

import sys

from tests.conftest import ROOT
from tests.rules_md import rules_md

CATALOG = ROOT / "inspector" / "model" / "catalog.py"
_OPEN = "RULES: dict[str, Rule] = {r.code: r for r in (\n"
_ADDITIONS = "    # Project additions"


def rows() -> str:
    """One ``Rule(...)`` entry per RULES.md row, in RULES.md's order."""
    out = []
    for code, (name, severity, family, explain) in rules_md().items():
        out.append(f"    Rule({code!r}, {name!r}, {severity!r}, {family!r},\n         {explain!r}),\n")
    return "".join(out)


def main() -> int:
    text = CATALOG.read_text(encoding="utf-8")
    head, rest = text.split(_OPEN, 1)
    _, tail = rest.split(_ADDITIONS, 1)
    new = head + _OPEN + rows() + _ADDITIONS + tail
    if new != text:
        CATALOG.write_text(new, encoding="utf-8")
        print(f"{CATALOG.relative_to(ROOT)} rewritten from RULES.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
