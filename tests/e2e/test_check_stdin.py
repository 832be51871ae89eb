"""``curl -sN … | stream-inspector check -``: standard input is timed as it arrives (issue 23 item 8).

A real process reading a real pipe: a stall in the pipe is a stall in the stream (T001); a body
with no arrival times (a file, a paste) says its times are unknown.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tests.conftest import ROOT, SHARED_CORPUS
import pytest

from tests.e2e.conftest import WAIT_S, run_cli, wait_for

BODY = (SHARED_CORPUS / "anthropic-doc-tool-call.sse").read_bytes() if SHARED_CORPUS.is_dir() else b""


def check_stdin(*args: str) -> subprocess.Popen:
    """``python -m inspector check - ARGS`` with a pipe for standard input (what ``curl … |`` gives)."""
    return subprocess.Popen([sys.executable, "-m", "inspector", "check", "-", *args], cwd=ROOT, env=dict(os.environ),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def reading_an_empty_pipe(pid: int) -> bool:
    """The process is blocked reading a pipe with nothing in it (Linux ``/proc/PID/wchan``): it has
    read what was written so far, so what is written next arrives later."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return any(w in f.read() for w in ("pipe_read", "pipe_wait"))  # anon_pipe_read on newer kernels
    except OSError:
        pytest.skip("no /proc/PID/wchan here")


def test_a_stall_through_a_pipe_is_t001():
    cut = BODY.index(b"event: content_block_delta")
    proc = check_stdin("--format", "json", "--stall", "0.5")
    proc.stdin.write(BODY[:cut].decode())
    proc.stdin.flush()
    wait_for(lambda: reading_an_empty_pipe(proc.pid), "check - to read the first part")
    time.sleep(0.8)  # what a stalled upstream looks like at the end of curl's pipe
    proc.stdin.write(BODY[cut:].decode())
    out, err = proc.communicate(timeout=WAIT_S)
    report = json.loads(out)
    t001 = [f for f in report["findings"] if f["code"] == "T001"]
    assert len(t001) == 1 and t001[0]["t"] >= 0.7, report["findings"]
    assert report["duration_s"] >= 0.7 and report["ttfb_s"] is None  # from the first byte: no request time


def test_a_steady_pipe_is_timed_and_clean_of_t001():
    proc = check_stdin("--format", "json", "--stall", "0.5")
    out, _ = proc.communicate(BODY.decode(), timeout=WAIT_S)
    report = json.loads(out)
    assert report["duration_s"] is not None and not [f for f in report["findings"] if f["code"] == "T001"]


def test_a_file_without_arrival_times_says_so():
    code, out, _ = run_cli(["check", str(SHARED_CORPUS / "anthropic-doc-tool-call.sse")])
    assert "times unknown (T rules not judged)" in out.splitlines()[0]
