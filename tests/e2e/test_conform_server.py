"""``conform --provider P --base-url URL`` against ``serve`` on 127.0.0.1: good answers pass every case,
mutated ones fail the right cases with the right codes, and a broken server is a graded result.
"""
from __future__ import annotations

import json
import os
import pty
import signal
import socket
import subprocess
import sys

import pytest
from junitparser import Error, Failure, JUnitXml

from inspector.capture.recorder import Recorder
from inspector.model.capture import Capture
from inspector.net.conform.matrix import load
from inspector.net.conform.mutate import parse_specs, served_variants
from inspector.net.serve import ServerThread, load_served, make_asgi_app
from inspector.net.servers import BackgroundServer
from inspector.providers.conformers import CONFORMANCE
from tests import hostile
from tests.conform_reference import captures
from tests.conftest import ROOT, SHARED_CORPUS
from tests.e2e.conftest import run_cli, spawn, wait_for
from tests.helpers import timed

PROVIDERS = ("anthropic", "openai")
SUBSET = ["plain-text", "one-tool-call", "long-arguments", "max-tokens-cut"]
"""The cases each mutation run sends: text only, a small call (compared without streaming), a long
one, a cut one."""


def conform(url: str, provider: str, *extra: str) -> tuple[int, list[dict], str]:
    code, out, err = run_cli(["conform", "--provider", provider, "--base-url", url, "--format", "json", *extra])
    return code, [json.loads(line) for line in out.splitlines() if line.strip()], err


@pytest.mark.parametrize("provider", PROVIDERS)
def test_good_answers_pass_every_case(provider, tmp_path):
    matrix = load(provider)
    with ServerThread(captures(matrix), instant=True) as srv:
        code, cases, err = conform(srv.url, provider, "--record", str(tmp_path / "rec"))
    assert [c["case"] for c in cases] == [c.name for c in matrix.cases]
    assert {c["case"]: c["grade"] for c in cases} == {c.name: "pass" for c in matrix.cases}, err
    assert code == 0
    compared = [c for c in cases if c["compared"] is not None]
    assert compared and all(c["compared"] == "same" for c in compared)
    # the recording replays in the same order: a reference server anyone can run
    recorded = sorted((tmp_path / "rec").glob("*.jsonl"))
    assert len(recorded) == len(matrix.cases) + len(compared)
    with ServerThread(recorded, instant=True) as again:
        code, cases, _ = conform(again.url, provider)
    assert code == 0 and {c["grade"] for c in cases} == {"pass"}


NEEDS_TWO_TOOLS = {"wrong-tool-choice"}
"""Mutations that choose another tool: they apply to answers with two tools to choose from
(``tests/unit/test_content_faults.py``), and every answer of the subset calls its one declared tool."""
MUTATIONS = [(p, mu.name) for p in PROVIDERS for mu in CONFORMANCE[p].mutations if mu.name not in NEEDS_TWO_TOOLS]


@pytest.mark.parametrize("provider,name", MUTATIONS, ids=[f"{p}-{n}" for p, n in MUTATIONS])
def test_a_mutated_server_fails_the_cases_it_broke_with_its_codes(provider, name, tmp_path):
    matrix = load(provider).only(SUBSET)
    spec = parse_specs(f"{name}=1" if name in ("stall", "keepalive-only") else name)
    served, mutated, _ = served_variants(load_served(captures(matrix)), spec)
    broken = {mc.name.split("--")[0].split("-", 1)[1]: mc for mc in mutated}
    assert "one-tool-call" in broken  # every mutation breaks a plain tool call
    with BackgroundServer(make_asgi_app(served, instant=True)) as srv:
        code, cases, _ = conform(srv.url, provider, "--stall", "0.5", "--only", ",".join(SUBSET))
    assert code == 1 or not any(c["grade"] == "fail" for c in cases)
    allowed = {c.name: set(c.expect.get("allow", ())) for c in matrix.cases}
    sent = {c.name: c.body for c in matrix.cases}
    expected: dict[str, set[str]] = {}
    for case in cases:
        found = {f["code"] for f in case["findings"]}
        mc = broken.get(case["case"])
        if mc is None:
            assert case["grade"] == "pass", case
            continue
        # what conform saw over HTTP is what check sees in the file, judged against the request conform
        # sent (a fault such as ignore-tool-choice writes its forcing into the recorded request only)
        offline = {f["code"] for f in _check(mc.capture, tmp_path, sent[case["case"]])}
        assert found == offline, case["case"]
        expected[case["case"]] = offline
        severities = {f["severity"] for f in case["findings"] if f["code"] not in allowed[case["case"]]}
        if "error" in severities:
            assert case["grade"] == "fail", case
        elif "warning" in severities:
            assert case["grade"] in ("warn", "fail"), case
    tool_call = next(c for c in cases if c["case"] == "one-tool-call")
    # the mutation's codes show wherever conform's request lets them (V003/V004 need a forcing request)
    promised = set(mutated[0].mutation.codes) & expected["one-tool-call"]
    assert {f["code"] for f in tool_call["findings"]} >= promised
    serious = {f["code"] for f in tool_call["findings"] if f["severity"] in ("warning", "error")}
    assert tool_call["grade"] != "pass" or not (serious - allowed["one-tool-call"])


def _check(cap: Capture, tmp_path, body: dict | None = None) -> list[dict]:
    """``check``'s findings on ``cap`` written to a file, with ``body`` as its request's body when given."""
    path = tmp_path / "offline.jsonl"
    request = cap.request
    if body is not None:
        request = {"method": "POST", "url": "http://127.0.0.1/", "headers": {}, **(request or {}), "body": body}
    with Recorder(path, request, cap.response) as rec:
        for c in cap.chunks:
            rec.write_chunk(c)
        rec.write_end(cap.end)
    _, out, _ = run_cli(["check", "--format", "json", "--stall", "0.5", str(path)])
    return json.loads(out)["findings"]


def test_an_unreachable_server_is_graded_not_a_traceback():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, cases, err = conform(f"http://127.0.0.1:{port}", "anthropic", "--only", "plain-text,one-tool-call")
    assert code == 1
    assert [c["grade"] for c in cases] == ["fail", "fail"]
    assert all("connection refused" in c["reason"] for c in cases)
    assert "Traceback" not in err


def test_a_server_answering_in_another_dialect_says_so(tmp_path):
    """``--provider openai`` against a server that streams Anthropic's events: the case fails with
    the dialect named, not with stop reasons or calls read across dialects."""
    with ServerThread([SHARED_CORPUS / "anthropic-doc-tool-call.sse"], instant=True) as srv:
        code, cases, err = conform(srv.url, "openai", "--only", "plain-text,one-tool-call")
    assert code == 1 and "Traceback" not in err
    for c in cases:
        assert c["grade"] == "fail"
        assert c["reason"].startswith("answer is anthropic-messages, not openai-chat"), c["reason"]
        assert not any("stop" in p and "expected" in p for p in c["problems"]), c["problems"]
        assert c["compared"] is None  # no streamed-vs-plain comparison of a foreign answer


def _answer(status: int, body: bytes, ctype: str) -> Capture:
    return timed((0.01, body), end=(0.02, "eof"), status=status, ctype=ctype)


def test_http_errors_and_non_streaming_answers_are_graded_with_the_reason():
    answers = [
        ("plain", _answer(200, b'{"type":"message","content":[]}', "application/json")),   # plain-text: not streamed
        ("busy", _answer(529, b'{"type":"error","error":{"type":"overloaded_error"}}', "application/json")),
        ("no-thinking", _answer(400, b'{"type":"error","error":{"message":"thinking not supported"}}',
                                "application/json")),
    ]
    with ServerThread(answers, instant=True) as srv:
        code, cases, _ = conform(srv.url, "anthropic", "--only", "plain-text,one-tool-call,thinking-and-tool")
    by = {c["case"]: c for c in cases}
    assert by["plain-text"]["grade"] == "fail" and "did not stream" in by["plain-text"]["reason"]
    assert by["one-tool-call"]["grade"] == "fail" and by["one-tool-call"]["reason"].startswith("HTTP 529")
    assert by["thinking-and-tool"]["grade"] == "warn"  # optional: a 4xx means not supported here
    assert "not supported here: HTTP 400" in by["thinking-and-tool"]["reason"]
    assert code == 1


def test_a_server_that_stops_sending_is_given_up_after_the_timeout(raw_server):
    def hang(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, b'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message",'
                        b'"role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{}}}\n\n')
        srv.hold()

    srv = raw_server(hang)
    code, cases, _ = conform(srv.url, "anthropic", "--only", "plain-text", "--timeout", "1")
    assert code == 1
    assert cases[0]["grade"] == "fail" and "no bytes for 1 s" in cases[0]["reason"]


def test_junit_and_github_reports():
    matrix = load("openai").only(["plain-text", "one-tool-call"])
    broken = [("a", _answer(500, b'{"error":{"message":"boom"}}', "application/json"))]
    with ServerThread([*captures(matrix)[:1], *broken], instant=True) as srv:
        code, out, _ = run_cli(["conform", "--provider", "openai", "--base-url", srv.url, "--format", "junit",
                                "--only", "plain-text"])
    assert code == 0
    xml = JUnitXml.fromstring(out)
    suites = list(xml)
    assert [s.name for s in suites] == ["stream-inspector.conform.openai"]
    assert [(c.name, c.is_passed) for c in suites[0]] == [("plain-text", True)]
    with ServerThread([("bad", broken[0][1])], instant=True) as srv:
        code, out, _ = run_cli(["conform", "--provider", "openai", "--base-url", srv.url, "--format", "junit",
                                "--only", "one-tool-call"])
        code2, gh, _ = run_cli(["conform", "--provider", "openai", "--base-url", srv.url, "--format", "github",
                                "--only", "one-tool-call"])
    case = next(iter(next(iter(JUnitXml.fromstring(out)))))
    assert code == 1 and isinstance(case.result[0], Failure) and "HTTP 500" in case.result[0].message
    assert code2 == 1 and gh.startswith("::error title=conform openai one-tool-call%3A fail::HTTP 500")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    _, out, _ = run_cli(["conform", "--provider", "openai", "--base-url", f"http://127.0.0.1:{port}", "--format",
                         "junit", "--only", "plain-text"])
    case = next(iter(next(iter(JUnitXml.fromstring(out)))))
    assert isinstance(case.result[0], Error) and "connection refused" in case.result[0].message


def test_list_only_and_usage_errors(tmp_path):
    code, out, _ = run_cli(["conform", "--provider", "anthropic", "--list"])
    assert code == 0 and "long-arguments" in out and "[compared without streaming]" in out
    code, _, err = run_cli(["conform", "--provider", "anthropic", "--base-url", "http://127.0.0.1:9", "--only", "nope"])
    assert code == 2 and "no case named 'nope'" in err
    code, _, err = run_cli(["conform", "--provider", "anthropic"])
    assert code == 2 and "--base-url" in err
    code, _, err = run_cli(["conform", "--provider", "anthropic", "--base-url", "https://example.invalid"])
    assert code == 2 and "ANTHROPIC_API_KEY" in err
    bad = tmp_path / "m.toml"
    bad.write_text('[[case]]\nname = "x"\nbody = { tools = ["@nope"] }\n')
    code, _, err = run_cli(["conform", "--provider", "anthropic", "--matrix", str(bad), "--list"])
    assert code == 2 and "@nope names no [tools] definition" in err


def test_a_users_own_matrix_file(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('provider = "openai"\nmodel = "m"\n'
                    '[tools.ping]\ntype = "function"\nfunction = { name = "get_weather", parameters = { type = "object" } }\n'
                    '[[case]]\nname = "weather"\nexpect = { tools = ["get_weather"], strict = true }\n'
                    'body = { tools = ["@ping"], messages = [{ role = "user", content = "hi" }] }\n')
    matrix = load("openai", mine)
    assert matrix.cases[0].body["tools"][0]["function"]["name"] == "get_weather"
    with ServerThread(captures(matrix), instant=True) as srv:
        code, cases, _ = conform(srv.url, "openai", "--matrix", str(mine))
    assert code == 0 and cases[0]["case"] == "weather" and cases[0]["grade"] == "pass"


def test_ctrl_c_prints_the_cases_done_so_far(raw_server):
    matrix = load("anthropic").only(["plain-text", "one-tool-call"])
    first = captures(matrix)[0][1].chunks[0].data

    twin = b'{"type":"message","role":"assistant","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn"}'

    def answer(srv, conn, request):
        if len(srv.requests) == 1:
            srv.head(conn)
            srv.chunk(conn, first)
            srv.finish(conn)
        elif len(srv.requests) == 2:  # plain-text's non-streamed twin
            srv.head(conn, ctype="application/json")
            srv.chunk(conn, twin)
            srv.finish(conn)
        else:
            srv.head(conn)
            srv.hold()  # the second case hangs until Ctrl+C

    srv = raw_server(answer)
    proc = spawn(["conform", "--provider", "anthropic", "--base-url", srv.url, "--only", "plain-text,one-tool-call"])
    wait_for(lambda: len(srv.requests) >= 3, "the second case to be sent")  # plain-text, its twin, one-tool-call
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert "plain-text" in out and "interrupted" in out
    assert "Traceback" not in err


def test_on_a_terminal_a_progress_bar_runs_above_the_case_lines():
    matrix = load("anthropic").only(["plain-text", "one-tool-call"])
    with ServerThread(captures(matrix), instant=True) as srv:
        master, slave = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "inspector", "conform", "--provider", "anthropic", "--base-url",
                                 srv.url, "--only", "plain-text,one-tool-call"], stdout=slave, stderr=slave, cwd=ROOT)
        os.close(slave)
        out = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            out += data
        proc.wait(timeout=30)
        os.close(master)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "1/2 plain-text" in text and "2/2 one-tool-call" in text  # the bar names the case being sent
    assert "\u2501" in text  # rich's bar
    assert "PASS  plain-text" in text and "2 pass, 0 warn, 0 fail" in text


def test_the_live_case_lines_quote_a_hostile_server_escaped_and_masked(tmp_path):
    # --format text prints each case as it ends, quoting the server's answer: no escape, C1 or bidi
    # character reaches the terminal, and a key the server echoes is masked.
    key = "sk-ant-api03-" + "Hq5Jw7Ke9Lr1" * 3
    capture = tmp_path / "hostile.jsonl"
    capture.write_text(hostile.native("anthropic").replace("errmessage:", key).replace("toolid:", key), encoding="utf-8")
    with ServerThread([capture], instant=True) as srv:
        code, out, err = run_cli(["conform", "--provider", "anthropic", "--base-url", srv.url, "--format", "text",
                                  "--only", "plain-text"])
    assert code == 1, err
    assert "\\x1b]52" in out and not [f for f in hostile.FORBIDDEN if f in out + err], out
    assert not [c for c in out if 0x80 <= ord(c) < 0xA0]
    assert "sk-ant-[redacted]" in out and "Hq5Jw7Ke9Lr1" not in out + err
