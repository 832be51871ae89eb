"""Many-stream files in linear time: ``check --entry all`` of a HAR with N and 2N streamed entries.

A HAR of ``--entries`` streamed entries (each an Anthropic answer of ``--deltas`` text deltas as
``response.content.text``, about 14 kB, beside one non-streamed entry per ten) is written to a
temporary folder; then, in fresh processes, wall seconds of:

- ``check --entry all --format json --jobs 1`` (every streamed entry, each reported as ``FILE#N``);
- ``check --entry N --format json`` of the last entry (one entry out of a large HAR);
- ``export --to har`` of a folder holding one native capture per entry (the exported HAR's size).

at N and 2N, and the ratio (linear ≈ 2.0). ``--root DIR`` runs another checkout's code (its own
``.venv``) for a before/after.

    uv run python bench/bench_har_entries.py [--entries 1000] [--deltas 100] [--root DIR]
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


def answer(n: int, deltas: int) -> str:
    """One Anthropic SSE answer of ``deltas`` text deltas."""
    evs = [{"type": "message_start", "message": {"id": f"msg_{n}", "type": "message", "role": "assistant",
                                                 "model": "bench", "content": [], "stop_reason": None}},
           {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}]
    evs += [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": f"w{i} "}}
            for i in range(deltas)]
    evs += [{"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": deltas}},
            {"type": "message_stop"}]
    return "".join(f"event: {e['type']}\ndata: {orjson.dumps(e).decode()}\n\n" for e in evs)


def entry(n: int, body: str, ctype: str) -> dict:
    return {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1.0,
            "request": {"method": "POST", "url": f"https://api.anthropic.com/v1/messages?n={n}", "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "content-type", "value": "application/json"}], "queryString": [],
                        "cookies": [], "headersSize": -1, "bodySize": 2,
                        "postData": {"mimeType": "application/json", "text": "{}"}},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                         "headers": [{"name": "content-type", "value": ctype}], "cookies": [],
                         "content": {"size": len(body), "mimeType": ctype, "text": body},
                         "redirectURL": "", "headersSize": -1, "bodySize": len(body)},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


def write_har(path: Path, entries: int, deltas: int) -> int:
    """A HAR of ``entries`` streamed entries and one JSON entry per ten; its size in bytes."""
    items = []
    for n in range(entries):
        if n % 10 == 0:
            items.append(entry(n, '{"ok": true}', "application/json"))
        items.append(entry(n, answer(n, deltas), "text/event-stream"))
    raw = orjson.dumps({"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "entries": items}})
    path.write_bytes(raw)
    return len(raw)


def write_folder(folder: Path, entries: int, deltas: int) -> None:
    """One native capture per entry."""
    folder.mkdir()
    head = orjson.dumps({"format": "stream-inspector-capture", "version": 1, "request": None,
                         "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}})
    for n in range(entries):
        rec = orjson.dumps({"t": 0.1, "data": answer(n, deltas)})
        (folder / f"{n:05d}.jsonl").write_bytes(head + b"\n" + rec + b"\n" + b'{"t": 0.2, "end": "eof"}\n')


def wall(root: Path, argv: list[str]) -> tuple[float, int]:
    python = root / ".venv" / "bin" / "python"
    t0 = time.perf_counter()
    p = subprocess.run([str(python) if python.exists() else sys.executable, "-m", "inspector", *argv], cwd=root, env=ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, len(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=1000)
    ap.add_argument("--deltas", type=int, default=100)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to run (default: this one)")
    a = ap.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (a.entries, 2 * a.entries):
            har = Path(tmp) / f"many-{n}.har"
            size = write_har(har, n, a.deltas)
            folder = Path(tmp) / f"runs-{n}"
            write_folder(folder, n, a.deltas)
            last = (n - 1) + (n - 1) // 10 + 1  # the last streamed entry's index in log.entries
            all_s, out = wall(a.root, ["check", "--entry", "all", "--format", "json", "--jobs", "1", str(har)])
            one_s, _ = wall(a.root, ["check", "--entry", str(last), "--format", "json", str(har)])
            exp_s, exp = wall(a.root, ["export", "--to", "har", str(folder)])
            rows[n] = (size, all_s, out, one_s, exp_s, exp)
    one, two = rows[a.entries], rows[2 * a.entries]
    print(f"HAR of {a.entries:,} / {2 * a.entries:,} streamed entries: {one[0] / 1e6:.1f} / {two[0] / 1e6:.1f} MB; "
          f"report {one[2] / 1e6:.1f} / {two[2] / 1e6:.1f} MB")
    print("| command | s at N | s at 2N | ratio (linear ≈ 2) |")
    print("|---|---:|---:|---:|")
    print(f"| check --entry all --jobs 1 | {one[1]:.1f} | {two[1]:.1f} | {two[1] / one[1]:.2f} |")
    print(f"| check --entry LAST | {one[3]:.2f} | {two[3]:.2f} | {two[3] / one[3]:.2f} |")
    print(f"| export --to har FOLDER ({one[5] / 1e6:.1f} / {two[5] / 1e6:.1f} MB) | {one[4]:.1f} | {two[4]:.1f} | "
          f"{two[4] / one[4]:.2f} |")


if __name__ == "__main__":
    main()
