"""Read ``shared/RULES.md``'s tables (the vendored copy in ``tests/corpus/shared``): what the catalog is
checked against (tests only)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SHARED

RULES_MD = SHARED / "RULES.md"
_ROW = re.compile(r"^\| ([A-Z]\d{3}) \| ([a-z0-9-]+) \| (error|warning|info) \| (.*) \|\s*$")
_HEAD = re.compile(r"^## ([A-Z]) — (.*)$")


def rules_md(path: Path = RULES_MD) -> dict[str, tuple[str, str, str, str]]:
    """``{code: (name, severity, family, fires when)}`` from every table row of RULES.md."""
    out = {}
    family = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _HEAD.match(line)
        if m:
            family = m.group(2).strip()
            continue
        m = _ROW.match(line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3), family, m.group(4).strip())
    return out
