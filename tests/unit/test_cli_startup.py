"""Start-up as the command: the cyclic collector is off while the command's modules load, and on
when the command runs (in its worker processes too); imported as a library, nothing changes."""
from __future__ import annotations

import gc
import signal
import subprocess
import sys

from tests.conftest import ROOT


def test_the_collector_is_off_while_modules_load_and_on_when_the_command_runs(tmp_path):
    cap = tmp_path / "one.sse"
    cap.write_text('data: {"a":1}\n\n')
    code = ("import sys, gc\n"
            f"sys.argv = ['stream-inspector', 'check', '--format', 'json', {str(cap)!r}]\n"
            "import inspector\n"
            "print('loading', gc.isenabled())\n"
            "from inspector.cli import check, main\n"
            "run = check.run\n"
            "check.run = lambda args: print('running', gc.isenabled(), gc.get_freeze_count()) or run(args)\n"
            "main()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    lines = p.stdout.splitlines()
    assert lines[:2] == ["loading False", "running True 0"], p.stdout + p.stderr
    assert '"code":"S008"' in lines[2]


def test_imported_as_a_library_the_collector_is_left_alone():
    code = "import gc\nimport inspector.cli\nprint(gc.isenabled())\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout == "True\n", p.stderr


def test_a_check_worker_turns_the_collector_on():
    """A worker started by spawning imported ``inspector`` with the parent's ``sys.argv``: as the command."""
    from inspector.cli import check
    before = signal.getsignal(signal.SIGINT)
    gc.disable()
    try:
        check._quiet_on_ctrl_c()
        assert gc.isenabled()
    finally:
        gc.enable()
        signal.signal(signal.SIGINT, before)
