"""Peak memory of ``check`` and ``export --to html`` on a large capture, in bytes of RSS per input byte.

Writes a raw SSE Anthropic capture of about ``--mb`` megabytes (a long text block, then tool calls
with 8-character argument deltas, in turn), then runs ``python -m inspector check --format json``
and ``python -m inspector export --to html -o PAGE`` on it and reads each child's peak RSS
(``ru_maxrss``); the page's size is reported beside it. The floor is the same file read whole and
each event's data parsed with ``orjson.loads`` and dropped.

    uv run python bench/bench_memory.py [--mb 100]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
FLOOR = r'''
import sys, orjson
raw = open(sys.argv[1], "rb").read()
for block in raw.split(b"\n\n"):
    for line in block.split(b"\n"):
        if line.startswith(b"data: "):
            orjson.loads(line[6:])
'''


def event(e: dict) -> bytes:
    return b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n"


def write_capture(path: Path, mb: float) -> int:
    target = int(mb * 1_000_000)
    size = 0
    with path.open("wb") as f:
        def put(e: dict) -> None:
            nonlocal size
            b = event(e)
            f.write(b)
            size += len(b)

        put({"type": "message_start", "message": {"id": "msg", "type": "message", "role": "assistant",
                                                  "model": "bench", "content": [], "stop_reason": None}})
        index = 0
        while size < target:
            tool = index % 2 == 1
            block = ({"type": "tool_use", "id": f"toolu_{index}", "name": "write", "input": {}} if tool
                     else {"type": "text", "text": ""})
            put({"type": "content_block_start", "index": index, "content_block": block})
            if tool:
                put({"type": "content_block_delta", "index": index,
                     "delta": {"type": "input_json_delta", "partial_json": '{"lines": ['}})
                for i in range(20_000):
                    piece = f'"line {i} ✓",' if i < 19_999 else f'"line {i} ✓"]}}'
                    put({"type": "content_block_delta", "index": index,
                         "delta": {"type": "input_json_delta", "partial_json": piece}})
            else:
                for i in range(20_000):
                    put({"type": "content_block_delta", "index": index,
                         "delta": {"type": "text_delta", "text": f"word{i} "}})
            put({"type": "content_block_stop", "index": index})
            index += 1
        put({"type": "message_delta", "delta": {"stop_reason": "tool_use" if index % 2 == 0 else "end_turn"},
             "usage": {"output_tokens": 1}})
        put({"type": "message_stop"})
    return size


def peak_rss(argv: list[str]) -> tuple[int, float]:
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return usage.ru_maxrss * 1024, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=100.0)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = Path(tmp) / "big.sse"
        size = write_capture(cap, a.mb)
        floor_script = Path(tmp) / "floor.py"
        floor_script.write_text(FLOOR)
        base, _ = peak_rss([sys.executable, "-c", "import orjson"])
        floor, floor_s = peak_rss([sys.executable, str(floor_script), str(cap)])
        check, check_s = peak_rss([sys.executable, "-m", "inspector", "check", "--format", "json", str(cap)])
        page = Path(tmp) / "page.html"
        export, export_s = peak_rss([sys.executable, "-m", "inspector", "export", str(cap), "--to", "html",
                                     "-o", str(page)])
        page_size = page.stat().st_size if page.exists() else 0
    print(f"capture: {size:,} bytes of raw SSE")
    print("| process | peak RSS | B per input byte | wall s |")
    print("|---|---:|---:|---:|")
    print(f"| python -c 'import orjson' | {base / 1e6:.0f} MB | — | — |")
    print(f"| floor (read, split, orjson.loads) | {floor / 1e6:.0f} MB | {floor / size:.2f} | {floor_s:.1f} |")
    print(f"| stream-inspector check | {check / 1e6:.0f} MB | {check / size:.2f} | {check_s:.1f} |")
    print(f"| stream-inspector export --to html | {export / 1e6:.0f} MB | {export / size:.2f} | {export_s:.1f} |")
    print(f"page: {page_size:,} bytes ({page_size / size:.2f}x the capture)")


if __name__ == "__main__":
    main()
