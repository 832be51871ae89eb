"""SIGTERM and SIGHUP stop ``proxy``, ``run`` and ``gateway`` (headless) as Ctrl+C does, then end them by
the signal (``inspector.model.stopsignals``): nothing their cleanup gives is lost.

Before, uvicorn raised SIGTERM again once it had stopped, and its default action ended ``proxy``
before its cleanup (the ``stopped`` line, the OTLP flush: ``test_otlp``); ``run`` and ``gateway`` had
no handler at all, and neither had any of them for SIGHUP: they died mid-stream, the open stream's
recording without its end line, its report and the reports waiting for its verdict never printed.

Each test holds one stream open past the server's grace (2 s for ``proxy``, 0.5 s for the taps)
while a second request on the same path, continuing the first one's conversation, has been
answered: its report waits for the first exchange's end (``ExchangeLog._answers_open``). Real
processes, real HTTP on 127.0.0.1; every wait is bounded by ``WAIT_S`` (or a minute for the exit).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import sys
import threading
from pathlib import Path

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.net.proxy.server import ProxyThread
from inspector.net.servers import BackgroundServer
from tests.e2e.conftest import WAIT_S, RawServer, spawn, sse_event, wait_for

ANSWER = "Hello there"
OPENING = b"".join(sse_event(e) for e in (
    {"type": "message_start", "message": {"id": "msg_sd", "type": "message", "role": "assistant", "model": "m-test",
                                          "content": [], "stop_reason": None, "stop_sequence": None,
                                          "usage": {"input_tokens": 1, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": ANSWER}}))
CLOSE = b"".join(sse_event(e) for e in (
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 3}},
    {"type": "message_stop"}))
PING = b'event: ping\ndata: {"type": "ping"}\n\n'
FIRST = {"model": "m-test", "max_tokens": 16, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
SECOND = {"model": "m-test", "max_tokens": 16, "stream": True,
          "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": ANSWER},
                       {"role": "user", "content": "and then?"}]}
EXIT_S = 60.0
"""Upper bound for a stopped process to exit (its grace is 2 s; a loaded machine is slow)."""


def held_or_whole(srv: RawServer, conn, request: bytes) -> None:
    """The second request (``and then?``) is answered whole; the first is held open, a ping every
    0.2 s, until the server stops or its client is gone."""
    srv.head(conn)
    srv.chunk(conn, OPENING)
    if b"and then?" in request:
        srv.chunk(conn, CLOSE)
        srv.finish(conn)
        return
    while not srv.stopping.is_set():
        srv.hold(0.2)
        srv.chunk(conn, PING)


class HeldClient:
    """The first request's stream, read in a thread until the proxy cuts it."""

    def __init__(self, url: str) -> None:
        self.got = bytearray()
        self._thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self._thread.start()

    def _read(self, url: str) -> None:
        try:
            with httpx.stream("POST", url, json=FIRST, timeout=WAIT_S * 6, trust_env=False) as r:
                for part in r.iter_raw():
                    self.got.extend(part)
        except httpx.HTTPError:
            pass  # cut when the proxy stops


def ended(path: Path) -> dict | None:
    """The recording's end record (its last line), or None while it has none."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    last = json.loads(lines[-1]) if lines else {}
    return last if "end" in last else None


def whole_lines(path: Path) -> list[dict]:
    """Every line of a recording, each a whole JSON record (nothing written half)."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def one_of_each(numbers: list[int]) -> None:
    assert sorted(numbers) == [1, 2], numbers  # every report printed, none twice


def stop(proc, signum: int) -> tuple[str, str]:
    proc.send_signal(signum)
    try:
        return proc.communicate(timeout=EXIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def proxy_url(proc) -> str:
    line = proc.stderr.readline()
    assert " on " in line, line
    return line.split(" on ", 1)[1].split(" ", 1)[0]


@pytest.mark.parametrize("signum, fmt", [(signal.SIGTERM, "json"), (signal.SIGHUP, "text")],
                         ids=["SIGTERM-json", "SIGHUP-text"])
def test_proxy_stopped_by_a_signal_prints_every_report_and_ends_every_recording(raw_server, tmp_path, signum, fmt):
    up = raw_server(held_or_whole)
    rec = tmp_path / "rec"
    proc = spawn(["proxy", "--upstream", up.url, "--port", "0", "--format", fmt, "--record", str(rec)])
    try:
        url = proxy_url(proc) + "/v1/messages"
        held = HeldClient(url)
        wait_for(lambda: PING in held.got, "the first stream to be relayed")
        assert httpx.post(url, json=SECOND, timeout=WAIT_S, trust_env=False).content.endswith(CLOSE)
        first, second = rec / "001-POST-v1-messages.jsonl", rec / "002-POST-v1-messages.jsonl"
        wait_for(lambda: ended(second), "the second recording to end")
        out, err = stop(proc, signum)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signum, err  # ended by the signal, as its default action would
    assert "Traceback" not in err and "stream-inspector proxy stopped" in err, err
    if fmt == "json":
        reports = {r["exchange"]: r for r in map(json.loads, out.splitlines())}
        one_of_each([json.loads(line)["exchange"] for line in out.splitlines()])
        assert reports[2]["continues"] == 1  # judged against the first answer, which ended at the stop
        s012 = [f for f in reports[1]["findings"] if f["code"] == "S012"]
        assert s012 and "proxy stopped" in s012[0]["message"], reports[1]["findings"]
    else:
        heads = [line for line in out.splitlines() if re.match(r"#\d+ POST ", line)]
        one_of_each([int(h[1:].split(" ", 1)[0]) for h in heads])
        assert "(continues #1)" in next(h for h in heads if h.startswith("#2 "))
    assert whole_lines(first)[-1]["end"] == "cancelled" and whole_lines(first)[-1]["error"] == "proxy stopped"
    assert whole_lines(second)[-1]["end"] == "eof"
    assert load_path(first).body.startswith(OPENING + PING)  # the recording replays


AGENT = """\
import os, signal, sys, threading, httpx

def leave(signum, frame):
    open(sys.argv[2], "w").write(signal.Signals(signum).name)
    os._exit(0)

signal.signal(signal.SIGTERM, leave)
base = os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages"
first, second = {first!r}, {second!r}

def held():
    with httpx.stream("POST", base, json=first, timeout=600, trust_env=False) as r:
        for _ in r.iter_raw():
            pass

threading.Thread(target=held, daemon=True).start()
threading.Event().wait(0.5)
httpx.post(base, json=second, timeout=60, trust_env=False)
open(sys.argv[1], "w").write("answered")
parent = os.getppid()
while os.getppid() == parent:  # until ``run`` passes a signal on, or is gone (never outlive it)
    threading.Event().wait(0.1)
"""


def test_run_passes_sigterm_to_the_command_and_writes_every_report_before_ending_by_it(raw_server, tmp_path):
    up = raw_server(held_or_whole)
    rec, out_file = tmp_path / "rec", tmp_path / "reports.jsonl"
    answered, got = tmp_path / "answered", tmp_path / "got"
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT.format(first=FIRST, second=SECOND))
    proc = spawn(["run", "--upstream", f"anthropic={up.url}", "--format", "json", "-o", str(out_file),
                  "--record", str(rec), "--", sys.executable, str(agent), str(answered), str(got)])
    try:
        wait_for(answered.exists, "the agent's second request to be answered", timeout=EXIT_S)
        first = rec / "001-POST-anthropic-v1-messages.jsonl"
        wait_for(lambda: first.exists() and '"type\\": \\"ping' in first.read_text(encoding="utf-8"),
                 "the first stream to be recorded")
        _, err = stop(proc, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGTERM, err
    assert got.read_text() == "SIGTERM"  # passed on to the command
    assert "Traceback" not in err, err
    reports = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    one_of_each([r["exchange"] for r in reports])
    assert {r["exchange"]: r["continues"] for r in reports}[2] == 1
    end = whole_lines(first)[-1]
    assert end["end"] == "cancelled", end  # the agent left: "client disconnected"
    assert whole_lines(rec / "002-POST-anthropic-v1-messages.jsonl")[-1]["end"] == "eof"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gateway_stopped_by_sigterm_reports_and_files_every_pair(raw_server, tmp_path):
    """The gateway here passes requests through unchanged: the front tap forwards to the back tap."""
    up = raw_server(held_or_whole)
    rec = tmp_path / "rec"
    front, back = free_port(), free_port()
    proc = spawn(["gateway", "--gateway-url", f"http://127.0.0.1:{back}", "--upstream", up.url,
                  "--port", str(front), "--back-port", str(back), "--format", "json", "--record", str(rec)])
    try:
        assert f"front tap http://127.0.0.1:{front}" in proc.stderr.readline()

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", front)) == 0

        wait_for(listening, "the front tap")
        url = f"http://127.0.0.1:{front}/v1/messages"
        held = HeldClient(url)
        wait_for(lambda: PING in held.got, "the first stream to be relayed")
        assert httpx.post(url, json=SECOND, timeout=WAIT_S, trust_env=False).content.endswith(CLOSE)
        out, err = stop(proc, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGTERM, err
    assert "Traceback" not in err and "stream-inspector gateway stopped" in err, err
    pairs = [json.loads(line) for line in out.splitlines()]
    one_of_each([p["pair"] for p in pairs])
    staged = [p.relative_to(rec) for d in ("front", "back") if (rec / d).exists() for p in (rec / d).iterdir()]
    assert staged == []  # each exchange filed with its pair, nothing left in the staging folders
    dirs = sorted(p.name for p in rec.iterdir() if p.name.startswith("pair-"))
    assert dirs == ["pair-001", "pair-002"], dirs
    for d in dirs:
        for side in ("front.jsonl", "back.jsonl"):
            assert "end" in whole_lines(rec / d / side)[-1]
    assert os.path.exists(rec / "pair-002" / "pair.json")


def test_a_stream_cancelled_again_while_it_closes_still_ends_its_recording_and_report(raw_server, tmp_path):
    """A loop shutting down cancels what still runs, again: a stream the server's grace had already
    cancelled may be waiting in its cleanup (its upstream read being stopped). Its recording's end line
    and its end in the log are still written (before, the second cancel skipped both: no end, no report)."""
    def opening_then_hold(srv, conn, request) -> None:
        srv.head(conn)
        srv.chunk(conn, OPENING)
        srv.hold()

    up = raw_server(opening_then_hold)
    px = ProxyThread(up.url, record_dir=tmp_path, timeout=WAIT_S)
    relayed = asyncio.Event()

    async def cancelled_twice(scope, receive, send):
        async def watched(msg):
            await send(msg)
            if msg["type"] == "http.response.body" and msg.get("body"):
                relayed.set()

        relay = asyncio.create_task(px.endpoint(scope, receive, watched))
        await relayed.wait()
        relay.cancel()  # the server's grace is over
        await asyncio.sleep(0)  # the relay is now stopping its upstream read
        relay.cancel()  # the loop shutting down
        with contextlib.suppress(asyncio.CancelledError):
            await relay

    with BackgroundServer(cancelled_twice) as srv:
        with pytest.raises(httpx.HTTPError):  # the body is cut short
            with httpx.stream("POST", srv.url + "/v1/messages", json=FIRST, timeout=WAIT_S, trust_env=False) as r:
                for _ in r.iter_raw():
                    pass
        report = px.wait_reports(1, timeout=WAIT_S)[0]
    end = whole_lines(next(tmp_path.iterdir()))[-1]
    assert (end["end"], end["error"]) == ("cancelled", "proxy stopped")
    assert "proxy stopped" in next(f["message"] for f in report["findings"] if f["code"] == "S012")
