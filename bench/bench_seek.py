"""Seeking a replay: step back at event 49 999 of the 50 000-delta capture, and ``g`` jumps.

A step back restores the nearest checkpoint (``inspector.feeds.checkpoints``) and feeds the few
events after it, instead of rebuilding the session from event 0. Prints the median and the worst
of ``--runs`` step backs from the end, the cost of the scan that takes the checkpoints (the same
work as ``check``), and jumps to the start, the middle and the end.

    uv run python bench/bench_seek.py [--deltas 50000] [--runs 20]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.feeds.replay import ReplayFeed  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from tests.ui.capture_factory import big_capture  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deltas", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    cap = big_capture(args.deltas)
    t0 = time.perf_counter()
    ref = run_capture(cap)
    check = time.perf_counter() - t0
    t0 = time.perf_counter()
    feed = ReplayFeed(cap, label="bench")  # scans: total, final session, checkpoints
    scan = time.perf_counter() - t0
    total = feed.total_events
    backs = []
    for _ in range(args.runs):
        feed.seek_event(total - 1)  # at the end
        t0 = time.perf_counter()
        feed.step_back()
        backs.append(time.perf_counter() - t0)
        assert feed.event_count == total - 1
    jumps = {}
    for name, n in (("g 0", 0), ("g middle", total // 2), ("g last", total - 1), ("g middle again", total // 2)):
        t0 = time.perf_counter()
        feed.seek_event(n)
        jumps[name] = time.perf_counter() - t0
    print(f"capture: {args.deltas:,} deltas, {total:,} events ({len(ref.events):,} in check), "
          f"{len(feed.checkpoints)} checkpoints")
    print("| what | ms |")
    print("|---|---:|")
    print(f"| check (run_capture) | {check * 1000:.0f} |")
    print(f"| replay scan (run + checkpoints) | {scan * 1000:.0f} |")
    print(f"| step back at event {total - 1:,}, median of {args.runs} | {statistics.median(backs) * 1000:.1f} |")
    print(f"| step back, worst | {max(backs) * 1000:.1f} |")
    for name, dt in jumps.items():
        print(f"| {name} | {dt * 1000:.1f} |")


if __name__ == "__main__":
    main()
