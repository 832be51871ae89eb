"""The TUI as people use it (issue 12, items 3 and 9; issue 16, item 5), headless under ``App.run_test``.

On a capture file written to a temporary folder, opened the way ``replay`` opens it (an
``OpeningFeed``: the app shows at once and the file is read in the background):

1. ``replay --instant`` of the 50 000-delta tool call: wall time until the last frame is drawn,
   against ``check`` on the same file (load + session), in interleaved rounds, each in a fresh
   process (timed inside it once its imports are done), and the same in this process after a
   first run (the measure used before); on a 10-delta capture the difference is the TUI's fixed
   cost (Textual starting, styling, laying out and painting the screen); then again with a key
   posted every ~30 ms while it plays, and the time until each one's action ran (p50, p99, max);
2. after it ended: how long help (``?``), the timeline (``t``), the compare screen (``e``) and the
   next theme (``ctrl+t``) take to open, from the key to the new screen drawn (median and worst
   of ``--opens``);
3. ``replay`` (recorded timing) of a 30 000-event capture: time to the first frame (the loading
   indicator), to the first frame of the capture read (header and total, playing) and to the
   first frame that shows events (which waits for the first chunk's recorded time);
4. ``--blocks``: one answer of 1 250 or 5 000 short tool calls (``many_calls_capture``):
   ``replay --instant`` to its final frame against ``check`` plus the TUI's fixed cost, wall and
   CPU seconds (a shared machine stretches wall time, CPU time less), peak RSS, keys meanwhile.

    uv run python bench/bench_tui.py [--deltas 50000] [--first 30000] [--runs 3] [--opens 5]
    uv run python bench/bench_tui.py --slope [--deltas 50000] [--runs 3]   # the same at 1×, 2×, 4×
    uv run python bench/bench_tui.py --blocks 1250,5000 [--runs 3]        # many blocks (issue 27)
"""
from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events  # noqa: E402

from inspector.capture.load import load_path  # noqa: E402
from inspector.capture.recorder import write_capture  # noqa: E402
from inspector.feeds.opening import OpeningFeed  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from inspector.tui.app import make_app  # noqa: E402
from inspector.tui.screens.compare import CompareScreen  # noqa: E402
from inspector.tui.screens.help import HelpScreen  # noqa: E402
from inspector.tui.screens.timeline import TimelineScreen  # noqa: E402
from tests.ui.capture_factory import big_capture, many_calls_capture  # noqa: E402
from bench.bench_startup import ENV  # noqa: E402 (fresh processes read compiled modules, as installed)

SIZE = (160, 48)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:.0f}"


def _frames(app, ended: asyncio.Event | None = None) -> list[tuple[float, int, bool]]:
    """Record ``(time, events shown, still loading)`` at every frame the app draws; set ``ended``
    at the frame that shows the whole capture (no polling: a wait that wakes the event loop every
    few ms would take the interpreter lock from the read and slow what is measured)."""
    seen: list[tuple[float, int, bool]] = []
    original = app._render_frame

    def timed() -> None:
        original()
        seen.append((time.perf_counter(), len(app.feed.session.events), app.feed.loading))
        if ended is not None and _shows_all(app, seen):
            ended.set()

    app._render_frame = timed  # type: ignore[method-assign]
    return seen


def _shows_all(app, frames) -> bool:
    return bool(app.feed.finished and frames and frames[-1][1] == len(app.feed.session.events)
                and not frames[-1][2])


async def replay_instant(path: Path, keys: bool = True) -> tuple[float, list[float], float]:
    """Seconds until the last frame of ``replay --instant``; key latencies (``keys``: one posted
    every ~30 ms, else none); seconds to the first frame."""
    t0 = time.perf_counter()
    feed = OpeningFeed(path, instant=True)
    app = make_app(feed)
    ended = asyncio.Event()
    frames = _frames(app, ended)
    latencies: list[float] = []
    async with app.run_test(size=SIZE):
        sent = [0.0]
        original = app.action_toggle_follow

        def timed() -> None:
            latencies.append(time.perf_counter() - sent[0])
            original()

        app.action_toggle_follow = timed  # type: ignore[method-assign]
        if not keys:
            await ended.wait()
        while not _shows_all(app, frames):
            sent[0] = time.perf_counter()
            n = len(latencies)
            app.post_message(events.Key("f", "f"))
            while len(latencies) == n:
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.03)
        total = frames[-1][0] - t0
        first = frames[0][0] - t0
    return total, latencies, first


async def opening_times(path: Path, opens: int) -> dict[str, list[float]]:
    """Seconds from a key to its screen drawn, per screen, on the ended replay of ``path``."""
    app = make_app(OpeningFeed(path, instant=True))
    out: dict[str, list[float]] = {"help (?)": [], "timeline (t)": [], "compare (e)": [], "theme (ctrl+t)": []}
    async with app.run_test(size=SIZE) as pilot:
        while not app.feed.finished or app.feed.loading:
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        for _ in range(opens):
            for name, key, kind in (("help (?)", "question_mark", HelpScreen),
                                    ("timeline (t)", "t", TimelineScreen),
                                    ("compare (e)", "e", CompareScreen)):
                t0 = time.perf_counter()
                await pilot.press(key)
                while not isinstance(app.screen, kind):
                    await asyncio.sleep(0.001)
                await pilot.pause()  # composed, laid out and drawn
                out[name].append(time.perf_counter() - t0)
                await pilot.press("escape")
                await pilot.pause()
            t0 = time.perf_counter()
            await pilot.press("ctrl+t")
            await pilot.pause()
            out["theme (ctrl+t)"].append(time.perf_counter() - t0)
    return out


async def first_frame(path: Path) -> tuple[float, float, float]:
    """Seconds to the first frame (loading indicator), to the first frame of the capture read
    (header, playing) and to the first frame showing events; and the first chunk's recorded time."""
    t0 = time.perf_counter()
    app = make_app(OpeningFeed(path))
    frames = _frames(app)
    async with app.run_test(size=SIZE) as pilot:
        while not any(n for _, n, _ in frames):
            await pilot.pause(0.005)
    read = next(t for t, _, loading in frames if not loading)
    return frames[0][0] - t0, read - t0, next(t for t, n, _ in frames if n) - t0


def alone(what: str, path: Path) -> tuple[float, float]:
    """``check`` (load + session) or ``replay --instant`` (to the last frame; and to the first) of
    ``path`` in a fresh process, timed inside it once its imports are done: seconds."""
    return alone_full(what, path)[:2]


def alone_full(what: str, path: Path) -> tuple[float, float, float, float]:
    """As :func:`alone`, with the CPU seconds of the process over the same span (all threads) and
    its peak RSS in MB (``ru_maxrss``, imports included)."""
    out = subprocess.run([sys.executable, __file__, "--one", what, str(path)], capture_output=True, text=True,
                         check=True, env=ENV).stdout.split()
    return float(out[0]), float(out[1]), float(out[2]), float(out[3])


def one(what: str, path: Path) -> None:
    c0 = time.process_time()
    if what == "check":
        t0 = time.perf_counter()
        run_capture(load_path(path))
        total, first = time.perf_counter() - t0, 0.0
    else:
        total, _, first = asyncio.run(replay_instant(path, keys=False))
    cpu = time.process_time() - c0
    print(total, first, cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def many_blocks(sizes: list[int], runs: int) -> None:
    """``--blocks``: ``replay --instant`` of one answer of N short tool calls against ``check`` of
    it (each in a fresh process, best of ``runs`` interleaved rounds), the TUI's fixed cost, peak
    RSS, and key latency while it plays (in this process, after a first app)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = {n: Path(tmp) / f"calls-{n}.jsonl" for n in sizes}
        for n, path in paths.items():
            write_capture(many_calls_capture(n), path)
        small = Path(tmp) / "small.jsonl"
        write_capture(big_capture(10), small)
        best: dict[tuple[str, int], tuple[float, float, float, float]] = {}
        fixed: list[tuple[float, float]] = []
        for _ in range(runs):
            for n, path in paths.items():
                for what in ("check", "replay"):
                    r = alone_full(what, path)
                    if (what, n) not in best or r[0] < best[what, n][0]:
                        best[what, n] = r
            rs, cs = alone_full("replay", small), alone_full("check", small)
            fixed.append((rs[0] - cs[0], rs[2] - cs[2]))
        asyncio.run(replay_instant(small, keys=False))  # this process's first app
        lats: dict[int, list[float]] = {}
        for n, path in paths.items():
            lats[n] = []
            for _ in range(runs):
                lats[n] += asyncio.run(replay_instant(path))[1]
    fixed_wall, fixed_cpu = min(f[0] for f in fixed), min(f[1] for f in fixed)
    print(f"answers of N short tool calls ({many_calls_capture.__name__}, 5 events a call); terminal "
          f"{SIZE[0]}×{SIZE[1]}; best of {runs} interleaved rounds, each run in a fresh process")
    print(f"TUI fixed cost (replay --instant of 10 deltas minus check of them): {fixed_wall:.2f} s wall, "
          f"{fixed_cpu:.2f} s CPU")
    print()
    print("| calls | check s (CPU s) | replay --instant to the final frame s (CPU s) | check + fixed s | "
          "peak RSS replay MB | keys p50 / p99 / max ms |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        c, r, lat = best["check", n], best["replay", n], lats[n]
        print(f"| {n:,} | {c[0]:.2f} ({c[2]:.2f}) | {r[0]:.2f} ({r[2]:.2f}) | {c[0] + fixed_wall:.2f} | {r[3]:.0f} | "
              f"{ms(statistics.median(lat))} / {ms(pct(lat, 0.99))} / {ms(max(lat))} ({len(lat)} keys) |")


def slope(deltas: int, runs: int) -> None:
    """``--slope``: best of ``runs`` interleaved rounds at ``deltas``, 2× and 4×."""
    sizes = (deltas, 2 * deltas, 4 * deltas)
    with tempfile.TemporaryDirectory() as tmp:
        paths = {n: Path(tmp) / f"{n}.jsonl" for n in sizes}
        for n, path in paths.items():
            write_capture(big_capture(n), path)
        best: dict[tuple[str, int], float] = {}
        for _ in range(runs):
            for n, path in paths.items():
                for what in ("check", "replay"):
                    t = alone(what, path)[0]
                    best[what, n] = min(t, best.get((what, n), t))
    print(f"best of {runs} interleaved rounds, each run in a fresh process\n")
    print("| deltas | check s | replay --instant s | ratio | replay - check s |")
    print("|---:|---:|---:|---:|---:|")
    for n in sizes:
        c, r = best["check", n], best["replay", n]
        print(f"| {n:,} | {c:.2f} | {r:.2f} | {r / c:.2f}× | {r - c:.2f} |")
    print()
    for a, b in zip(sizes, sizes[1:]):
        dc, dr = best["check", b] - best["check", a], best["replay", b] - best["replay", a]
        print(f"{a:,} -> {b:,} deltas: check +{dc:.2f} s, replay +{dr:.2f} s: "
              f"a delta costs the replay {dr / dc:.2f}× what it costs check")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deltas", type=int, default=50_000)
    ap.add_argument("--first", type=int, default=30_000, help="events of the first-frame capture")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--opens", type=int, default=5)
    ap.add_argument("--slope", action="store_true",
                    help="only: check and replay --instant at --deltas, 2x and 4x, each in a fresh process "
                         "(what each delta costs the replay against check)")
    ap.add_argument("--blocks", default="",
                    help="only: answers of N short tool calls (comma-separated N, e.g. 1250,5000): replay "
                         "--instant against check, peak RSS, key latency")
    ap.add_argument("--one", nargs=2, metavar=("check|replay", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        return one(args.one[0], Path(args.one[1]))
    if args.slope:
        return slope(args.deltas, args.runs)
    if args.blocks:
        return many_blocks([int(n) for n in args.blocks.split(",")], args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.jsonl"
        write_capture(big_capture(args.deltas), big)
        first_path = Path(tmp) / "first.jsonl"
        first_cap = big_capture(args.first - 4)
        first_t = first_cap.chunks[0].t
        write_capture(first_cap, first_path)

        small = Path(tmp) / "small.jsonl"
        write_capture(big_capture(10), small)

        s = run_capture(load_path(big))
        # Interleaved rounds (check, replay, check on 10 deltas, replay of those), each in a fresh
        # process as a person runs them: a shared machine changes speed over a run, a ratio is
        # only fair between neighbours, and in one process a run's time depends on what ran
        # before it (``check`` took 0.25-0.40 s here depending on its place).
        checks, replays, ratios, firsts, lats, keyed, fixed = [], [], [], [], [], [], []
        warm_checks, warm_replays = [], []
        for _ in range(args.runs):
            checks.append(alone("check", big)[0])
            total, first = alone("replay", big)
            replays.append(total)
            ratios.append(total / checks[-1])
            firsts.append(first)
            fixed.append(alone("replay", small)[0] - alone("check", small)[0])
        asyncio.run(replay_instant(big, keys=False))  # this process's first app
        for _ in range(args.runs):
            t0 = time.perf_counter()
            run_capture(load_path(big))
            warm_checks.append(time.perf_counter() - t0)
            warm_replays.append(asyncio.run(replay_instant(big, keys=False))[0])
        for _ in range(args.runs):
            total, lat, _ = asyncio.run(replay_instant(big))
            keyed.append(total)
            lats += lat
        opens = asyncio.run(opening_times(big, args.opens))
        ff = [asyncio.run(first_frame(first_path)) for _ in range(args.runs)]

    check, replay = min(checks), min(replays)
    print(f"capture: {args.deltas:,} deltas, {len(s.events):,} events, {big_capture.__name__}; "
          f"terminal {SIZE[0]}×{SIZE[1]}; best of {args.runs}; check and replay each in a fresh process")
    print()
    print("| what | seconds |")
    print("|---|---:|")
    print(f"| check (load + session) | {check:.2f} |")
    print(f"| replay --instant, to the last frame drawn | {replay:.2f} |")
    print(f"| ratio replay / check (best of each; median of the rounds' own ratios) | {replay / check:.2f}× "
          f"({statistics.median(ratios):.2f}×) |")
    print(f"| the same in this process after a first run: check, replay, ratio | {min(warm_checks):.2f}, "
          f"{min(warm_replays):.2f}, {min(warm_replays) / min(warm_checks):.2f}× |")
    print(f"| replay --instant of 10 deltas minus check of them: the TUI's fixed cost | {min(fixed):.3f} |")
    print(f"| replay --instant with a key every 30 ms, to the last frame drawn | {min(keyed):.2f} |")
    print(f"| replay --instant, first frame (loading indicator) | {min(firsts):.3f} |")
    print(f"| replay of {args.first:,} events, first frame (loading indicator) | {min(f[0] for f in ff):.3f} |")
    print(f"| replay of {args.first:,} events, first frame of the capture read (header, playing) | "
          f"{min(f[1] for f in ff):.3f} |")
    print(f"| replay of {args.first:,} events, first frame showing events (its first chunk is recorded at "
          f"{first_t:.1f} s) | {min(f[2] for f in ff):.3f} |")
    print()
    print(f"key latency during replay --instant ({len(lats)} keys over {args.runs} runs): "
          f"p50 {ms(statistics.median(lats))} ms, p99 {ms(pct(lats, 0.99))} ms, max {ms(max(lats))} ms")
    print()
    print(f"| opening, after the replay ended ({args.opens} times each) | median ms | worst ms |")
    print("|---|---:|---:|")
    for name, values in opens.items():
        print(f"| {name} | {ms(statistics.median(values))} | {ms(max(values))} |")


if __name__ == "__main__":
    main()
