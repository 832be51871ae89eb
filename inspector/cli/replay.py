"""``stream-inspector replay CAPTURE``: play a capture in the TUI with its recorded timing.

The TUI opens at once and reads the capture in the background (``inspector.feeds.opening``), so
a big file shows a loading indicator instead of a blank terminal. What can be told before the
TUI opens (no such file, an empty file, an unknown theme) is a one-line error and exit 2; a file
that turns out unreadable ends the TUI with the same one line and exit 2. Never a traceback.
"""
from __future__ import annotations

import sys

from inspector.capture import memory
from inspector.capture.load import CaptureError, load_path, probe_path
from inspector.capture.memory import MemoryLimitReached
from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.feeds.opening import OpeningFeed
from inspector.feeds.run import stream_problem
from inspector.tui.app import make_app
from inspector.tui.terminal import terminal_problem
from inspector.tui.themes import check_theme
from inspector.model.display import display_lines


def err(message: str) -> int:
    print(f"stream-inspector: {display_lines(message)}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """``replay CAPTURE [--speed X] [--instant] [--dialect D] [--stall S] [--theme T] [--entry N]``, the
    capture read under ``--max-memory``."""
    with memory.limited_to(args.max_memory):
        return _replay(args)


def _replay(args) -> int:
    problem = check_theme(args.theme)
    if problem:
        return err(problem)
    try:
        probe_path(args.capture, max_bytes=args.max_size)
        if terminal_problem() is not None:
            # No UI will open: what is wrong with the capture comes first, as ``check`` says it.
            cap = load_path(args.capture, entry=args.entry, max_bytes=args.max_size, keep_audio=args.keep_audio)
            try:
                why = stream_problem(cap, dialect=args.dialect)
            except MemoryLimitReached as e:
                raise e.named(str(args.capture)) from None
            if why:
                return err(f"{args.capture}: not a stream capture: {why}")
    except CaptureError as e:
        return err(str(e))
    feed = OpeningFeed(args.capture, entry=args.entry, max_bytes=args.max_size, keep_audio=args.keep_audio,
                       speed=args.speed,
                       instant=args.instant, dialect=args.dialect, stall_s=args.stall)
    app = make_app(feed, theme=args.theme, dialect=args.dialect, stall_s=args.stall)
    app.run()
    if app.failure:
        return err(app.failure)
    return EXIT_OK
