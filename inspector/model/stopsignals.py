"""Stopping a command on SIGTERM or SIGHUP as on Ctrl+C: the server commands (``proxy``, ``run``,
``gateway``, ``serve``) headless or under their TUI, and every TUI (``tui.terminal`` leaves the app first).

Why: uvicorn stops gracefully on SIGTERM, then puts the previous handler back and raises the signal
again (uvicorn ``Server.capture_signals``), so SIGTERM's default action ended ``proxy`` before its
own cleanup: the reports still waiting for a verdict (``ExchangeLog.close``), the inspection steps
still queued (``LoopSink.run_left``), the OTLP spans not yet exported, the ``stopped`` line. ``run``
and ``gateway`` serve from threads, where nothing took SIGTERM at all: they died mid-stream, the
open streams' recordings without their end line and their reports never printed. SIGHUP (the
terminal closed) ended all three the same way.

Now the first SIGTERM or SIGHUP stops the command as Ctrl+C does (streams still running past the
server's grace end ``cancelled``, "proxy stopped"; every report printed once), and once it has
cleaned up, ``ending_by_signal`` ends the process by that signal, as its default action would have
(exit status 128 + N in a shell; -N for a parent's ``waitpid``). Ctrl+C keeps its documented exit
status. A signal this process ignores (``nohup``'s SIGHUP) stays ignored. ``serve`` lost the same
to uvicorn's re-raise (its ``stopped`` line, ``--expect-next``'s verdicts).

Imports: the standard library only.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading

_taken: list[int] = []
"""The stop signals taken since ``ending_by_signal`` began, in order."""
_cleaning: list[bool] = []
"""Not empty once ``cleaning_up`` was called: a stop signal is only noted, it interrupts nothing."""


class Stopped(KeyboardInterrupt):
    """Raised in the main thread by the first SIGTERM or SIGHUP inside ``ending_by_signal``: every
    path that handles Ctrl+C (``KeyboardInterrupt``) handles it. ``signum``: the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def stop_signals() -> tuple[int, ...]:
    """The signals that stop a server command: SIGINT, SIGTERM and SIGHUP (where the platform has
    it), less SIGTERM or SIGHUP when this process ignores it (started under ``nohup``)."""
    found = [signal.SIGINT, signal.SIGTERM]
    if hasattr(signal, "SIGHUP"):
        found.append(signal.SIGHUP)
    return tuple(s for s in found if s == signal.SIGINT or signal.getsignal(s) != signal.SIG_IGN)


def took(signum: int) -> None:
    """Note a stop signal that something else took (a server's own handler, an event loop's): the
    process ends by it when ``ending_by_signal`` ends (SIGINT excepted)."""
    _taken.append(signum)


def cleaning_up() -> None:
    """The command is stopping on its own (``run``: its command ended): from now on a SIGTERM or SIGHUP
    interrupts nothing (the cleanup is bounded and must not be cut), the process still ends by it."""
    _cleaning.append(True)


def _first_ending() -> int | None:
    return next((s for s in _taken if s != signal.SIGINT), None)


def _stop(signum: int, frame) -> None:
    first = _first_ending() is None and not _cleaning
    took(signum)
    if first:
        raise Stopped(signum)
    # A second one while cleaning up: noted, and the cleanup (bounded) goes on.


@contextlib.contextmanager
def ending_by_signal():
    """Around a command's whole run, in the main thread (elsewhere: nothing changes).

    Inside, the first SIGTERM or SIGHUP raises ``Stopped`` (later ones, and any after
    ``cleaning_up``, are only noted; a server that takes the signals itself reports them with ``took``). When the body is done (its cleanup
    run, ``Stopped`` swallowed), if a SIGTERM or SIGHUP was taken, stdout and stderr are flushed and
    the process ends by that signal. Otherwise the previous handlers are back and the body's
    result or exception goes on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _taken.clear()
    _cleaning.clear()
    previous = {s: signal.signal(s, _stop) for s in stop_signals() if s != signal.SIGINT}
    try:
        yield
    except Stopped:
        pass
    finally:
        ending = _first_ending()
        for s, handler in previous.items():
            signal.signal(s, handler)
        _taken.clear()
        _cleaning.clear()
        if ending is not None:
            end_by(ending)


def end_by(signum: int) -> None:
    """End the process by ``signum`` (its default action), what is buffered written first (the CLI's
    way out for a TUI left on a SIGTERM or SIGHUP outside ``ending_by_signal``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or broken stream: nothing more to say there
            stream.flush()
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)
