"""``stream-inspector gateway --gateway-url URL --upstream URL``: both sides of a gateway, paired and compared.

Checks the arguments, binds both sockets, then runs the taps (``inspector.net.gateway``) headless
(``--format json|text``: one report per pair on stdout) or under the TUI (``--format tui``).
"""
from __future__ import annotations

import sys
from urllib.parse import urlsplit

from inspector.capture.redact import redact_url
from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.compare.hops import PairReports
from inspector.net.gateway.server import GatewayTaps, run_foreground
from inspector.net.proxy.tap import check_record_dir
from inspector.net.servers import is_loopback, listen, url_for
from inspector.model.stopsignals import ending_by_signal
from inspector.tui.screens.gateway import GatewayApp
from inspector.tui.themes import check_theme


def _err(message: str) -> int:
    print(f"stream-inspector: gateway: {message}", file=sys.stderr)
    return EXIT_USAGE


def _bad_url(option: str, url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{option} must be an http:// or https:// URL with a host, not {url!r}"
    return None


def banner(front: str, back: str, gateway: str, upstream: str) -> str:
    return (f"stream-inspector gateway: clients -> front tap {front} -> gateway {redact_url(gateway)}\n"
            f"  point the gateway's provider base URL at the back tap {back} -> upstream {redact_url(upstream)}")


def run(args) -> int:
    """Exit 0 after Ctrl+C (headless: 1 if any pair was not clean), 2 for a bad URL, an unusable
    ``--record`` directory, a busy port or a bad theme. A SIGTERM or SIGHUP stops it as Ctrl+C does
    (under the TUI: the app left as on ``q``), then ends the process by that signal
    (``inspector.model.stopsignals``)."""
    for option, url in (("--gateway-url", args.gateway_url), ("--upstream", args.upstream)):
        problem = _bad_url(option, url)
        if problem:
            return _err(problem)
    if args.port and args.port == args.back_port:
        return _err(f"--port and --back-port are both {args.port}: the two taps need a port each")
    if args.record:
        problem = check_record_dir(args.record)
        if problem:
            return _err(problem)
    if args.format == "tui":
        problem = check_theme(args.theme)
        if problem:
            print(f"stream-inspector: {problem}", file=sys.stderr)
            return EXIT_USAGE
    if not is_loopback(args.host):
        print(f"stream-inspector: WARNING: the gateway taps listen on {args.host}, not loopback: anyone who can reach "
              "this machine can send requests through them with the credentials they carry.", file=sys.stderr)
    front_sock = listen(args.host, args.port, "gateway front tap")
    if front_sock is None:
        return EXIT_USAGE
    back_sock = listen(args.host, args.back_port, "gateway back tap")
    if back_sock is None:
        front_sock.close()
        return EXIT_USAGE
    front_url, back_url = url_for(front_sock), url_for(back_sock)
    taps = GatewayTaps(args.gateway_url, args.upstream, host=args.host, front_sock=front_sock, back_sock=back_sock,
                       timeout=args.timeout, record_dir=args.record, stall_s=args.stall,
                       late_s=args.late)
    text = banner(front_url, back_url, args.gateway_url, args.upstream)
    if args.format != "tui":
        print(text + (f"\n  recording pairs in {args.record}" if args.record else "") + " (Ctrl+C stops)",
              file=sys.stderr, flush=True)
        with ending_by_signal():  # a SIGTERM or SIGHUP: stopped as by Ctrl+C, then ended by it
            worst = run_foreground(taps, PairReports(args.format, sys.stdout))
            print("stream-inspector gateway stopped", file=sys.stderr, flush=True)
            return worst
    app = GatewayApp(taps, banner=text, theme=args.theme, record_dir=args.record)
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)  # as proxy: the taps forward while the TUI renders
    try:
        taps.start()
    except (OSError, RuntimeError) as e:
        sys.setswitchinterval(old)
        return _err(str(e))
    with ending_by_signal():  # a SIGTERM or SIGHUP: the app left as on q, the taps stopped, then ended by it
        try:
            app.run()
        finally:
            taps.stop()
            sys.setswitchinterval(old)
        return EXIT_OK
