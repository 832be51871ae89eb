"""The command line: ``stream-inspector COMMAND ...`` (SPEC.md "Commands").

Lives here: ``parser`` (every command's arguments) and one module per command, each with a
``run(args) -> exit code``. ``main`` imports a command's module only when that command runs:
``check``, ``rules`` and ``--help`` load no Textual, Rich, httpx, click, uvicorn or starlette;
``replay``, ``live``, ``proxy``, ``run``, ``serve``, ``compare``, ``diff``, ``gateway``, ``demo`` and
``conform`` import the TUI
or the network when they start (the one place the import-linter contract allows an import inside a
function); ``export`` needs neither. Helpers: ``inputs`` (``-``, folders, globs), ``otel`` (``--otlp``).
Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 unreadable input or bad usage,
3 internal error (one line, the traceback saved to a file: ``crash``), 130 interrupted.
May import: every other layer (it is the top one).

Ctrl+C at any moment ends with one line and exit 130: until the command runs, an interrupt exits
at once (it may land in the middle of an import, where a traceback is all Python could show);
then it is an ordinary ``KeyboardInterrupt`` the command may use to stop cleanly.
"""
from __future__ import annotations

import gc
import os
import sys

import _signal  # the C module: ``signal`` imports enum first, a window where Ctrl+C shows a traceback

# The start-up handler is installed by ``inspector/__init__.py``, the first code of ours that runs.
from inspector import _AS_COMMAND, _BEFORE, _interrupted_at_start

import importlib  # noqa: E402 - after the handler: an interrupt during these imports exits cleanly

from inspector.cli.codes import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE  # noqa: E402
from inspector.cli.quick import check_args  # noqa: E402
from inspector.cli.stderr import guarded  # noqa: E402
from inspector.model.static import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from argparse import Namespace
    from types import SimpleNamespace

WITHOUT_TERMINAL = {
    "replay": "for a report without one: stream-inspector check CAPTURE",
    "live": "--format json or --format text prints the report instead",
    "proxy": "--format json or --format text prints one report per exchange instead",
    "compare": "--format json or --format text prints the comparison instead",
    "demo": "run it in a terminal window",
    "run": "--format json or --format text prints one report per exchange instead",
    "diff": "--format json or --format text prints the differences instead",
    "gateway": "--format json or --format text prints one report per pair instead",
}
"""What to do instead, per TUI command, when there is no terminal."""


FROZEN_AT_THE_END = frozenset({"check"})
"""Commands whose objects are frozen (``gc.freeze``) when they return, run as the command: the
interpreter's final collection then skips them. That collection traversed and freed every session
of the run (cyclic: it waits for a full collection), 0.13 s CPU of a 25 000-event ``check``; the
process frees the memory at once when it ends. Everything else of an ordinary exit stays: atexit
hooks (a ``coverage run`` data save, logging's flush), a runner's code after the command (coverage
saves after ``runpy``), threads joined, ``sys.exit``'s code. Skipped: ``__del__`` of the cyclic
garbage left at that moment (``check`` leaves none: its files are closed by ``with``)."""


def _freeze_at_the_end() -> None:
    """Flush stdout and stderr (a closed stdout raises ``BrokenPipeError`` here, handled by
    ``_main``), then move every object the collector tracks to its permanent generation."""
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the command, return its exit code.

    The SIGINT handler found when this module was imported is back in place when ``main`` returns
    (a test process or a host program keeps its own)."""
    stderr = sys.stderr
    sys.stderr = guarded(stderr)  # every message quotes text from outside: none drives the terminal
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr
        _signal.signal(_signal.SIGINT, _BEFORE)


def _resume_collector() -> None:
    """Turn the cyclic collector back on, off since ``inspector/__init__`` ran (as the command):
    loading the command's modules then ran no collection (~7 M of the ~185 M instructions of a
    one-event ``check``: a module's objects live as long as the process, so each pass over them
    was wasted). ``freeze`` + ``unfreeze`` first moves those objects to the oldest generation
    (two list splices), so the next young collections do not traverse them all."""
    gc.freeze()
    gc.unfreeze()
    gc.enable()


def _main(argv: list[str] | None) -> int:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)
    words = sys.argv[1:] if argv is None else argv
    args: SimpleNamespace | Namespace | None = check_args(words)
    if args is None:
        from inspector.cli.parser import COMMANDS, build_parser  # not for check's usual command lines (start-up)
        parser = build_parser(only=words[0] if words and words[0] in COMMANDS else None)
        args = parser.parse_args(words)
        if not args.command:
            parser.print_help()
            return EXIT_USAGE
    module = importlib.import_module(f"inspector.cli.{args.command.replace('-', '_')}")
    if argv is None and _AS_COMMAND:  # the collector was off while the command's modules loaded
        _resume_collector()
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    try:
        code = module.run(args) or EXIT_OK
        if argv is None and _AS_COMMAND and args.command in FROZEN_AT_THE_END:
            _freeze_at_the_end()
        return code
    except KeyboardInterrupt as e:
        _end_if_stopped(e)
        print("stream-inspector: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # stdout went away (``| head``): stop quietly, and keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:
        if _no_terminal(e):
            print(f"stream-inspector: {args.command} shows a terminal UI but {e} "
                  f"({WITHOUT_TERMINAL.get(args.command, 'run it in a terminal')})", file=sys.stderr)
            return EXIT_USAGE
        from inspector.cli.crash import report_internal_error  # a crash is rare (start-up)
        return report_internal_error(e, args.command)  # a bug: one line and a saved traceback, exit 3 (never "findings")


def _end_if_stopped(e: KeyboardInterrupt) -> None:
    """A TUI left because of a SIGTERM or SIGHUP (``stopsignals.Stopped``; the command's cleanup has
    run on the way here): end the process by that signal, as its default action would have. Only a
    command that loaded ``stopsignals`` can raise it, so ``check`` does not import it to ask."""
    stopsignals = sys.modules.get("inspector.model.stopsignals")
    if stopsignals is not None and isinstance(e, stopsignals.Stopped):
        stopsignals.end_by(e.signum)


def _no_terminal(e: Exception) -> bool:
    """``e`` is the TUI's ``NoTerminal``. Only a command that imported ``inspector.tui.terminal`` can
    raise it, so a command that did not (``check``) does not import it to ask (start-up)."""
    terminal = sys.modules.get("inspector.tui.terminal")
    return terminal is not None and isinstance(e, terminal.NoTerminal)
