"""Start-up: ``check`` on a one-event capture vs ``python -c "import orjson"`` (the floor), same run.

Each command runs ``--runs`` times, interleaved, as a fresh process with this interpreter; the
table gives the median CPU time (user + system, from ``getrusage`` of the child: what the process
costs, whatever else the machine runs) and the median wall time, each with its ratio to the floor.
Also lists the heavy libraries the ``check`` process loaded (it should load none: no textual, rich,
httpx, click, uvicorn, starlette) and how many of our modules it imported.

    uv run python bench/bench_startup.py [--runs 30] [--baseline DIR]

``--baseline DIR``: also time ``check`` from another checkout (``git archive main | tar -x -C DIR``),
interleaved in the same run, so a change is measured against the code before it on one machine state.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("textual", "rich", "httpx", "click", "uvicorn", "starlette", "pygments")


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode is written and used, as after any install (some shells set PYTHONDONTWRITEBYTECODE)."""


def timed(argv: list[str], cwd: Path = ROOT) -> tuple[float, float]:
    """``(CPU seconds, wall seconds)`` of one fresh process running ``argv`` in ``cwd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout whose check to time too")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = Path(tmp) / "one.sse"
        cap.write_text('event: ping\ndata: {"type": "ping"}\n\n')
        commands = {
            'python -c "import orjson"': [sys.executable, "-c", "import orjson"],
            "python -m inspector check ONE-EVENT": [sys.executable, "-m", "inspector", "check", str(cap)],
            "python -m inspector rules": [sys.executable, "-m", "inspector", "rules"],
            "python -m inspector --help": [sys.executable, "-m", "inspector", "--help"],
        }
        script = Path(sys.executable).with_name("stream-inspector")
        if script.is_file():  # the console script users run: no runpy, which ``-m`` pays for
            commands["stream-inspector check ONE-EVENT"] = [str(script), "check", str(cap)]
        where = {name: ROOT for name in commands}
        if args.baseline is not None:
            name = f"baseline: python -m inspector check ONE-EVENT ({args.baseline})"
            commands[name], where[name] = commands["python -m inspector check ONE-EVENT"], args.baseline.resolve()
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
        for name, argv in commands.items():
            timed(argv, where[name])  # warm: bytecode written, files in the page cache
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(timed(argv, where[name]))
        probe = ("import sys, runpy\nsys.argv = ['inspector', 'check', %r]\n"
                 "try:\n    runpy.run_module('inspector', run_name='__main__')\nexcept SystemExit:\n    pass\n"
                 "print(sorted({m.split('.')[0] for m in sys.modules} & set(%r)))\n"
                 "print(sum(m.startswith('inspector') for m in sys.modules))" % (str(cap), HEAVY))
        loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=ENV, capture_output=True,
                                text=True).stdout
    floor = [statistics.median(t[k] for t in times['python -c "import orjson"']) for k in (0, 1)]
    print(f"{args.runs} runs each, interleaved; medians")
    print("| command | CPU ms | CPU × floor | wall ms | wall × floor |")
    print("|---|---:|---:|---:|---:|")
    for name, ts in times.items():
        cpu, wall = (statistics.median(t[k] for t in ts) for k in (0, 1))
        print(f"| `{name}` | {cpu * 1000:.0f} | {cpu / floor[0]:.2f}× | {wall * 1000:.0f} | {wall / floor[1]:.2f}× |")
    lines = loaded.strip().splitlines()
    print(f"heavy libraries loaded by check: {lines[-2] if len(lines) > 1 else '?'}; "
          f"modules of ours: {lines[-1] if lines else '?'}")


if __name__ == "__main__":
    main()
