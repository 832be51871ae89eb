"""``stream-inspector live --provider P --request REQ.json``: send one request, inspect the answer.

The TUI (``--format tui``) shows it as it arrives; ``--format json|text`` prints the ``check``
report when the stream ends. ``--compare-eager`` (Anthropic) sends the request twice, with and
without ``eager_input_streaming``, and compares the two streams (``inspector.net.eager``).
Exit 0 clean, 1 errors found, 2 no stream (one line on stderr).
"""
from __future__ import annotations

import asyncio
import sys
import time

from inspector.cli.compare import show
from inspector.cli.otel import Warn, sender_for
from inspector.cli.codes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from inspector.compare import compare_captures
from inspector.feeds.base import Driver, Settings
from inspector.feeds.run import run_capture
from inspector.feeds.live import LiveFeed, quick_thread_switches
from inspector.model.capture import Capture
from inspector.model.severity import severity_rank
from inspector.net.eager import eager_variants, fetch_pair, record_paths
from inspector.net.live import LiveError, check_writable, live_source, load_request, prepare
from inspector.net.limits import MAX_BYTES, StreamLimits
from inspector.net.wslive import live_socket_source, prepare_socket
from inspector.net.otlp import spans_tap
from inspector.report import json as json_report, text as text_report
from inspector.report.spans import span_for
from inspector.tui.app import make_app
from inspector.tui.terminal import require_terminal


def run(args) -> int:
    """See the module docstring."""
    # Realtime has no HTTP stream: its provider always goes over a WebSocket.
    socket = getattr(args, "transport", "http") == "websocket" or args.provider == "openai-realtime"
    if args.compare_eager:
        if socket:
            print("stream-inspector: live: --compare-eager is an Anthropic HTTP comparison, not for --transport "
                  "websocket", file=sys.stderr)
            return EXIT_USAGE
        return run_compare_eager(args)
    try:
        body = load_request(args.request)
        req = (prepare_socket if socket else prepare)(args.provider, body, base_url=args.base_url)
        if args.record is not None:
            check_writable(args.record)
    except LiveError as e:
        print(f"stream-inspector: live: {e}", file=sys.stderr)
        return EXIT_USAGE
    warn = Warn()
    sender, problem = sender_for(args, warn)
    if problem:
        print(f"stream-inspector: live: {problem}", file=sys.stderr)
        return EXIT_USAGE
    limits = StreamLimits(getattr(args, "max_bytes", MAX_BYTES), getattr(args, "max_duration", None))
    if socket:
        sources = [live_socket_source(req, timeout=args.timeout, record=args.record, limits=limits)]
    else:
        sources = [live_source(args.provider, req.body, timeout=args.timeout, record=args.record, prepared=req,
                               limits=limits)]
    labels = [req.label]
    if sender is not None:
        sources = [spans_tap(src, sender, Settings(args.dialect, args.stall), label)
                   for src, label in zip(sources, labels)]
    try:
        if args.format == "tui":
            return _run_tui(args, sources, labels, warn)
        return _run_headless(args, sources, labels)
    finally:
        if sender is not None:
            sender.close()


async def _drain(source, driver: Driver) -> None:
    """Feed ``driver`` from ``source``; a cancellation closes the session as ``cancelled``."""
    try:
        async for item in source:
            driver.take(item)
    except asyncio.CancelledError:
        driver.cancel()


def _run_headless(args, sources, labels) -> int:
    drivers = [Driver(Settings(args.dialect, args.stall)) for _ in sources]

    async def main():
        await asyncio.gather(*(_drain(src, d) for src, d in zip(sources, drivers)))

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # a second Ctrl+C: close what we have
        for d in drivers:
            d.cancel()
    renderer = json_report if args.format == "json" else text_report
    code = EXIT_OK
    for label, d in zip(labels, drivers):
        if not d.connected:
            err = d.end.error if d.end else "no response"
            print(f"stream-inspector: live: {err}", file=sys.stderr)
            code = EXIT_USAGE
            continue
        out = renderer.render(label, d.session)
        if out:
            print(out, flush=True)
        if code == EXIT_OK and any(severity_rank(f.severity) >= severity_rank("error") for f in d.session.findings):
            code = EXIT_FINDINGS
    return code


def _run_tui(args, sources, labels, warn: Warn | None = None) -> int:
    """The inspector TUI over one ``LiveFeed`` per request.

    The feeds get the source iterators themselves, not factories: a live request is never re-sent
    by a restart key (it would cost a second call and overwrite the recording). Each source is read
    on a thread of its own (``threaded``), so its chunks are stamped as they come off the socket
    however busy the screen is.
    """
    feeds = [LiveFeed(src, label=label, dialect=args.dialect, stall_s=args.stall, threaded=True)
             for src, label in zip(sources, labels)]
    title = "live: " + " | ".join(labels)
    try:
        app = make_app(*feeds, title=title, theme=args.theme)
    except ValueError as e:  # unknown theme
        print(f"stream-inspector: live: {str(e).splitlines()[0]}", file=sys.stderr)
        return EXIT_USAGE
    if warn is not None:
        warn.app = app
    with quick_thread_switches():
        result = app.run()
    return result if isinstance(result, int) else EXIT_OK


def _failure(cap: Capture) -> str | None:
    """One line when a run got no response at all (refused, DNS, TLS...), else None."""
    if cap.response is None:
        return cap.end.error if cap.end is not None and cap.end.error else "no response"
    return None


def run_compare_eager(args, *, transport=None) -> int:
    """``live --provider anthropic --request REQ.json --compare-eager [--format tui|json|text]``.

    ``args``: the ``live`` arguments (provider, request, base_url, record, timeout, format,
    dialect, stall, theme). Exit 0 after showing the comparison, 2 (one line on stderr) when a
    request could not be sent or got no response. ``transport`` is for tests.
    """
    def err(message: str) -> int:
        print(f"stream-inspector: live --compare-eager: {message}", file=sys.stderr)
        return EXIT_USAGE

    if getattr(args, "provider", "anthropic") != "anthropic":
        return err("eager_input_streaming is an Anthropic tool flag: use --provider anthropic")
    fmt = getattr(args, "format", "tui") or "tui"
    sender, problem = sender_for(args)
    if problem:
        return err(problem)
    try:
        body = load_request(args.request)
        eager_variants(body)
        if fmt == "tui":
            require_terminal()  # before two requests are paid for
            print("stream-inspector: sending the request twice (eager_input_streaming false / true); "
                  "the comparison opens when both streams have ended (ctrl+c stops)", file=sys.stderr, flush=True)
        off, on = asyncio.run(fetch_pair(body, base_url=getattr(args, "base_url", None),
                                         timeout=getattr(args, "timeout", 600.0) or 600.0,
                                         record=getattr(args, "record", None), transport=transport))
    except LiveError as e:
        return err(str(e))
    except KeyboardInterrupt:
        return err("cancelled before both streams ended")
    for name, cap in (("eager off", off), ("eager on", on)):
        problem = _failure(cap)
        if problem:
            return err(f"{name}: {problem}")
    rec_off, rec_on = record_paths(getattr(args, "record", None))
    label_off = rec_off or "live eager_input_streaming=false"
    label_on = rec_on or "live eager_input_streaming=true"
    dialect = getattr(args, "dialect", None)
    stall = getattr(args, "stall", 10.0) or 10.0
    try:
        cmp = compare_captures(off, on, a_label=label_off, b_label=label_on, dialect=dialect, stall_s=stall)
    except ValueError as e:
        return err(str(e).splitlines()[0])
    if sender is not None:  # both requests went out together, just now
        for label, cap in ((label_off, off), (label_on, on)):
            s = run_capture(cap, dialect=dialect, stall_s=stall)
            sender.send(span_for(s, start=time.time() - (s.duration_s or 0.0), label=label))
        sender.close()
    return show(cmp, off, on, fmt, theme=getattr(args, "theme", None), dialect=dialect, stall_s=stall)
