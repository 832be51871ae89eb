"""SIGTERM and SIGHUP leave a TUI as ``q`` does, then end it by the signal (``inspector.tui.terminal``,
``inspector.model.stopsignals``); ``serve`` stops on them as on Ctrl+C.

Before, Textual installed no handler for either: the process died at once, the terminal left in the
alternate screen and raw mode, open recordings without their end line, ``run``'s command never told;
uvicorn raised SIGTERM again once ``serve`` had stopped, so its ``stopped`` line and ``--expect-next``'s
verdicts were never written.

Each TUI runs as a real process on a pseudo-terminal at 80x24 that is its controlling terminal, as
in a shell; "restored" means the alternate screen was left (``ESC[?1049l`` written after the
signal) and the line discipline is back in canonical mode with echo (Textual's raw mode undone).
Closing the terminal is closing the pty's master: the kernel hangs it up and sends SIGHUP.
"""
from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading

import httpx
import pytest

from tests.conftest import ROOT
from tests.e2e.conftest import WAIT_S, spawn, wait_for
from tests.e2e.test_shutdown_signals import PING, HeldClient, ended, held_or_whole

DRAWN, LEFT = b"\x1b[?1049h", b"\x1b[?1049l"
"""Textual entering and leaving the alternate screen."""
EXIT_S = 30.0
"""Upper bound for a signalled process to end (the proxy's grace is 2 s; a loaded machine is slow)."""
REPLAY = str(ROOT / "inspector" / "data" / "captures" / "1-anthropic-tool-call.jsonl")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tty:
    """``python -m inspector ARGV`` on a new pseudo-terminal (80x24) that is its controlling terminal;
    everything it writes is read into ``out`` by a thread (a full pty would block it)."""

    def __init__(self, argv: list[str]) -> None:
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.cooked = termios.tcgetattr(self.slave)
        env = {**os.environ, "TERM": "xterm-256color"}
        for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            env.pop(k, None)
        self.proc = subprocess.Popen([sys.executable, "-m", "inspector", *argv], stdin=self.slave, stdout=self.slave,
                                     stderr=self.slave, cwd=ROOT, env=env, start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        self.out = bytearray()
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._closed.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if ready:
                    data = os.read(self.master, 65536)
                    if not data:
                        return
                    self.out += data
            except (OSError, ValueError):
                return

    def drawn(self) -> None:
        wait_for(lambda: DRAWN in self.out, "the TUI to draw its screen", timeout=2 * WAIT_S)

    def signal(self, signum: int) -> int:
        """Send ``signum``; the offset in ``out`` where what it wrote from then on begins."""
        mark = len(self.out)
        self.proc.send_signal(signum)
        return mark

    def hang_up(self) -> None:
        """Close the terminal: its master closed, the kernel hangs the pty up (SIGHUP to the process)."""
        self._closed.set()
        self._reader.join()
        os.close(self.master)
        self.master = -1

    def ended(self) -> int:
        """The exit status (-N: ended by signal N); fails if it has not ended within ``EXIT_S``."""
        try:
            return self.proc.wait(EXIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"still running {EXIT_S:g} s after the signal: {bytes(self.out)[-600:]!r}")

    def restored(self, mark: int) -> bool:
        """The alternate screen left after ``mark`` and the terminal's modes back as they were."""
        self._closed.set()
        self._reader.join()
        attrs = termios.tcgetattr(self.slave)
        modes = termios.ICANON | termios.ECHO
        return LEFT in self.out[mark:] and attrs[3] & modes == self.cooked[3] & modes

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._closed.set()
        self._reader.join()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)


@pytest.fixture
def tty():
    made: list[Tty] = []

    def make(argv: list[str]) -> Tty:
        made.append(Tty(argv))
        return made[-1]

    yield make
    for t in made:
        t.close()


def held_stream(raw_server, tty, tmp_path):
    """A proxy TUI recording into ``tmp_path/rec``, one stream held open through it; (tty, its recording)."""
    up = raw_server(held_or_whole)
    port = free_port()
    term = tty(["proxy", "--upstream", up.url, "--port", str(port), "--record", str(tmp_path / "rec")])
    term.drawn()
    held = HeldClient(f"http://127.0.0.1:{port}/v1/messages")
    wait_for(lambda: PING in held.got, "the stream to be relayed")
    return term, tmp_path / "rec" / "001-POST-v1-messages.jsonl"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_proxy_tui_signalled_restores_the_terminal_ends_the_recording_then_ends_by_the_signal(
        raw_server, tty, tmp_path, signum):
    term, recording = held_stream(raw_server, tty, tmp_path)
    mark = term.signal(signum)
    assert term.ended() == -signum
    assert term.restored(mark), bytes(term.out[mark:])[-400:]
    assert ended(recording) is not None, recording.read_text()[-300:]
    assert b"Traceback" not in term.out


def test_a_closed_terminal_ends_the_proxy_tui_by_sighup_with_the_recording_ended(raw_server, tty, tmp_path):
    term, recording = held_stream(raw_server, tty, tmp_path)
    term.hang_up()
    assert term.ended() == -signal.SIGHUP  # not stuck writing to the dead terminal
    assert ended(recording) is not None, recording.read_text()[-300:]


AGENT = """import pathlib, signal, sys, time
out = pathlib.Path(sys.argv[1])
for signum in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, lambda n, f: (out.write_text(signal.Signals(n).name), sys.exit(0)))
print("the agent's output, held while the TUI runs", flush=True)
out.write_text("ready")
time.sleep(60)
"""


def run_tui(tty, tmp_path) -> tuple[Tty, "os.PathLike"]:
    """``run``'s TUI over ``AGENT``, drawn and the agent started; (tty, the file the agent says what it got in)."""
    told = tmp_path / "told"
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    term = tty(["run", "--port", "0", "--", sys.executable, str(script), str(told)])
    term.drawn()
    wait_for(lambda: told.exists() and told.read_text() == "ready", "the command to start")
    return term, told


def test_run_tui_signalled_passes_it_to_the_command_and_restores_the_terminal(tty, tmp_path):
    term, told = run_tui(tty, tmp_path)
    mark = term.signal(signal.SIGTERM)
    assert term.ended() == -signal.SIGTERM
    assert told.read_text() == "SIGTERM"  # told, and given time to act on it
    assert term.restored(mark), bytes(term.out[mark:])[-400:]
    assert b"the agent's output" in term.out[mark:]  # written out once the TUI closed


@pytest.mark.parametrize("command", ["gateway", "replay"])
def test_other_tuis_signalled_restore_the_terminal_and_end_by_the_signal(raw_server, tty, command):
    argv = {"replay": ["replay", REPLAY],
            "gateway": ["gateway", "--gateway-url", "http://127.0.0.1:9", "--upstream", "http://127.0.0.1:9",
                        "--port", "0", "--back-port", "0"]}[command]
    term = tty(argv)
    term.drawn()
    mark = term.signal(signal.SIGHUP if command == "gateway" else signal.SIGTERM)
    assert term.ended() == (-signal.SIGHUP if command == "gateway" else -signal.SIGTERM)
    assert term.restored(mark), bytes(term.out[mark:])[-400:]


def test_serve_match_record_missing_stopped_by_sigterm_says_stopped_and_ends_the_recording(raw_server, tmp_path):
    up = raw_server(held_or_whole)
    folder = tmp_path / "recs"
    folder.mkdir()
    proc = spawn(["serve", "--match", str(folder), "--record-missing", "--upstream", up.url, "--port", "0"])
    try:
        url = proc.stdout.readline().rsplit(" on ", 1)[1].strip()
        held = HeldClient(f"{url}/v1/messages")
        wait_for(lambda: PING in held.got, "the forwarded stream")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=EXIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGTERM, err
    assert out.splitlines()[-1] == "stopped" and "Traceback" not in err, (out, err)
    [recording] = folder.glob("*.jsonl")
    assert ended(recording) is not None


def test_serve_expect_next_stopped_by_sighup_gives_its_verdicts(tmp_path):
    proc = spawn(["serve", REPLAY, "--mutate", "no-stop-event,cumulative-arguments", "--expect-next",
                  "--format", "json", "--instant", "--port", "0"])
    try:
        url = proc.stderr.readline().rsplit(" on ", 1)[1].strip() + "/v1/messages"
        for _ in range(2):  # the first broken stream, then the request its verdict grades
            httpx.post(url, json={"model": "m", "stream": True, "messages": []}, timeout=WAIT_S, trust_env=False)
        proc.send_signal(signal.SIGHUP)  # the second broken stream not served yet
        out, err = proc.communicate(timeout=EXIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGHUP, err
    assert err.splitlines()[-1] == "stopped", err
    assert "no-stop-event" in out and "cumulative-arguments" not in out, out  # the verdict given so far
