"""Latency the proxy adds on loopback: time to first byte and per chunk, vs talking to ``serve`` directly.

Three processes, so no two parts share a GIL: the upstream is ``serve``'s own ASGI app
(``inspector.net.serve.make_asgi_app``) on uvicorn, playing a synthetic Anthropic stream of
``--chunks`` text deltas, one per network chunk, ``--interval`` seconds apart; the proxy is the
real command (``python -m inspector proxy --format json``: every exchange inspected and its
report printed, as in CI); the client is this script (httpx, one kept-alive connection).

The upstream's socket is bound with ``inspector.net.servers.listen`` (``IPPROTO_TCP``, so asyncio
turns Nagle's algorithm off, as on any real provider): otherwise a chunk written right after the
response head can wait for the client's delayed ACK (up to 40 ms) and swamp what is measured.

The upstream stamps each chunk with ``time.monotonic_ns()`` just before handing it to uvicorn
(the clock is system-wide, so the three processes share it). The client notes when each event
completes in what it reads. Per-chunk latency = client arrival - upstream send, over
``--chunks`` x ``--runs`` chunks; time to first byte = first body byte - request sent, over
``--runs`` requests. "Added" is proxy minus direct at the same percentile, per round
(``--rounds``, default 5: each round is reported, then the median and worst over rounds).

``--compare DIR`` also runs another checkout's proxy, interleaved with this one's (before/after).

WebSocket (issue 30): the same three processes, the same proxy, ``serve``'s WebSocket side playing a
synthetic Responses stream of ``--chunks`` text deltas, one message each, ``--interval`` apart, for
each ``response.create`` the client sends on one socket (``websockets``' own client). Per-message
latency = client arrival - upstream send, over ``--chunks`` x ``--runs`` messages per round; "added"
is proxy minus direct at the same percentile, and the proxy process's CPU time (user + system, from
``/proc``) over the WebSocket part divided by the messages it relayed (``--no-websocket`` skips it).

    uv run python bench/bench_proxy.py [--chunks 200] [--runs 20] [--rounds 5] [--interval 0.002] [--record] \
        [--compare DIR] [--no-websocket]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_proxy_memory import stop_all  # noqa: E402 (after the path is set)

EVENT = re.compile(rb'"i":(\d+)')


# ------------------------------------------------------------------ the upstream (a child process)
def synthetic_capture(chunks: int, interval: float):
    """``message_start``, one text block with ``chunks`` deltas (one per network chunk), ``message_stop``."""
    from inspector.model.capture import Capture, Chunk, End

    def ev(obj: dict) -> bytes:
        return f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'))}\n\n".encode()

    head = ev({"type": "message_start", "message": {"id": "msg_bench", "type": "message", "role": "assistant",
                                                    "model": "bench", "content": [], "stop_reason": None,
                                                    "stop_sequence": None,
                                                    "usage": {"input_tokens": 1, "output_tokens": 1}}})
    head += ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    out = [Chunk(0.001, head)]
    for i in range(chunks):
        out.append(Chunk(0.002 + i * interval, ev({"type": "content_block_delta", "index": 0, "i": i,
                                                   "delta": {"type": "text_delta", "text": f"word {i} "}})))
    tail = ev({"type": "content_block_stop", "index": 0})
    tail += ev({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": chunks}})
    tail += ev({"type": "message_stop"})
    t_end = 0.002 + chunks * interval
    out.append(Chunk(t_end, tail))
    return Capture(chunks=out, response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(t_end, "eof"), request_relative=True)


def synthetic_socket_answer(chunks: int, interval: float):
    """A Responses stream (PROTOCOLS.md §3) with one text item of ``chunks`` deltas, as a response recorded
    over a WebSocket (one message per event, times from the ``response.create``)."""
    from inspector.model.capture import Capture, Chunk, End

    resp = {"id": "resp_bench", "object": "response", "status": "in_progress", "model": "bench", "output": []}
    item = {"id": "msg_bench", "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    events = [(0.001, {"type": "response.created", "response": resp}),
              (0.001, {"type": "response.output_item.added", "output_index": 0, "item": item}),
              (0.001, {"type": "response.content_part.added", "item_id": "msg_bench", "output_index": 0,
                       "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})]
    events += [(0.002 + i * interval, {"type": "response.output_text.delta", "item_id": "msg_bench", "output_index": 0,
                                       "content_index": 0, "delta": f"word {i} ", "i": i}) for i in range(chunks)]
    text = "".join(f"word {i} " for i in range(chunks))
    done = {**item, "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}]}
    t_end = 0.002 + chunks * interval
    events += [(t_end, {"type": "response.output_text.done", "item_id": "msg_bench", "output_index": 0,
                        "content_index": 0, "text": text}),
               (t_end, {"type": "response.output_item.done", "output_index": 0, "item": done}),
               (t_end, {"type": "response.completed", "response": {**resp, "status": "completed", "output": [done]}})]
    out = [Chunk(t, json.dumps({**e, "sequence_number": k}, separators=(",", ":")).encode())
           for k, (t, e) in enumerate(events)]
    return Capture(chunks=out, response={"status": 101, "headers": {"upgrade": "websocket"}},
                   end=End(t_end, "eof"), source_format="websocket", request_relative=True)


def run_upstream(args) -> None:
    """Serve the synthetic streams (HTTP at ``/bench/``, WebSocket at ``/ws/``); append each answer's send
    stamps (one JSON line) to ``--stamps``."""
    import uvicorn

    from inspector.net.servers import bind_socket, url_for  # IPPROTO_TCP, so asyncio sets TCP_NODELAY (as real servers do)
    from inspector.net.serve import load_served, make_asgi_app

    app = make_asgi_app(load_served([("bench", synthetic_capture(args.chunks, args.interval)),
                                     ("ws", synthetic_socket_answer(args.chunks, args.interval))]))
    stamps_path = args.stamps

    def write(stamps: list[int]) -> None:
        with open(stamps_path, "a") as f:
            f.write(json.dumps(stamps) + "\n")

    async def stamped(scope, receive, send):
        stamps: list[int] = []

        async def send_stamped(msg):
            if msg["type"] == "http.response.body" and msg.get("body"):
                m = EVENT.search(msg["body"])
                if m:
                    stamps.append(time.monotonic_ns())
            elif msg["type"] == "websocket.send":
                text = msg.get("text") or ""
                if EVENT.search(text.encode()):
                    stamps.append(time.monotonic_ns())
                await send(msg)
                if '"response.completed"' in text:  # one answer per response.create: one line each
                    write(stamps)
                    stamps.clear()
                return
            await send(msg)

        await app(scope, receive, send_stamped)
        if scope["type"] == "http":
            write(stamps)

    sock = bind_socket("127.0.0.1", 0)
    print(url_for(sock), flush=True)
    config = uvicorn.Config(stamped, log_config=None, log_level="warning", access_log=False, http="h11",
                            ws="websockets-sansio", loop="asyncio", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass


# ------------------------------------------------------------------ the client
def read_stamps(path: str, n: int) -> list[int]:
    """Line ``n`` (0-based) of the stamps file, waiting briefly for the upstream to write it."""
    deadline = time.monotonic() + 5
    while True:
        lines = Path(path).read_text().split("\n")[:-1]  # complete lines only
        if len(lines) > n:
            return json.loads(lines[n])
        if time.monotonic() > deadline:
            raise RuntimeError("upstream wrote no stamps")
        time.sleep(0.005)


def one_run(client: httpx.Client, url: str) -> tuple[float, dict[int, int]]:
    """(time to first byte in s, {event i: arrival ns})."""
    arrivals: dict[int, int] = {}
    buf = b""
    t0 = time.monotonic_ns()
    first = None
    with client.stream("POST", url, json={"model": "bench", "stream": True, "max_tokens": 8,
                                          "messages": [{"role": "user", "content": "go"}]}) as r:
        for part in r.iter_raw():
            now = time.monotonic_ns()
            if first is None:
                first = now
            buf += part
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                m = EVENT.search(event)
                if m:
                    arrivals[int(m.group(1))] = now
    return (first - t0) / 1e9, arrivals


def socket_run(conn, n: int) -> dict[int, int]:
    """One ``response.create`` on the open socket ``conn``: {event i: arrival ns} of its messages."""
    arrivals: dict[int, int] = {}
    conn.send(json.dumps({"type": "response.create", "model": "bench", "input": "go"}))
    while True:
        msg = conn.recv(30)
        now = time.monotonic_ns()
        m = EVENT.search(msg.encode() if isinstance(msg, str) else msg)
        if m:
            arrivals[int(m.group(1))] = now
        elif '"response.completed"' in msg:
            return arrivals


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def start_proxy(upstream: str, record_dir: str | None, root: Path = ROOT) -> tuple[subprocess.Popen, str]:
    argv = [sys.executable, "-m", "inspector", "proxy", "--upstream", upstream, "--port", "0", "--format", "json"]
    if record_dir:
        argv += ["--record", record_dir]
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["PYTHONPATH"] = str(root)
    proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    if " on " not in line:
        proc.kill()
        raise RuntimeError(f"proxy did not start: {line.strip()}")
    return proc, line.split(" on ", 1)[1].split(" ", 1)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=200)
    ap.add_argument("--runs", type=int, default=20, help="requests per mode per round (default 20)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each reported on its own (default 5)")
    ap.add_argument("--interval", type=float, default=0.002, help="seconds between chunks (default 0.002)")
    ap.add_argument("--record", action="store_true", help="also measure the proxy with --record DIR")
    ap.add_argument("--compare", metavar="DIR", help="also run another checkout's proxy, interleaved (before/after)")
    ap.add_argument("--no-websocket", action="store_true", help="skip the WebSocket measurement")
    ap.add_argument("--role", default="client", help=argparse.SUPPRESS)
    ap.add_argument("--stamps", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role == "upstream":
        try:
            run_upstream(args)
        except KeyboardInterrupt:
            pass
        return

    tmp = tempfile.mkdtemp(prefix="bench-proxy-")
    stamps = os.path.join(tmp, "stamps.jsonl")
    Path(stamps).write_text("")
    up = subprocess.Popen([sys.executable, __file__, "--role", "upstream", "--stamps", stamps,
                           "--chunks", str(args.chunks), "--interval", str(args.interval)],
                          cwd=ROOT, stdout=subprocess.PIPE, text=True)
    procs = [up]
    try:
        upstream = up.stdout.readline().strip()
        modes = [("direct (serve)", upstream, None)]
        roots = [(ROOT, "")] + ([(Path(args.compare), f" ({args.compare})")] if args.compare else [])
        for k, (root, label) in enumerate(roots):
            proxy, url = start_proxy(upstream, None, root)
            procs.append(proxy)
            modes.append(("proxy --format json" + label, url, proxy.pid))
            if args.record:
                proxy2, url2 = start_proxy(upstream, os.path.join(tmp, f"rec{k}"), root)
                procs.append(proxy2)
                modes.append(("proxy --format json --record" + label, url2, proxy2.pid))
        rounds = [{name: {"ttfb": [], "chunk": [], "message": []} for name, _, _ in modes} for _ in range(args.rounds)]
        line = 0
        cpu: dict[str, float] = {}
        if not args.no_websocket:
            before = {name: cpu_seconds(pid) for name, _, pid in modes if pid}
            line = measure_sockets(modes, rounds, stamps, args.runs)
            cpu = {name: cpu_seconds(pid) - before[name] for name, _, pid in modes if pid}
        with httpx.Client(timeout=30, trust_env=False) as client:
            for name, base, _ in modes:  # warm up every path once (imports, connections)
                one_run(client, base + "/bench/v1/messages")
                read_stamps(stamps, line)
                line += 1
            for results in rounds:
                for _ in range(args.runs):
                    for name, base, _ in modes:
                        ttfb, arrivals = one_run(client, base + "/bench/v1/messages")
                        sent = read_stamps(stamps, line)
                        line += 1
                        results[name]["ttfb"].append(ttfb)
                        for i, t_sent in enumerate(sent):
                            if i in arrivals:
                                results[name]["chunk"].append((arrivals[i] - t_sent) / 1e6)
    finally:
        stop_all(procs)

    print(f"{args.chunks} chunks x {args.runs} requests per round, {args.rounds} rounds, one chunk every "
          f"{args.interval * 1000:g} ms, loopback, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print()
    print("| round | path | TTFB p50 ms | per chunk p50 ms | p99 ms | max ms | added p50 ms | added p99 ms | chunks |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    added: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in modes}
    for k, results in enumerate(rounds, 1):
        base = results["direct (serve)"]["chunk"]
        for name, _, _ in modes:
            r = results[name]
            chunk = r["chunk"]
            a50, a99 = pct(chunk, 50) - pct(base, 50), pct(chunk, 99) - pct(base, 99)
            added[name].append((a50, a99))
            direct = name.startswith("direct")
            print(f"| {k} | {name} | {pct([t * 1000 for t in r['ttfb']], 50):.2f} | {pct(chunk, 50):.3f} | "
                  f"{pct(chunk, 99):.3f} | {max(chunk):.3f} | {'—' if direct else f'{a50:.3f}'} | "
                  f"{'—' if direct else f'{a99:.3f}'} | {len(chunk)} |")
    print()
    for name, _, _ in modes[1:]:
        a50 = sorted(a for a, _ in added[name])
        a99 = sorted(b for _, b in added[name])
        print(f"{name}: added per chunk over {args.rounds} rounds: p50 median {statistics.median(a50):.3f} ms "
              f"(worst {a50[-1]:.3f}), p99 median {statistics.median(a99):.3f} ms (worst {a99[-1]:.3f})")
    if not args.no_websocket:
        print_sockets(modes, rounds, args.rounds)
        for name, seconds in cpu.items():
            n = sum(len(r[name]["message"]) for r in rounds) + args.chunks  # and the warm-up response
            print(f"{name}: CPU per WebSocket message relayed (the proxy process's user + system time over the "
                  f"WebSocket part / messages): {seconds / n * 1e6:.0f} µs")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc/PID/stat``, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_sockets(modes, rounds, stamps: str, runs: int) -> int:
    """Per mode one socket, ``runs`` responses on it per round; fills ``rounds[k][mode]["message"]`` (ms).
    Returns the stamps lines read."""
    from websockets.sync.client import connect

    line = 0
    conns = {name: connect("ws" + base[len("http"):] + "/ws/v1/responses", max_size=None, compression=None,
                           open_timeout=30) for name, base, _ in modes}
    try:
        for name, _, _ in modes:  # warm up every path once
            socket_run(conns[name], 0)
            read_stamps(stamps, line)
            line += 1
        for results in rounds:
            for _ in range(runs):
                for name, _, _ in modes:
                    arrivals = socket_run(conns[name], 0)
                    sent = read_stamps(stamps, line)
                    line += 1
                    results[name]["message"] += [(arrivals[i] - t) / 1e6 for i, t in enumerate(sent) if i in arrivals]
    finally:
        for c in conns.values():
            c.close()
    return line


def print_sockets(modes, rounds, n_rounds: int) -> None:
    """The WebSocket table: latency per message per round, then the added p50/p99 over rounds."""
    print()
    print("WebSocket (Responses mode), one socket per path, one message per event:")
    print()
    print("| round | path | per message p50 ms | p99 ms | max ms | added p50 ms | added p99 ms | added max ms | messages |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    added: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _, _ in modes}
    for k, results in enumerate(rounds, 1):
        base = results["direct (serve)"]["message"]
        for name, _, _ in modes:
            msgs = results[name]["message"]
            a = (pct(msgs, 50) - pct(base, 50), pct(msgs, 99) - pct(base, 99), max(msgs) - max(base))
            added[name].append(a)
            shown = ["—"] * 3 if name.startswith("direct") else [f"{x:.3f}" for x in a]
            print(f"| {k} | {name} | {pct(msgs, 50):.3f} | {pct(msgs, 99):.3f} | {max(msgs):.3f} | "
                  f"{' | '.join(shown)} | {len(msgs)} |")
    print()
    for name, _, _ in modes[1:]:
        a50, a99 = sorted(a for a, _, _ in added[name]), sorted(b for _, b, _ in added[name])
        print(f"{name}: added per WebSocket message over {n_rounds} rounds: p50 median {statistics.median(a50):.3f} ms "
              f"(worst {a50[-1]:.3f}), p99 median {statistics.median(a99):.3f} ms (worst {a99[-1]:.3f})")


if __name__ == "__main__":
    main()
