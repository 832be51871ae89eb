"""Peak memory of ``check`` and ``export --to html`` on a large capture, in bytes of RSS per input byte.

Writes a raw SSE Anthropic capture of about ``--mb`` megabytes (a long text block, then tool calls
with 8-character argument deltas, in turn), then runs ``python -m inspector check --format json``
and ``python -m inspector export --to html -o PAGE`` on it and reads each child's peak RSS
(``ru_maxrss``); the page's size is reported beside it. The floor is the same file read whole and
each event's data parsed with ``orjson.loads`` and dropped.

``--shapes``: the worst shapes instead, each about ``--mb`` megabytes (tiny SSE events, tiny NDJSON
lines, SSE comment lines, the same pasted inside prose, many blocks, many parallel tool calls, tiny
native records, and the large events above for comparison), through ``check --format json``, ``check`` (text), ``export --to
html``, ``export --to har`` and ``replay --instant`` (headless, ``run_test``): peak RSS and bytes of
RSS per input byte with a limit too high to matter, the highest RSS the limit's checks read while it
read (``read``) and ``peak ÷ (read ÷ READ_SHARE)``: at most 1 when what is made after reading fits in
the rest of the limit (a limit just large enough to read the capture then holds); then under
``--max-memory`` ``--limit`` (default 256M): the peak must stay near half the limit and the run end
with exit 2 and one line. The parent writes
each file as it goes and holds none (a child's ``ru_maxrss`` counts its parent's pages until exec).

    uv run python bench/bench_memory.py [--mb 100]
    uv run python bench/bench_memory.py --shapes [--mb 10] [--limit 256M] [--only sse-tiny,blocks]
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
    return run(argv)[:2]


def run(argv: list[str]) -> tuple[int, float, int, str, int]:
    """Peak RSS in bytes, wall seconds, exit code, the last line on stderr of ``argv`` (but a
    ``READ_PEAK`` line: :data:`WATCH`'s figure, the fifth value, 0 without one)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    read = [int(ln.split()[1]) for ln in lines if ln.startswith("READ_PEAK ")]
    lines = [ln for ln in lines if not ln.startswith("READ_PEAK ")]
    return usage.ru_maxrss * 1024, time.perf_counter() - t0, os.waitstatus_to_exitcode(status), \
        (lines[-1] if lines else ""), (read[0] if read else 0)


# ---------------------------------------------------------------- --shapes
A_START = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                "content": [], "stop_reason": None}}


def _repeat(path: Path, mb: float, unit: bytes, head: bytes = b"", tail: bytes = b"") -> None:
    """``head``, then ``unit`` until the file holds about ``mb`` megabytes (written 1 MB at a time), then ``tail``."""
    target = int(mb * 1_000_000) - len(tail)
    block = unit * max(1, 1_000_000 // len(unit))
    with path.open("wb") as f:
        f.write(head)
        size = len(head)
        while size + len(block) <= target:
            f.write(block)
            size += len(block)
        f.write(unit * ((target - size) // len(unit)))
        f.write(tail)


def _events(path: Path, mb: float, make) -> None:
    """Raw SSE of the events ``make(i)`` gives for i = 0, 1, …, until about ``mb`` megabytes."""
    target = int(mb * 1_000_000)
    with path.open("wb") as f:
        size = f.write(event(A_START))
        i = 0
        while size < target:
            size += f.write(b"".join(event(e) for e in make(i)))
            i += 1


def _chat_calls(path: Path, mb: float) -> None:
    """One Chat choice opening a new parallel tool call per chunk."""
    target = int(mb * 1_000_000)
    with path.open("wb") as f:
        size, i = 0, 0
        while size < target:
            chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                     "choices": [{"index": 0, "delta": {"tool_calls": [
                         {"index": i, "id": f"call_{i}", "type": "function",
                          "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": None}]}
            size += f.write(b"data: " + orjson.dumps(chunk) + b"\n\n")
            i += 1


SHAPES = {
    "sse-tiny": lambda p, mb: _repeat(p, mb, b"data:{}\n\n"),
    "ndjson-tiny": lambda p, mb: _repeat(p, mb, b"{}\n"),
    "sse-comments": lambda p, mb: _repeat(p, mb, b":\n", tail=b"data:{}\n\n"),
    "prose-comments": lambda p, mb: _repeat(p, mb, b":\n", b"The stream, as it came:\n", b"data:{}\n\nThanks\n"),
    "blocks": lambda p, mb: _events(p, mb, lambda i: [
        {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_stop", "index": i}]),
    "chat-calls": _chat_calls,
    "native-tiny": lambda p, mb: _repeat(p, mb, b'{"t":0.5,"data":"data:{}\\n\\n"}\n', orjson.dumps(
        {"format": "stream-inspector-capture", "version": 1, "request": None, "response": None}) + b"\n"),
    "large-events": lambda p, mb: write_capture(p, mb),
}
"""Each shape's writer: ``(path, megabytes)``."""

WATCH = r'''
import atexit, sys
from inspector.capture import memory
real, seen = memory.rss, [0]
def watched():
    n = real()
    seen[0] = max(seen[0], n or 0)
    return n
memory.rss = watched
atexit.register(lambda: print(f"READ_PEAK {seen[0]}", file=sys.stderr))
'''
"""Run first in a child: the highest RSS the limit's checks read (what reading took), printed at exit."""

REPLAY = r'''
import asyncio, sys
from inspector.capture import memory
from inspector.feeds.opening import OpeningFeed
from inspector.tui.app import make_app

exec(open(sys.argv[3]).read())

async def main(path, limit):
    app = make_app(OpeningFeed(path, instant=True))
    with memory.limited(limit):
        async with app.run_test(size=(160, 48)):
            while app.return_code is None and not (app.feed.finished and not app.feed.loading):
                await asyncio.sleep(0.05)
    if app.failure:
        print(app.failure, file=sys.stderr)
        sys.exit(2)

asyncio.run(main(sys.argv[1], int(sys.argv[2]) if sys.argv[2] != "-" else None))
'''


def shapes(mb: float, limit: str, only: list[str]) -> None:
    from inspector.capture.memory import READ_SHARE
    from inspector.model.sizes import parse_size
    base, _ = peak_rss([sys.executable, "-m", "inspector", "rules", "S001"])
    print(f"`python -m inspector rules S001`: {base / 1e6:.0f} MB peak RSS (subtracted below)")
    print(f"| shape | MB | command | peak MB | B per input byte | s | read MB | peak ÷ (read ÷ {READ_SHARE}) | "
          f"peak MB, --max-memory {limit} | exit, last line |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        replay, watch = Path(tmp) / "replay.py", Path(tmp) / "watch.py"
        replay.write_text(REPLAY)
        watch.write_text(WATCH)
        py = [sys.executable, "-c", f"exec(open({str(watch)!r}).read()); import sys; sys.argv[0] = 'inspector'; "
                                    "from inspector.cli import main; sys.exit(main())"]
        for name, write in SHAPES.items():
            if only and name not in only:
                continue
            cap = Path(tmp) / name
            write(cap, mb)
            size = cap.stat().st_size
            out = str(Path(tmp) / "out")
            commands = {"check --format json": [*py, "check", "--format", "json", str(cap)],
                        "check": [*py, "check", str(cap)],
                        "export --to html": [*py, "export", str(cap), "--to", "html", "-o", out],
                        "export --to har": [*py, "export", str(cap), "--to", "har", "-o", out],
                        "replay --instant": [sys.executable, str(replay), str(cap)]}
            for what, argv in commands.items():
                if what.startswith("replay"):
                    free = run(argv + [str(1 << 40), str(watch)])
                    capped = run(argv + [str(parse_size(limit)), str(watch)])
                else:
                    free = run(argv + ["--max-memory", "1T"])
                    capped = run(argv + ["--max-memory", limit])
                peak, secs, _, _, read = free
                ratio = f"{peak / (read / READ_SHARE):.2f}" if read else "—"
                print(f"| {name} | {size / 1e6:.1f} | {what} | {peak / 1e6:.0f} | {(peak - base) / size:.1f} | "
                      f"{secs:.1f} | {read / 1e6:.0f} | {ratio} | {capped[0] / 1e6:.0f} | "
                      f"{capped[2]}, {capped[3][-60:]} |", flush=True)
            cap.unlink()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=None, help="capture size (default 100; --shapes: 10)")
    ap.add_argument("--shapes", action="store_true", help="the worst shapes through every command (see above)")
    ap.add_argument("--limit", default="256M", help="--shapes: the --max-memory of the second run")
    ap.add_argument("--only", default="", help="--shapes: these shapes only (comma-separated)")
    a = ap.parse_args()
    if a.shapes:
        return shapes(a.mb or 10.0, a.limit, [n for n in a.only.split(",") if n])
    a.mb = a.mb or 100.0
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
