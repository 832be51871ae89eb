"""The TUI as a process: it needs a terminal, and Ctrl+C (SIGINT) ends it with exit 130.

Why this module exists: ``stream-inspector replay x.jsonl | less`` or a TUI command started from
a script with its output captured used to hang (Textual draws on stderr and reads keys from
stdin), and a SIGINT sent to a running TUI ended it with exit 0 as if the user had quit. Every
app of the inspector mixes :class:`TerminalApp` in: ``run`` raises :class:`NoTerminal` before
drawing anything when stdin, stdout or stderr is not a terminal, and turns a SIGINT into a clean
exit followed by ``KeyboardInterrupt``; the CLI prints one line for each (exit 2, exit 130).
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

import _signal  # the C module: ``signal`` builds its enums at import, which check's start-up does not need


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

    def run(self, *args, headless: bool = False, **kwargs):
        if not headless:
            require_terminal()
        previous = _signal.getsignal(_signal.SIGINT)
        _signal.signal(_signal.SIGINT, self._on_sigint)
        try:
            result = super().run(*args, headless=headless, **kwargs)
        finally:
            _signal.signal(_signal.SIGINT, previous)
        if self._interrupted:
            raise KeyboardInterrupt
        error = getattr(self, "_exception", None)
        if error is not None:
            raise AppCrashed(f"{type(error).__name__}: {error}") from error
        return result

    def _print_error_renderables(self) -> None:
        """Textual prints the traceback with its local variables (capture text, secrets) on the
        terminal; an unhandled exception is reported by the CLI instead (one line, saved traceback)."""
        if getattr(self, "_exception", None) is None:
            super()._print_error_renderables()

    def _on_sigint(self, signum, frame) -> None:  # noqa: ARG002 - signal handler signature
        """Leave the app the way ``q`` does (the terminal restored), then report the interrupt."""
        self._interrupted = True
        loop = getattr(self, "_loop", None)
        if loop is None or loop.is_closed():
            raise KeyboardInterrupt
        loop.call_soon_threadsafe(self._leave)

    def _leave(self) -> None:
        # An exit asked for while the app is still starting can be lost: ask again until it is gone.
        self.exit(None, 130)
        loop = getattr(self, "_loop", None)  # None once the app has ended (Textual clears it)
        if loop is not None and not loop.is_closed():
            loop.call_later(0.2, self._leave)
