"""Fairness through the proxy: one fire-hose stream must not delay another exchange's first byte (issue 17).

Three processes: an upstream (``serve``'s ASGI app on uvicorn, ``--instant``) with two captures,
``hose`` (``--hose-mb`` MB of small Anthropic text-delta events in 64 KB network chunks, sent as
fast as the socket takes them) and ``small`` (a three-chunk answer); the proxy, the real command
(``python -m inspector proxy --format json``, reports to /dev/null); and this script. The client
measures the time to first byte of ``--requests`` sequential ``small`` exchanges through the
proxy, first alone, then while ``--hoses`` client processes read ``hose`` answers through the same proxy
as fast as they can (each asks again when its answer ends).

Printed: TTFB p50 / p99 / max (ms) alone and beside the fire hose, and the hose's throughput.
``--proxy-root DIR`` runs another checkout's proxy (before/after comparisons).

    uv run python bench/bench_proxy_fairness.py [--requests 100] [--hoses 1] [--hose-mb 32]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_proxy_memory import serve_instant, start_proxy, stop_all  # noqa: E402 (after the path is set)


def captures(hose_mb: float):
    from inspector.model.capture import Capture, Chunk, End

    def ev(obj: dict) -> bytes:
        return f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'))}\n\n".encode()

    head = ev({"type": "message_start", "message": {"id": "msg_f", "type": "message", "role": "assistant",
                                                    "model": "bench", "content": [], "stop_reason": None,
                                                    "stop_sequence": None, "usage": {"input_tokens": 1}}})
    head += ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    delta = ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "w "}})
    tail = ev({"type": "content_block_stop", "index": 0}) + ev({"type": "message_stop"})
    per_chunk = (64 * 1024) // len(delta)
    n_chunks = max(1, int(hose_mb * 1_000_000 / (per_chunk * len(delta))))

    def cap(chunks: list[bytes]) -> Capture:
        return Capture(chunks=[Chunk(0.0, c) for c in chunks],
                       response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                       end=End(0.0, "eof"), request_relative=True)

    return [("hose", cap([head] + [delta * per_chunk] * n_chunks + [tail])),
            ("small", cap([head, delta, tail]))]


BODY = b'{"model":"bench","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"go"}]}'


def ttfb(client: httpx.Client, url: str) -> float:
    t0 = time.perf_counter()
    with client.stream("POST", url + "/small/v1/messages", content=BODY,
                       headers={"content-type": "application/json"}) as r:
        first = None
        for _ in r.iter_raw():
            if first is None:
                first = time.perf_counter()
    return (first - t0) * 1000


def hose(url: str) -> None:
    """A fire-hose client in a process of its own (not sharing the measuring client's GIL): reads
    ``hose`` answers as fast as it can, again and again; on Ctrl+C prints its rate in MB/s."""
    got, t0, said = 0, time.monotonic(), False
    try:
        with httpx.Client(timeout=600, trust_env=False) as c:
            while True:
                with c.stream("POST", url + "/hose/v1/messages", content=BODY,
                              headers={"content-type": "application/json"}) as r:
                    for part in r.iter_raw():
                        got += len(part)
                        if not said:
                            print("flowing", flush=True)
                            said, t0, got = True, time.monotonic(), 0
    except KeyboardInterrupt:
        print(f"{got / (time.monotonic() - t0) / 1e6:.2f}", flush=True)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--hoses", type=int, default=1)
    ap.add_argument("--hose-mb", type=float, default=32.0)
    ap.add_argument("--proxy-root", default=str(ROOT))
    ap.add_argument("--proxy-args", default="--max-bytes 1G", help="proxy arguments (default '--max-bytes 1G')")
    ap.add_argument("--role", default="client", help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role == "upstream":
        serve_instant(captures(args.hose_mb))
        return
    if args.role == "hose":
        hose(args.url)
        return
    up = subprocess.Popen([sys.executable, __file__, "--role", "upstream", "--hose-mb", str(args.hose_mb)],
                          cwd=ROOT, stdout=subprocess.PIPE, text=True)
    procs = [up]
    try:
        upstream = up.stdout.readline().strip()
        proxy, url = start_proxy(Path(args.proxy_root), upstream, args.proxy_args.split())
        procs.append(proxy)
        with httpx.Client(timeout=60, trust_env=False) as client:
            for _ in range(5):
                ttfb(client, url)  # warm up
            alone = [ttfb(client, url) for _ in range(args.requests)]

            hoses = [subprocess.Popen([sys.executable, __file__, "--role", "hose", "--url", url], cwd=ROOT,
                                      stdout=subprocess.PIPE, text=True) for _ in range(args.hoses)]
            procs += hoses
            for h in hoses:
                h.stdout.readline()  # "flowing": its first bytes arrived
            time.sleep(1.0)  # the hose is flowing
            beside = [ttfb(client, url) for _ in range(args.requests)]
            for h in hoses:
                h.send_signal(signal.SIGINT)
            rate = sum(float(h.stdout.readline() or 0) for h in hoses)
    finally:
        stop_all(procs)
    print(f"proxy from {args.proxy_root}; {args.requests} small exchanges, {args.hoses} fire hose(s) of "
          f"{args.hose_mb:g} MB answers; load average {os.getloadavg()[0]:.1f}")
    print("| small exchanges | TTFB p50 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|")
    for name, vals in (("alone", alone), ("beside the fire hose", beside)):
        print(f"| {name} | {pct(vals, 50):.2f} | {pct(vals, 99):.2f} | {max(vals):.2f} |")
    print(f"fire hose through the proxy meanwhile: {rate:.1f} MB/s")


if __name__ == "__main__":
    main()
