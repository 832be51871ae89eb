"""``stream-inspector proxy --upstream URL``: a pass-through endpoint that inspects every exchange.

Checks the arguments, binds the socket, then runs the proxy (``inspector.net.proxy``) headless
(``--format json|text``: one report per exchange on stdout) or under the TUI (``--format tui``).
"""
from __future__ import annotations

import sys
from urllib.parse import urlsplit

from inspector.capture.redact import redact_url, scrub_secrets
from inspector.cli.otel import Warn, sender_for
from inspector.feeds.live import quick_thread_switches
from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.feeds.exchanges.record import KEEP, KEEP_BYTES
from inspector.model.display import display_text
from inspector.net.limits import HEADER_TIMEOUT, MAX_BYTES, MAX_REQUEST_BYTES, StreamLimits
from inspector.net.otlp import ExchangeSpans
from inspector.net.proxy.reports import Reports
from inspector.net.proxy.resend import resend_request
from inspector.net.proxy.server import ProxyThread, run_foreground
from inspector.net.proxy.tap import check_record_dir
from inspector.net.servers import RequestLimits, is_loopback, listen, url_for
from inspector.model.stopsignals import ending_by_signal
from inspector.tui.screens.exchanges import ProxyApp
from inspector.tui.terminal import require_terminal
from inspector.tui.themes import check_theme


def bounds(args) -> dict:
    """``--keep``, ``--keep-bytes``, ``--max-bytes``, ``--max-duration``, ``--header-timeout``,
    ``--max-request-bytes`` as ``ProxyThread``/``run_foreground`` keyword arguments (defaults when the
    command has none of them)."""
    return {"keep": getattr(args, "keep", KEEP), "keep_bytes": getattr(args, "keep_bytes", KEEP_BYTES),
            "limits": StreamLimits(getattr(args, "max_bytes", MAX_BYTES), getattr(args, "max_duration", None)),
            "requests": RequestLimits(getattr(args, "header_timeout", HEADER_TIMEOUT),
                                      getattr(args, "max_request_bytes", MAX_REQUEST_BYTES))}


def _warn_exposed(host: str) -> str:
    return (f"WARNING: the proxy listens on {host}, not loopback: anyone who can reach this machine can "
            "send requests through it with the agent's credentials and read the answers. "
            "Use --host 127.0.0.1 unless you mean it.")


def run(args) -> int:
    """``stream-inspector proxy --upstream URL``: exit 0 after Ctrl+C (headless: 1 if any exchange had
    an error finding), 2 for a bad upstream URL, an unusable ``--record`` directory or a busy port.
    A SIGTERM or SIGHUP stops it as Ctrl+C does (under the TUI: the app left as on ``q``), then ends
    the process by that signal (``inspector.model.stopsignals``)."""
    upstream = args.upstream
    parts = urlsplit(upstream)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        print(f"stream-inspector: proxy: --upstream must be an http:// or https:// URL with a host, not {upstream!r}",
              file=sys.stderr)
        return EXIT_USAGE
    record = getattr(args, "record", None)
    if record:
        problem = check_record_dir(record)
        if problem:
            print(f"stream-inspector: proxy: {problem}", file=sys.stderr)
            return EXIT_USAGE
    fmt = getattr(args, "format", "tui")
    if fmt == "tui":
        problem = check_theme(args.theme)
        if problem:
            print(f"stream-inspector: {problem}", file=sys.stderr)
            return EXIT_USAGE
        require_terminal()  # before the port is bound
    host = args.host
    exposed = not is_loopback(host)
    if exposed:
        print(f"stream-inspector: {_warn_exposed(host)}", file=sys.stderr)
    warn = Warn()
    sender, problem = sender_for(args, warn)
    if problem:
        print(f"stream-inspector: {problem}", file=sys.stderr)
        return EXIT_USAGE
    sock = listen(host, args.port, "proxy")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)
    safe_upstream = redact_url(upstream)
    listeners = (ExchangeSpans(sender),) if sender is not None else ()
    if fmt == "tui":
        with ending_by_signal():  # a SIGTERM or SIGHUP: the app left as on q, stopped, then ended by it
            try:
                return _run_tui(args, sock, url, safe_upstream, exposed, listeners, warn)
            finally:
                if sender is not None:
                    sender.close()
    with ending_by_signal():  # a SIGTERM or SIGHUP: stopped as by Ctrl+C, then ended by it
        try:
            return _run_headless(args, sock, url, safe_upstream, fmt, listeners)
        finally:
            if sender is not None:
                sender.close()  # the last spans exported before the process ends


def _log_line(line: str) -> None:
    """One line of an exchange that ended abnormally, masked and made safe for a terminal: it quotes
    the request's path (a key a client put there, ``%1b`` decoded to ESC)."""
    print(f"stream-inspector: proxy: {display_text(scrub_secrets(line), one_line=True)}", file=sys.stderr, flush=True)


def _run_headless(args, sock, url: str, upstream: str, fmt: str, listeners: tuple) -> int:
    print(f"stream-inspector proxy on {url} -> {upstream}"
          + (f", recording to {args.record}" if args.record else "") + " (Ctrl+C stops)", file=sys.stderr, flush=True)
    worst = run_foreground(args.upstream, sock, Reports(fmt, out=sys.stdout), timeout=args.timeout,
                           record_dir=args.record, dialect=args.dialect, stall_s=args.stall, listeners=listeners,
                           log_line=_log_line,
                           **bounds(args))
    print("stream-inspector proxy stopped", file=sys.stderr, flush=True)
    return worst


def _run_tui(args, sock, url: str, upstream: str, exposed: bool, listeners: tuple, warn: Warn) -> int:
    proxy = ProxyThread(args.upstream, timeout=args.timeout, record_dir=args.record, dialect=args.dialect,
                        stall_s=args.stall, collect=False, sock=sock, external=True, **bounds(args))
    proxy.log.listeners.extend(listeners)
    app = ProxyApp(proxy, listen_url=url, upstream=upstream, theme=args.theme,
                   warning=_warn_exposed(args.host) if exposed else None, record_dir=args.record,
                   resend=resend_request)
    warn.app = app
    # The proxy thread forwards bytes while the TUI thread renders: a busy frame must never hold a
    # chunk back for long.
    with quick_thread_switches():
        try:
            proxy.start()
        except (OSError, RuntimeError) as e:
            print(f"stream-inspector: proxy: {e}", file=sys.stderr)
            return EXIT_USAGE
        try:
            app.run()
        finally:
            proxy.stop()
    return EXIT_OK
