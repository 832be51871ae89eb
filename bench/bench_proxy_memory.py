"""Long run through the proxy: 200 exchanges of 1 MB each, the proxy's RSS printed as they go (issue 17).

Three processes: an upstream (``serve``'s ASGI app on uvicorn, ``--instant``) answering every
request with the same synthetic Anthropic stream of about ``--mb`` MB (text deltas of ~200
characters, 64 events per network chunk); the proxy, the real command (``python -m inspector proxy
--format json``, reports to /dev/null; ``--record DIR`` with ``--record``); and this script, the
client (httpx, ``--concurrency`` exchanges at a time). The proxy's resident set size is read from
``/proc/PID/status`` (VmRSS) every ``--every`` exchanges.

The stated bound: the proxy holds at most ``--keep`` ended exchanges and ``--keep-bytes`` of their
bodies (32 MiB by default); a session costs a few bytes of memory per body byte, so RSS must stay
under its start plus ``--factor`` (6) times ``--keep-bytes``, and stop growing: at most ``--flat``
(10) MB more from exchange ``--flat-from`` (default: half the run) to the last. The script prints
PASS or FAIL. ``--big-request MB`` then sends one request with a body that large and prints RSS
before, after, and its peak.

Many small exchanges (issue 24 item 7: RSS grew ~3 KB per exchange, 52 -> 91 MB over 10 000): the
threaded httpx client manages ~15 exchanges/s on a busy 2-core machine, so ``--client async`` keeps
``--concurrency`` keep-alive connections open from one asyncio loop (plain HTTP/1.1, each answer
read to its last chunk) instead:

    uv run python bench/bench_proxy_memory.py [--exchanges 200] [--mb 1] [--record] [--big-request 100]
    uv run python bench/bench_proxy_memory.py --client async --exchanges 20000 --concurrency 100 --mb 0.003 \
        --every 2000 --flat-from 2000 --flat 3
    uv run python bench/bench_proxy_memory.py --proxy-root ../other-checkout   # the same run on another checkout
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def synthetic_capture(mb: float):
    """``message_start``, one text block of deltas (~200 characters each, 64 per chunk) totalling ~``mb`` MB, the end."""
    from inspector.model.capture import Capture, Chunk, End

    def ev(obj: dict) -> bytes:
        return f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'))}\n\n".encode()

    head = ev({"type": "message_start", "message": {"id": "msg_mem", "type": "message", "role": "assistant",
                                                    "model": "bench", "content": [], "stop_reason": None,
                                                    "stop_sequence": None,
                                                    "usage": {"input_tokens": 1, "output_tokens": 1}}})
    head += ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    delta = ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "lorem ipsum " * 17}})
    chunks, size = [Chunk(0.0, head)], len(head)
    while size < mb * 1_000_000:
        data = delta * 64
        chunks.append(Chunk(0.0, data))
        size += len(data)
    tail = ev({"type": "content_block_stop", "index": 0})
    tail += ev({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 1}})
    tail += ev({"type": "message_stop"})
    chunks.append(Chunk(0.0, tail))
    return Capture(chunks=chunks, response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(0.0, "eof"), request_relative=True)


def stop_all(procs: list) -> None:
    """Ctrl+C to each process, newest first (clients before the proxy before the upstream); kill
    whatever has not ended within 20 s."""
    for p in reversed(procs):
        p.send_signal(signal.SIGINT)
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()


def serve_instant(captures) -> None:
    """Serve ``(name, Capture)`` pairs with ``--instant`` on a free loopback port (its URL on stdout) until Ctrl+C."""
    import uvicorn

    from inspector.net.serve import load_served, make_asgi_app
    from inspector.net.servers import bind_socket, url_for

    app = make_asgi_app(load_served(captures), instant=True)
    sock = bind_socket("127.0.0.1", 0)
    print(url_for(sock), flush=True)
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, http="h11",
                            loop="asyncio", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """``VmRSS`` (now) or ``VmHWM`` (peak) of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_proxy(root: Path, upstream: str, extra: list[str]) -> tuple[subprocess.Popen, str]:
    argv = [sys.executable, "-m", "inspector", "proxy", "--upstream", upstream, "--port", "0", "--format", "json",
            *extra]
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["PYTHONPATH"] = str(root)
    proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    if " on " not in line:
        proc.kill()
        raise RuntimeError(f"proxy did not start: {line.strip()}")
    return proc, line.split(" on ", 1)[1].split(" ", 1)[0]


def one(client: httpx.Client, url: str, body: bytes | None = None) -> int:
    content = body or b'{"model":"bench","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"go"}]}'
    n = 0
    with client.stream("POST", url + "/mem/v1/messages", content=content,
                       headers={"content-type": "application/json"}) as r:
        for part in r.iter_raw():
            n += len(part)
    return n


REQUEST = b'{"model":"bench","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"go"}]}'


async def _one_async(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> int:
    """One exchange on an open keep-alive connection: the request, then the chunked answer to its end."""
    writer.write(b"POST /mem/v1/messages HTTP/1.1\r\nhost: %s\r\ncontent-type: application/json\r\n"
                 b"content-length: %d\r\n\r\n%s" % (host.encode(), len(REQUEST), REQUEST))
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"answer: {head[:80]!r}")
    n = 0
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        n += len(await reader.readexactly(size + 2)) - 2
        if size == 0:
            return n


async def run_async(url: str, total: int, concurrency: int, every: int, sample) -> None:
    """``total`` exchanges over ``concurrency`` connections; ``sample(done)`` after each ``every``."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    done = 0
    next_sample = every

    async def worker() -> None:
        nonlocal done, next_sample
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while done < total:
                done += 1
                await _one_async(reader, writer, host)
                if done >= next_sample:
                    next_sample += every
                    sample(done)
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exchanges", type=int, default=200)
    ap.add_argument("--mb", type=float, default=1.0, help="size of each streamed answer in MB (default 1)")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--every", type=int, default=20, help="print RSS every N exchanges (default 20)")
    ap.add_argument("--record", action="store_true", help="run the proxy with --record DIR")
    ap.add_argument("--big-request", type=float, default=0, metavar="MB", help="then one request body this large")
    ap.add_argument("--keep-bytes-mb", type=float, default=32.0, help="the proxy's --keep-bytes in MB (default 32)")
    ap.add_argument("--factor", type=float, default=6.0,
                    help="stated bound: RSS may exceed its start by this many times --keep-bytes (default 6)")
    ap.add_argument("--flat", type=float, default=10.0, help="MB RSS may still grow from --flat-from on (default 10)")
    ap.add_argument("--flat-from", type=int, default=None, metavar="N",
                    help="exchange from which RSS must stay flat (default: half the run)")
    ap.add_argument("--client", choices=("threads", "async"), default="threads",
                    help="threads: httpx in --concurrency threads; async: raw keep-alive connections on one loop")
    ap.add_argument("--proxy-root", default=str(ROOT), help="checkout whose proxy to run (default this one)")
    ap.add_argument("--proxy-args", default="", help="more proxy arguments, e.g. '--keep 10'")
    ap.add_argument("--role", default="client", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role == "upstream":
        serve_instant([("mem", synthetic_capture(args.mb))])
        return

    tmp = tempfile.mkdtemp(prefix="bench-proxy-mem-")
    up = subprocess.Popen([sys.executable, __file__, "--role", "upstream", "--mb", str(args.mb)], cwd=ROOT,
                          stdout=subprocess.PIPE, text=True)
    procs = [up]
    extra = args.proxy_args.split()
    if args.record:
        extra += ["--record", os.path.join(tmp, "rec")]
    samples: list[tuple[int, float]] = []
    try:
        upstream = up.stdout.readline().strip()
        proxy, url = start_proxy(Path(args.proxy_root), upstream, extra)
        procs.append(proxy)
        print(f"proxy {' '.join(extra) or '(defaults)'} from {args.proxy_root}; {args.exchanges} exchanges of "
              f"~{args.mb:g} MB, {args.concurrency} at a time")
        print(f"{'exchanges':>9} {'RSS MB':>8} {'elapsed s':>9}")
        t0 = time.monotonic()
        samples.append((0, rss_mb(proxy.pid)))
        print(f"{0:>9} {samples[-1][1]:>8.0f} {0:>9.1f}", flush=True)
        done = 0

        def sample(n: int) -> None:
            samples.append((n, rss_mb(proxy.pid)))
            print(f"{n:>9} {samples[-1][1]:>8.0f} {time.monotonic() - t0:>9.1f}", flush=True)

        if args.client == "async":
            asyncio.run(run_async(url, args.exchanges, args.concurrency, args.every, sample))
            done = args.exchanges
        with httpx.Client(timeout=600, trust_env=False) as client, ThreadPoolExecutor(args.concurrency) as pool:
            while done < args.exchanges:
                batch = min(args.every, args.exchanges - done)
                list(pool.map(lambda _: one(client, url), range(batch)))
                done += batch
                sample(done)
            if args.big_request:
                body = json.dumps({"model": "bench", "stream": True, "max_tokens": 8,
                                   "messages": [{"role": "user", "content": "x" * int(args.big_request * 1_000_000)}]})
                before = rss_mb(proxy.pid)
                one(client, url, body.encode())
                time.sleep(0.5)
                after_big = rss_mb(proxy.pid)
                for _ in range(5):
                    one(client, url)
                time.sleep(0.5)
                print(f"one request body of {args.big_request:g} MB: RSS {before:.0f} MB before, {after_big:.0f} MB "
                      f"after it, {rss_mb(proxy.pid):.0f} MB after 5 more exchanges (peak while it was in flight: "
                      f"{rss_mb(proxy.pid, 'VmHWM'):.0f} MB)")
    finally:
        stop_all(procs)
    start, last = samples[0][1], samples[-1][1]
    flat_from = args.flat_from if args.flat_from is not None else args.exchanges // 2
    at, base = next((n, rss) for n, rss in samples if n >= flat_from)
    limit = start + args.factor * args.keep_bytes_mb
    ok = last <= limit and last - base <= args.flat
    print(f"bound: RSS <= start {start:.0f} MB + {args.factor:g} x --keep-bytes {args.keep_bytes_mb:g} MB = {limit:.0f} MB, "
          f"and at most {args.flat:g} MB of growth from exchange {at} to {samples[-1][0]} ({last - base:+.0f} MB, "
          f"{(last - base) * 2**20 / max(1, samples[-1][0] - at):+.0f} bytes per exchange): {'PASS' if ok else 'FAIL'}")


if __name__ == "__main__":
    main()
