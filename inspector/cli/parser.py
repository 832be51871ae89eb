"""The command line's arguments: every command, its options and their help, nothing else.

Building the parser imports nothing heavy (the provider registry is pure data and dialect
classes; theme names are file names), so ``--help``, ``check`` and ``rules`` start fast
(``bench/bench_startup.py``). Every subcommand's ``--help`` has a description, examples
(the epilog) and the default of every option that has one.
"""
from __future__ import annotations

import argparse
import os
import sys

from inspector import __version__
from inspector.cli.codes import ALL_ENTRIES, EXIT_USAGE, cpu_count
from inspector.model.sizes import parse_size
from inspector.providers import PROVIDERS, dialect_names
from inspector.model.severity import WORST_FIRST

PROG = "stream-inspector"
WRAP = 78
"""Column at which descriptions wrap."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, wrap_description: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.wrap_description = wrap_description
        """Wrap each paragraph (line) of the description to ``WRAP`` columns when help is first shown:
        ``textwrap`` and the wrapping are then paid by ``--help``, not by every command's start-up."""

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]  # argparse's is overloaded; one untyped form here
        """As argparse's, but an unknown option is told by the command it was given to (its usage,
        not the program's ``COMMAND ...``), with the option it most likely meant."""
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            teller = self._command_parser(getattr(ns, "command", None)) or self
            teller.error(f"unrecognized arguments: {' '.join(extras)}{teller._nearest(extras)}")
        return ns

    def _command_parser(self, command: str | None) -> _Parser | None:
        subs = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
        return subs.choices.get(command) if subs is not None and command else None  # type: ignore[return-value]  # its parsers are ours, made by add_parser

    def _nearest(self, extras: list[str]) -> str:
        """`` (did you mean --format?)`` for the first unknown option close to one of ours, else ''."""
        import difflib  # a misspelt option only (start-up)
        known = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        for word in extras:
            if word.startswith("--"):
                close = difflib.get_close_matches(word.split("=", 1)[0], known, n=1)
                if close:
                    return f" (did you mean {close[0]}?)"
        return ""

    def error(self, message: str):  # argparse exits 2 on bad usage; keep it one line + hint
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def format_help(self) -> str:
        if self.wrap_description and self.description:
            import textwrap  # help only (start-up)
            self.description = "\n".join(textwrap.fill(par, WRAP) for par in self.description.split("\n"))
            self.wrap_description = False
        return super().format_help()


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``COLUMNS`` when a positive number, else the width of
    the terminal on standard output, else 80) without importing ``shutil``, which brings ``bz2``,
    ``lzma`` and ``fnmatch``: argparse asks for it whenever it makes a formatter, which building a
    parser does for every argument, so every command's start-up paid for it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]  # None without a console: AttributeError below
    except (AttributeError, ValueError, OSError):
        return 80


class _Help(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples keep their lines; an option's default is shown when it has one
    (not for flags, and not when the help already says it)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)  # argparse's default, as it computes it

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


def _size(value: str) -> int:
    try:
        return parse_size(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _add_limits(p: argparse.ArgumentParser) -> None:
    from inspector.net.limits import MAX_BYTES  # the network commands' parsers only
    # string defaults go through ``type`` too: --help shows 64M, not a count of bytes
    p.add_argument("--max-bytes", type=_size, default=f"{MAX_BYTES // 2**20}M", metavar="SIZE",
                   help="cut a response body longer than this (e.g. 1000000, 64M, 1G): the stream "
                        "ends cancelled, S012 says which limit")
    p.add_argument("--max-duration", type=_positive, default=None, metavar="SECONDS",
                   help="cut a response body still streaming this long after the request (default: no limit; "
                        "--timeout bounds only the silence between bytes)")


def _add_request_limits(p: argparse.ArgumentParser) -> None:
    from inspector.net.limits import HEADER_TIMEOUT, MAX_REQUEST_BYTES  # the proxy commands' parsers only
    p.add_argument("--header-timeout", type=_positive, default=HEADER_TIMEOUT, metavar="SECONDS",
                   help="answer 408 and close a connection whose request headers take longer than this")
    p.add_argument("--max-request-bytes", type=_size, default=f"{MAX_REQUEST_BYTES // 2**20}M", metavar="SIZE",
                   help="answer 413 to a request body larger than this (e.g. 10M)")


def _add_keep(p: argparse.ArgumentParser) -> None:
    from inspector.feeds.exchanges.record import KEEP, KEEP_BYTES  # the proxy commands' parsers only
    p.add_argument("--keep", type=_count, default=KEEP, metavar="N",
                   help="ended exchanges kept whole in memory; older ones keep their row and "
                        "counts, their streams are read back from --record when opened")
    p.add_argument("--keep-bytes", type=_size, default=f"{KEEP_BYTES // 2**20}M", metavar="SIZE",
                   help="body bytes of ended exchanges kept in memory")


def _count(value: str) -> int:
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value!r}")
    return v


def _entry(value: str) -> int | str:
    """``--entry``: a HAR entry number (0 or more), or ``all``."""
    if value.strip().lower() == ALL_ENTRIES:
        return ALL_ENTRIES
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an entry number or 'all': {value!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"entries count from 0: {value!r}")
    return v


def _dialect_choices() -> list[str]:
    return dialect_names()


def _examples(*lines: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def _add_stall(p: argparse.ArgumentParser, more: str = "") -> None:
    p.add_argument("--stall", type=_positive, default=10.0, metavar="SECONDS",
                   help="threshold for T001 stall, T002 keepalive-only and T003 buffered arguments" + more)


def _add_common_lint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dialect", choices=_dialect_choices(), metavar="DIALECT",
                   help=f"skip detection and read the stream as this dialect: {', '.join(_dialect_choices())}")
    _add_stall(p)


def _add_keep_audio(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep-audio", action="store_true",
                   help="keep the audio of WebSocket captures (Realtime base64 audio) in the events; by default "
                        "each audio payload is replaced by its size")


def _add_max_size(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-size", type=_size, default=None, metavar="SIZE",
                   help="refuse captures larger than this (default 1G; what reading one may take is "
                        "--max-memory's); e.g. 4G")


def _add_max_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-memory", type=_size, default=None, metavar="SIZE",
                   help="stop reading a capture once this process uses more memory than this (default 4G, or half "
                        "the machine's memory when less; captures of tiny events take up to ~120 bytes of memory "
                        "per byte); e.g. 16G")


def _add_otlp(p: argparse.ArgumentParser) -> None:
    p.add_argument("--otlp", action="store_true",
                   help="send one OpenTelemetry span per exchange (GenAI conventions, a span event per finding) "
                        "to the OTLP/HTTP collector in $OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318), "
                        "headers from $OTEL_EXPORTER_OTLP_HEADERS; needs the otel extra")


def _add_replay_timing(p: argparse.ArgumentParser) -> None:
    p.add_argument("--speed", type=_positive, default=1.0, metavar="X",
                   help="playback speed factor: 1 is as recorded, 10 ten times faster")
    p.add_argument("--instant", action="store_true", help="no waiting: deliver every chunk at once")


def _add_theme(p: argparse.ArgumentParser) -> None:
    from inspector.tui.theme_files import short_theme_names  # the TUI commands' parsers only
    names = short_theme_names() or ["dark"]
    p.add_argument("--theme", default=None, metavar="NAME",
                   help=f"colour theme: {', '.join(names)}, or any Textual theme (e.g. nord, gruvbox); "
                        "ctrl+t switches at run time (default: dark)")


def _sub(sub, name: str, *, help: str, description: str, examples: tuple[str, ...],
         more: str = "") -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` has ``description`` (paragraphs split at newlines, each wrapped),
    ``examples``, and ``more`` after them as is (a table)."""
    epilog = _examples(*examples) + (f"\n\n{more}" if more else "")
    return sub.add_parser(name, help=help, description=description, epilog=epilog, formatter_class=_Help,
                          wrap_description=True)


def _check(sub) -> None:
    p = _sub(sub, "check", help="lint captures headlessly (findings + assembled blocks)",
             description="Lint captures without a terminal UI: every finding with its rule code, and each "
                         "content block as assembled; after several files a summary table and a total line.\n"
                         "Exit 0 clean, 1 findings at or above --fail-on, 2 unreadable input or bad usage.",
             examples=(f"{PROG} check capture.jsonl",
                       f"{PROG} check --format github bug-report.sse      # annotations in a CI log",
                       f"{PROG} check --format json runs/ > report.jsonl   # JSON Lines: one object per file",
                       f"curl -sN ... | {PROG} check -                     # standard input",
                       f"{PROG} check --fail-on warning --severity C007=info 'runs/**/*.jsonl'",
                       f"{PROG} check --request next-request.json run.jsonl   # Q rules on the history"))
    p.add_argument("captures", nargs="+", metavar="CAPTURE",
                   help="a capture file (native, raw SSE text, NDJSON or HAR, detected from the content), "
                        "- for standard input, a folder (walked) or a glob ('runs/**/*.jsonl')")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text for people (a summary after several files), json for scripts (one JSON object "
                        "per file per line: JSON Lines) or github (workflow annotations)")
    p.add_argument("--fail-on", choices=WORST_FIRST, default="error",
                   help="lowest severity that makes the exit code 1")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                   help="override a rule's severity, e.g. C007=info (repeatable)")
    p.add_argument("--request", metavar="REQ.json", help="lint the history a client sends next against the stream (Q rules)")
    p.add_argument("--entry", type=_entry, metavar="N|all",
                   help="HAR: which entry to read, or all (each streamed entry checked as a capture of its own; "
                        "the entries are listed when several stream and this is omitted)")
    p.add_argument("--jobs", "-j", type=_count, default=None, metavar="N",
                   help="worker processes for several files (default: every CPU, here %(cpus)s)" % {"cpus": cpu_count()})
    _add_otlp(p)
    _add_common_lint(p)
    _add_max_size(p)
    _add_max_memory(p)
    _add_keep_audio(p)


def _replay(sub) -> None:
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
    _add_max_size(p)
    _add_max_memory(p)
    _add_keep_audio(p)


def _live(sub) -> None:
    p = _sub(sub, "live", help="TUI: send a request to a provider and inspect the streamed answer",
             description="Send one request (streaming switched on) and inspect the answer as it arrives.\n"
                         "Keys come from ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or CO_API_KEY; a local "
                         "--base-url needs none. Exit 0 clean, 1 errors found (--format json|text), "
                         "2 no stream.",
             examples=(f"{PROG} live --provider anthropic --request req.json --record run.jsonl",
                       f"{PROG} live --provider openai --base-url http://127.0.0.1:8000/v1 --request req.json",
                       f"{PROG} live --provider anthropic --request req.json --format json   # no TUI",
                       f"{PROG} live --provider anthropic --request req.json --compare-eager",
                       f"{PROG} live --provider openai-responses --transport websocket --request req.json"))
    p.add_argument("--provider", choices=list(PROVIDERS), required=True, metavar="PROVIDER",
                   help=f"whose API to call: {', '.join(PROVIDERS)}")
    p.add_argument("--request", required=True, metavar="REQ.json", help="the request body (JSON); streaming is switched on")
    p.add_argument("--base-url", metavar="URL", help="provider base URL (default: the provider's public API)")
    p.add_argument("--record", metavar="FILE", help="write the native capture as it arrives")
    p.add_argument("--timeout", type=_positive, default=600.0, metavar="SECONDS",
                   help="read timeout: no bytes for this long ends the stream")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or print the check report when the stream ends")
    p.add_argument("--compare-eager", action="store_true",
                   help="anthropic: send twice, with and without eager_input_streaming, and compare")
    p.add_argument("--transport", choices=("http", "websocket"), default="http",
                   help="websocket: openai-responses over its WebSocket mode (ws(s)://…/v1/responses, "
                        "one response.create), or openai-realtime (the request's session, input and response "
                        "options as client events); recorded as a WebSocket capture")
    _add_limits(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)


def _proxy(sub) -> None:
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
    _add_limits(p)
    _add_request_limits(p)
    _add_keep(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)


def _gateway(sub) -> None:
    p = _sub(sub, "gateway", help="TUI: taps on both sides of a translating gateway (LiteLLM, a router); "
                                  "pairs, compares and names the hop that broke each answer",
             description="Two taps around a gateway that translates between providers: the front tap sits "
                         "between your client and the gateway, the back tap between the gateway and the "
                         "provider. Each answer seen on both sides is paired, compared, and the hop that "
                         "broke it named.",
             examples=(f"{PROG} gateway --gateway-url http://127.0.0.1:4000 --upstream https://api.openai.com",
                       "OPENAI_BASE_URL=http://127.0.0.1:8787/v1 my-agent      # in another terminal",
                       f"{PROG} gateway --gateway-url http://127.0.0.1:4000 --upstream http://127.0.0.1:8765 "
                       "--format json"))
    p.add_argument("--gateway-url", required=True, metavar="URL",
                   help="the gateway's base URL (the front tap forwards there; point clients at the front tap)")
    p.add_argument("--upstream", required=True, metavar="URL",
                   help="the provider's base URL (the back tap forwards there; point the gateway's provider "
                        "base URL, e.g. LiteLLM's api_base, at the back tap)")
    p.add_argument("--host", default="127.0.0.1", help="address the taps listen on (loopback unless you mean it)")
    p.add_argument("--port", type=_port, default=8787, help="front tap port")
    p.add_argument("--back-port", type=_port, default=8788, help="back tap port")
    p.add_argument("--record", metavar="DIR", help="keep each pair's captures and report in DIR/pair-NNN/")
    p.add_argument("--timeout", type=_positive, default=600.0, metavar="SECONDS", help="read timeout towards the upstream")
    p.add_argument("--late", type=_positive, default=1.0, metavar="SECONDS",
                   help="a first argument byte this much later in front than upstream is a difference")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or one report per pair (json: JSON Lines) without a TUI")
    _add_stall(p, "; each side's dialect is detected (the two differ behind a translating gateway)")
    _add_theme(p)


def _run(sub) -> None:
    from inspector.providers.variables import help_text, route_names  # run's parser only: every endpoint
    p = _sub(sub, "run", help="run an agent with every SDK's base-URL variable pointed at the inspecting proxy",
             description="Start the inspecting proxy on a free loopback port, run your agent with every SDK's "
                         "base-URL variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, ...) pointed at it, and "
                         "inspect each exchange. The agent's output passes through; its exit status is "
                         "passed on.",
             examples=(f"{PROG} run -- python my_agent.py",
                       f"{PROG} run --record captures/ -- npm start",
                       f"{PROG} run --format json -o runs.jsonl -- python my_agent.py   # no TUI",
                       f"{PROG} run --upstream anthropic=http://127.0.0.1:8765 -- python my_agent.py"),
             more=help_text(WRAP))
    p.add_argument("--upstream", action="append", default=[], metavar="[NAME=]URL",
                   help="NAME=URL: where that route forwards (the URL its variables would hold; "
                        f"NAME: {', '.join(route_names())}; repeatable); a plain URL sends every request there. "
                        "Without it, per route: the variable's value in the environment, else its readers' default")
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or one report per exchange (json: JSON Lines) without a TUI")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="json/text: write the reports here (otherwise standard output, shared with the command's)")
    p.add_argument("--port", type=_port, default=0, help="proxy port on 127.0.0.1 (0: a free one)")
    p.add_argument("--timeout", type=_positive, default=600.0, metavar="SECONDS", help="upstream read timeout")
    _add_limits(p)
    _add_request_limits(p)
    _add_keep(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)
    p.add_argument("agent", nargs=argparse.REMAINDER, metavar="-- CMD ARGS",
                   help="the agent command and its arguments, after --")


def _serve(sub) -> None:
    p = _sub(sub, "serve", help="a local mock provider answering with captures, re-timed as recorded",
             description="A mock provider on this machine: answers any request with the captures, re-timed "
                         "as recorded, ending the connection the way each capture ended. Several captures "
                         "rotate, or are picked by path (/NAME/...). --mutate breaks them on purpose to see "
                         "how a client copes.",
             examples=(f"{PROG} serve run.jsonl                  # answer once, then stop",
                       f"{PROG} serve run.jsonl --loop --instant",
                       "ANTHROPIC_BASE_URL=http://127.0.0.1:8765 my-agent    # in another terminal",
                       f"{PROG} serve run.jsonl --mutate all --expect-next --format junit > client.xml",
                       f"{PROG} serve --match rec/ --instant    # replay a recorded conversation",
                       f"{PROG} serve --match rec/ --mutate close-early@2   # break turn 2 only",
                       f"{PROG} serve --mutations                # what each mutation does"))
    p.add_argument("captures", nargs="*", metavar="CAPTURE",
                   help="captures to answer with (any readable format; none: the bundled one, with --mutate)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback unless you mean it)")
    p.add_argument("--port", type=_port, default=8765, help="port to listen on (0: any free port)")
    p.add_argument("--loop", action="store_true",
                   help="keep serving until Ctrl+C (without it: stop once every capture has been answered in full)")
    _add_replay_timing(p)
    p.add_argument("--mutate", metavar="NAME[=VALUE][,...]",
                   help="fault injection: answer with the captures broken by these mutations, one after the other "
                        "(see --mutations; 'all' for every one)")
    p.add_argument("--mutations", action="store_true", help="list the mutations: what each does, its rule codes, "
                                                             "the bug reports it reproduces")
    p.add_argument("--expect-next", action="store_true",
                   help="with --mutate: wait for the client's next request after each mutated stream, grade it "
                        "(survived / mis-assembled / crashed) and stop after the last")
    p.add_argument("--next-timeout", type=_positive, default=30.0, metavar="SECONDS",
                   help="--expect-next: how long to wait for the next request")
    p.add_argument("--match", metavar="DIR",
                   help="answer each request with the recording in DIR whose request it matches (method, path, "
                        "the conversation so far; ids, metadata, user, stream_options ignored), in any order, as "
                        "often as asked; a request matching none gets HTTP 400 naming the closest recording and "
                        "the first JSON path where it departs. DIR: what proxy --record / run --record wrote. "
                        "--mutate NAME@N breaks turn N only (or NAME@FILE one exchange)")
    p.add_argument("--match-ignore", action="append", default=[], metavar="PATH",
                   help="--match: also ignore this JSON path ($.temperature, $..name, $.messages[*].cache_control); "
                        "repeatable")
    p.add_argument("--record-missing", action="store_true",
                   help="--match: forward a request no recording matches to --upstream, record it into DIR and "
                        "serve it from there on")
    p.add_argument("--upstream", metavar="URL", help="--record-missing: where unmatched requests go (the "
                                                      "request's path is appended: https://api.openai.com)")
    p.add_argument("--format", choices=("text", "json", "junit"), default="text",
                   help="--expect-next verdicts and --mutations: text, JSON Lines or JUnit XML")
    _add_request_limits(p)
    _add_max_size(p)


def _conform(sub) -> None:
    p = _sub(sub, "conform", help="grade a server's streams with a fixed request matrix, or a client "
                                  "against broken streams (--client)",
             description="Grade a server (a gateway, a proxy, a self-hosted model) by sending a fixed matrix of "
                         "requests, streamed and plain, and checking every answer; or, with --client, grade a "
                         "client by running it once per mutation against a mock provider that breaks the stream. "
                         "Each case passes, warns or fails.",
             examples=(f"{PROG} conform --provider openai --base-url http://127.0.0.1:4000/v1",
                       f"{PROG} conform --provider anthropic --base-url http://127.0.0.1:8080 --format junit > c.xml",
                       f"{PROG} conform --provider anthropic --client 'python my_agent.py'",
                       f"{PROG} conform --provider openai --list"))
    p.add_argument("--provider", choices=list(PROVIDERS), required=True, metavar="PROVIDER",
                   help=f"whose API the server speaks (or the client calls): {', '.join(PROVIDERS)}")
    p.add_argument("--base-url", metavar="URL", help="the server to grade (its base URL, as the SDKs take it)")
    p.add_argument("--model", help="the model to ask (otherwise the matrix file's)")
    p.add_argument("--matrix", metavar="FILE", help="a matrix file of your own (TOML; otherwise the bundled one "
                                                   "for --provider)")
    p.add_argument("--only", metavar="NAME[,NAME...]", help="run only these cases")
    p.add_argument("--list", action="store_true", help="list the matrix's cases and exit")
    p.add_argument("--record", metavar="DIR", help="keep every capture (NN-case.jsonl, NN-case.plain.jsonl)")
    p.add_argument("--timeout", type=_positive, default=120.0, metavar="SECONDS",
                   help="seconds without a byte before a request is given up; --client: seconds a client run may take")
    p.add_argument("--fail-on", choices=("fail", "warn"), default="fail",
                   help="lowest grade that makes the exit code 1")
    p.add_argument("--format", choices=("text", "json", "junit", "github"), default="text",
                   help="text for people, json (JSON Lines), junit (XML for CI) or github (workflow annotations)")
    p.add_argument("--client", metavar="CMD", help="grade a client instead: run CMD once per mutation against a "
                                                  "mock provider (its SDK base-URL variables point there)")
    p.add_argument("--mutate", metavar="NAME[,NAME...]", help="--client: the mutations to run (otherwise all of "
                                                             "--provider's)")
    p.add_argument("--capture", metavar="FILE", help="--client: the capture to mutate (otherwise the bundled one)")
    p.add_argument("--next-timeout", type=_positive, default=10.0, metavar="SECONDS",
                   help="--client: how long to wait for the next request once the stream ended")
    _add_common_lint(p)


def _compare(sub) -> None:
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
    _add_max_size(p)


def _diff(sub) -> None:
    p = _sub(sub, "diff", help="are two streams of the same answer equivalent, in any dialects? "
                               "(exit 0 equivalent, 1 different, 2 trouble)",
             description="Compare two streams of the same answer, in any dialects (what a gateway received "
                         "and what it sent on, two providers, two runs): blocks, names, ids, arguments as JSON, "
                         "timing, stop reasons, findings by meaning.\nExit 0 equivalent, 1 different, 2 trouble.",
             examples=(f"{PROG} diff upstream.jsonl front.jsonl",
                       f"{PROG} diff a.jsonl b.jsonl --format text      # the differences in words"))
    p.add_argument("a", metavar="A", help="a capture (any dialect), or a non-streamed answer body")
    p.add_argument("b", metavar="B", help="the same answer as another hop saw it (e.g. what a gateway sent on)")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui, or print the differences for scripts")
    p.add_argument("--late", type=_positive, default=1.0, metavar="SECONDS",
                   help="a first argument byte this much later on one side is a difference")
    _add_stall(p, "; each side's dialect is detected")
    _add_theme(p)
    _add_max_size(p)


def _export(sub) -> None:
    p = _sub(sub, "export", help="a capture as a self-contained HTML page or a HAR 1.2 file with per-chunk timing",
             description="Write a capture as one self-contained HTML page (overview, findings explained, blocks, "
                         "timeline, raw events) to attach to a bug report, or several captures as a HAR 1.2 file "
                         "that keeps each chunk's timing (read back by replay and check).",
             examples=(f"{PROG} export --to html run.jsonl -o run.html",
                       f"{PROG} export --to har runs/ -o runs.har"))
    p.add_argument("captures", nargs="+", metavar="CAPTURE",
                   help="the capture (html); one or more captures, a folder or a glob (har: one entry each)")
    p.add_argument("--to", choices=("html", "har"),
                   help="html: one page (blocks, findings explained, timeline, raw events); har: HAR 1.2, "
                        "per-chunk timing in each entry's _chunks (without it: from -o's .html/.htm/.har)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (otherwise standard output)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR input: which entry to read")
    _add_common_lint(p)
    _add_max_size(p)
    _add_max_memory(p)
    _add_keep_audio(p)


def _rules(sub) -> None:
    p = _sub(sub, "rules", help="list the rule catalog: codes, names, severities, when each fires",
             description="The rule catalog: every finding code, its name, default severity and when it fires.",
             examples=(f"{PROG} rules", f"{PROG} rules J002 T", f"{PROG} rules C0",
                       f"{PROG} rules stall                  # by the name a report prints"))
    p.add_argument("codes", nargs="*", metavar="CODE",
                   help="codes, families or rule names to show (e.g. J002, A, C0, args-invalid)")


def _mcp(sub) -> None:
    p = _sub(sub, "mcp", help="an MCP server (stdio) for coding agents: list, explain and diff recorded streams",
             description="A Model Context Protocol server on standard input/output over a recording folder "
                         "(proxy --record DIR, running or not; any folder of captures or cassettes). Tools: "
                         "list_exchanges, get_exchange, check_capture, explain_rule, diff_captures. Needs the "
                         "mcp extra: pip install 'stream-inspector[mcp]'.",
             examples=(f"{PROG} mcp recordings/", f"claude mcp add stream-inspector -- {PROG} mcp recordings/"))
    p.add_argument("folder", nargs="?", default=".", metavar="DIR",
                   help="the recording folder (default: the current folder)")


def _mitmproxy_addon(sub) -> None:
    _sub(sub, "mitmproxy-addon", help="print the path of the mitmproxy addon (mitmdump -s PATH)",
         description="Print the path of the mitmproxy addon that sends every streamed LLM response mitmproxy "
                     "sees to stream-inspector (reports, findings, recordings, spans: as proxy does). "
                     "mitmproxy runs in its own environment (uvx, pipx); the addon starts `stream-inspector "
                     "mitmproxy-sink` (--set stream_inspector=COMMAND to use another) with the arguments in "
                     "--set stream_inspector_args.",
         examples=(f'mitmdump -s "$({PROG} mitmproxy-addon)" --set stream_inspector_args="--record rec/ --format json"',))


def _mitmproxy_sink(sub) -> None:
    p = _sub(sub, "mitmproxy-sink", help="(used by the mitmproxy addon) inspect the exchanges it sends on stdin",
             description="Reads the mitmproxy addon's records on standard input and inspects each exchange as "
                         "proxy does: one report per exchange, --record, --otlp. Started by the addon.",
             examples=(f"{PROG} mitmproxy-sink --format json --record rec/",))
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--format", choices=("json", "text"), default="text", help="one check report per exchange")
    _add_otlp(p)
    _add_common_lint(p)


def _demo(sub) -> None:
    p = _sub(sub, "demo", help="no key, no network: serve bundled captures on loopback and inspect them live",
             description="The bundled captures served on 127.0.0.1 and inspected live, exactly as a client "
                         "would see them: ] and [ switch stream, ? lists every key, q quits.",
             examples=(f"{PROG} demo", f"{PROG} demo --speed 3 --theme light"))
    p.add_argument("--speed", type=_positive, default=1.0, metavar="X",
                   help="how fast the loopback server replays the captures")
    _add_theme(p)


COMMANDS = {"check": _check, "replay": _replay, "live": _live, "proxy": _proxy, "gateway": _gateway, "run": _run,
            "serve": _serve, "conform": _conform, "compare": _compare, "diff": _diff, "export": _export,
            "rules": _rules, "mcp": _mcp, "mitmproxy-addon": _mitmproxy_addon, "mitmproxy-sink": _mitmproxy_sink,
            "demo": _demo}
"""Each command and the function adding its subparser, in the order ``--help`` lists them."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; ``only``: just that command's subparser (a command's run needs no other:
    building all 13 costs ~50 ms of start-up, mostly argparse formatters and gettext look-ups)."""
    parser = _Parser(prog=PROG, formatter_class=_Help,
                     description="Inspect, lint, replay and serve LLM streaming responses (SSE / NDJSON).",
                     epilog=_examples(f"{PROG} demo                          # no key, no network: try it",
                                      f"{PROG} check capture.jsonl           # lint a capture (CI-friendly)",
                                      f"{PROG} replay capture.jsonl          # watch it arrive again",
                                      f"{PROG} COMMAND --help                # options and examples of a command"))
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, add in COMMANDS.items():
        if only is None or name == only:
            add(sub)
    return parser
