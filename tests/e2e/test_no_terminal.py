"""A TUI command with no terminal says so in one line and exits 2 (issue 12, item 8), never hangs."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.e2e.test_interrupts import CAPTURES, ONE, _stalling_server
from tests.e2e.conftest import write_request


@pytest.mark.parametrize("command", ["replay", "live", "proxy", "compare", "demo"])
def test_a_tui_command_with_a_pipe_says_it_needs_a_terminal(command, tmp_path):
    server = _stalling_server()
    try:
        argv = {
            "replay": ["replay", ONE],
            "live": ["live", "--provider", "anthropic", "--request", write_request(tmp_path), "--base-url", server.url],
            "proxy": ["proxy", "--upstream", server.url, "--port", "0"],
            "compare": ["compare", str(CAPTURES / "eager-off-buffered.jsonl"), str(CAPTURES / "eager-on-streamed.jsonl")],
            "demo": ["demo"],
        }[command]
        p = subprocess.run([sys.executable, "-m", "inspector", *argv], stdin=subprocess.PIPE, capture_output=True,
                           text=True, cwd=ROOT, timeout=60)
    finally:
        server.stop()
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert lines[0].startswith(f"stream-inspector: {command} shows a terminal UI but ") and "not a terminal" in lines[0].replace("not terminals", "not a terminal")
    if command in ("live", "proxy", "compare"):
        assert "--format json" in lines[0]
    assert not server.requests  # nothing was sent for a UI that cannot open


def test_headless_formats_need_no_terminal(tmp_path):
    a, b = CAPTURES / "eager-off-buffered.jsonl", CAPTURES / "eager-on-streamed.jsonl"
    p = subprocess.run([sys.executable, "-m", "inspector", "compare", str(a), str(b), "--format", "text"],
                       stdin=subprocess.PIPE, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout
