"""The TUI as a process: it needs a terminal, Ctrl+C (SIGINT) ends it with exit 130, and a SIGTERM or
SIGHUP ends it as ``q`` does before the process ends by that signal.

Why this module exists: ``stream-inspector replay x.jsonl | less`` or a TUI command started from
a script with its output captured used to hang (Textual draws on stderr and reads keys from
stdin), and a SIGINT sent to a running TUI ended it with exit 0 as if the user had quit. Every
app of the inspector mixes :class:`TerminalApp` in: ``run`` raises :class:`NoTerminal` before
drawing anything when stdin, stdout or stderr is not a terminal, and turns a SIGINT into a clean
exit followed by ``KeyboardInterrupt``; the CLI prints one line for each (exit 2, exit 130).

A SIGTERM or SIGHUP (Textual installs no handler for them) used to end the process at once: the
terminal left in the alternate screen and raw mode, open recordings without their end line, ``run``'s
command never told. Now it leaves the app the same way, then ``run`` raises
``stopsignals.Stopped``: the command's cleanup runs as after Ctrl+C, and the process ends by the
signal (``stopsignals``; exit 143, 129 in a shell). A terminal that was closed (hung up: every
write fails with EIO) never blocks the app on its way out (``_Output``).
No Textual here (the CLI imports it to catch the error).
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from textual.app import App

    _AppBase = App[Any]
    """What the class is mixed into (an ``App``, after it in the bases): mypy checks it against that."""
else:
    _AppBase = object

import errno

import _signal  # the C module: ``signal`` builds its enums at import, which check's start-up does not need

from inspector.model.stopsignals import Stopped, stop_signals, took


class NoTerminal(Exception):
    """stdin, stdout or stderr is not a terminal; the message says which (one line)."""


class AppCrashed(Exception):
    """The app ended on an unhandled exception (its ``__cause__``); the CLI reports it as an
    internal error (exit 3), never as the exit status of a clean quit."""


def terminal_problem(streams: dict | None = None) -> str | None:
    """None when every stream (default: the process's stdout, stdin and stderr) is a terminal, else why not."""
    streams = streams if streams is not None else {"stdout": sys.stdout, "stdin": sys.stdin, "stderr": sys.stderr}
    missing = [name for name, stream in streams.items() if not _isatty(stream)]
    if not missing:
        return None
    if len(missing) == 1:
        return f"{missing[0]} is not a terminal"
    return f"{', '.join(missing[:-1])} and {missing[-1]} are not terminals"


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def require_terminal() -> None:
    """Raise :class:`NoTerminal` unless stdin, stdout and stderr are terminals."""
    problem = terminal_problem()
    if problem:
        raise NoTerminal(problem)


class TerminalApp(_AppBase):
    """Mixed into an ``App`` (before it in the bases): see the module docstring. ``headless`` runs
    (tests, benches) need no terminal."""

    _interrupted = False
    _stopped_by: int | None = None
    """The SIGTERM or SIGHUP that ended the app, once one came."""

    def run(self, *args, headless: bool = False, **kwargs):
        if not headless:
            require_terminal()
        previous = {s: _signal.getsignal(s) for s in stop_signals()}
        for s in previous:
            _signal.signal(s, self._on_signal)
        try:
            result = super().run(*args, headless=headless, **kwargs)
        finally:
            for s, handler in previous.items():
                _signal.signal(s, handler)
        if self._stopped_by is not None:
            raise Stopped(self._stopped_by)
        if self._interrupted:
            raise KeyboardInterrupt
        error = getattr(self, "_exception", None)
        if error is not None:
            raise AppCrashed(f"{type(error).__name__}: {error}") from error
        return result

    def get_driver_class(self):
        """Textual's driver for this platform, its output surviving a hung-up terminal (``_Output``)."""
        return _surviving_a_hangup(super().get_driver_class())

    def _print_error_renderables(self) -> None:
        """Textual prints the traceback with its local variables (capture text, secrets) on the
        terminal; an unhandled exception is reported by the CLI instead (one line, saved traceback)."""
        if getattr(self, "_exception", None) is None:
            super()._print_error_renderables()

    def _on_signal(self, signum, frame) -> None:  # noqa: ARG002 - signal handler signature
        """Leave the app the way ``q`` does (the terminal restored), then report the interrupt
        (SIGINT) or end by the signal (SIGTERM, SIGHUP: the first one counts)."""
        if signum == _signal.SIGINT:
            self._interrupted = True
        elif self._stopped_by is None:
            self._stopped_by = signum
            took(signum)  # a later one while the command cleans up is only noted (``ending_by_signal``)
        loop = getattr(self, "_loop", None)
        if loop is None or loop.is_closed():
            raise KeyboardInterrupt if self._stopped_by is None else Stopped(self._stopped_by)
        loop.call_soon_threadsafe(self._leave)

    def _leave(self) -> None:
        # An exit asked for while the app is still starting can be lost: ask again until it is gone.
        self.exit(None, 130 if self._stopped_by is None else 128 + self._stopped_by)
        loop = getattr(self, "_loop", None)  # None once the app has ended (Textual clears it)
        if loop is not None and not loop.is_closed():
            loop.call_later(0.2, self._leave)


class _Output:
    """What Textual's writer thread writes the screen to (the driver's ``_file``, stderr), a write or
    flush that fails (EIO: the terminal hung up) dropped, with everything after it. Without it that
    thread died on the first failure, and once its queue of 30 writes was full the app blocked on the
    next one for good: a TUI whose terminal closed while ``nohup`` kept it alive never left on the
    SIGTERM that came later (Textual 8.2, ``drivers/_writer_thread.py``)."""

    def __init__(self, file) -> None:
        self._file = file
        self.gone = False
        """A write failed: the terminal is gone, nothing more is written."""

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._file.write(text)
            except OSError as e:
                self._failed(e)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except OSError as e:
                self._failed(e)

    def _failed(self, e: OSError) -> None:
        if e.errno != errno.EIO:  # not a hang-up: as before (the thread ends on it)
            raise e
        self.gone = True

    def __getattr__(self, name: str):
        return getattr(self._file, name)  # fileno, isatty, encoding: the terminal's own


def _surviving_a_hangup(driver: type) -> type:
    """A subclass of the Textual driver class ``driver`` whose screen output is an ``_Output``
    (a driver without ``_file`` is left as it is)."""
    class Driver(driver):  # type: ignore[misc, valid-type]  # a Textual driver class, known at run time
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            file = getattr(self, "_file", None)
            if file is not None:
                self._file = _Output(file)

    Driver.__name__ = Driver.__qualname__ = driver.__name__
    return Driver
