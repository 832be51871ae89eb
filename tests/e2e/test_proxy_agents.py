"""Two agents behind one proxy on one path, each with the official ``openai`` SDK: agent A's answer
streams on and on (an essay: the upstream holds its body open), agent B chains requests as fast as
it reads ``[DONE]``. B's reports come as B's exchanges end, with their Q006 against B's own answers:
A's open stream holds none of them back (``ExchangeLog``: a verdict waits only for the answers the
request may continue)."""
from __future__ import annotations

import json
import time

import pytest
from openai import OpenAI

from inspector.model.capture import Chunk, End
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import MockProvider, Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from tests.e2e.conftest import ROOT, WAIT_S
from tests.e2e.test_proxy_history_race import assembled, drain, next_turn

HOLD_S = 60.0
"""How long the upstream keeps each body open after its last event (the SDK's hang-up ends B's sooner)."""


def essay(tmp_path) -> str:
    """A Chat text answer, ``[DONE]`` and all (agent A reads one event of it, then nothing more)."""
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {}},
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    words = ["Chapter one. It was a dark and stormy night", " and the proxy", " kept on streaming."]
    lines = [json.dumps(head)] + [json.dumps({"t": 0.001 * i, "data": "data: " + json.dumps(
        {"id": "chatcmpl-essay", "object": "chat.completion.chunk", "model": "m",
         "choices": [{"index": 0, "delta": {"content": w}, "finish_reason": None}]}) + "\n\n"})
        for i, w in enumerate(words)]
    lines.append(json.dumps({"t": 0.01, "data": "data: [DONE]\n\n"}))
    path = tmp_path / "essay.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


class Upstream(MockProvider):
    """The essay for a request that asks for one, the parallel tool calls for any other; each body held open."""

    def choose(self, scope, body: bytes) -> Served:
        return self.served[0 if b"essay" in body else 1]


@pytest.fixture
def proxied(tmp_path):
    served = load_served([essay(tmp_path), str(ROOT / "inspector" / "data" / "captures" / "3-openai-parallel-tool-calls.jsonl")])
    for s in served:
        s.capture.chunks = [Chunk(0.001 * i, c.data) for i, c in enumerate(s.capture.chunks)]
        s.capture.end = End(0.001 * len(s.capture.chunks) + HOLD_S, "eof")
    upstream = BackgroundServer(asgi_app(Upstream(served, instant=False))).start()
    try:
        with ProxyThread(upstream.url, timeout=WAIT_S) as px:
            yield (lambda: OpenAI(base_url=px.url + "/v1", api_key="sk-agents-test", max_retries=0, timeout=WAIT_S)), px
    finally:
        upstream.stop()


def test_another_agents_open_stream_holds_back_no_report(proxied):
    client, px = proxied
    a = client().chat.completions.create(model="m", stream=True, messages=[{"role": "user", "content": "an essay, please"}])
    next(iter(a))  # agent A reads its first event; its stream stays open upstream
    b = client()
    started = time.monotonic()
    for r in range(2):
        question = [{"role": "user", "content": f"Quote ACME and convert 100 EUR to BRL (round {r})."}]
        calls: dict = {}
        assembled(b.chat.completions.create(model="m", stream=True, messages=question), calls)
        drain(b.chat.completions.create(model="m", stream=True, messages=next_turn(question, calls)))
    reports = {r["exchange"]: r for r in px.wait_reports(4, timeout=WAIT_S)}
    took = time.monotonic() - started
    assert sorted(reports) == [2, 3, 4, 5] and not px.log.by_n[1].done and took < HOLD_S / 2
    assert [([f["code"] for f in reports[n]["findings"] if f["code"].startswith("Q")], reports[n]["continues"])
            for n in (3, 5)] == [(["Q006"], 2), (["Q006"], 4)]
    a.close()  # agent A hangs up: its exchange ends, reported once
    assert [r["exchange"] for r in px.wait_reports(5, timeout=WAIT_S)].count(1) == 1
