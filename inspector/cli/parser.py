"""The command line's arguments: every command, its options and their help, nothing else.

Building the parser imports nothing heavy (the provider registry is pure data and dialect
classes; theme names are file names), so ``--help``, ``check`` and ``rules`` start fast
(``bench/bench_startup.py``). Every subcommand's ``--help`` has a description, examples
(the epilog) and the default of every option that has one.
"""
from __future__ import annotations

import argparse
import sys
import textwrap

from inspector import __version__
from inspector.providers import DIALECTS, PROVIDERS
from inspector.tui.theme_files import short_theme_names

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
PROG = "stream-inspector"
WRAP = 78
"""Column at which descriptions wrap."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on bad usage; keep it one line + hint
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _Help(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples keep their lines; an option's default is shown when it has one
    (not for flags, and not when the help already says it)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or "default" in text or not action.option_strings or default is None
                or default is argparse.SUPPRESS or isinstance(default, bool) or default == []):
            return text
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        return f"{text} (default: {shown.replace('%', '%%')})"


def _positive(value: str) -> float:
    try:
        v = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {value!r}")
    return v


def _port(value: str) -> int:
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535 (0: any free port), got {value!r}")
    return v


def _dialect_choices() -> list[str]:
    return [name for name in DIALECTS if name != "unknown"]


def _examples(*lines: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def _add_common_lint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dialect", choices=_dialect_choices(), metavar="DIALECT",
                   help=f"skip detection and read the stream as this dialect: {', '.join(_dialect_choices())}")
    p.add_argument("--stall", type=_positive, default=10.0, metavar="SECONDS",
                   help="threshold for T001 stall, T002 keepalive-only and T003 buffered arguments")


def _add_replay_timing(p: argparse.ArgumentParser) -> None:
    p.add_argument("--speed", type=_positive, default=1.0, metavar="X",
                   help="playback speed factor: 1 is as recorded, 10 ten times faster")
    p.add_argument("--instant", action="store_true", help="no waiting: deliver every chunk at once")


def _add_theme(p: argparse.ArgumentParser) -> None:
    names = short_theme_names() or ["dark"]
    p.add_argument("--theme", default=None, metavar="NAME",
                   help=f"colour theme: {', '.join(names)}, or any Textual theme (e.g. nord, gruvbox); "
                        "ctrl+t switches at run time (default: dark)")


def _sub(sub, name: str, *, help: str, description: str, examples: tuple[str, ...]) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` has ``description`` (paragraphs split at newlines, each wrapped)
    and ``examples``."""
    text = "\n".join(textwrap.fill(par, WRAP) for par in description.split("\n"))
    return sub.add_parser(name, help=help, description=text, epilog=_examples(*examples), formatter_class=_Help)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, formatter_class=_Help,
                     description="Inspect, lint, replay and serve LLM streaming responses (SSE / NDJSON).",
                     epilog=_examples(f"{PROG} demo                          # no key, no network: try it",
                                      f"{PROG} check capture.jsonl           # lint a capture (CI-friendly)",
                                      f"{PROG} replay capture.jsonl          # watch it arrive again",
                                      f"{PROG} COMMAND --help                # options and examples of a command"))
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = _sub(sub, "check", help="lint captures headlessly (findings + assembled blocks)",
             description="Lint captures without a terminal UI: every finding with its rule code, and each "
                         "content block as assembled.\nExit 0 clean, 1 findings at or above --fail-on, "
                         "2 unreadable input or bad usage.",
             examples=(f"{PROG} check capture.jsonl",
                       f"{PROG} check --format github bug-report.sse      # annotations in a CI log",
                       f"{PROG} check --format json a.jsonl b.jsonl       # one JSON object per line",
                       f"{PROG} check --fail-on warning --severity C007=info run.jsonl",
                       f"{PROG} check --request next-request.json run.jsonl   # Q rules on the history"))
    p.add_argument("captures", nargs="+", metavar="CAPTURE",
                   help="native capture, raw SSE text, NDJSON or HAR (detected from the content)")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text for people, json for scripts, github for workflow annotations")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="error",
                   help="lowest severity that makes the exit code 1")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                   help="override a rule's severity, e.g. C007=info (repeatable)")
    p.add_argument("--request", metavar="REQ.json", help="lint the history a client sends next against the stream (Q rules)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read (listed when omitted)")
    _add_common_lint(p)

    p = _sub(sub, "replay", help="TUI: play a capture with its recorded timing",
             description="Play a capture in the terminal UI with its recorded timing: pause (space), step "
                         "(. ,), go to event N (g), explain a finding (i), save it (s), open another (o).\n"
                         "Needs a terminal; for a report use `check`.",
             examples=(f"{PROG} replay capture.jsonl",
                       f"{PROG} replay capture.jsonl --speed 20         # twenty times faster",
                       f"{PROG} replay bug-report.sse --instant         # pasted SSE has no timing",
                       f"{PROG} replay session.har --entry 3            # one stream of a HAR"))
    p.add_argument("capture", metavar="CAPTURE",
                   help="native capture, raw SSE text, NDJSON or HAR (detected from the content)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read (a picker opens when omitted)")
    _add_replay_timing(p)
    _add_common_lint(p)
    _add_theme(p)

    providers = ", ".join(PROVIDERS)
    p = _sub(sub, "live", help="TUI: send a request to a provider and inspect the streamed answer",
             description="Send one request (streaming switched on) and inspect the answer as it arrives.\n"
                         "Keys come from ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY; a local "
                         "--base-url needs none. Exit 0 clean, 1 errors found (--format json|text), "
                         "2 no stream.",
             examples=(f"{PROG} live --provider anthropic --request req.json --record run.jsonl",
                       f"{PROG} live --provider openai --base-url http://127.0.0.1:8000/v1 --request req.json",
                       f"{PROG} live --provider anthropic --request req.json --format json   # no TUI",
                       f"{PROG} live --provider anthropic --request req.json --compare-eager"))
    p.add_argument("--provider", choices=list(PROVIDERS), required=True, metavar="PROVIDER",
                   help=f"whose API to call: {providers}")
    p.add_argument("--request", required=True, metavar="REQ.json", help="the request body (JSON); streaming is switched on")
    p.add_argument("--base-url", metavar="URL", help="provider base URL (default: the provider's public API)")
    p.add_argument("--record", metavar="FILE", help="write the native capture as it arrives")
    p.add_argument("--timeout", type=_positive, default=600.0, metavar="SECONDS",
                   help="read timeout: no bytes for this long ends the stream")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or print the check report when the stream ends")
    p.add_argument("--compare-eager", action="store_true",
                   help="anthropic: send twice, with and without eager_input_streaming, and compare")
    _add_common_lint(p)
    _add_theme(p)

    p = _sub(sub, "proxy", help="TUI: a local pass-through endpoint that inspects every exchange",
             description="A pass-through endpoint on this machine: point an agent's base URL at it; every "
                         "exchange is forwarded byte for byte, inspected, checked against the history the "
                         "agent sends next (Q rules) and recordable.",
             examples=(f"{PROG} proxy --upstream https://api.anthropic.com --record captures/",
                       "ANTHROPIC_BASE_URL=http://127.0.0.1:8787 my-agent          # in another terminal",
                       f"{PROG} proxy --upstream https://api.openai.com --port 9000 --format json > runs.jsonl"))
    p.add_argument("--upstream", required=True, metavar="URL", help="where requests go on (the provider's base URL)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback unless you mean it)")
    p.add_argument("--port", type=_port, default=8787, help="port to listen on (0: any free port)")
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--timeout", type=_positive, default=600.0, metavar="SECONDS",
                   help="read timeout towards the upstream")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or print one check report per exchange (json: one line each)")
    _add_common_lint(p)
    _add_theme(p)

    p = _sub(sub, "serve", help="a local mock provider answering with captures, re-timed as recorded",
             description="A mock provider on this machine: answers any request with the captures, re-timed "
                         "as recorded, ending the connection the way each capture ended. Several captures "
                         "rotate, or are picked by path (/NAME/...).",
             examples=(f"{PROG} serve run.jsonl                  # answer once, then stop",
                       f"{PROG} serve run.jsonl --loop --instant",
                       f"ANTHROPIC_BASE_URL=http://127.0.0.1:8765 my-agent    # in another terminal"))
    p.add_argument("captures", nargs="+", metavar="CAPTURE", help="captures to answer with (any readable format)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback unless you mean it)")
    p.add_argument("--port", type=_port, default=8765, help="port to listen on (0: any free port)")
    p.add_argument("--loop", action="store_true",
                   help="keep serving until Ctrl+C (without it: stop once every capture has been answered in full)")
    _add_replay_timing(p)

    p = _sub(sub, "compare", help="TUI: two streams of the same request on one time axis",
             description="Two streams of the same request on one time axis, e.g. with and without "
                         "eager_input_streaming: scrub with left/right, step between arrivals with , and .",
             examples=(f"{PROG} compare eager-off.jsonl eager-on.jsonl",
                       f"{PROG} compare a.jsonl b.jsonl --format text      # the differences in words"))
    p.add_argument("a", metavar="A", help="the first capture")
    p.add_argument("b", metavar="B", help="the second capture")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or print the comparison for scripts")
    _add_common_lint(p)
    _add_theme(p)

    p = _sub(sub, "rules", help="list the rule catalog: codes, names, severities, when each fires",
             description="The rule catalog: every finding code, its name, default severity and when it fires.",
             examples=(f"{PROG} rules", f"{PROG} rules J002 T", f"{PROG} rules C0"))
    p.add_argument("codes", nargs="*", metavar="CODE", help="codes or families to show (e.g. J002, A, C0)")

    p = _sub(sub, "demo", help="no key, no network: serve bundled captures on loopback and inspect them live",
             description="The bundled captures served on 127.0.0.1 and inspected live, exactly as a client "
                         "would see them: ] and [ switch stream, ? lists every key, q quits.",
             examples=(f"{PROG} demo", f"{PROG} demo --speed 3 --theme light"))
    p.add_argument("--speed", type=_positive, default=1.0, metavar="X",
                   help="how fast the loopback server replays the captures")
    _add_theme(p)
    return parser
