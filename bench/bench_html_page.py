"""The exported HTML page in headless Chromium: a 50 000-delta capture vs a 12-event one.

Exports both (``export --to html``, in-process), then loads each page in headless Chromium
(``tests/browser/chromium.py``: Debian's ``chromium`` or Playwright's own) interleaved,
``--runs`` times, and reports the median time from the navigation's start until the events
table shows its first rows (``performance.now()`` polled on animation frames), the page's size
against the capture's, and the ratio of the two times (issue 27's target: within 3x).

    uv run python bench/bench_html_page.py [--deltas 50000] [--runs 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.capture.load import load_path  # noqa: E402
from inspector.capture.recorder import write_capture  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from inspector.report import html  # noqa: E402
from tests.browser.chromium import FIRST_ROWS, browser  # noqa: E402
from tests.ui.capture_factory import big_capture  # noqa: E402

SMALL = ROOT / "inspector" / "data" / "captures" / "4-openai-compatible-quirks.jsonl"


def export(src: Path, dst: Path) -> int:
    cap = load_path(src)
    s = run_capture(cap)
    with dst.open("w", encoding="utf-8") as f:
        html.write(f, src.name, s, cap)
    return len(s.events)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deltas", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big_src = Path(tmp) / "big.jsonl"
        write_capture(big_capture(deltas=a.deltas), big_src)
        pages = {}
        for name, src in (("small", SMALL), ("big", big_src)):
            dst = Path(tmp) / f"{name}.html"
            events = export(src, dst)
            pages[name] = (dst, events, src.stat().st_size, dst.stat().st_size)
        times: dict[str, list[float]] = {k: [] for k in pages}
        with browser() as b:
            if b is None:
                sys.exit("no headless Chromium: apt install chromium (or playwright install chromium)")
            page = b.new_page(viewport={"width": 1280, "height": 900})
            for _ in range(a.runs):
                for name, (dst, *_rest) in pages.items():
                    page.goto("about:blank")
                    page.goto(dst.as_uri(), wait_until="commit")
                    times[name].append(page.wait_for_function(FIRST_ROWS, polling="raf").json_value())
    print("| page | events | capture | page | page / capture | first rows, median ms (min) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (dst, events, cap_size, page_size) in pages.items():
        t = times[name]
        print(f"| {name} | {events:,} | {cap_size:,} B | {page_size:,} B | {page_size / cap_size:.2f} | "
              f"{statistics.median(t):.0f} ({min(t):.0f}) |")
    ratio = statistics.median(times["big"]) / statistics.median(times["small"])
    print(f"big / small: {ratio:.1f}x (target: within 3x)")


if __name__ == "__main__":
    main()
