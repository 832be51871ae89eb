"""``inspector.model.stopsignals``: a SIGTERM or SIGHUP stops a server command as Ctrl+C does, its cleanup
runs, then the process ends by the signal; a signal the process ignores (``nohup``) stays ignored.
The ending is checked in a child process (it ends the process it runs in)."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading

from inspector.model.stopsignals import Stopped, ending_by_signal, stop_signals
from tests.conftest import ROOT


def test_an_ignored_signal_is_not_taken_and_ctrl_c_always_is():
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    try:
        assert signal.SIGHUP not in stop_signals()
        assert stop_signals()[:2] == (signal.SIGINT, signal.SIGTERM)
    finally:
        signal.signal(signal.SIGHUP, before)
    before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        assert signal.SIGHUP in stop_signals()
    finally:
        signal.signal(signal.SIGHUP, before)


def _child(body: str) -> subprocess.CompletedProcess:
    code = "import os, signal, sys, time\nfrom inspector.model.stopsignals import Stopped, ending_by_signal, took\n"
    return subprocess.run([sys.executable, "-c", code + textwrap.dedent(body)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_sigterm_interrupts_the_body_its_cleanup_runs_then_the_process_ends_by_it():
    p = _child("""
        with ending_by_signal():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(30)
                print("not interrupted")
            except Stopped as e:
                print("stopped by", signal.Signals(e.signum).name)
                raise
            finally:
                os.kill(os.getpid(), signal.SIGTERM)  # a second one while cleaning up: noted, no more
                print("cleaned up", flush=True)
        print("not reached")
    """)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert p.stdout == "stopped by SIGTERM\ncleaned up\n" and p.stderr == ""


def test_after_cleaning_up_began_a_sigterm_interrupts_nothing_and_still_ends_the_process():
    p = _child("""
        from inspector.model.stopsignals import cleaning_up
        with ending_by_signal():
            cleaning_up()  # ``run``: its command ended, the reports are being written
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):
                pass
            print("reports written", flush=True)
        print("not reached")
    """)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert p.stdout == "reports written\n"


def test_a_signal_a_server_took_ends_the_process_once_the_body_returns():
    p = _child("""
        with ending_by_signal():
            took(signal.SIGHUP)  # what the proxy's server does with the signals it handled itself
            print("stopped line", flush=True)
        print("not reached")
    """)
    assert p.returncode == -signal.SIGHUP and p.stdout == "stopped line\n"


def test_ctrl_c_keeps_its_exit_status_and_the_handlers_are_back():
    p = _child("""
        before = signal.getsignal(signal.SIGTERM)
        with ending_by_signal():
            took(signal.SIGINT)
        assert signal.getsignal(signal.SIGTERM) is before
        print("returned")
        sys.exit(1)
    """)
    assert p.returncode == 1 and p.stdout == "returned\n", p.stderr


def test_outside_the_main_thread_nothing_changes():
    seen = []

    def body() -> None:
        with ending_by_signal():
            seen.append(signal.getsignal(signal.SIGTERM))

    before = signal.getsignal(signal.SIGTERM)
    t = threading.Thread(target=body)
    t.start()
    t.join(10)
    assert seen == [before] and isinstance(Stopped(signal.SIGTERM), KeyboardInterrupt)
