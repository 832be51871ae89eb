"""``check`` on a folder of 1 000 captures: ``--jobs 1`` vs every core, same files, fresh processes.

The folder holds copies of the shared corpus's captures and the bundled ones (a mix of dialects,
sizes and findings), cycled up to ``--files``. Each setting runs ``--runs`` times, interleaved;
the table gives the median wall time, files per second and the speed-up over one job. The output
of every run is compared with the ``--jobs 1`` output: it must be byte-identical (deterministic order).

    uv run python bench/bench_check_jobs.py [--files 1000] [--runs 3] [--cassettes]

``--cassettes``: the folder holds VCR cassettes instead (vcrpy's YAML layout), each with
``PER_CASSETTE`` streamed interactions (the same capture bodies) and one that is not streamed.
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


PER_CASSETTE = 5


def build_cassettes(folder: Path, n: int) -> int:
    """``n`` cassettes in vcrpy's YAML layout, ``PER_CASSETTE`` streamed interactions each."""
    import yaml

    from inspector.capture.load import load_path

    bodies = []
    for s in sources():
        cap = load_path(s)
        ctype = "application/x-ndjson" if cap.source_format == "ndjson" else "text/event-stream"
        body = cap.body
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            pass  # stays bytes: YAML !!binary, as vcrpy writes it
        bodies.append((ctype, body))

    def interaction(ctype: str, body, uri: str) -> dict:
        return {"request": {"method": "POST", "uri": uri, "body": '{"stream": true}', "headers": {}},
                "response": {"status": {"code": 200, "message": "OK"}, "headers": {"Content-Type": [ctype]},
                             "body": {"string": body}}}

    total = 0
    for i in range(n):
        items = [interaction(*bodies[(i * PER_CASSETTE + k) % len(bodies)], "http://127.0.0.1:1/v1/messages")
                 for k in range(PER_CASSETTE)]
        items.append(interaction("application/json", '{"data": []}', "http://127.0.0.1:1/v1/models"))
        dest = folder / f"{i:04d}.yaml"
        dest.write_text(yaml.safe_dump({"interactions": items, "version": 1}))
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
    ap.add_argument("--cassettes", action="store_true", help="cassettes instead of capture files")
    args = ap.parse_args()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "captures"
        folder.mkdir()
        size = (build_cassettes if args.cassettes else build)(folder, args.files)
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
    what = f"cassettes of {PER_CASSETTE} streams" if args.cassettes else "captures"
    print(f"{args.files} {what} ({size / 1e6:.1f} MB, {len(sources())} distinct bodies), {cpus} CPUs, "
          f"{args.runs} runs each, interleaved; median wall time of `check DIR`")
    print("| setting | seconds | files/s | speed-up |")
    print("|---|---:|---:|---:|")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"| {name} | {med:.2f} | {args.files / med:.0f} | {one / med:.2f}× |")
    print(f"output identical across settings and runs: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
