"""Command line: ``stream-inspector COMMAND ...`` (SPEC.md "Commands").

Each command's work lives in its own module and is imported only when that command runs, so
``check`` never loads Textual. Exit codes: 0 clean, 1 findings at or above ``--fail-on``,
2 unreadable input or bad usage.
"""
from __future__ import annotations

import argparse
import sys

from inspector import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
PROVIDERS = ("anthropic", "openai", "openai-responses", "gemini", "ollama")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on bad usage; keep it one line + hint
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _positive(value: str) -> float:
    try:
        v = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {value!r}")
    return v


def _dialect_choices() -> list[str]:
    return ["anthropic-messages", "openai-chat", "openai-responses", "gemini", "ollama"]


def _add_common_lint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dialect", choices=_dialect_choices(), help="skip detection and read the stream as this dialect")
    p.add_argument("--stall", type=_positive, default=10.0, metavar="SECONDS",
                   help="threshold for T001 stall / T002 keepalive-only / T003 buffered arguments (default 10)")


def _add_replay_timing(p: argparse.ArgumentParser) -> None:
    p.add_argument("--speed", type=_positive, default=1.0, help="playback speed factor (default 1: as recorded)")
    p.add_argument("--instant", action="store_true", help="no waiting: deliver every chunk at once")


def _add_theme(p: argparse.ArgumentParser) -> None:
    p.add_argument("--theme", default=None, help="TUI theme name (see themes/; switch at runtime with ctrl+t)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stream-inspector",
                     description="Inspect, lint, replay and serve LLM streaming responses (SSE / NDJSON).")
    parser.add_argument("--version", action="version", version=f"stream-inspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("check", help="lint captures headlessly (findings + assembled blocks)")
    p.add_argument("captures", nargs="+", metavar="CAPTURE")
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="error",
                   help="lowest severity that makes the exit code 1 (default error)")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                   help="override a rule's severity, e.g. C007=info (repeatable)")
    p.add_argument("--request", metavar="REQ.json", help="lint the history a client sends next against the stream (Q rules)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read (listed when omitted)")
    _add_common_lint(p)

    p = sub.add_parser("replay", help="TUI: play a capture with its recorded timing")
    p.add_argument("capture", metavar="CAPTURE")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read")
    _add_replay_timing(p)
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("live", help="TUI: send a request to a provider and inspect the streamed answer")
    p.add_argument("--provider", choices=PROVIDERS, required=True)
    p.add_argument("--request", required=True, metavar="REQ.json", help="the request body (JSON); streaming is switched on")
    p.add_argument("--base-url", help="provider base URL (default: the provider's public API)")
    p.add_argument("--record", metavar="FILE", help="write the native capture as it arrives")
    p.add_argument("--timeout", type=_positive, default=600.0, help="read timeout in seconds (default 600)")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui (default), or print the check report when the stream ends")
    p.add_argument("--compare-eager", action="store_true",
                   help="anthropic: send twice, with and without eager_input_streaming, and compare")
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("proxy", help="TUI: a local pass-through endpoint that inspects every exchange")
    p.add_argument("--upstream", required=True, metavar="URL")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8787)
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--timeout", type=_positive, default=600.0)
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui")
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("serve", help="a local mock provider answering with captures, re-timed as recorded")
    p.add_argument("captures", nargs="+", metavar="CAPTURE")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--loop", action="store_true",
                   help="keep serving until Ctrl+C (default: stop once every capture has been answered in full)")
    _add_replay_timing(p)

    p = sub.add_parser("compare", help="TUI: two streams of the same request on one time axis")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui")
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("rules", help="list the rule catalog: codes, names, severities, when each fires")
    p.add_argument("codes", nargs="*", metavar="CODE", help="codes or families to show (e.g. J002, A, C0)")

    p = sub.add_parser("demo", help="no key, no network: serve bundled captures on loopback and inspect them live")
    p.add_argument("--speed", type=_positive, default=1.0)
    _add_theme(p)
    return parser


def _overrides(items: list[str]) -> dict[str, str]:
    from inspector.model.catalog import RULES, SEVERITIES

    out = {}
    for item in items:
        code, _, level = item.partition("=")
        code = code.strip().upper()
        if code not in RULES or level not in SEVERITIES:
            raise SystemExit(f"stream-inspector: error: --severity wants CODE=error|warning|info with a known code, got {item!r}")
        out[code] = level
    return out


def cmd_check(args) -> int:
    from inspector.capture.load import CaptureError, load_path
    from inspector.report import github, json as json_report, text
    from inspector.model.catalog import severity_rank
    from inspector.feeds.run import run_capture

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
                from inspector.feeds.run import check_request_file

                check_request_file(s, args.request)
        except CaptureError as e:
            print(f"stream-inspector: {e}", file=sys.stderr)
            worst = EXIT_USAGE
            continue
        out = renderer.render(path, s)
        if out:
            print(out, flush=True)
        if not s.events and cap.source_format != "native":
            # Bytes with no SSE event and no JSON line in them: not a stream capture at all.
            print(f"stream-inspector: {path}: no SSE event or JSON line found: is this a stream capture?",
                  file=sys.stderr)
            worst = EXIT_USAGE
        elif worst != EXIT_USAGE and any(severity_rank(f.severity) >= bar for f in s.findings):
            worst = EXIT_FINDINGS
    return worst


def cmd_rules(args) -> int:
    from inspector.model.catalog import RULES

    wanted = [c.upper() for c in args.codes]
    unknown = [w for w in wanted if not any(code.startswith(w) for code in RULES)]
    if unknown:
        print(f"stream-inspector: no rule matches {' '.join(unknown)} (codes look like J002; families: "
              f"{' '.join(sorted({c[0] for c in RULES}))})", file=sys.stderr)
        return EXIT_USAGE
    rows = [r for r in RULES.values() if not wanted or any(r.code.startswith(w) for w in wanted)]
    family = None
    for r in rows:
        if r.family != family:
            family = r.family
            print(f"\n{r.code[0]} — {family}")
        print(f"  {r.code} {r.name} ({r.severity}): {r.explain}")
    return EXIT_OK


def _run(name: str, args) -> int:
    import importlib

    module, _, func = name.partition(":")
    return importlib.import_module(module).__getattribute__(func)(args) or EXIT_OK


COMMANDS = {
    "replay": "inspector.tui.run:cmd_replay",
    "live": "inspector.net.live:cmd_live",
    "proxy": "inspector.net.proxy:cmd_proxy",
    "serve": "inspector.net.serve:cmd_serve",
    "compare": "inspector.compare:cmd_compare",
    "demo": "inspector.tui.run:cmd_demo",
}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    try:
        if args.command == "check":
            code = cmd_check(args)
        elif args.command == "rules":
            code = cmd_rules(args)
        else:
            code = _run(COMMANDS[args.command], args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
