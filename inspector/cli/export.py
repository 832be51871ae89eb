"""``stream-inspector export CAPTURE… --to html|har [-o FILE]``: a page or a HAR to share.

``--to html``: one capture as a self-contained page (``inspector.report.html``). ``--to har``: one
entry per capture (``inspector.report.har``); several captures, a folder (e.g. a ``proxy
--record`` folder) or a glob give one HAR with an entry each, named after its capture (HAR's
``comment``); a VCR cassette gives one entry per streamed interaction (``cassette.yaml#N`` exports
one). A folder or glob is walked as ``check`` walks it: files that hold no stream capture (an
``.expect.json`` beside the captures) are skipped (one line on stderr), and finding no capture at
all is an error. Without ``-o`` (or with ``-o -``)
the export goes to standard output. The page is written as it is made (no whole page in memory),
to a temporary file renamed to ``-o FILE`` at the end: a failed export leaves no half page. Exit 0
written, 2 unreadable input, bad usage or a file that cannot be written (one line on stderr).
"""
from __future__ import annotations

import os
import sys
from datetime import datetime, timezone

from inspector.capture import memory
from inspector.capture.load import CaptureError, split_entry
from inspector.cli.inputs import InputError, expand, no_capture_line, recorded_start, skipped_line, streams
from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.model.capture import Capture
from inspector.report import har, html
from inspector.report.export import written_whole
from inspector.model.display import display_lines
from inspector.model.writes import write_whole


def _when(name: str, cap: Capture) -> datetime | None:
    t = recorded_start(split_entry(name)[0], cap)
    return None if t is None else datetime.fromtimestamp(t, timezone.utc)


def _fail(message: str) -> int:
    print(f"stream-inspector: export: {display_lines(message)}", file=sys.stderr)
    return EXIT_USAGE


_BY_SUFFIX = {".html": "html", ".htm": "html", ".har": "har"}


def run(args) -> int:
    """See the module docstring. Captures are read and the export made under ``--max-memory``."""
    with memory.limited_to(args.max_memory):
        return _export(args)


def _export(args) -> int:
    if args.to is None:  # ``-o run.html`` says which
        suffix = os.path.splitext(args.output or "")[1].lower()
        if suffix not in _BY_SUFFIX:
            return _fail("give --to html or --to har (or an -o FILE ending in .html or .har)")
        args.to = _BY_SUFFIX[suffix]
    try:
        inputs = expand(args.captures)
    except InputError as e:
        return _fail(str(e))
    if any(inp.path is None for inp in inputs):
        return _fail("export reads capture files, not standard input")
    caps, skipped = [], []
    for inp in inputs:
        try:
            found = streams(inp, entry=args.entry, max_bytes=args.max_size, dialect=args.dialect, stall_s=args.stall,
                            keep_audio=args.keep_audio)
        except CaptureError as e:
            return _fail(str(e))
        caps += found
        if not found:
            skipped.append(inp.name)
    if skipped:
        print(f"stream-inspector: export: {skipped_line(skipped)}", file=sys.stderr)
    if not caps:
        return _fail(no_capture_line(args.captures, len(skipped)))
    if args.to == "html" and len(caps) > 1:
        return _fail(f"--to html makes one page per capture; {len(caps)} captures given (use --to har for several, "
                     "or name one stream as FILE#N)")
    if args.to == "html":
        name, cap, session = caps[0]
        pieces = html.chunks(name, session, cap)  # made as they are written: no whole page in memory
    else:
        listed: list[tuple[Capture, datetime | None, str | None]] = [(cap, _when(name, cap), name)
                                                                     for name, cap, _ in caps]
        try:  # the HAR is made whole: it must fit in the limit before it starts
            memory.reserve(har.render_cost(listed), caps[0][0] if len(caps) == 1 else f"{len(caps)} captures",
                           doing="to write their HAR" if len(caps) > 1 else "to write its HAR", whole=True)
        except CaptureError as e:
            return _fail(str(e))
        pieces = iter([har.render(listed)])
    if args.output in (None, "-"):
        for piece in pieces:
            write_whole(sys.stdout, piece)
        return EXIT_OK
    try:
        with written_whole(args.output) as f:
            for piece in pieces:
                f.write(piece)
    except OSError as e:
        return _fail(f"cannot write {args.output}: {e.strerror or e}")
    print(f"stream-inspector: wrote {args.output} ({args.to}, {len(caps)} capture{'s' if len(caps) > 1 else ''})",
          file=sys.stderr)
    return EXIT_OK
