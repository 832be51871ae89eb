"""``stream-inspector mitmproxy-sink``: the exchanges the mitmproxy addon sends on standard input,
inspected as ``proxy --format json|text`` inspects its own (``inspector.net.proxy.mitm``). Exit 0,
1 after an error finding, 2 for an unusable ``--record`` folder or ``--otlp`` setting."""
from __future__ import annotations

import sys

from inspector.cli.otel import sender_for
from inspector.cli.codes import EXIT_USAGE
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.net.otlp import ExchangeSpans
from inspector.net.proxy.mitm import run_sink
from inspector.net.proxy.reports import Reports
from inspector.net.proxy.tap import check_record_dir


def run(args) -> int:
    if args.record:
        problem = check_record_dir(args.record)
        if problem:
            print(f"stream-inspector: mitmproxy-sink: {problem}", file=sys.stderr)
            return EXIT_USAGE
    sender, problem = sender_for(args)
    if problem:
        print(f"stream-inspector: {problem}", file=sys.stderr)
        return EXIT_USAGE
    reports = Reports(args.format, out=sys.stdout)
    log = ExchangeLog(dialect=args.dialect, stall_s=args.stall)
    log.listeners.append(reports)
    if sender is not None:
        log.listeners.append(ExchangeSpans(sender))
    try:
        skipped = run_sink(log, args.record)
    finally:
        if sender is not None:
            sender.close()
    if skipped:
        print(f"stream-inspector: mitmproxy-sink: {skipped} line{'s' if skipped != 1 else ''} from the addon "
              "were not records, skipped", file=sys.stderr)
    return reports.worst
