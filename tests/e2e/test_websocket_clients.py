"""Real WebSocket clients through ``proxy`` and ``run`` against ``serve`` (issue 30, Done-when).

openai-python's ``client.responses.connect()`` and openai-agents' ``responses_websocket_session()`` drive
two tool rounds on one socket (``tests/websocket/data/responses-two-tool-rounds.jsonl`` served over a
WebSocket): each response must be its own exchange in the proxy, the calls assembled by the client and
by the inspector, the proxy's report of each equal to ``check`` of the socket it recorded. A socket that
drops mid-call (``serve --mutate reset``: no close frame, 1006) gives S012 and J005. Everything on
127.0.0.1; openai-agents' tracing is off (it would post to api.openai.com).
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import openai
import pytest

from inspector.net.conform.mutate import parse_specs, served_variants
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread, load_served, make_asgi_app
from inspector.net.servers import BackgroundServer
from tests.conftest import ROOT
from tests.e2e.conftest import WAIT_S, report_shape, run_cli, spawn
from tests.e2e.test_run import clean_env, finish

SOCKET = ROOT / "tests" / "websocket" / "data" / "responses-two-tool-rounds.jsonl"
SSE_CALL = ROOT / "tests" / "real_streams" / "openai-responses" / "vercel-gpt-5.1-function-call.sse"
SKU = "sku-froge-lily-pad-deluxe"
TOOLS = [{"type": "function", "name": name, "description": "pond stock", "strict": True,
          "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"],
                         "additionalProperties": False}} for name in ("get_sku_inventory", "get_supplier_eta")]

OPENAI_AGENT = textwrap.dedent('''
    """One socket, tool rounds until an answer without calls; prints each response's id and calls."""
    import json, os, sys
    from openai import OpenAI

    TOOLS = json.loads(sys.argv[1])
    client = OpenAI(base_url=os.environ.get("AGENT_BASE_URL") or None, max_retries=0)
    rounds = []
    with client.responses.connect() as conn:
        conn.response.create(model="gpt-5.1", input="Check stock and restock ETA.", tools=TOOLS)
        while True:
            calls = []
            for ev in conn:
                if ev.type == "response.output_item.done" and ev.item.type == "function_call":
                    calls.append(ev.item)
                if ev.type in ("response.completed", "response.failed", "response.incomplete"):
                    break
            rounds.append({"id": ev.response.id, "calls": [[c.name, c.arguments] for c in calls],
                           "text": ev.response.output_text})
            if not calls:
                break
            conn.response.create(model="gpt-5.1", previous_response_id=ev.response.id, tools=TOOLS,
                                 input=[{"type": "function_call_output", "call_id": c.call_id,
                                         "output": json.dumps({"ok": True})} for c in calls])
    print(json.dumps(rounds), flush=True)
''')

AGENTS_AGENT = textwrap.dedent('''
    """openai-agents: an Agent with two function tools over responses_websocket_session()."""
    import asyncio, json, os
    from agents import Agent, function_tool, set_tracing_disabled
    from agents.responses_websocket_session import responses_websocket_session

    set_tracing_disabled(True)
    calls = []

    @function_tool
    def get_sku_inventory(sku: str) -> str:
        """Return pond inventory details for a SKU."""
        calls.append(["get_sku_inventory", sku])
        return json.dumps({"on_hand": 84})

    @function_tool
    def get_supplier_eta(sku: str) -> str:
        """Return supplier restock ETA data for a SKU."""
        calls.append(["get_supplier_eta", sku])
        return json.dumps({"eta": "2026-02-24"})

    async def main():
        agent = Agent(name="stock", instructions="Answer from the tools.", model="gpt-5.1",
                      tools=[get_sku_inventory, get_supplier_eta])
        async with responses_websocket_session(base_url=os.environ.get("AGENT_BASE_URL") or None) as ws:
            result = await ws.run(agent, "Check stock and restock ETA for sku-froge-lily-pad-deluxe.")
        print(json.dumps({"calls": calls, "final": result.final_output}), flush=True)

    asyncio.run(main())
''')

ASSEMBLED = [("get_sku_inventory", {"sku": SKU}), ("get_supplier_eta", {"sku": SKU})]
FINAL = "84 units on hand; restock arrives 2026-02-24."


@pytest.fixture
def served():
    with ServerThread([SOCKET], instant=True) as srv:
        yield srv


def agent_file(tmp_path, source: str):
    path = tmp_path / "agent.py"
    path.write_text(source)
    return path


def run_agent(path, base_url: str | None, *args: str, env: dict | None = None) -> str:
    """The agent script as a child process (the SDKs' real imports and sockets), its standard output."""
    proc = spawn_python(path, args, {**clean_env(), **({"AGENT_BASE_URL": base_url} if base_url else {}), **(env or {})})
    out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    return out


def spawn_python(path, args, env):
    return subprocess.Popen([sys.executable, str(path), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def check_reports(path) -> list[dict]:
    code, out, err = run_cli(["check", "--format", "json", str(path)])
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


def assert_three_exchanges(reports: list[dict], recording) -> None:
    """Each response its own exchange, the calls assembled, each report equal to ``check`` of the recording."""
    assert [r["method"] for r in reports] == ["WS"] * 3
    assert [r["status"] for r in reports] == [101] * 3
    assert [r["dialect"] for r in reports] == ["openai-responses"] * 3
    assert [r["continues"] for r in reports] == [None, reports[0]["exchange"], reports[1]["exchange"]]
    assert [(b["name"], b["input"]) for r in reports for b in r["blocks"] if b["kind"] == "function_call"] == ASSEMBLED
    assert reports[2]["blocks"][0]["text"] == FINAL
    assert all(r["findings"] == [] for r in reports), [r["findings"] for r in reports]
    checked = check_reports(recording)
    assert [report_shape(r) for r in reports] == [report_shape(c) for c in checked]


def test_openai_python_connect_through_proxy(served, tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    with ProxyThread(served.url, record_dir=rec) as proxy:
        out = run_agent(agent_file(tmp_path, OPENAI_AGENT), proxy.url + "/v1", json.dumps(TOOLS))
        reports = proxy.wait_reports(3, WAIT_S)
    rounds = json.loads(out)
    assert [r["id"] for r in rounds] == ["resp_ws_1", "resp_ws_2", "resp_ws_3"]
    assert [[(n, json.loads(a)) for n, a in r["calls"]] for r in rounds] == [[ASSEMBLED[0]], [ASSEMBLED[1]], []]
    assert rounds[2]["text"] == FINAL
    (recording,) = rec.glob("*-WS-v1-responses.jsonl")
    assert_three_exchanges(reports, recording)


def test_openai_agents_session_through_proxy(served, tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    with ProxyThread(served.url, record_dir=rec) as proxy:
        out = run_agent(agent_file(tmp_path, AGENTS_AGENT), proxy.url + "/v1")
        reports = proxy.wait_reports(3, WAIT_S)
    got = json.loads(out)
    assert got == {"calls": [[n, a["sku"]] for n, a in ASSEMBLED], "final": FINAL}
    (recording,) = rec.glob("*-WS-v1-responses.jsonl")
    assert_three_exchanges(reports, recording)


@pytest.mark.parametrize("source", [OPENAI_AGENT, AGENTS_AGENT], ids=["openai-python", "openai-agents"])
def test_run_points_the_sdks_websocket_at_its_proxy(served, tmp_path, source):
    """``run`` sets the variables; the SDKs derive the socket's URL from them (openai-agents would read
    a stale ``OPENAI_WEBSOCKET_BASE_URL`` first: ``run`` points that one at the proxy too)."""
    reports_file, rec = tmp_path / "reports.jsonl", tmp_path / "rec"
    agent = agent_file(tmp_path, source)
    env = clean_env(OPENAI_WEBSOCKET_BASE_URL="wss://api.openai.com/v1")
    proc = spawn(["run", "--format", "json", "-o", str(reports_file), "--record", str(rec),
                  "--upstream", f"openai={served.url}/v1", "--", sys.executable, str(agent), json.dumps(TOOLS)], env=env)
    out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    reports = [json.loads(line) for line in reports_file.read_text().splitlines()]
    assert [r["path"] for r in reports] == ["/openai/responses"] * 3
    (recording,) = rec.glob("*-WS-openai-responses.jsonl")
    assert_three_exchanges(reports, recording)


def test_a_socket_dropped_mid_call_gives_s012_and_j005(tmp_path):
    served, _, _ = served_variants(load_served([SSE_CALL]), parse_specs("reset"))

    class Server(BackgroundServer):
        websockets = True

    rec = tmp_path / "rec"
    rec.mkdir()
    with Server(make_asgi_app(served, instant=True)) as srv, ProxyThread(srv.url, record_dir=rec) as proxy:
        client = openai.OpenAI(base_url=proxy.url + "/v1", api_key="sk-ws-test-000", max_retries=0)
        with pytest.raises(Exception) as e:  # noqa: PT011 - the SDK passes the websockets error on as it is
            with client.responses.connect() as conn:
                conn.response.create(model="gpt-5.1", input="weather?", tools=TOOLS)
                for _ in conn:
                    pass
        (report,) = proxy.wait_reports(1, WAIT_S)
    assert "no close frame" in str(e.value)
    codes = {f["code"] for f in report["findings"]}
    assert {"S012", "J005"} <= codes
    s012 = next(f for f in report["findings"] if f["code"] == "S012")
    assert "1006" in s012["message"]
    (recording,) = rec.glob("*-WS-v1-responses.jsonl")
    assert [report_shape(report)] == [report_shape(c) for c in check_reports(recording)]


def test_serve_answers_a_socket_with_an_sse_captures_events(tmp_path):
    """Same events, another carrier: each SSE event's data one message, in order, nothing else."""
    from inspector.framing.sse import SSEDecoder

    expected = [f.data for f in SSEDecoder().feed(SSE_CALL.read_bytes()) if getattr(f, "data", "").strip()]
    with ServerThread([SSE_CALL], instant=True) as srv:
        client = openai.OpenAI(base_url=srv.url + "/v1", api_key="sk-ws-test-000", max_retries=0)
        got = []
        with client.responses.connect() as conn:
            conn.response.create(model="gpt-5.1", input="weather?", tools=TOOLS)
            while True:
                raw = conn.recv_bytes()
                got.append(raw.decode())
                if json.loads(raw)["type"] == "response.completed":
                    break
    assert got == expected


def test_live_over_a_websocket_reads_and_records_one_response(served, tmp_path):
    req, rec = tmp_path / "req.json", tmp_path / "live.jsonl"
    req.write_text(json.dumps({"model": "gpt-5.1", "input": "Check stock.", "tools": TOOLS, "stream": True}))
    code, out, err = run_cli(["live", "--provider", "openai-responses", "--transport", "websocket", "--base-url",
                              served.url + "/v1", "--request", str(req), "--format", "json", "--record", str(rec)])
    assert code == 0, err
    report = json.loads(out)
    assert [(b["name"], b["input"]) for b in report["blocks"]] == [ASSEMBLED[0]]
    assert report["findings"] == []
    lines = [json.loads(line) for line in rec.read_text().splitlines()]
    sent = json.loads(lines[1]["data"])
    assert lines[1]["ws"] == "send" and sent["type"] == "response.create" and "stream" not in sent
    assert lines[-1] == {"t": lines[-1]["t"], "end": "close", "code": 1000}
    assert [report_shape(report)] == [report_shape(c) for c in check_reports(rec)]


def test_live_over_a_websocket_refused_is_s007(tmp_path):
    from tests.e2e.ws_upstream import WsUpstream

    req = tmp_path / "req.json"
    req.write_text(json.dumps({"model": "gpt-5.1", "input": "hi"}))
    with WsUpstream(refuse=True) as up:
        code, out, err = run_cli(["live", "--provider", "openai-responses", "--transport", "websocket", "--base-url",
                                  up.url + "/v1", "--request", str(req), "--format", "json"])
    assert code == 1, err
    assert "S007" in {f["code"] for f in json.loads(out)["findings"]}


def test_serve_mutations_on_a_socket_stall_and_drop_the_terminal_message():
    """``stall`` holds the next message back (kept under ``--instant``); ``no-stop-event`` never sends
    ``response.completed``: the socket stays open and silent, as a client waiting on it would see."""
    served, _, _ = served_variants(load_served([SSE_CALL]), parse_specs("stall=1,no-stop-event"))

    class Server(BackgroundServer):
        websockets = True

    from websockets.sync.client import connect

    with Server(make_asgi_app(served, instant=True)) as srv:
        with connect("ws" + srv.url[len("http"):] + f"/{served[0].name}/v1/responses", open_timeout=WAIT_S) as c:
            c.send(json.dumps({"type": "response.create", "model": "gpt-5.1", "input": "hi"}))
            times, types = [], []
            while not types or types[-1] != "response.completed":
                times.append(time.monotonic())
                types.append(json.loads(c.recv(WAIT_S))["type"])
        # times are taken when the client turns to wait, so a message read a little late after the one
        # before shortens the measured gap below the 1 s held back; unheld gaps are milliseconds
        assert max(b - a for a, b in zip(times, times[1:])) >= 0.9
        with connect("ws" + srv.url[len("http"):] + f"/{served[1].name}/v1/responses", open_timeout=WAIT_S) as c:
            c.send(json.dumps({"type": "response.create", "model": "gpt-5.1", "input": "hi"}))
            got = []
            with pytest.raises(TimeoutError):
                while True:
                    got.append(json.loads(c.recv(1.0))["type"])
    assert got and "response.completed" not in got and got[-1] == "response.output_item.done"


def test_serve_without_loop_stops_once_the_socket_that_took_every_answer_ends(tmp_path):
    from tests.e2e.conftest import LOOPBACK

    proc = spawn(["serve", "--instant", "--port", "0", str(SOCKET)])
    try:
        line = proc.stdout.readline()
        url = line.rsplit(" on ", 1)[1].strip()
        assert url.startswith(f"http://{LOOPBACK}:")
        out = run_agent(agent_file(tmp_path, OPENAI_AGENT), url + "/v1", json.dumps(TOOLS))
        assert [r["id"] for r in json.loads(out)] == ["resp_ws_1", "resp_ws_2", "resp_ws_3"]
        rest, _ = proc.communicate(timeout=WAIT_S)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert "every capture served once: stopping" in rest


def test_a_tool_output_for_an_unknown_call_gets_q003_on_the_next_exchange(served):
    """The next ``response.create`` is judged against the response its ``previous_response_id`` names
    (the socket's chain, as ``check`` chains a recording); the finding is on the new exchange's report."""
    from websockets.sync.client import connect

    with ProxyThread(served.url) as proxy:
        with connect("ws" + proxy.url[len("http"):] + "/v1/responses", open_timeout=WAIT_S) as c:
            c.send(json.dumps({"type": "response.create", "model": "gpt-5.1", "input": "go", "tools": TOOLS}))
            while json.loads(c.recv(WAIT_S))["type"] != "response.completed":
                pass
            c.send(json.dumps({"type": "response.create", "model": "gpt-5.1", "previous_response_id": "resp_ws_1",
                               "tools": TOOLS, "input": [{"type": "function_call_output", "call_id": "call_bogus",
                                                          "output": "{}"}]}))
            while json.loads(c.recv(WAIT_S))["type"] != "response.completed":
                pass
        first, second = proxy.wait_reports(2, WAIT_S)
    assert first["findings"] == [] and second["continues"] == first["exchange"]
    (q,) = [f for f in second["findings"] if f["code"].startswith("Q")]
    assert q["code"] == "Q003" and "call_bogus" in q["message"]
    assert q["message"].startswith(f"vs exchange #{first['exchange']} (previous_response_id on the WebSocket)")


def test_live_realtime_sends_session_input_and_response_create_and_reads_the_function_call(tmp_path):
    """``live --provider openai-realtime`` (always a WebSocket): the request's session, input and response
    create go as client events; the answer (a recorded Realtime socket served back) is read to
    ``response.done`` and its function call assembled."""
    realtime = ROOT / "tests" / "websocket" / "data" / "realtime-function-call.jsonl"
    req, rec = tmp_path / "req.json", tmp_path / "live.jsonl"
    req.write_text(json.dumps({"model": "gpt-realtime", "session": {"type": "realtime", "instructions": "be brief"},
                               "input": "What's the weather in Porto Alegre?"}))
    with ServerThread([realtime], instant=True) as srv:
        code, out, err = run_cli(["live", "--provider", "openai-realtime", "--base-url", srv.url + "/v1",
                                  "--request", str(req), "--format", "json", "--record", str(rec)])
    assert code == 0, err
    report = json.loads(out)
    assert report["dialect"] == "openai-realtime"
    assert [b["kind"] for b in report["blocks"]] == ["function_call"]
    lines = [json.loads(line) for line in rec.read_text().splitlines()]
    assert lines[0]["request"]["url"].startswith("ws://") and "model=gpt-realtime" in lines[0]["request"]["url"]
    sent = [json.loads(r["data"])["type"] for r in lines if r.get("ws") == "send"]
    assert sent == ["session.update", "conversation.item.create", "response.create"]


def test_an_http_client_of_a_recorded_socket_gets_its_first_response_as_sse(served):
    client = openai.OpenAI(base_url=served.url + "/v1", api_key="sk-ws-test-000", max_retries=0)
    stream = client.responses.create(model="gpt-5.1", input="go", tools=TOOLS, stream=True)
    events = list(stream)
    assert events[-1].type == "response.completed" and events[-1].response.id == "resp_ws_1"
    (call,) = [e.item for e in events if e.type == "response.output_item.done"]
    assert (call.name, json.loads(call.arguments)) == ASSEMBLED[0]
