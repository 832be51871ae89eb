"""Throughput through the proxy: events per second a client reads through ``proxy`` vs from ``serve`` directly.

Three processes, so no two parts share a GIL: the upstream is ``serve``'s own ASGI app on uvicorn
(``--instant``: every chunk written as fast as the socket takes it) playing one synthetic Anthropic
answer of ``--events`` text deltas, ``--per-chunk`` events per network chunk (1 by default: one SSE
event per write, as the providers stream); the proxy is the real command (``python -m inspector
proxy --format json``: every exchange inspected and its report printed; then the same with
``--record DIR``); the client is this script (httpx, one kept-alive connection, the body read raw
to its last byte).

Per request: *relayed* events/s = events / (last body byte - request sent), as the client sees
it; *inspected* events/s = events / (the proxy's report line for that exchange read from its
stdout - request sent): every event inspected, the report printed. The modes run interleaved,
``--runs`` requests each per round, ``--rounds`` rounds, every other run in the reverse order; the
median over all requests is printed, with the ratio to the direct path, and the CPU time the proxy process used per event
(its threads' time on a CPU, ``/proc/PID/task/*/schedstat``, nanoseconds; for the direct path the
upstream's), which the machine's load does not change as much as it changes the rates: in all, report
printed, and *while relaying* (request sent to last body byte: the relay's own cost, plus whatever
inspection slipped in). Every body read through the proxy is compared with
the direct one (byte for byte); a difference stops the bench.

``--proxy-root DIR`` runs another checkout's proxy; ``--compare DIR`` runs another checkout's
proxy too, interleaved with this one's (before/after on a machine whose load changes), and adds
a paired table: per path, the median of this/other over the requests of the same run and how
many this one won. Run it both ways (``--proxy-root DIR --compare .`` too) and read both: with the
same code on both sides (A/A, 64 events per chunk, load 5.5-6.3) the proxy started first lost, 0.63
(0 of 4), 0.86 (2 of 6) and 0.95 (9 of 30), and the medians of the two swung by up to 20 points of
direct from run to run: a difference smaller than that is not one.

    uv run python bench/bench_proxy_throughput.py [--events 50000] [--per-chunk 1] [--runs 3] [--rounds 3] \
        [--no-record] [--compare DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_proxy_memory import serve_instant, stop_all  # noqa: E402 (after the path is set)

BODY = b'{"model":"bench","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"go"}]}'


def synthetic_capture(events: int, per_chunk: int):
    """``message_start``, one text block of ``events`` deltas (``per_chunk`` per network chunk), the end."""
    from inspector.model.capture import Capture, Chunk, End

    def ev(obj: dict) -> bytes:
        return f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'))}\n\n".encode()

    head = ev({"type": "message_start", "message": {"id": "msg_tp", "type": "message", "role": "assistant",
                                                    "model": "bench", "content": [], "stop_reason": None,
                                                    "stop_sequence": None,
                                                    "usage": {"input_tokens": 1, "output_tokens": 1}}})
    head += ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    chunks = [Chunk(0.0, head)]
    for i in range(0, events, per_chunk):
        chunks.append(Chunk(0.0, b"".join(
            ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": f"word{k} "}})
            for k in range(i, min(events, i + per_chunk)))))
    tail = ev({"type": "content_block_stop", "index": 0})
    tail += ev({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": events}})
    tail += ev({"type": "message_stop"})
    chunks.append(Chunk(0.0, tail))
    return Capture(chunks=chunks, response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(0.0, "eof"), request_relative=True)


class Proxy:
    """``proxy --format json`` in a process of its own; a thread stamps each report line it prints."""

    def __init__(self, root: Path, upstream: str, extra: list[str]) -> None:
        argv = [sys.executable, "-m", "inspector", "proxy", "--upstream", upstream, "--port", "0",
                "--format", "json", "--max-bytes", "1G", *extra]
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env["PYTHONPATH"] = str(root)
        self.proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.proc.stderr.readline().decode()
        if " on " not in line:
            self.proc.kill()
            raise RuntimeError(f"proxy did not start: {line.strip()}")
        self.url = line.split(" on ", 1)[1].split(" ", 1)[0]
        self.reports: queue.Queue[tuple[float, dict]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.reports.put((time.perf_counter(), json.loads(line)))

    def report(self, timeout: float = 300) -> tuple[float, dict]:
        return self.reports.get(timeout=timeout)


def cpu_s(pid: int) -> float:
    """CPU seconds process ``pid`` has used: the sum of its threads' time on a CPU in nanoseconds
    (``/proc/PID/task/*/schedstat``), else user + system in clock ticks (``/proc/PID/stat``, 10 ms:
    ±0.5 µs per event over 20 000 events, too coarse for the relay alone)."""
    try:
        return sum(int(Path(f"/proc/{pid}/task/{t}/schedstat").read_text().split()[0])
                   for t in os.listdir(f"/proc/{pid}/task")) / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(client: httpx.Client, url: str) -> tuple[float, float, bytes]:
    """(request sent, last body byte) on ``time.perf_counter``, and the body's SHA-256."""
    digest = hashlib.sha256()
    t0 = time.perf_counter()
    with client.stream("POST", url + "/tp/v1/messages", content=BODY,
                       headers={"content-type": "application/json"}) as r:
        for part in r.iter_raw():
            digest.update(part)
        t1 = time.perf_counter()
    return t0, t1, digest.digest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=50_000, help="text deltas per answer (default 50 000)")
    ap.add_argument("--per-chunk", type=int, default=1, help="events per network chunk (default 1)")
    ap.add_argument("--runs", type=int, default=3, help="requests per mode per round (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--no-record", action="store_true", help="skip the proxy with --record DIR")
    ap.add_argument("--proxy-root", default=str(ROOT), help="checkout whose proxy to run (default this one)")
    ap.add_argument("--compare", metavar="DIR", help="also run another checkout's proxy, interleaved (before/after)")
    ap.add_argument("--role", default="client", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role == "upstream":
        serve_instant([("tp", synthetic_capture(args.events, args.per_chunk))])
        return

    tmp = tempfile.mkdtemp(prefix="bench-proxy-tp-")
    up = subprocess.Popen([sys.executable, __file__, "--role", "upstream", "--events", str(args.events),
                           "--per-chunk", str(args.per_chunk)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    procs: list = [up]
    root = Path(args.proxy_root)
    relayed: dict[str, list[float]] = {}
    inspected: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    """CPU µs per event of the proxy (of the upstream for the direct path), report printed included."""
    relay_cpu: dict[str, list[float]] = {}
    """CPU µs per event of the proxy from the request sent to the client's last body byte: the relay
    (and whatever inspection ran meanwhile), the figure a cut on the relay path moves."""
    try:
        upstream = up.stdout.readline().strip()
        modes: list[tuple[str, str, Proxy | None]] = [("direct (serve)", upstream, None)]
        roots = [(root, "")] + ([(Path(args.compare), f" ({args.compare})")] if args.compare else [])
        for k, (where, label) in enumerate(roots):
            plain = Proxy(where, upstream, [])
            procs.append(plain.proc)
            modes.append(("proxy --format json" + label, plain.url, plain))
            if not args.no_record:
                rec = Proxy(where, upstream, ["--record", os.path.join(tmp, f"rec{k}")])
                procs.append(rec.proc)
                modes.append(("proxy --format json --record" + label, rec.url, rec))
        expected = None
        with httpx.Client(timeout=300, trust_env=False) as client:
            for name, url, proxy in modes:  # warm up every path once (imports, connections)
                _, _, digest = one(client, url)
                expected = expected or digest
                if proxy is not None:
                    proxy.report()
            for r in range(args.rounds * args.runs):
                # Every other run in the reverse order: no path always follows the same one.
                for name, url, proxy in (modes if r % 2 == 0 else modes[::-1]):
                    pid = (proxy.proc if proxy is not None else up).pid
                    c0 = cpu_s(pid)
                    t0, t1, digest = one(client, url)
                    c1 = cpu_s(pid)
                    if digest != expected:
                        raise SystemExit(f"{name}: the body differs from the direct one")
                    relayed.setdefault(name, []).append(args.events / (t1 - t0))
                    if proxy is not None:
                        t2, report = proxy.report()
                        if report["events"] < args.events:
                            raise SystemExit(f"{name}: the report counts fewer events than sent")
                        inspected.setdefault(name, []).append(args.events / (t2 - t0))
                    cpu.setdefault(name, []).append((cpu_s(pid) - c0) / args.events * 1e6)
                    relay_cpu.setdefault(name, []).append((c1 - c0) / args.events * 1e6)
    finally:
        stop_all(procs)
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"{args.events} events, {args.per_chunk} per chunk, {args.runs} requests x {args.rounds} rounds per "
          f"path, loopback, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.1f}; proxy from {root}")
    print()
    print("| path | relayed events/s (median) | of direct | inspected events/s (median) | of direct | "
          "CPU µs per event | of it while relaying |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    direct = statistics.median(relayed["direct (serve)"])
    for name, _, proxy in modes:
        r = statistics.median(relayed[name])
        c = statistics.median(cpu[name])
        rc = statistics.median(relay_cpu[name])
        if proxy is None:
            print(f"| {name} | {r:,.0f} | — | — | — | {c:.2f} (the upstream's) | {rc:.2f} |")
        else:
            i = statistics.median(inspected[name])
            print(f"| {name} | {r:,.0f} | {r / direct:.0%} | {i:,.0f} | {i / direct:.0%} | {c:.2f} | {rc:.2f} |")
    if args.compare:
        print()
        print(paired(relayed, relay_cpu, args.compare))


def paired(relayed: dict[str, list[float]], relay_cpu: dict[str, list[float]], other: str) -> str:
    """Each path of this checkout against the same path of ``other``, request by request: the two
    ran in the same run, one after the other (the order alternating), so the load both saw was about
    the same. The median of the ratios and how many this checkout won tell a change from noise better
    than the ratio of the medians on a shared machine; the CPU the proxy used while relaying moves
    less with the load than the rate does (below 1: this checkout's relay costs less)."""
    lines = ["| path | relayed, this / other: median ratio of paired requests | this faster in | "
             "CPU while relaying, this / other | this cheaper in |", "|---|---:|---:|---:|---:|"]
    for name, ours in relayed.items():
        theirs = relayed.get(f"{name} ({other})")
        if theirs is None:
            continue
        ratios = [a / b for a, b in zip(ours, theirs)]
        wins = sum(x > 1 for x in ratios)
        costs = [a / b for a, b in zip(relay_cpu[name], relay_cpu[f"{name} ({other})"]) if b > 0]
        cheaper = sum(x < 1 for x in costs)
        cost = f"{statistics.median(costs):.2f}" if costs else "—"
        lines.append(f"| {name} | {statistics.median(ratios):.2f} | {wins} of {len(ratios)} | {cost} | "
                     f"{cheaper} of {len(costs)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
