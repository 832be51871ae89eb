"""``run -- python agent.py``: an agent using the official SDKs, pointed at the proxy by environment only.

The agent (written to a temporary file) constructs ``anthropic.Anthropic()`` and ``openai.OpenAI()``
with no base URL and streams one answer from each; ``run`` starts the proxy, sets the SDKs'
variables, and the proxy forwards each SDK's route to ``serve`` on 127.0.0.1 (one capture per
provider). Checked: the agent's stdout/stderr pass through byte for byte, its exit status is
``run``'s, each exchange is reported and recorded under its provider's route.
"""
from __future__ import annotations

import json
import os
import sys
import textwrap

import httpx
import pytest

from inspector.net.launch import ollama_host_url, parse_upstreams, plan
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from inspector.providers.variables import variables
from tests.e2e.conftest import WAIT_S, run_cli, spawn

AGENT = textwrap.dedent('''
    import sys
    import anthropic
    import openai

    claude = anthropic.Anthropic(max_retries=0, timeout=10)  # base URL and key from the environment only
    with claude.messages.stream(model="claude-x", max_tokens=64,
                                messages=[{"role": "user", "content": "weather?"}]) as stream:
        message = stream.get_final_message()
    tool = message.content[1]
    print("anthropic", message.stop_reason, tool.name, tool.input, flush=True)

    gpt = openai.OpenAI(max_retries=0, timeout=10)
    calls = {}
    for chunk in gpt.chat.completions.create(model="gpt-x", messages=[{"role": "user", "content": "x"}], stream=True):
        for choice in chunk.choices:
            for tc in choice.delta.tool_calls or []:
                calls.setdefault(tc.index, "")
                calls[tc.index] += (tc.function.arguments or "") if tc.function else ""
    print("openai", calls, flush=True)
    print("agent: done \\u2713", file=sys.stderr, flush=True)
    sys.exit(3)
''')
EXPECTED_STDOUT = ("anthropic tool_use get_weather {'location': 'Porto Alegre, RS'}\n"
                   "openai {0: '{\"symbol\": \"ACME\"}', 1: '{\"pair\": \"EURBRL\"}'}\n")


@pytest.fixture
def served(corpus):
    with ServerThread([corpus / "anthropic-doc-tool-call.sse", corpus / "openai-parallel-indexed.sse"],
                      instant=True) as srv:
        yield srv


@pytest.fixture
def agent(tmp_path):
    p = tmp_path / "agent.py"
    p.write_text(AGENT)
    return p


def clean_env(**extra) -> dict:
    """This process's environment without any variable ``run`` sets or falls back to."""
    names = {name for v in variables() for name in (v.name, *v.var.fallback)}
    env = {k: v for k, v in os.environ.items() if k not in names}
    return {**env, "ANTHROPIC_API_KEY": "sk-ant-run-test-key-000", "OPENAI_API_KEY": "sk-run-test-key-000", **extra}


def finish(proc) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=180)  # generous: the SDK imports are slow on a loaded machine
    except Exception:
        proc.kill()
        raise


def check_reports(path) -> None:
    reports = [json.loads(line) for line in path.read_text().splitlines()]
    by_path = {r["path"]: r for r in reports}
    assert set(by_path) == {"/anthropic/v1/messages", "/openai/chat/completions"}
    a, o = by_path["/anthropic/v1/messages"], by_path["/openai/chat/completions"]
    assert a["dialect"] == "anthropic-messages" and a["stop_reason"] == "tool_use" and a["findings"] == []
    assert [b["input"] for b in a["blocks"] if b["kind"] == "tool_use"] == [{"location": "Porto Alegre, RS"}]
    assert o["dialect"] == "openai-chat" and [b["name"] for b in o["blocks"]] == ["get_stock", "get_fx"]
    assert a["url"].endswith("/anthropic-doc-tool-call/v1/messages")
    assert o["url"].endswith("/openai-parallel-indexed/v1/chat/completions")


def test_run_points_both_sdks_at_their_own_route(served, agent, tmp_path):
    """Anthropic's route forwards where ``ANTHROPIC_BASE_URL`` pointed before ``run`` replaced it;
    OpenAI's where ``--upstream openai=URL`` says. (One agent for both: importing the two SDKs
    is the slow part of this test.)"""
    reports, record = tmp_path / "reports.jsonl", tmp_path / "rec"
    env = clean_env(ANTHROPIC_BASE_URL=served.url_for("anthropic-doc-tool-call"))
    proc = spawn(["run", "--format", "json", "-o", str(reports), "--record", str(record),
                  "--upstream", f"openai={served.url_for('openai-parallel-indexed')}/v1",
                  "--", sys.executable, str(agent)], env=env)
    out, err = finish(proc)
    assert proc.returncode == 3, err[-3000:]  # the agent's exit status, passed on
    assert out == EXPECTED_STDOUT  # stdout unchanged (the reports went to -o)
    assert "agent: done ✓" in err and "Traceback" not in err
    banner = {line.split()[0]: line for line in err.splitlines() if line.startswith("  ")}
    assert banner["ANTHROPIC_BASE_URL"].endswith("/anthropic-doc-tool-call (environment)")
    assert banner["OPENAI_BASE_URL"].endswith("/openai-parallel-indexed/v1 (--upstream)")
    check_reports(reports)
    assert sorted(p.name for p in record.iterdir()) == ["001-POST-anthropic-v1-messages.jsonl",
                                                         "002-POST-openai-chat-completions.jsonl"]


def test_json_reports_share_stdout_with_the_command_when_no_file_is_given(served, tmp_path):
    script = tmp_path / "plain.py"
    script.write_text(textwrap.dedent('''
        import json, os, sys, urllib.request
        # One write per line: with PYTHONUNBUFFERED print() writes the text and its newline apart,
        # and the proxy's report, on the same stdout, may land between the two.
        sys.stdout.write("before\\n"); sys.stdout.flush()
        req = urllib.request.Request(os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages", method="POST",
                                     data=json.dumps({"model": "m", "stream": True, "messages": []}).encode(),
                                     headers={"content-type": "application/json"})
        urllib.request.urlopen(req, timeout=10).read()
        sys.stdout.write("after\\n"); sys.stdout.flush()
    '''))
    proc = spawn(["run", "--format", "json", "--upstream", f"anthropic={served.url_for('anthropic-doc-tool-call')}",
                  "--", sys.executable, str(script)], env=clean_env())
    out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    lines = out.splitlines()
    assert [ln for ln in lines if not ln.startswith("{")] == ["before", "after"]
    assert [json.loads(ln)["dialect"] for ln in lines if ln.startswith("{")] == ["anthropic-messages"]


@pytest.mark.parametrize("argv,code,why", [
    (["--", "no-such-command-xyz"], 127, "command not found"),
    ([], 2, "no command to run"),
    (["--upstream", "claude=http://127.0.0.1:9", "--", "true"], 2, "unknown name 'claude'"),
    (["--upstream", "ftp://x", "--", "true"], 2, "http:// or https://"),
])
def test_bad_usage_is_one_line(argv, code, why):
    rc, _, err = run_cli(["run", "--format", "json", *argv])
    assert rc == code and why in err and "Traceback" not in err


def test_a_signal_ending_the_command_is_reported_as_a_shell_does(tmp_path):
    script = tmp_path / "die.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n")
    rc, _, _ = run_cli(["run", "--format", "json", "--", sys.executable, str(script)])
    assert rc == 128 + 15


def test_plan_routes_each_variable():
    single, per = parse_upstreams(["openai=http://127.0.0.1:8000/v1"])
    p = plan({"OLLAMA_HOST": "0.0.0.0:11500", "ANTHROPIC_BASE_URL": "https://gw.example/anthropic"}, single=single, per=per)
    rows = {var: (value, upstream, source) for var, value, upstream, source in p.table("http://127.0.0.1:9")}
    assert rows["ANTHROPIC_BASE_URL"] == ("http://127.0.0.1:9/anthropic", "https://gw.example/anthropic", "environment")
    assert rows["OPENAI_BASE_URL"] == ("http://127.0.0.1:9/openai", "http://127.0.0.1:8000/v1", "--upstream")
    assert rows["OLLAMA_HOST"] == ("http://127.0.0.1:9", "http://127.0.0.1:11500", "environment")
    assert rows["GOOGLE_GEMINI_BASE_URL"][1:] == ("https://generativelanguage.googleapis.com", "default")
    r = p.routes.match("/api/chat")
    assert r.name == "ollama" and r.url_for("/api/chat", "") == "http://127.0.0.1:11500/api/chat"
    assert p.routes.match("/openai/chat/completions").url_for("/openai/chat/completions", "") == \
        "http://127.0.0.1:8000/v1/chat/completions"
    assert p.routes.match("/elsewhere") is None
    one = plan({}, single="http://127.0.0.1:4000")
    rows = {var: value for var, value, *_ in one.table("http://127.0.0.1:9")}
    assert rows["OPENAI_BASE_URL"] == "http://127.0.0.1:9/v1" and rows["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9"


@pytest.mark.parametrize("value,url", [
    ("", "http://127.0.0.1:11434"), ("example.com", "http://example.com:11434"), (":5000", "http://127.0.0.1:5000"),
    ("https://example.com", "https://example.com:443"), ("http://h:1/base/", "http://h:1/base"),
])
def test_ollama_host_is_read_as_the_ollama_clients_read_it(value, url):
    assert ollama_host_url(value) == url


def test_unknown_route_is_a_404_not_a_forward(served):
    p = plan({}, single=None, per={"anthropic": served.url_for("anthropic-doc-tool-call")})
    with ProxyThread(p.routes) as px:
        r = httpx.get(f"{px.url}/nowhere/v1/models", timeout=WAIT_S)
        assert r.status_code == 404 and "no route for /nowhere/v1/models" in r.json()["error"]["message"]
        assert px.log.exchanges == []
