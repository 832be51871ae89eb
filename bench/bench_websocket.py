"""WebSocket captures: reading a socket of many responses vs the same events over SSE.

A Responses WebSocket of ``--responses`` text responses of ``--deltas`` deltas each (built with
``tests/websocket/fixtures.py``), and the same server events as one SSE body (native capture). Times
are wall-clock seconds, best of N runs, from raw bytes:

    uv run python bench/bench_websocket.py [--responses 100] [--deltas 1000] [--runs 3]

- load: the native loader (``load_native``), both files;
- split: cutting the socket into one capture per response (``inspector.capture.websocket.exchanges``);
- check: every response judged (``run_capture``), against the SSE body judged whole (S004 splits it).
"""
from __future__ import annotations

import argparse
import time

import orjson

from inspector.capture.load import load_native
from inspector.capture.websocket import exchanges
from inspector.feeds.run import run_capture
from tests.websocket import fixtures as fx


def build(responses: int, deltas: int) -> tuple[bytes, bytes]:
    ws = fx.Socket()
    prev = None
    for r in range(responses):
        ws.send(fx.create(input="x", tools=fx.TOOLS, **({"previous_response_id": prev} if prev else {})))
        fx.text_response(ws, f"resp_{r}", [f"w{i} " for i in range(deltas)], prev, "auto")
        prev = f"resp_{r}"
    ws.close(1000)
    header = {"format": "stream-inspector-capture", "version": 1, "request": None,
              "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    body = [header] + [{"t": r["t"], "data": f"event: {orjson.loads(r['data'])['type']}\ndata: {r['data']}\n\n"}
                       for r in ws.records[1:] if r.get("ws") == "recv"]
    return ws.text().encode(), b"".join(orjson.dumps(x) + b"\n" for x in body)


def best(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--responses", type=int, default=100)
    ap.add_argument("--deltas", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    ws_raw, sse_raw = build(args.responses, args.deltas)
    sock = load_native(ws_raw)
    exs = exchanges(sock)
    sse = load_native(sse_raw)
    print(f"{len(sock.messages or [])} messages, {len(ws_raw) / 1e6:.1f} MB (SSE body {len(sse_raw) / 1e6:.1f} MB)")
    print(f"load   websocket {best(args.runs, lambda: load_native(ws_raw)):.2f} s   "
          f"sse {best(args.runs, lambda: load_native(sse_raw)):.2f} s")
    print(f"split  websocket {best(args.runs, lambda: exchanges(sock)):.2f} s")
    print(f"check  websocket {best(args.runs, lambda: [run_capture(c) for c in exs]):.2f} s   "
          f"sse {best(args.runs, lambda: run_capture(sse)):.2f} s")


if __name__ == "__main__":
    main()
