"""``conform`` graded through a real translating gateway: LiteLLM's proxy (OpenAI Chat in front) in front
of ``serve`` answering every case of the OpenAI matrix in Anthropic's dialect. Its JUnit output is read
with ``junitparser``.

LiteLLM runs from a venv of its own (``tests/gateway/litellm.py``), started once per test session.
Everything that needs it is one test, so it starts once whatever worker runs it: pytest-xdist 3.8's
``--dist loadgroup`` does not group ``xdist_group`` tests under pytest 9.2 (its collection hook is not
called: measured, both tests of a marked module ran in different workers). It skips only when LiteLLM
cannot be installed at all (no uv, no registry).
"""
from __future__ import annotations

import orjson
import pytest
from junitparser import JUnitXml

from inspector.net.conform.matrix import Matrix, load
from inspector.net.conform.mutate import Spec, apply
from inspector.net.serve import MockProvider, Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from tests.conform_reference import captures
from tests.e2e.conftest import run_cli
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
    """LiteLLM on 127.0.0.1 with model ``claude`` routed to a ``serve``-based upstream."""
    try:
        exe = ensure_litellm()
    except Unavailable as e:
        pytest.skip(str(e))
    matrix = load("openai")
    router = CaseRouter(matrix, load_served(captures(matrix, "anthropic")))
    with BackgroundServer(asgi_app(router)) as upstream:
        with LiteLLM(exe, [("claude", UPSTREAM_MODEL, upstream.url)]) as gw:
            gw.router = router
            yield gw


def test_conform_through_litellm_runs_end_to_end_with_valid_junit(gateway, monkeypatch):
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
