"""The official ``cohere`` SDK (``ClientV2.chat_stream``) reads Cohere captures back through ``serve``, through
``proxy`` and under ``run`` (``CO_API_URL``), and gets the tool calls; on each Cohere mutation it loses
exactly what the rule that mutation triggers says it loses.

The captures are the two example streams of docs.cohere.com/v2/docs/tool-use-streaming
(``tests/real_streams/cohere``). The SDK hands the application events; the application assembles the
calls as Cohere's docs do (one call per ``index``: the start's id and name, the deltas' arguments).
"""
from __future__ import annotations

import json
import logging
import os
import sys
import textwrap

import pytest

from inspector.capture.load import load_path
from inspector.net.conform.mutate import Spec, apply
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from inspector.providers.conformers import CONFORMANCE
from tests.conftest import ROOT
from tests.e2e.conftest import WAIT_S, run_cli, spawn

cohere = pytest.importorskip("cohere")

HERE = ROOT / "tests" / "real_streams" / "cohere"
TOOLS = HERE / "docs-tool-use-streaming-tool-calls.sse"
ANSWER = HERE / "docs-tool-use-streaming-response.sse"
MADRID = ("get_weather_p1t92w7gfgq7", "get_weather", {"location": "Madrid"})
BRASILIA = ("get_weather_ay6nmvjgp9vn", "get_weather", {"location": "Brasilia"})
KEY = "co-TESTKEY-0123456789abcdef"


def mutated(name: str):
    mc = apply(TOOLS.stem, str(TOOLS), load_path(TOOLS), Spec(name))
    return f"{TOOLS.stem}--{name}", mc.capture


@pytest.fixture(scope="module")
def server():
    extra = [mutated(mu.name) for mu in CONFORMANCE["cohere"].mutations
             if mu.name not in ("stall", "keepalive-only", "wrong-tool-choice")]  # two calls of one tool: none to swap
    with ServerThread([TOOLS, ANSWER, *extra], instant=True) as srv:
        yield srv


def read(base_url: str) -> dict:
    """Everything an application gets from one ``chat_stream``, assembled the way Cohere's docs do."""
    client = cohere.ClientV2(api_key=KEY, base_url=base_url, timeout=WAIT_S)
    got = {"types": [], "plan": "", "text": "", "calls": {}, "ended": [], "finish_reason": None, "citations": 0}
    for event in client.chat_stream(model="command-a-03-2025", messages=[{"role": "user", "content": "weather?"}]):
        got["types"].append(event.type)
        if event.type == "tool-plan-delta":
            got["plan"] += event.delta.message.tool_plan
        elif event.type == "tool-call-start":
            tc = event.delta.message.tool_calls
            got["calls"][event.index] = [tc.id, tc.function.name, tc.function.arguments or ""]
        elif event.type == "tool-call-delta":
            got["calls"][event.index][2] += event.delta.message.tool_calls.function.arguments
        elif event.type == "tool-call-end":
            got["ended"].append(event.index)
        elif event.type == "content-delta":
            got["text"] += event.delta.message.content.text
        elif event.type == "citation-start":
            got["citations"] += 1
        elif event.type == "message-end":
            got["finish_reason"] = event.delta.finish_reason
    return got


def calls(got: dict) -> list[tuple]:
    return [(i, n, json.loads(a)) for i, n, a in got["calls"].values()]


def test_sdk_gets_the_plan_and_both_tool_calls_through_serve(server):
    got = read(server.url_for(TOOLS.stem))
    assert got["plan"] == "I will search for the weather in Madrid and Brasilia."
    assert calls(got) == [MADRID, BRASILIA] and got["ended"] == [0, 1]
    assert got["finish_reason"] == "TOOL_CALL"


def test_sdk_gets_the_text_and_citations_through_serve(server):
    got = read(server.url_for(ANSWER.stem))
    assert got["text"] == "It is currently 24°C in Madrid and 28°C in Brasilia."
    assert got["citations"] == 2 and got["finish_reason"] == "COMPLETE"


def test_sdk_gets_the_tool_calls_through_proxy_and_the_report_is_checks(server):
    with ProxyThread(server.url, timeout=WAIT_S) as px:
        got = read(f"{px.url}/{TOOLS.stem}")
        [report] = px.wait_reports(1)
        stored = px.log.exchanges[0].request["headers"]
    assert calls(got) == [MADRID, BRASILIA] and got["finish_reason"] == "TOOL_CALL"
    assert report["path"] == f"/{TOOLS.stem}/v2/chat" and report["dialect"] == "cohere-chat"
    assert report["findings"] == [] and report["stop_reason"] == "TOOL_CALL"
    assert [b["kind"] for b in report["blocks"]] == ["tool_plan", "tool_call", "tool_call"]
    assert [b["name"] for b in report["blocks"][1:]] == ["get_weather", "get_weather"]
    assert KEY not in json.dumps(stored)
    code, out, _ = run_cli(["check", "--format", "json", str(TOOLS)])
    assert code == 0 and json.loads(out)["findings"] == []


def test_k001_the_sdk_drops_tool_calls_sent_as_a_list(server, caplog):
    with caplog.at_level(logging.WARNING):
        got = read(server.url_for(f"{TOOLS.stem}--tool-calls-as-list"))
    assert calls(got) == [BRASILIA]  # the first call's events never reach the application; the rest does
    assert got["types"].count("tool-call-start") == 1 and got["finish_reason"] == "TOOL_CALL"
    assert "Skipping SSE event due to model construction error" in caplog.text


def test_k002_the_sdk_stops_at_done_before_message_end(server):
    got = read(server.url_for(f"{TOOLS.stem}--done-before-end"))
    assert got["finish_reason"] is None and "message-end" not in got["types"]
    assert "tool-call-start" in got["types"] and 1 not in got["calls"]  # the second call is lost


def test_the_other_mutations_reach_the_sdk_as_their_rules_say(server):
    cut = read(server.url_for(f"{TOOLS.stem}--no-stop-event"))  # S003: no finish_reason at all
    assert cut["finish_reason"] is None and calls(cut) == [MADRID, BRASILIA]
    open_call = read(server.url_for(f"{TOOLS.stem}--drop-call-end"))  # J005: call 0 never ends
    assert open_call["ended"] == [1]
    failed = read(server.url_for(f"{TOOLS.stem}--error-event"))  # S006 and J005: ERROR mid-arguments
    assert failed["finish_reason"] == "ERROR" and failed["ended"] == []
    with pytest.raises(Exception):  # S012: the reset reaches the SDK as a transport error
        read(server.url_for(f"{TOOLS.stem}--reset"))
    split = read(server.url_for(f"{TOOLS.stem}--utf8-split"))  # legal: the SDK decodes across chunks
    assert calls(split) == [(MADRID[0], MADRID[1], {"location": "\u00e9Madrid"}), BRASILIA]


AGENT = textwrap.dedent('''
    import json
    import cohere

    co = cohere.ClientV2(api_key="co-run-test-key-000")  # base URL from CO_API_URL only
    calls = {}
    for event in co.chat_stream(model="command-a-03-2025", messages=[{"role": "user", "content": "weather?"}]):
        if event.type == "tool-call-start":
            calls[event.index] = [event.delta.message.tool_calls.function.name, ""]
        elif event.type == "tool-call-delta":
            calls[event.index][1] += event.delta.message.tool_calls.function.arguments
    print("cohere", [(n, json.loads(a)) for n, a in calls.values()], flush=True)
''')


def test_run_points_co_api_url_at_the_proxy(server, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    reports = tmp_path / "reports.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "CO_API_URL"}
    proc = spawn(["run", "--format", "json", "-o", str(reports), "--upstream",
                  f"cohere={server.url_for(TOOLS.stem)}", "--", sys.executable, str(agent)], env=env)
    try:
        out, err = proc.communicate(timeout=180)
    except Exception:
        proc.kill()
        raise
    assert proc.returncode == 0, err[-3000:]
    assert out == ("cohere [('get_weather', {'location': 'Madrid'}), "
                   "('get_weather', {'location': 'Brasilia'})]\n")
    banner = {line.split()[0]: line for line in err.splitlines() if line.startswith("  ")}
    assert "/cohere " in banner["CO_API_URL"] and banner["CO_API_URL"].endswith("(--upstream)")
    [report] = [json.loads(line) for line in reports.read_text().splitlines()]
    assert report["path"] == "/cohere/v2/chat" and report["dialect"] == "cohere-chat" and report["findings"] == []


def test_live_provider_cohere_posts_to_v2_chat_with_the_key_as_bearer(server, tmp_path, monkeypatch):
    monkeypatch.setenv("CO_API_KEY", KEY)
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"model": "command-a-03-2025", "messages": [{"role": "user", "content": "weather?"}]}))
    record = tmp_path / "live.jsonl"
    code, out, err = run_cli(["live", "--provider", "cohere", "--base-url", server.url_for(TOOLS.stem),
                              "--request", str(req), "--format", "json", "--record", str(record)])
    assert code == 0, err
    report = json.loads(out)
    assert report["dialect"] == "cohere-chat" and report["findings"] == [] and report["stop_reason"] == "TOOL_CALL"
    head = json.loads(record.read_text().splitlines()[0])
    assert head["request"]["url"].endswith(f"/{TOOLS.stem}/v2/chat") and head["request"]["body"]["stream"] is True
    assert KEY not in record.read_text()  # the bearer key is masked in the recording


COHERE_SURVIVAL = {"tool-calls-as-list": "dropped", "done-before-end": "dropped",
                   "no-stop-event": "dropped", "drop-call-end": "survived", "error-event": "dropped",
                   "stall": "survived", "reset": "crashed", "bom": "survived", "utf8-split": "survived",
                   "undeclared-tool": "survived", "schema-violation": "survived", "ignore-tool-choice": "survived",
                   "empty-answer": "survived", "max-tokens-mid-call": "ran-wrong-arguments"}
"""What an agent on the cohere SDK (``tests/clients/cohere_agent.py``, the docs' assembly) sends back next under
each mutation. ``drop-call-end`` survives: the docs' assembly never waits for ``tool-call-end`` (J005 is about
clients that do). The three V mutations survive too: the SDK hands over what was sent (an undeclared name, broken
arguments, a text answer); judging it against the request is the agent's check (V001–V003). Under
``max-tokens-mid-call`` the docs' assembly runs the cut call (it never looks at ``finish_reason``)."""


def test_conform_client_grades_the_cohere_sdk_agent_under_every_mutation():
    from inspector.net.conform import client
    from inspector.net.conform.mutate import parse_specs
    from tests.clients import cohere_agent

    names = [mu.name for mu in CONFORMANCE["cohere"].mutations]
    specs = parse_specs(",".join(n + ("=1" if n == "stall" else "") for n in names))
    skipped: list[str] = []
    verdicts = client.run(cohere_agent.run, "cohere", specs, capture=TOOLS, next_timeout=3, timeout=30,
                          on_skip=skipped.append)
    assert [line.split(":")[0] for line in skipped] == ["wrong-tool-choice"]  # the docs' calls are one tool
    measured = {v.mutation.split("=")[0]: v.outcome for v in verdicts}
    assert measured == COHERE_SURVIVAL
    details = {v.mutation.split("=")[0]: "\n".join(v.problems) for v in verdicts}
    assert "get_weather_p1t92w7gfgq7" in details["tool-calls-as-list"] and "dropped" in details["tool-calls-as-list"]
    assert "not JSON" in details["done-before-end"]  # the SDK stopped mid-arguments: half a call is sent back
