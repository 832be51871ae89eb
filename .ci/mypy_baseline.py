"""Run mypy over ``inspector`` and hold its errors to the baseline in ``mypy-baseline.json``.

The core layers (``STRICT``: model, framing, capture, providers, session) must have no error at
all. The rest has a baseline: a count of errors per file. CI fails when a file has more errors
than its baseline (or a file without one has any), so the count can only shrink; when it
shrinks, ``--update`` writes the smaller counts. Exit codes: 0 within the baseline and the core
clean, 1 otherwise.
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
STRICT = ("inspector/model/", "inspector/framing/", "inspector/capture/", "inspector/providers/",
          "inspector/session/")
"""The layers below ``feeds`` (README "How it is built"): mypy-clean, no baseline."""
PENDING: dict[str, str] = {}
"""Core files held to their baseline count for now, each with the reason (remove when clean)."""
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


def verdict(now: dict[str, int], base: dict[str, int]) -> tuple[list[str], bool]:
    """``(lines to print, passed)`` for the error counts ``now`` against the baseline ``base``:
    fails on any error in a ``STRICT`` file, or on a file above its baseline count."""
    out, passed = [], True
    core = {p: n for p, n in now.items() if p.startswith(STRICT) and p not in PENDING}
    for path, n in core.items():
        out.append(f"{path}: {n} mypy errors in a core layer (no baseline there: fix them)")
        passed = False
    worse = {p: (base.get(p, 0), n) for p, n in now.items() if n > base.get(p, 0) and p not in core}
    for path, (was, is_) in worse.items():
        out.append(f"{path}: {is_} mypy errors, baseline {was}")
        passed = False
    total, was_total = sum(now.values()), sum(base.values())
    out.append(f"mypy: {total} errors (baseline {was_total}; core layers {sum(core.values())})")
    if not passed:
        out.append("new mypy errors: fix them (`uv run mypy` lists them)")
    elif total < was_total:
        out.append("fewer than the baseline: `uv run python .ci/mypy_baseline.py --update` to lock that in")
    return out, passed


def main(argv: list[str]) -> int:
    now = counts()
    if "--update" in argv:
        BASELINE.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        print(f"mypy baseline written: {sum(now.values())} errors in {len(now)} files")
        return 0
    lines, passed = verdict(now, json.loads(BASELINE.read_text(encoding="utf-8")))
    print("\n".join(lines))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
