"""The replay TUI under load: ``replay --instant`` of a 50 000-delta capture, headless, vs ``check``.

Measures (wall-clock seconds, best of N):
- ``check``: the session alone on the capture (what ``check`` does);
- ``replay``: the same capture played ``--instant`` in the Textual app under ``App.run_test``
  (the worker feeds the session in time-budgeted batches; widgets refresh at ~30 frames/s);
- key latency during that replay: a key event is posted every ~30 ms while the stream plays and
  the time until its action runs is recorded (median, 95th percentile, max).

    uv run python bench/bench_tui_replay.py [--deltas 50000] [--runs 3]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events  # noqa: E402

from inspector.feeds.replay import ReplayFeed  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from inspector.tui.app import make_app  # noqa: E402
from tests.ui.capture_factory import big_capture  # noqa: E402


async def _replay(cap, size=(160, 48)) -> tuple[float, list[float], float]:
    t0 = time.perf_counter()
    pb = ReplayFeed(cap, instant=True, label="bench", scan=False)
    prep = time.perf_counter() - t0
    app = make_app(pb)
    latencies: list[float] = []
    async with app.run_test(size=size):
        sent = [0.0]
        original = app.action_toggle_follow

        def timed() -> None:
            latencies.append(time.perf_counter() - sent[0])
            original()

        app.action_toggle_follow = timed  # type: ignore[method-assign]
        t0 = time.perf_counter()
        while not pb.finished:
            sent[0] = time.perf_counter()
            n = len(latencies)
            app.post_message(events.Key("f", "f"))
            while len(latencies) == n and not pb.finished:
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.03)
        await app.workers.wait_for_complete()
        elapsed = time.perf_counter() - t0
    return elapsed, latencies, prep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deltas", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    cap = big_capture(args.deltas)
    checks = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        s = run_capture(cap)
        checks.append(time.perf_counter() - t0)
    replays, preps, lats = [], [], []
    for _ in range(args.runs):
        elapsed, lat, prep = asyncio.run(_replay(cap))
        replays.append(elapsed)
        preps.append(prep)
        lats.extend(lat)
    lats.sort()
    check, replay, prep = min(checks), min(replays), min(preps)
    print(f"capture: {args.deltas:,} deltas, {len(s.events):,} events, {len(cap.body):,} bytes")
    print("| what | seconds |")
    print("|---|---|")
    print(f"| check (session only) | {check:.2f} |")
    print(f"| replay: building the feed | {prep:.2f} |")
    print(f"| replay --instant in the TUI (headless) | {replay:.2f} |")
    print(f"| ratio replay / check | {replay / check:.1f}× |")
    if lats:
        p95 = lats[min(len(lats) - 1, int(len(lats) * 0.95))]
        print(f"key latency during replay ({len(lats)} keys): median {statistics.median(lats) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {lats[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
