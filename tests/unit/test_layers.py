"""The code's shape is the pipeline's shape: layers enforced, no import dodging them, a fast start.

The layers themselves are import-linter contracts in ``pyproject.toml`` (run by
``test_core_is_headless.test_import_linter_contract_holds``); these tests hold what a contract
cannot see.
"""
from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests import bedrock_frames as f
from tests.conftest import ROOT

PACKAGE = ROOT / "inspector"
OPTIONAL = {"brotli", "brotlicffi", "zstandard", "botocore", "opentelemetry", "vcr", "mcp", "mitmproxy"}
DEFERRED = {"concurrent": "only check --jobs N uses its process pool (~15 ms of every check's start-up)",
            "logging": "only --otlp, with the OpenTelemetry SDK that loads it anyway",
            "jsonschema": "only a request that declares tool schemas (V rules); with attrs and referencing it "
                          "costs more start-up than the rest of check",
            "jsonschema_rs": "the V rules' fast validity check, loaded with jsonschema",
            "referencing": "jsonschema's $ref resolver: its Unresolvable is caught where a call is judged",
            "yaml": "only a VCR cassette in YAML: PyYAML is a fifth of check's start-up otherwise",
            "tempfile": "only when a command crashes (the saved traceback); with shutil it costs check's start-up",
            "traceback": "only when a command crashes (the saved traceback)"}
"""Modules imported where they are used, for start-up time: ``check`` must not load them on a capture
that does not need them (``test_check_rules_and_help_load_no_ui_or_network_library``)."""
CLI_DEFERRED = {"difflib": "a misspelt option only (the nearest option named)",
                "inspector.cli.otel": "--otlp only: the span sender and the span records",
                "inspector.report.spans": "--otlp only (built in check's workers)",
                "inspector.feeds.exchanges.record": "the --keep defaults of the proxy commands' parsers",
                "inspector.providers.variables": "run's parser: reads every provider's endpoint",
                "inspector.tui.theme_files": "the --theme names of the TUI commands' parsers",
                "inspector.net.limits": "the limits' defaults of the network commands' parsers",
                "inspector.cli.crash": "only when a command crashes (the saved traceback)",
                "inspector.capture.arrivals": "check -: standard input only",
                "inspector.report.github": "check --format github only (``check._renderer``)",
                "inspector.report.json": "check --format json only (``check._renderer``)",
                "inspector.cli.parser": "every command line but check's usual ones (``cli.quick``): argparse, "
                                        "gettext, locale and building the parser cost ~17 M instructions"}
"""Project modules the CLI (the top layer: a late import there can close no circle) imports where they are
used, for start-up: ``check`` without ``--otlp`` loads no OpenTelemetry code of ours (issue 32)."""
CLI_LATE_FOR_OTHERS = {"inspector.capture.redact": "stderr's first message (``cli.stderr``): ``check`` loads it "
                                                   "anyway, ``rules`` and ``--help`` write no message"}
"""Project modules the CLI imports where they are used for the start-up of commands other than ``check``."""
"""Third-party modules imported where they are used because they may be absent (proxy decoding;
SigV4 signing for Bedrock, the optional ``bedrock`` extra; --otlp, the optional ``otel`` extra; vcrpy in
the pytest plugin, only when a suite has it; the ``mcp`` and ``mitmproxy`` extras)."""
CHECK_DEFERRED = {"urllib": "only a URL to redact (a request's); with ipaddress it costs check's start-up",
                  "pathlib": "only a folder to walk (it imports urllib.parse and ipaddress)",
                  "textwrap": "only --help (a command's description is wrapped when shown)",
                  "glob": "only a pattern among the inputs",
                  "base64": "only a ``Basic`` word in scrubbed text (is it base64 of user:password?)",
                  "binascii": "with base64",
                  "struct": "only a body that may be AWS event-stream (its prelude's lengths)",
                  "zlib": "with struct (the prelude's CRC)",
                  "select": "only a report write that would block (``model.writes``)",
                  "argparse": "only a command line ``cli.quick`` does not read (help, other commands, rare options)",
                  "gettext": "with argparse", "locale": "with gettext",
                  "typing": "annotations only: modules on check's path take its run-time names from "
                            "``inspector.model.static`` (typing costs ~11 M instructions of start-up)"}
"""Standard modules that ``check`` of one capture file does not load (other commands may: ``rules``, ``--help``)."""
LOADED_WHEN_NEEDED = {
    "inspector.capture.cassette": "a VCR cassette", "inspector.capture.har": "a HAR file",
    "inspector.capture.websocket": "a WebSocket capture", "inspector.capture.records": "a native capture",
    "inspector.capture.b64values": "events inside base64 ``bytes`` values (Bedrock) to record or show",
    "inspector.framing.eventstream": "an AWS event-stream body",
    "inspector.framing.ndjson": "an NDJSON body", "inspector.providers.history": "a request with a history",
    "inspector.session.rules.history": "a request with a history (the Q rules)",
    "inspector.model.history": "a request with a history",
    "inspector.session.rules.schemas": "a request that declares tool schemas (V rules)",
    "inspector.session.history": "a request to judge (check --request, a WebSocket's follow-up request)",
    "inspector.capture.request": "check --request",
    "inspector.model.urls": "a URL to split (it brings urllib.parse): redaction of a request URL",
    "inspector.providers.summary": "the event log's one-line summaries (the TUI's, ``providers.summarize``)"}
"""Project modules imported by the lower layers where a capture needs them, for start-up: a ``check`` of
raw SSE loads none of them (``test_check_of_sse_loads_no_other_format``). Each one's importer is in its
own layer or above it, so the import-linter contract still sees every such import."""
OTEL = {"inspector.cli.otel", "inspector.report.spans", "inspector.net.otlp"}
"""Our OpenTelemetry code: loaded with ``--otlp`` only."""
HEAVY = ("textual", "rich", "httpx", "click", "uvicorn", "starlette", "pygments", "anyio", "botocore")


def _function_imports(tree: ast.AST):
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    yield from ((a.name, node.lineno) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    yield (node.module or "", node.lineno)


def test_no_module_imports_inside_a_function():
    """Circles are broken by the layers, not by late imports; only optional libraries are late (and
    the few standard modules in ``DEFERRED``, for start-up).
    (The CLI's ``main`` loads a command's module with ``importlib``: that is the one deferred load.)"""
    late = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for name, line in _function_imports(ast.parse(path.read_text(), str(path))):
            cli_late = name in CLI_DEFERRED.keys() | CLI_LATE_FOR_OTHERS.keys() and path.is_relative_to(PACKAGE / "cli")
            if name.split(".")[0] not in OPTIONAL | DEFERRED.keys() | CHECK_DEFERRED.keys() and not cli_late and name not in LOADED_WHEN_NEEDED:
                late.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert late == []


def test_every_package_says_what_lives_there_and_what_it_may_import():
    for init in sorted(PACKAGE.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc, f"{init.relative_to(ROOT)} has no docstring"
        if init.parent.parent == PACKAGE or init.parent.parent.name == "providers":
            assert "May import" in doc, f"{init.relative_to(ROOT)} does not say what it may import"


@pytest.mark.parametrize("argv", [["check", "CAPTURE"], ["check", "--format", "json", "CAPTURE"], ["rules"],
                                  ["--help"], ["check", "--help"], ["check", "BEDROCK"]])
def test_check_rules_and_help_load_no_ui_or_network_library(argv, tmp_path):
    """Nor botocore: ``check`` decodes Bedrock's event-stream itself (botocore only signs for ``live``)."""
    cap = tmp_path / "one.sse"
    cap.write_text('event: ping\ndata: {"type": "ping"}\n\n')
    bedrock = tmp_path / "bedrock.bin"
    bedrock.write_bytes(f.message_start() + f.text(0, "Hi") + f.stop(0) + f.message_stop() + f.metadata())
    argv = [str(cap) if a == "CAPTURE" else str(bedrock) if a == "BEDROCK" else a for a in argv]
    code = ("import sys\n"
            "from inspector.cli import main\n"
            "try:\n"
            f"    main({argv!r})\n"
            "except SystemExit:\n"
            "    pass\n"
            f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({(*HEAVY, *DEFERRED)!r})"
            f" | set(sys.modules) & {OTEL!r})\n"
            "print('LOADED', ','.join(heavy), file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    line = [x for x in p.stderr.splitlines() if x.startswith("LOADED")]
    assert line == ["LOADED "], p.stderr[-2000:]


def test_check_of_sse_loads_no_other_format(tmp_path):
    """A regression guard for start-up (issue 32; the time itself is ``bench/bench_startup.py``'s):
    ``check`` of raw SSE imports no other format's reader or framing, no history or schema checks, and
    none of the standard modules deferred above (``threading`` neither: the secrets lock is ``_thread``'s;
    nor ``shutil``: ``cli.parser.terminal_columns`` sizes argparse's help), nor the TUI's ``terminal``
    (``cli._no_terminal`` asks for ``NoTerminal`` only where a command loaded it).
    ``dataclasses`` is not on the list: orjson imports it."""
    cap = tmp_path / "one.sse"
    cap.write_text('event: ping\ndata: {"type": "ping"}\n\n')
    forbidden = {*LOADED_WHEN_NEEDED, *OTEL, *CLI_DEFERRED, *CHECK_DEFERRED, "threading", "urllib.parse", "ipaddress",
                 "shutil", "signal", "asyncio", "yaml", "tempfile", "logging", "concurrent.futures",
                 "inspector.tui", "inspector.tui.terminal"}
    code = ("import sys\n"
            "from inspector.cli import main\n"
            f"main(['check', {str(cap)!r}])\n"
            f"print('LOADED', ','.join(sorted(set(sys.modules) & {forbidden!r})), file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert [x for x in p.stderr.splitlines() if x.startswith("LOADED")] == ["LOADED "], p.stderr[-2000:]


def test_check_of_sse_compiles_only_the_patterns_it_uses(tmp_path):
    """A guard for start-up: ``re.compile`` runs re's parser and compiler, Python code (~6 M
    instructions for ``jsonprogress``'s four patterns). A pattern a one-event ``check`` does not use
    is ``model.lazyre.lazy``; these six are each used by it."""
    cap = tmp_path / "one.sse"
    cap.write_text('event: ping\ndata: {"type": "ping"}\n\n')
    code = ("import sys, re._compiler as rc\n"
            "ours, compile = [], rc.compile\n"
            "def counted(p, flags=0):\n"
            "    f = sys._getframe(1)\n"
            "    while f.f_globals['__name__'].startswith('re'):\n"
            "        f = f.f_back\n"
            "    if f.f_globals['__name__'].startswith('inspector'):\n"
            "        ours.append(p)\n"
            "    return compile(p, flags)\n"
            "rc.compile = counted\n"
            "from inspector.cli import main\n"
            f"main(['check', {str(cap)!r}])\n"
            "print('COMPILED', len(ours), ours, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    line = [x for x in p.stderr.splitlines() if x.startswith("COMPILED")]
    assert len(line) == 1 and int(line[0].split()[1]) <= 6, p.stderr[-2000:]
