"""Ctrl+C at any moment ends with one line and exit 130 (issue 12, item 1); no traceback, no core.

Every command runs as a real process in a pseudo-terminal (the TUI commands draw there) and gets
a SIGINT at random points of its start-up and of its work, and once after its screen is drawn.
Python's own start-up (before any project code runs: the interpreter, ``site``, the console
script's first import) is not ours to handle: an interrupt there may end the process with
Python's default, but never with a frame of this project in a traceback.
"""
from __future__ import annotations

import fcntl
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from tests.e2e.conftest import ANTHROPIC_OPENING, RawServer, sse_event, write_request
from tests.conftest import ROOT

CAPTURES = ROOT / "inspector" / "data" / "captures"
ONE = str(CAPTURES / "1-anthropic-tool-call.jsonl")
DRAWN = b"\x1b[?1049h"
"""Textual switched to the alternate screen: the TUI is up."""
RNG = random.Random(12)
ANSI = re.compile(rb"\x1b\[[0-9;?<>=$]*[a-zA-Z~]|\x1b\][^\x07]*\x07|\x1b[=>]")


def _spawn(argv: list[str]) -> tuple[subprocess.Popen, int]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(k, None)
    proc = subprocess.Popen([sys.executable, "-m", "inspector", *argv], stdin=slave, stdout=slave, stderr=slave,
                            cwd=ROOT, env=env, start_new_session=True)
    os.close(slave)
    return proc, master


def _read(master: int, out: bytearray, seconds: float, until: bytes | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if until is not None and until in out:
            return
        r, _, _ = select.select([master], [], [], 0.02)
        if r:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            out += data


def interrupt(argv: list[str], delay: float | None) -> tuple[int, str]:
    """Run ``argv``, SIGINT it after ``delay`` seconds (None: once its screen is drawn, plus a moment);
    return its exit status and everything it wrote, escape sequences removed."""
    proc, master = _spawn(argv)
    out = bytearray()
    try:
        if delay is None:
            _read(master, out, 20.0, until=DRAWN)
            assert DRAWN in out, f"{argv[0]} never drew its screen: {bytes(out)[-500:]!r}"
            _read(master, out, 0.5)
        else:
            _read(master, out, delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 20
        while proc.poll() is None and time.monotonic() < deadline:
            _read(master, out, 0.1)
        _read(master, out, 0.2)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
            pytest.fail(f"{argv[0]} did not end within 20 s of SIGINT: {bytes(out)[-800:]!r}")
    finally:
        os.close(master)
    text = ANSI.sub(b"", bytes(out)).decode("utf-8", "replace").replace("\r", "")
    return proc.returncode, text


def _judge(argv: list[str], code: int, text: str) -> None:
    assert code not in (-signal.SIGSEGV, -signal.SIGABRT, 139, 134), f"{argv[0]} crashed ({code}): {text[-800:]}"
    if "Traceback" in text:
        tb = text[text.index("Traceback"):]
        ours = [line for line in tb.splitlines() if line.strip().startswith("File") and "/inspector/" in line]
        assert not ours, f"{argv[0]}: a traceback through the project's code:\n{tb[-1500:]}"
        assert code in (1, -signal.SIGINT), f"{argv[0]}: Python's start-up ended with {code}"
        return
    if code == 130:
        # One line of ours (the screen's own text never carries "stream-inspector:").
        assert text.count("stream-inspector:") == 1 and "stream-inspector: interrupted" in text, text[-800:]
    else:
        # The process finished before the signal (check, rules), or Python had not installed its
        # own handler yet (the default action: ended by the signal, nothing printed).
        assert code in (0, 1, -signal.SIGINT), f"{argv[0]} ended with {code}: {text[-800:]}"


def _stalling_server():
    def behave(srv, conn, request):
        RawServer.head(conn)
        for ev in ANTHROPIC_OPENING:
            RawServer.chunk(conn, sse_event(ev))
        srv.hold()

    return RawServer(behave).start()


def _argv(command: str, tmp_path, server) -> list[str]:
    return {
        "check": ["check", ONE],
        "rules": ["rules"],
        "replay": ["replay", ONE],
        "compare": ["compare", str(CAPTURES / "eager-off-buffered.jsonl"), str(CAPTURES / "eager-on-streamed.jsonl")],
        "demo": ["demo"],
        "serve": ["serve", ONE, "--port", "0"],
        "proxy": ["proxy", "--upstream", server.url, "--port", "0"],
        "live": ["live", "--provider", "anthropic", "--request", write_request(tmp_path), "--base-url", server.url],
    }[command]


TUI = ("replay", "compare", "demo", "proxy", "live")


@pytest.mark.parametrize("command", ["check", "rules", "serve", *TUI])
def test_sigint_at_random_points_ends_with_one_line_and_exit_130(command, tmp_path):
    server = _stalling_server()
    try:
        argv = _argv(command, tmp_path, server)
        delays = [round(RNG.uniform(0.0, 2.5), 3) for _ in range(2)]
        if command in TUI:
            delays.append(None)
        for delay in delays:
            code, text = interrupt(argv, delay)
            _judge(argv, code, text)
            if delay is None:
                assert code == 130, f"{command}: SIGINT to the running TUI ended with {code}"
    finally:
        server.stop()
