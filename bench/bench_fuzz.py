"""Cases per second of the hostile-capture fuzz test (``tests/fuzz/test_fuzz.py``, issue 24).

One case is one mutated corpus capture (``tests/fuzz/mutate.py``: types swapped, truncated, bytes
flipped, nested deeply, controls injected) through ``check`` in the three formats, ``export`` to
HTML and HAR and ``diff`` (text and JSON) against its original, in-process, as the test runs it;
and, separately, one instant replay under Pilot. Seeds are fixed (0, 1, 2, …), so two runs build
the same cases.

    uv run python -m bench.bench_fuzz [--cases 200] [--replays 10]
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import tempfile
import time
from pathlib import Path

from textual.drivers.headless_driver import HeadlessDriver

from inspector.cli import main
from inspector.tui.app import make_app
from tests.fuzz.mutate import CORPUS, hostile_case

COMMANDS = [["check", "{p}", "--format", "text"], ["check", "{p}", "--format", "json"],
            ["check", "{p}", "--format", "github"], ["export", "{p}", "--to", "html", "-o", "{d}/o.html"],
            ["export", "{p}", "--to", "har", "-o", "{d}/o.har"], ["diff", "{s}", "{p}", "--format", "text"],
            ["diff", "{s}", "{p}", "--format", "json"]]


def _cases(n: int) -> list[tuple[Path, int]]:
    rng = random.Random(0)
    return [(rng.choice(CORPUS), seed) for seed in range(n)]


def headless(n: int) -> tuple[float, dict[int, int]]:
    """Seconds for ``n`` cases, and how many commands ended with each exit code."""
    codes: dict[int, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        d = Path(folder)
        cases = [(s, hostile_case(s, seed, d)[0]) for s, seed in _cases(n)]  # built before the clock
        sink = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            for source, path in cases:
                for argv in COMMANDS:
                    code = main([a.format(p=path, s=source, d=d) for a in argv])
                    codes[code] = codes.get(code, 0) + 1
                sink.seek(0)
                sink.truncate()
        return time.perf_counter() - t0, codes


async def _replay(path: Path) -> None:
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.refresh_now()
        await pilot.press("2", "i", "escape", "j", "3", "end", "t", "escape")
        await pilot.pause()


def replays(n: int) -> float:
    HeadlessDriver.write = lambda self, data: None  # what the test does (the bytes are recorded there)
    with tempfile.TemporaryDirectory() as folder:
        paths = [hostile_case(s, seed, Path(folder))[0] for s, seed in _cases(n)]
        t0 = time.perf_counter()
        for p in paths:
            asyncio.run(_replay(p))
        return time.perf_counter() - t0


def main_() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--replays", type=int, default=10)
    args = ap.parse_args()
    secs, codes = headless(args.cases)
    print(f"corpus: {len(CORPUS)} captures")
    print(f"check x3 + export x2 + diff x2 per case: {args.cases} cases in {secs:.2f} s = "
          f"{args.cases / secs:.1f} cases/s; exit codes {dict(sorted(codes.items()))}")
    if args.replays:
        secs = replays(args.replays)
        print(f"instant replay under Pilot: {args.replays} in {secs:.2f} s = {args.replays / secs:.2f} replays/s")


if __name__ == "__main__":
    main_()
