"""The V rules end to end: the official ``openai`` SDK agent (``tests/clients/openai_agent``) talks
through ``proxy`` to ``serve --mutate schema-violation``; the proxy's report names the broken path."""
from __future__ import annotations

import json
import re
import signal

from tests.clients import openai_agent
from tests.conftest import ROOT
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
