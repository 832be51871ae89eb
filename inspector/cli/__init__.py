"""The command line: ``stream-inspector COMMAND ...`` (SPEC.md "Commands").

Lives here: ``parser`` (every command's arguments) and one module per command, each with a
``run(args) -> exit code``. ``main`` imports a command's module only when that command runs:
``check``, ``rules`` and ``--help`` load no Textual, Rich, httpx, click, uvicorn or starlette;
``replay``, ``live``, ``proxy``, ``run``, ``serve``, ``compare``, ``diff``, ``gateway``, ``demo`` and
``conform`` import the TUI
or the network when they start (the one place the import-linter contract allows an import inside a
function); ``export`` needs neither. Helpers: ``inputs`` (``-``, folders, globs), ``otel`` (``--otlp``).
Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 unreadable input or bad usage,
130 interrupted.
May import: every other layer (it is the top one).

Ctrl+C at any moment ends with one line and exit 130: until the command runs, an interrupt exits
at once (it may land in the middle of an import, where a traceback is all Python could show);
then it is an ordinary ``KeyboardInterrupt`` the command may use to stop cleanly.
"""
from __future__ import annotations

import os
import signal
import sys


def _interrupted_at_start(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    os.write(2, b"stream-inspector: interrupted\n")
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted_at_start)

import importlib  # noqa: E402 - after the handler: an interrupt during these imports exits cleanly

from inspector.cli.parser import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, build_parser  # noqa: E402

COMMANDS = ("check", "rules", "replay", "live", "proxy", "serve", "compare", "demo", "conform", "export", "run", "diff", "gateway")


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the command, return its exit code."""
    signal.signal(signal.SIGINT, _interrupted_at_start)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    module = importlib.import_module(f"inspector.cli.{args.command}")
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return module.run(args) or EXIT_OK
    except KeyboardInterrupt:
        print("stream-inspector: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # stdout went away (``| head``): stop quietly, and keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
