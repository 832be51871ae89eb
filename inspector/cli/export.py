"""``stream-inspector export CAPTURE… --to html|har [-o FILE]``: a page or a HAR to share.

``--to html``: one capture as a self-contained page (``inspector.report.html``). ``--to har``: one
entry per capture (``inspector.report.har``); several captures, a folder (e.g. a ``proxy
--record`` folder) or a glob give one HAR with an entry each; a VCR cassette gives one entry per
streamed interaction (``cassette.yaml#N`` exports one). Without ``-o`` (or with ``-o -``)
the export goes to standard output. Exit 0 written, 2 unreadable input, bad usage or a file that
cannot be written (one line on stderr).
"""
from __future__ import annotations

import sys
from datetime import datetime, timezone

from inspector.capture.load import CaptureError, load_all, split_entry
from inspector.cli.inputs import InputError, expand, recorded_start
from inspector.cli.parser import EXIT_OK, EXIT_USAGE
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture
from inspector.report import har, html
from inspector.model.display import display_text


def _when(name: str, cap: Capture) -> datetime | None:
    t = recorded_start(split_entry(name)[0], cap)
    return None if t is None else datetime.fromtimestamp(t, timezone.utc)


def _fail(message: str) -> int:
    print(f"stream-inspector: export: {display_text(message, one_line=True)}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """See the module docstring."""
    try:
        inputs = expand(args.captures)
    except InputError as e:
        return _fail(str(e))
    if any(inp.path is None for inp in inputs):
        return _fail("export reads capture files, not standard input")
    caps = []
    for inp in inputs:
        try:
            streams, _ = load_all(inp.path, entry=args.entry, max_bytes=args.max_size)
        except CaptureError as e:
            return _fail(str(e))
        caps += streams
    if args.to == "html" and len(caps) > 1:
        return _fail(f"--to html makes one page per capture; {len(caps)} captures given (use --to har for several, "
                     "or name one stream as FILE#N)")
    if args.to == "html":
        name, cap = caps[0]
        session = run_capture(cap, dialect=args.dialect, stall_s=args.stall)
        text = html.render(name, session, cap)
    else:
        text = har.render([(cap, _when(name, cap)) for name, cap in caps])
    if args.output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        return _fail(f"cannot write {args.output}: {e.strerror or e}")
    print(f"stream-inspector: wrote {args.output} ({args.to}, {len(caps)} capture{'s' if len(caps) > 1 else ''})",
          file=sys.stderr)
    return EXIT_OK
