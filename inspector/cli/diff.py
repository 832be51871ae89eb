"""``stream-inspector diff A B``: are two streams of the same answer equivalent, whatever their dialects?

Exit 0 equivalent, 1 different, 2 trouble (an unreadable file, a file that is neither a stream nor
an answer, bad usage; one line on stderr).
"""
from __future__ import annotations

import sys

from inspector.model.writes import write_whole
from inspector.cli.codes import EXIT_USAGE
from inspector.compare.diff import DiffInputError, diff_captures, render_json, render_text
from inspector.tui.screens.diff import make_diff_app
from inspector.model.display import display_lines


def _err(message: str) -> int:
    print(f"stream-inspector: diff: {display_lines(message)}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """``diff A B [--format tui|json|text] [--late SECONDS] [--stall S] [--theme T]``."""
    try:
        d = diff_captures(args.a, args.b, stall_s=args.stall, late_s=args.late, max_bytes=args.max_size)
    except DiffInputError as e:
        return _err(str(e))
    if args.format == "json":
        write_whole(sys.stdout, render_json(d) + "\n")
        return d.exit_code
    if args.format == "text":
        write_whole(sys.stdout, render_text(d) + "\n")
        return d.exit_code
    try:
        app = make_diff_app(d, theme=args.theme)
    except ValueError as e:  # an unknown theme
        return _err(str(e).splitlines()[0])
    code = app.run()
    return d.exit_code if code is None else code
