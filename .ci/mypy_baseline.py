"""Run mypy over ``inspector`` and hold its errors to the baseline in ``mypy-baseline.json``.

The baseline is a count of errors per file. CI fails when a file has more errors than its
baseline (or a file without one has any), so the count can only shrink; when it shrinks,
``--update`` writes the smaller counts. Exit codes: 0 within the baseline, 1 above it.
"""
from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "mypy-baseline.json"
_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+: error: ")


def counts() -> dict[str, int]:
    """``{path: errors}`` from one mypy run over the project (config in pyproject.toml)."""
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=HERE.parent, capture_output=True, text=True)
    per_file: collections.Counter[str] = collections.Counter()
    for line in run.stdout.splitlines():
        m = _ERROR.match(line)
        if m:
            per_file[m.group("path")] += 1
    if run.returncode not in (0, 1) or (run.returncode == 1 and not per_file):
        sys.exit(f"mypy did not run: {run.stdout[-2000:]}{run.stderr[-2000:]}")
    return dict(sorted(per_file.items()))


def main(argv: list[str]) -> int:
    now = counts()
    if "--update" in argv:
        BASELINE.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        print(f"mypy baseline written: {sum(now.values())} errors in {len(now)} files")
        return 0
    base = json.loads(BASELINE.read_text(encoding="utf-8"))
    worse = {p: (base.get(p, 0), n) for p, n in now.items() if n > base.get(p, 0)}
    for path, (was, is_) in worse.items():
        print(f"{path}: {is_} mypy errors, baseline {was}")
    total, was_total = sum(now.values()), sum(base.values())
    print(f"mypy: {total} errors (baseline {was_total})")
    if worse:
        print("new mypy errors: fix them (`uv run mypy` lists them)")
        return 1
    if total < was_total:
        print("fewer than the baseline: `uv run python .ci/mypy_baseline.py --update` to lock that in")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
