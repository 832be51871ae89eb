"""The V rules end to end: the official ``openai`` SDK agent (``tests/clients/openai_agent``) talks
through ``proxy`` to ``serve --mutate schema-violation``; the proxy's report names the broken path."""
from __future__ import annotations

import json
import re
import signal

import openai

from inspector.capture.load import load_path
from inspector.net.conform.mutate import Spec, apply
from inspector.net.serve import ServerThread
from tests.clients import openai_agent
from tests.conftest import ROOT, SHARED_CORPUS
from tests.e2e.conftest import WAIT_S, spawn

CAPTURE = ROOT / "inspector" / "data" / "captures" / "3-openai-parallel-tool-calls.jsonl"


def _url(lines, pattern: str) -> str:
    for line in lines:
        m = re.search(pattern, line)
        if m:
            return m.group(1)
    raise AssertionError(f"no line matching {pattern!r}")


def test_the_proxy_reports_v002_with_the_path_when_serve_breaks_the_schema():
    serve = spawn(["serve", str(CAPTURE), "--mutate", "schema-violation", "--instant", "--loop", "--port", "0"])
    proxy = None
    try:
        upstream = _url(serve.stdout, r"on (http://127\.0\.0\.1:\d+)")
        proxy = spawn(["proxy", "--upstream", upstream, "--port", "0", "--format", "json"])
        url = _url(proxy.stderr, r"proxy on (http://127\.0\.0\.1:\d+)")
        openai_agent.run({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": url + "/v1"})
        proxy.send_signal(signal.SIGINT)
        out, _ = proxy.communicate(timeout=WAIT_S)
    finally:
        for proc in (proxy, serve):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=WAIT_S)
    first = json.loads(out.splitlines()[0])
    [v002] = [f for f in first["findings"] if f["code"] == "V002"]
    # the agent declared symbol a string; the mutation sent a number in its place
    assert "get_stock: $.symbol: 4 is not of type 'string' (type)" in v002["message"]
    assert v002["severity"] == "warning"  # the agent's tools are not strict
    assert [f["code"] for f in first["findings"]] == ["V002"]


def test_the_openai_sdk_assembles_the_responses_v_mutations_as_sent():
    """``responses.stream`` on ``ignore-tool-choice`` gets a message and no function call (what V003
    says), on ``extra-parallel-call`` two function calls with their own ``call_id`` (what V004 says):
    the mutated streams are well formed, the fault is in what they do with the request."""
    ref = SHARED_CORPUS / "openclaude-1262-responses-args-only-in-done.sse"
    names = ("ignore-tool-choice", "extra-parallel-call")
    mutated = [apply(ref.stem, str(ref), load_path(ref), Spec(n)) for n in names]
    got = {}
    with ServerThread([(f"{ref.stem}--{mc.mutation.name}", mc.capture) for mc in mutated], instant=True) as srv:
        for name in names:
            client = openai.OpenAI(api_key="sk-test", base_url=srv.url_for(f"{ref.stem}--{name}") + "/v1")
            with client.responses.stream(model="m", input="find the docs") as stream:
                for _ in stream:
                    pass
                final = stream.get_final_response()
            got[name] = [(o.type, getattr(o, "call_id", None)) for o in final.output], final.output_text
    assert got["ignore-tool-choice"] == ([("message", None)], "I can answer that without a tool.")
    assert got["extra-parallel-call"][0] == [("function_call", "call_s1"), ("function_call", "call_s1_2")]
