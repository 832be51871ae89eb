"""``stream-inspector check CAPTURE…``: headless lint, one report per capture."""
from __future__ import annotations

import sys

from inspector.capture.load import CaptureError, load_path
from inspector.cli.parser import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from inspector.feeds.run import check_request_file, not_a_stream, run_capture
from inspector.model.catalog import RULES, SEVERITIES, severity_rank
from inspector.report import github, json as json_report, text


def _overrides(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        code, _, level = item.partition("=")
        code = code.strip().upper()
        if code not in RULES or level not in SEVERITIES:
            raise SystemExit(f"stream-inspector: error: --severity wants CODE=error|warning|info with a known code, got {item!r}")
        out[code] = level
    return out


def run(args) -> int:
    """``check CAPTURE…``: exit 0 clean, 1 findings at or above ``--fail-on``, 2 unreadable input."""
    try:
        overrides = _overrides(args.severity)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return EXIT_USAGE
    renderer = {"text": text, "json": json_report, "github": github}[args.format]
    bar = severity_rank(args.fail_on)
    worst = EXIT_OK
    for path in args.captures:
        try:
            cap = load_path(path, entry=args.entry)
            s = run_capture(cap, dialect=args.dialect, stall_s=args.stall, severity_overrides=overrides)
            if args.request:
                check_request_file(s, args.request)
        except CaptureError as e:
            print(f"stream-inspector: {e}", file=sys.stderr)
            worst = EXIT_USAGE
            continue
        why = not_a_stream(s, cap)
        if why:
            print(f"stream-inspector: {path}: not a stream capture: {why}", file=sys.stderr)
            worst = EXIT_USAGE
            continue
        out = renderer.render(path, s)
        if out:
            print(out, flush=True)
        if worst != EXIT_USAGE and any(severity_rank(f.severity) >= bar for f in s.findings):
            worst = EXIT_FINDINGS
    return worst
