"""``stream-inspector replay CAPTURE``: play a capture in the TUI with its recorded timing.

Bad input is a one-line error and exit 2, never a traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path

from inspector.capture.load import CaptureError, load_path
from inspector.cli.parser import EXIT_OK, EXIT_USAGE
from inspector.feeds.replay import ReplayFeed
from inspector.tui.app import make_app
from inspector.tui.themes import check_theme


def err(message: str) -> int:
    print(f"stream-inspector: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """``replay CAPTURE [--speed X] [--instant] [--dialect D] [--stall S] [--theme T] [--entry N]``."""
    problem = check_theme(args.theme)
    if problem:
        return err(problem)
    try:
        cap = load_path(args.capture, entry=args.entry, max_bytes=args.max_size)
        feed = ReplayFeed(cap, speed=args.speed, instant=args.instant, dialect=args.dialect, stall_s=args.stall,
                          label=Path(args.capture).name, scan=False)
    except CaptureError as e:
        return err(str(e))
    except ValueError as e:  # e.g. an unknown dialect
        return err(str(e).splitlines()[0])
    make_app(feed, theme=args.theme).run()
    return EXIT_OK
