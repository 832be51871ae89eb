"""The command line's arguments: every command, its options and their help, nothing else.

Building the parser imports nothing heavy (the provider registry is pure data and dialect
classes), so ``--help``, ``check`` and ``rules`` start fast (``bench/bench_startup.py``).
"""
from __future__ import annotations

import argparse
import os
import sys

from inspector import __version__
from inspector.feeds.exchanges.record import KEEP, KEEP_BYTES
from inspector.net.limits import MAX_BYTES, parse_size
from inspector.providers import DIALECTS, PROVIDERS

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


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


def _size(value: str) -> int:
    try:
        return parse_size(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-bytes", type=_size, default=MAX_BYTES, metavar="SIZE",
                   help="cut a response body longer than this (e.g. 1000000, 64M, 1G; default 64M): the stream "
                        "ends cancelled, S012 says which limit")
    p.add_argument("--max-duration", type=_positive, default=None, metavar="SECONDS",
                   help="cut a response body still streaming this long after the request (default: no limit; "
                        "--timeout bounds only the silence between bytes)")


def _add_keep(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep", type=_count, default=KEEP, metavar="N",
                   help=f"ended exchanges kept whole in memory (default {KEEP}); older ones keep their row and "
                        "counts, their streams are read back from --record when opened")
    p.add_argument("--keep-bytes", type=_size, default=KEEP_BYTES, metavar="SIZE",
                   help=f"body bytes of ended exchanges kept in memory (default {KEEP_BYTES // 2**20}M)")


def _count(value: str) -> int:
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value!r}")
    return v


def cpu_count() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one): ``check --jobs``'s default."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _dialect_choices() -> list[str]:
    return [name for name in DIALECTS if name != "unknown"]


def _add_stall(p: argparse.ArgumentParser, more: str = "") -> None:
    p.add_argument("--stall", type=_positive, default=10.0, metavar="SECONDS",
                   help="threshold for T001 stall / T002 keepalive-only / T003 buffered arguments (default 10)" + more)


def _add_common_lint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dialect", choices=_dialect_choices(), help="skip detection and read the stream as this dialect")
    _add_stall(p)


def _size(value: str) -> int:
    """``--max-size``: bytes, or a number with K, M or G (binary: 1K = 1024)."""
    v = value.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(v[-1:], 1)
    try:
        n = int(float(v[:-1] if scale > 1 else v) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {value!r} (e.g. 2G, 500M, 1048576)") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be > 0: {value!r}")
    return n


def _add_max_size(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-size", type=_size, default=None, metavar="SIZE",
                   help="refuse captures larger than this (default 1G: inspecting takes about 6 bytes of memory "
                        "per byte); e.g. 4G")


def _add_otlp(p: argparse.ArgumentParser) -> None:
    p.add_argument("--otlp", action="store_true",
                   help="send one OpenTelemetry span per exchange (GenAI conventions, a span event per finding) "
                        "to the OTLP/HTTP collector in $OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318), "
                        "headers from $OTEL_EXPORTER_OTLP_HEADERS; needs the otel extra")


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
    p.add_argument("captures", nargs="+", metavar="CAPTURE",
                   help="a capture file, - for standard input, a folder (walked) or a glob ('runs/**/*.jsonl')")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text (default; a summary after several files), json (one JSON object per file per "
                        "line: JSON Lines) or github (workflow annotations)")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="error",
                   help="lowest severity that makes the exit code 1 (default error)")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                   help="override a rule's severity, e.g. C007=info (repeatable)")
    p.add_argument("--request", metavar="REQ.json", help="lint the history a client sends next against the stream (Q rules)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read (listed when omitted)")
    p.add_argument("--jobs", "-j", type=_count, default=None, metavar="N",
                   help="worker processes for several files (default: every CPU, here %(cpus)s)" % {"cpus": cpu_count()})
    _add_otlp(p)
    _add_common_lint(p)
    _add_max_size(p)

    p = sub.add_parser("replay", help="TUI: play a capture with its recorded timing")
    p.add_argument("capture", metavar="CAPTURE")
    p.add_argument("--entry", type=int, metavar="N", help="HAR: which entry to read")
    _add_replay_timing(p)
    _add_common_lint(p)
    _add_theme(p)
    _add_max_size(p)

    p = sub.add_parser("live", help="TUI: send a request to a provider and inspect the streamed answer")
    p.add_argument("--provider", choices=list(PROVIDERS), required=True)
    p.add_argument("--request", required=True, metavar="REQ.json", help="the request body (JSON); streaming is switched on")
    p.add_argument("--base-url", help="provider base URL (default: the provider's public API)")
    p.add_argument("--record", metavar="FILE", help="write the native capture as it arrives")
    p.add_argument("--timeout", type=_positive, default=600.0, help="read timeout in seconds (default 600)")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui (default), or print the check report when the stream ends")
    p.add_argument("--compare-eager", action="store_true",
                   help="anthropic: send twice, with and without eager_input_streaming, and compare")
    _add_limits(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("proxy", help="TUI: a local pass-through endpoint that inspects every exchange")
    p.add_argument("--upstream", required=True, metavar="URL")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8787)
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--timeout", type=_positive, default=600.0)
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui")
    _add_limits(p)
    _add_keep(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)

    p = sub.add_parser("gateway", help="TUI: taps on both sides of a translating gateway (LiteLLM, a router); "
                                       "pairs, compares and names the hop that broke each answer")
    p.add_argument("--gateway-url", required=True, metavar="URL",
                   help="the gateway's base URL (the front tap forwards there; point clients at the front tap)")
    p.add_argument("--upstream", required=True, metavar="URL",
                   help="the provider's base URL (the back tap forwards there; point the gateway's provider "
                        "base URL, e.g. LiteLLM's api_base, at the back tap)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8787, help="front tap port (default 8787)")
    p.add_argument("--back-port", type=int, default=8788, help="back tap port (default 8788)")
    p.add_argument("--record", metavar="DIR", help="keep each pair's captures and report in DIR/pair-NNN/")
    p.add_argument("--timeout", type=_positive, default=600.0)
    p.add_argument("--late", type=_positive, default=1.0, metavar="SECONDS",
                   help="a first argument byte this much later in front than upstream is a difference (default 1)")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui (default), or one report per pair (json: JSON Lines) without a TUI")
    _add_stall(p, "; each side's dialect is detected (the two differ behind a translating gateway)")
    _add_theme(p)

    p = sub.add_parser("run", help="run an agent with every SDK's base-URL variable pointed at the inspecting proxy")
    p.add_argument("--upstream", action="append", default=[], metavar="[NAME=]URL",
                   help="NAME=URL: where that provider's route forwards (the URL its SDK variable would hold; "
                        "NAME: anthropic, openai, gemini, ollama; repeatable); a plain URL sends every request there. "
                        "Default per route: the variable's value in the environment, else the provider's API")
    p.add_argument("--record", metavar="DIR", help="write one native capture per exchange")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui",
                   help="tui (default), or one report per exchange (json: JSON Lines) without a TUI")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="json/text: write the reports here (default standard output, shared with the command's)")
    p.add_argument("--port", type=int, default=0, help="proxy port on 127.0.0.1 (default: a free one)")
    p.add_argument("--timeout", type=_positive, default=600.0, help="upstream read timeout in seconds (default 600)")
    _add_limits(p)
    _add_keep(p)
    _add_otlp(p)
    _add_common_lint(p)
    _add_theme(p)
    p.add_argument("agent", nargs=argparse.REMAINDER, metavar="-- CMD ARGS",
                   help="the agent command and its arguments, after --")

    p = sub.add_parser("serve", help="a local mock provider answering with captures, re-timed as recorded")
    p.add_argument("captures", nargs="*", metavar="CAPTURE")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--loop", action="store_true",
                   help="keep serving until Ctrl+C (default: stop once every capture has been answered in full)")
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
                   help="--expect-next: how long to wait for the next request (default 30)")
    p.add_argument("--format", choices=("text", "json", "junit"), default="text",
                   help="--expect-next verdicts and --mutations: text (default), JSON lines or JUnit XML")
    _add_max_size(p)

    p = sub.add_parser("conform", help="grade a server's streams with a fixed request matrix, or a client "
                                       "against broken streams (--client)")
    p.add_argument("--provider", choices=list(PROVIDERS), required=True)
    p.add_argument("--base-url", metavar="URL", help="the server to grade (its base URL, as the SDKs take it)")
    p.add_argument("--model", help="the model to ask (default: the matrix file's)")
    p.add_argument("--matrix", metavar="FILE", help="a matrix file of your own (TOML; default: the bundled one "
                                                   "for --provider)")
    p.add_argument("--only", metavar="NAME[,NAME...]", help="run only these cases")
    p.add_argument("--list", action="store_true", help="list the matrix's cases and exit")
    p.add_argument("--record", metavar="DIR", help="keep every capture (NN-case.jsonl, NN-case.plain.jsonl)")
    p.add_argument("--timeout", type=_positive, default=120.0,
                   help="seconds without a byte before a request is given up (default 120); --client: seconds a "
                        "client run may take (default 120)")
    p.add_argument("--fail-on", choices=("fail", "warn"), default="fail",
                   help="lowest grade that makes the exit code 1 (default fail)")
    p.add_argument("--format", choices=("text", "json", "junit", "github"), default="text")
    p.add_argument("--client", metavar="CMD", help="grade a client instead: run CMD once per mutation against a "
                                                  "mock provider (its SDK base-URL variables point there)")
    p.add_argument("--mutate", metavar="NAME[,NAME...]", help="--client: the mutations to run (default all of "
                                                             "--provider's)")
    p.add_argument("--capture", metavar="FILE", help="--client: the capture to mutate (default the bundled one)")
    p.add_argument("--next-timeout", type=_positive, default=10.0, metavar="SECONDS",
                   help="--client: how long to wait for the next request once the stream ended (default 10)")
    _add_common_lint(p)

    p = sub.add_parser("compare", help="TUI: two streams of the same request on one time axis")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui")
    _add_common_lint(p)
    _add_theme(p)
    _add_max_size(p)

    p = sub.add_parser("diff", help="are two streams of the same answer equivalent, in any dialects? "
                                    "(exit 0 equivalent, 1 different, 2 trouble)")
    p.add_argument("a", metavar="A", help="a capture (any dialect), or a non-streamed answer body")
    p.add_argument("b", metavar="B", help="the same answer as another hop saw it (e.g. what a gateway sent on)")
    p.add_argument("--format", choices=("tui", "json", "text"), default="tui")
    p.add_argument("--late", type=_positive, default=1.0, metavar="SECONDS",
                   help="a first argument byte this much later on one side is a difference (default 1)")
    _add_stall(p, "; each side's dialect is detected")
    _add_theme(p)

    p = sub.add_parser("export", help="a capture as a self-contained HTML page or a HAR 1.2 file with per-chunk timing")
    p.add_argument("captures", nargs="+", metavar="CAPTURE",
                   help="the capture (html); one or more captures, a folder or a glob (har: one entry each)")
    p.add_argument("--to", choices=("html", "har"), required=True,
                   help="html: one page (blocks, findings explained, timeline, raw events); har: HAR 1.2, "
                        "per-chunk timing in each entry's _chunks")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    p.add_argument("--entry", type=int, metavar="N", help="HAR input: which entry to read")
    _add_common_lint(p)
    _add_max_size(p)

    p = sub.add_parser("rules", help="list the rule catalog: codes, names, severities, when each fires")
    p.add_argument("codes", nargs="*", metavar="CODE", help="codes or families to show (e.g. J002, A, C0)")

    p = sub.add_parser("demo", help="no key, no network: serve bundled captures on loopback and inspect them live")
    p.add_argument("--speed", type=_positive, default=1.0)
    _add_theme(p)
    return parser
