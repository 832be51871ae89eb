"""A ``# type: ignore`` names its mypy error code and says why (issue 26): ``# type: ignore[code]  # why``."""
from __future__ import annotations

import re

from tests.conftest import ROOT

_IGNORE = re.compile(r"#\s*type:\s*ignore")
_WELL_FORMED = re.compile(r"# type: ignore\[[a-z-]+(?:, [a-z-]+)*\]  # \S")


def test_every_type_ignore_has_a_code_and_a_reason():
    bad = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _IGNORE.search(line) and not _WELL_FORMED.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)
