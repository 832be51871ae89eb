"""``check`` on a folder of 1 000 captures: ``--jobs 1`` vs every core, same files, fresh processes.

The folder holds copies of the shared corpus's captures and the bundled ones (a mix of dialects,
sizes and findings), cycled up to ``--files``. Each setting runs ``--runs`` times, interleaved;
the table gives the median wall time, files per second and the speed-up over one job. The output
of every run is compared with the ``--jobs 1`` output: it must be byte-identical (deterministic order).

    uv run python bench/bench_check_jobs.py [--files 1000] [--runs 3]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
BUNDLED = ROOT / "inspector" / "data" / "captures"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CAPTURE_SUFFIXES = (".sse", ".jsonl", ".ndjson", ".json", ".txt", ".har")


def sources() -> list[Path]:
    found = [p for p in sorted(CORPUS.glob("*")) if p.suffix in CAPTURE_SUFFIXES and not p.name.endswith(".expect.json")]
    return found + sorted(BUNDLED.glob("*.jsonl"))


def build(folder: Path, n: int) -> int:
    src = sources()
    total = 0
    for i in range(n):
        s = src[i % len(src)]
        dest = folder / f"{i:04d}-{s.name}"
        shutil.copyfile(s, dest)
        total += dest.stat().st_size
    return total


def timed(argv: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, check=False)
    return time.perf_counter() - t0, hashlib.sha256(p.stdout).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "captures"
        folder.mkdir()
        size = build(folder, args.files)
        settings = {f"--jobs {j}": [sys.executable, "-m", "inspector", "check", "--jobs", str(j), str(folder)]
                    for j in sorted({1, cpus})}
        for argv in settings.values():
            timed(argv)  # warm: bytecode written, files in the page cache
        times: dict[str, list[float]] = {k: [] for k in settings}
        digests: dict[str, set[str]] = {k: set() for k in settings}
        for _ in range(args.runs):
            for name, argv in settings.items():
                t, digest = timed(argv)
                times[name].append(t)
                digests[name].add(digest)
    one = statistics.median(times["--jobs 1"])
    same = len(set().union(*digests.values())) == 1
    print(f"{args.files} captures ({size / 1e6:.1f} MB, {len(sources())} distinct), {cpus} CPUs, "
          f"{args.runs} runs each, interleaved; median wall time of `check DIR`")
    print("| setting | seconds | files/s | speed-up |")
    print("|---|---:|---:|---:|")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"| {name} | {med:.2f} | {args.files / med:.0f} | {one / med:.2f}× |")
    print(f"output identical across settings and runs: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
