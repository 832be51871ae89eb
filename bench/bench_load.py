"""Loading a large capture: ``load_bytes`` alone, and loading plus ``check`` in-process, against the floor.

One OpenAI Chat stream of one large tool call (1.6 M argument characters in 8-character deltas, about
40 MB, ending in blank lines as saved files do) is made in a temporary folder; CPU seconds, median of
``--rounds``: ``load_bytes(raw)``, ``run_capture(load_bytes(raw))`` and the floor of
``bench_floor.py`` (framing plus one ``orjson.loads`` per event) on the same bytes. ``--other DIR``
runs the same in a child process against another checkout's code, for a before/after.

    uv run python bench/bench_load.py [--rounds 5] [--other DIR]
"""
from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(path: Path, rounds: int) -> str:
    """The figures for the checkout whose ``inspector`` is first on ``sys.path``."""
    from inspector.capture.load import load_bytes  # first: bench_floor puts this checkout on the path
    from inspector.feeds.run import run_capture

    from bench_floor import floor

    raw = path.read_bytes()

    def cpu(fn) -> float:
        times = []
        for _ in range(rounds):
            gc.disable()
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
            gc.enable()
        return statistics.median(times)

    fl = cpu(lambda: floor(raw))
    lb = cpu(lambda: load_bytes(raw))
    both = cpu(lambda: run_capture(load_bytes(raw)))
    return (f"| {len(raw) / 1e6:.1f} MB | {fl:.3f} | {lb * 1000:.1f} ms | {both:.3f} | {both / fl:.2f}× |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--other", help="another checkout measured the same way (a child process)")
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parent))
    from bench_large_tool_call import chat_sse, make_arguments, make_chat_chunks

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "chat-40mb.sse"
        path.write_bytes(chat_sse(make_chat_chunks(make_arguments(1_600_000))) + b"\n\n")
        print(f"CPU seconds, median of {a.rounds}")
        print("| checkout | file | floor | load_bytes | load + check | × the floor |")
        print("|---|---:|---:|---:|---:|---:|")
        if a.other:
            code = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import bench_load; "
                    "print(bench_load.measure(__import__('pathlib').Path(sys.argv[3]), int(sys.argv[4])))")
            row = subprocess.run([sys.executable, "-c", code, str(Path(a.other).resolve()), str(HERE), str(path),
                                  str(a.rounds)], capture_output=True, text=True, check=True).stdout.strip()
            print(f"| other {row}")
        print(f"| this {measure(path, a.rounds)}")


if __name__ == "__main__":
    main()
