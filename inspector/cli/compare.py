"""``stream-inspector compare A B``: two streams of the same request on one time axis."""
from __future__ import annotations

import sys

from inspector.model.writes import write_whole
from inspector.capture.load import CaptureError, load_path
from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.compare import Comparison, compare_captures, render_json, render_text
from inspector.model.capture import Capture
from inspector.tui.screens.compare import make_compare_app
from inspector.model.display import display_lines, display_text
from inspector.model.pathnames import path_name


def _err(message: str) -> int:
    print(f"stream-inspector: compare: {display_lines(message)}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """``compare A B [--format tui|json|text] [--dialect D] [--stall S] [--theme T]``.

    Exit 0 after showing the comparison; 2 (one line on stderr) for unreadable input or bad usage.
    """
    fmt = getattr(args, "format", "tui") or "tui"
    dialect = getattr(args, "dialect", None)
    stall = getattr(args, "stall", 10.0) or 10.0
    try:
        max_bytes = getattr(args, "max_size", None)
        a_cap = load_path(args.a, max_bytes=max_bytes)
        b_cap = load_path(args.b, max_bytes=max_bytes)
        cmp = compare_captures(a_cap, b_cap, a_label=path_name(args.a), b_label=path_name(args.b), dialect=dialect,
                               stall_s=stall)
    except CaptureError as e:
        return _err(str(e))
    except ValueError as e:  # an unknown dialect
        return _err(str(e).splitlines()[0])
    return show(cmp, a_cap, b_cap, fmt, theme=getattr(args, "theme", None), dialect=dialect, stall_s=stall)


def show(cmp, a_cap, b_cap, fmt: str, *, theme=None, dialect=None, stall_s: float = 10.0) -> int:
    """Print the comparison as JSON or text, or open it in the TUI (``fmt`` ``tui``); the exit code."""
    if fmt == "json":
        write_whole(sys.stdout, render_json(cmp) + "\n")
        return EXIT_OK
    if fmt == "text":
        write_whole(sys.stdout, display_text(render_text(cmp)) + "\n")
        return EXIT_OK
    return run_tui(cmp, a_cap, b_cap, theme=theme, dialect=dialect, stall_s=stall_s)


def run_tui(cmp: Comparison, a_cap: Capture, b_cap: Capture, *, theme: str | None, dialect: str | None,
            stall_s: float) -> int:
    """Open the comparison screen; a bad theme is a one-line error (exit 2)."""
    try:
        app = make_compare_app(a_cap, b_cap, comparison=cmp, theme=theme, dialect=dialect, stall_s=stall_s)
    except ValueError as e:  # an unknown theme
        return _err(str(e).splitlines()[0])
    app.run()
    return EXIT_OK
