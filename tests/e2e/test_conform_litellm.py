"""A real translating gateway in the tests: LiteLLM's proxy (OpenAI Chat in front, Anthropic behind) in
front of ``serve`` answering every case of the OpenAI matrix in Anthropic's dialect, graded by
``conform`` (its JUnit output read with ``junitparser``) and watched from both sides by ``gateway``
(the openai SDK as the client → front tap → LiteLLM → back tap → ``serve``), which must pair every
exchange and name the hop of an upstream defect injected with ``serve --mutate``'s mutations.

LiteLLM runs from a venv of its own (``tests/gateway/litellm.py``), started once per test session.
Everything that needs it is one test (two phases), so it starts once whatever worker runs it: pytest-xdist 3.8's
``--dist loadgroup`` does not group ``xdist_group`` tests under pytest 9.2 (its collection hook is not
called: measured, both tests of a marked module ran in different workers). It skips only when LiteLLM
cannot be installed at all (no uv, no registry).
"""
from __future__ import annotations

import orjson
import pytest
from junitparser import JUnitXml
from openai import OpenAI

from inspector.net.conform.matrix import Matrix, load
from inspector.net.conform.mutate import Spec, apply
from inspector.net.serve import MockProvider, Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from tests.conform_reference import captures
from tests.e2e.conftest import run_cli
from tests.e2e.test_gateway import free_port, gateway_process
from tests.gateway.litellm import LiteLLM, Unavailable, ensure_litellm

UPSTREAM_MODEL = "anthropic/claude-sonnet-4-5-20250929"
"""A model LiteLLM's bundled model map knows (it decides from it which parameters it may send)."""


class CaseRouter(MockProvider):
    """Answers each upstream request with the reference answer of the matrix case it carries: the case
    whose user message the request holds; its non-streamed twin when the request does not stream."""

    def __init__(self, matrix: Matrix, answers: list[Served]) -> None:
        super().__init__(answers, instant=True)
        self.prompts = [(c.body["messages"][-1]["content"], f"{n:02d}-{c.name}") for n, c in enumerate(matrix.cases, 1)]
        self.seen: list[str] = []
        self.mutation: Spec | None = None
        """A mutation applied to the streamed answers (None: the good ones)."""

    def choose(self, scope, body: bytes) -> Served:
        try:
            request = orjson.loads(body)
        except orjson.JSONDecodeError:
            request = {}
        text = orjson.dumps(request.get("messages", [])).decode()
        name = next((n for prompt, n in self.prompts if orjson.dumps(prompt).decode()[1:-1] in text), None)
        if name is None:
            return self.served[0]
        name += "" if request.get("stream") else ".plain"
        self.seen.append(name)
        served = self.by_name.get(name, self.by_name[name.removesuffix(".plain")])
        if self.mutation is not None and request.get("stream"):
            mc = apply(served.name, served.source, served.capture, self.mutation)
            served = Served(mc.name, served.source, mc.capture, served.status, served.headers, mc.pauses)
        return served


@pytest.fixture(scope="session")
def gateway():
    """LiteLLM on 127.0.0.1 with model ``claude`` routed to a ``serve``-based upstream, and model
    ``claude-tapped`` routed to the same upstream through ``gateway``'s back tap on ``back_port``."""
    try:
        exe = ensure_litellm()
    except Unavailable as e:
        pytest.skip(str(e))
    matrix = load("openai")
    router = CaseRouter(matrix, load_served(captures(matrix, "anthropic")))
    back_port = free_port()
    with BackgroundServer(asgi_app(router)) as upstream:
        with LiteLLM(exe, [("claude", UPSTREAM_MODEL, upstream.url),
                           ("claude-tapped", UPSTREAM_MODEL, f"http://127.0.0.1:{back_port}")]) as gw:
            gw.router, gw.upstream_url, gw.back_port = router, upstream.url, back_port
            yield gw


def test_litellm_conform_and_gateway_hops(gateway, monkeypatch, tmp_path):
    conform_phase(gateway, monkeypatch)
    gateway_phase(gateway, tmp_path)


def conform_phase(gateway, monkeypatch):
    """``conform`` through LiteLLM runs end to end with valid JUnit; an upstream defect shows through."""
    monkeypatch.setenv("OPENAI_API_KEY", gateway.key)
    code, out, err = run_cli(["conform", "--provider", "openai", "--base-url", gateway.url + "/v1", "--model", "claude",
                              "--format", "junit", "--timeout", "60"])
    xml = JUnitXml.fromstring(out)
    suites = list(xml)
    assert len(suites) == 1 and suites[0].name == "stream-inspector.conform.openai"
    suite = suites[0]
    names = [c.name for c in load("openai").cases]
    assert [c.name for c in suite] == names
    assert suite.tests == len(names) and suite.time > 0
    assert {c.name: c.result for c in suite} == {n: [] for n in names}, err  # LiteLLM 1.108.7 passes them all
    assert code == 0
    # every case reached the upstream, streamed and (where compared) not streamed
    assert set(gateway.router.seen) >= {f"{n:02d}-{c}" for n, c in enumerate(names, 1)}
    assert any(s.endswith(".plain") for s in gateway.router.seen)

    # an upstream defect shows through the gateway: Anthropic's end_turn after a tool call comes out
    # of LiteLLM as finish_reason stop (C003), unlike the non-streamed answer
    gateway.router.mutation = Spec("finish-stop")
    try:
        code, out, _ = run_cli(["conform", "--provider", "openai", "--base-url", gateway.url + "/v1", "--model",
                                "claude", "--format", "junit", "--only", "one-tool-call", "--fail-on", "warn"])
    finally:
        gateway.router.mutation = None
    case = next(iter(next(iter(JUnitXml.fromstring(out)))))
    assert code == 1
    assert "C003" in (case.system_out or "")
    assert "streamed and non-streamed answers differ: stop reason 'stop' streamed, 'tool_calls'" in case.system_out


def gateway_phase(gateway, tmp_path):
    """``gateway`` around LiteLLM: every matrix case through both taps, then two broken upstream answers."""
    matrix = load("openai")
    record = tmp_path / "pairs"
    with gateway_process(gateway.url, gateway.upstream_url, gateway.back_port, record) as (front, stop):
        client = OpenAI(base_url=front, api_key=gateway.key, max_retries=0)
        for case in matrix.cases:
            for _ in client.chat.completions.create(model="claude-tapped", stream=True, **case.body):
                pass
        one = next(c for c in matrix.cases if c.name == "one-tool-call")
        for mutation in ("finish-stop", "drop-index"):
            gateway.router.mutation = Spec(mutation)
            try:
                for _ in client.chat.completions.create(model="claude-tapped", stream=True, **one.body):
                    pass
            finally:
                gateway.router.mutation = None
        pairs = sorted(stop(), key=lambda p: p["front"]["exchange"])
    names = [c.name for c in matrix.cases] + ["finish-stop", "drop-index"]
    assert len(pairs) == len(names)
    assert [p["status"] for p in pairs] == ["paired"] * len(names)
    assert all(p["matched_by"] == "time and request content" and p["score"] > 0 for p in pairs)
    assert all(p["front"]["dialect"] == "openai-chat" and p["back"]["dialect"] == "anthropic-messages" for p in pairs)
    by = dict(zip(names, pairs))

    # clean answers: LiteLLM's translation is equivalent; only the upstream's own cut call has findings
    for name in names[:-2]:
        p = by[name]
        assert p["equivalent"] is True, (name, p["diff"]["differences"])
        assert p["hops"]["gateway"] == [] and p["hops"]["client"] == []
        assert p["hops"]["upstream"] == (["J002", "A008"] if name == "max-tokens-cut" else []), name
    assert "finding codes of the same meaning: A008 ≈ C009" in by["max-tokens-cut"]["diff"]["normalisations"]
    assert any("empty input read as {}" in n for n in by["no-parameters"]["diff"]["normalisations"])
    assert by["one-tool-call"]["diff"]["pairs"][-1]["matched_by"] == "id"  # LiteLLM keeps Anthropic's tool ids

    # an upstream defect, passed on: Anthropic end_turn after a tool call becomes finish_reason stop
    p = by["finish-stop"]
    assert p["hops"] == {"upstream": ["A007"], "gateway": [], "client": []}
    assert next(f for f in p["attributed"] if f["what"] == "A007")["message"].endswith("(passed on as C003)")

    # an upstream defect the gateway hides, and the difference it makes doing so: the fragments that carry
    # no index belong to no block upstream; LiteLLM gives them to the open tool call
    p = by["drop-index"]
    # upstream, the call a conforming client assembles lacks its required `city` (V002, judged against the
    # request's declared schema); LiteLLM's repaired call validates
    assert p["hops"]["upstream"] == ["A001", "V002"] and p["hops"]["gateway"] == ["arguments-differ"]
    assert next(f for f in p["attributed"] if f["what"] == "A001")["message"].endswith("(hidden by the gateway)")
    assert [d["kind"] for d in p["diff"]["differences"]] == ["arguments-differ", "finding-one-side",
                                                            "finding-one-side"], p["diff"]["differences"]
    assert sorted(d["a"] for d in p["diff"]["differences"][1:]) == ["A001", "V002"]
    d = p["diff"]["differences"][0]
    assert (d["path"], d["a"], d["b"]) == ("$.city", "(absent)", "Lisbon")
    assert sorted(x.name for x in (record / f"pair-{p['pair']:03d}").iterdir()) == ["back.jsonl", "front.jsonl",
                                                                                     "pair.json"]
