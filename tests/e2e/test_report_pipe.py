"""Reports on stdout (headless ``proxy`` and ``check`` JSON lines, ``export``'s page) reach a slow,
pausing pipe reader whole.

Each report here is larger than 128 KiB (twice a Linux pipe's 64 KiB buffer), so every write of a
line blocks and is completed by partial writes; a no-op SIGUSR1 handler in the proxy, signalled
all the while, interrupts those writes (py-spy's ptrace stops do the same). Before
``inspector.model.writes`` every one of these tests failed: CPython dropped the rest of a line.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time

import httpx

from tests.conftest import ROOT
from tests.e2e.conftest import ANTHROPIC_OPENING, WAIT_S, sse_event

TOOLS = 600
"""Tool-call content blocks per answer: each report line is then ~165 KB."""
EXCHANGES = 6
LINE_MIN = 128 * 1024

# The CLI's own entry, with a handler that makes every SIGUSR1 interrupt a blocked write (EINTR).
ENTRY = ("import signal, sys\n"
         "signal.signal(signal.SIGUSR1, lambda signum, frame: None)\n"
         "print('handler set', file=sys.stderr, flush=True)\n"
         "from inspector.cli import main\n"
         "code = main(sys.argv[1:])\n"
         "signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # the exit must not meet the default action\n"
         "sys.exit(code)\n")


def big_answer(tag: int) -> bytes:
    events = [ANTHROPIC_OPENING[0]]
    for i in range(TOOLS):
        events += [{"type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": f"toolu_{tag}_{i:04d}", "name": f"tool_{tag}_{i}",
                                      "input": {}}},
                   {"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps({"n": i, "tag": tag})}},
                   {"type": "content_block_stop", "index": i}]
    events += [{"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 1}}, {"type": "message_stop"}]
    return b"".join(sse_event(e) for e in events)


def behave_big(srv, conn, request) -> None:
    tag = int(request.split(b" ", 2)[1].rsplit(b"/", 1)[1])
    srv.head(conn)
    srv.chunk(conn, big_answer(tag))
    srv.finish(conn)


class SlowReader(threading.Thread):
    """Reads a pipe 4 KiB at a time with pauses (so the pipe stays full); keeps the bytes and the lines."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: list[bytes] = []
        self.data = bytearray()

    def run(self) -> None:
        buf = b""
        n = 0
        while True:
            data = os.read(self.stream.fileno(), 4096)
            if not data:
                break
            self.data += data
            buf += data
            *whole, buf = buf.split(b"\n")
            self.lines.extend(whole)
            n += 1
            time.sleep(0.05 if n % 50 == 0 else 0.001)  # a slow reader that also pauses now and then
        if buf:
            self.lines.append(buf)


@contextlib.contextmanager
def interrupted(argv: list[str]):
    """The CLI with ``argv`` in a child whose stdout is read by a ``SlowReader`` while SIGUSR1 hits
    it every 0.5 ms; yields ``(proc, reader)``; at the end SIGINT (or a kill after WAIT_S), then the
    reader drains what is left."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader = SlowReader(proc.stdout)
    stop = threading.Event()

    def interrupt() -> None:
        while not stop.wait(0.0005) and proc.poll() is None:
            proc.send_signal(signal.SIGUSR1)

    try:
        assert proc.stderr.readline() == b"handler set\n"  # no signal before the handler is in place
        reader.start()
        threading.Thread(target=interrupt, daemon=True).start()
        yield proc, reader
    finally:
        stop.set()
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(WAIT_S * 3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(WAIT_S)


def assert_whole(lines: list[bytes], tags: list[int], tag_of) -> None:
    reports = [json.loads(raw) for raw in lines]  # a cut or spliced line fails here
    assert all(len(raw) > LINE_MIN for raw in lines), [len(raw) for raw in lines]
    assert sorted(tag_of(r) for r in reports) == tags
    for r in reports:
        assert [b["id"] for b in r["blocks"]] == [f"toolu_{tag_of(r)}_{i:04d}" for i in range(TOOLS)]


def test_proxy_report_lines_arrive_whole_through_a_slow_reader_and_interrupted_writes(raw_server):
    up = raw_server(behave_big)
    with interrupted(["proxy", "--upstream", up.url, "--port", "0", "--format", "json"]) as (proc, reader):
        banner = proc.stderr.readline().decode()
        assert " on " in banner, banner
        url = banner.split(" on ", 1)[1].split(" ", 1)[0]
        failures: list[BaseException] = []

        def one(tag: int) -> None:
            try:
                with httpx.Client(timeout=WAIT_S * 6, trust_env=False) as c:
                    r = c.post(f"{url}/v1/messages/{tag}", json={"model": "m", "max_tokens": 1, "messages": []})
                    assert r.status_code == 200
            except BaseException as e:
                failures.append(e)

        clients = [threading.Thread(target=one, args=(t,)) for t in range(EXCHANGES)]
        for t in clients:
            t.start()
        for t in clients:
            t.join(WAIT_S * 6)
        assert not failures
        deadline = time.monotonic() + WAIT_S * 3
        while len(reader.lines) < EXCHANGES and time.monotonic() < deadline:
            time.sleep(0.05)
    assert_whole(reader.lines, list(range(EXCHANGES)), lambda r: int(r["path"].rsplit("/", 1)[1]))


def test_check_report_lines_arrive_whole_through_a_slow_reader_and_interrupted_writes(tmp_path):
    files = []
    for tag in range(EXCHANGES):
        f = tmp_path / f"answer_{tag}.sse"
        f.write_bytes(big_answer(tag))
        files.append(str(f))
    with interrupted(["check", "--format", "json", "--jobs", "1", *files]) as (proc, reader):
        proc.wait(WAIT_S * 6)
    assert proc.returncode in (0, 1)
    assert_whole(reader.lines, list(range(EXCHANGES)), lambda r: int(r["path"].rsplit("_", 1)[1].split(".")[0]))


def test_export_page_on_stdout_arrives_whole_through_a_slow_reader_and_interrupted_writes(tmp_path):
    f = tmp_path / "answer_0.sse"
    f.write_bytes(big_answer(0))
    page = tmp_path / "page.html"
    with interrupted(["export", "--to", "html", "--output", str(page), str(f)]) as (proc, _):
        assert proc.wait(WAIT_S * 6) == 0
    with interrupted(["export", "--to", "html", str(f)]) as (proc, reader):
        assert proc.wait(WAIT_S * 6) == 0
    assert len(page.read_bytes()) > LINE_MIN
    assert bytes(reader.data) == page.read_bytes()
