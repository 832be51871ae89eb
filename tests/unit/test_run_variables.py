"""``run``'s one table of base-URL variables, the routes made from it, and everything printed from it.

Issue 23 items 3-5: only ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME`` (never botocore's global
``AWS_ENDPOINT_URL``); both spellings of a base URL (with and without the API version) reach the
same upstream path; the variables real frameworks read (LiteLLM, pydantic-ai, langchain-anthropic,
google-genai's Vertex mode) are in the table; the README's table, ``run --help`` and the banner are
made from it.
"""
from __future__ import annotations

import re

import pytest

from inspector.net.launch import banner, parse_upstreams, plan, readme_table
from inspector.net.proxy.routes import Route, Routes
from inspector.providers import PROVIDERS
from inspector.providers.variables import help_text, route_names, variables
from tests.conftest import ROOT

PROXY = "http://127.0.0.1:9"


def rows(the_plan) -> dict[str, tuple[str, str, str]]:
    return {var: (value, upstream, source) for var, value, upstream, source in the_plan.table(PROXY)}


def forward(the_plan, path: str) -> str:
    route = the_plan.routes.match(path)
    assert route is not None, path
    return route.url_for(path, "")


# -- item 3: bedrock-runtime only --------------------------------------------------------------

def test_run_never_sets_the_global_aws_endpoint():
    names = [v.name for v in variables()]
    assert "AWS_ENDPOINT_URL" not in names and "AWS_ENDPOINT_URL_BEDROCK_RUNTIME" in names
    env = plan({"AWS_ENDPOINT_URL": "http://127.0.0.1:4566"}).environment(PROXY, {"AWS_ENDPOINT_URL": "http://127.0.0.1:4566"})
    assert env["AWS_ENDPOINT_URL"] == "http://127.0.0.1:4566"  # S3, STS, DynamoDB… keep going there
    assert env["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"] == f"{PROXY}/bedrock"


def test_bedrock_forwards_where_botocore_would_have_gone():
    assert rows(plan({"AWS_ENDPOINT_URL": "http://127.0.0.1:4566"}))["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"][1:] == \
        ("http://127.0.0.1:4566", "environment: AWS_ENDPOINT_URL")
    assert rows(plan({"AWS_DEFAULT_REGION": "eu-west-3"}))["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"][1:] == \
        ("https://bedrock-runtime.eu-west-3.amazonaws.com", "default")
    # never a literal "{region}" host
    assert all("{" not in r.upstream for r in plan({}).routes.routes)


def test_ignored_endpoint_variables_are_said_in_the_banner():
    assert not any("AWS_IGNORE" in n for n in plan({}).notes)
    for value, shown in (("true", True), ("false", False)):
        notes = plan({"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": value}).notes
        assert any("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS" in n for n in notes) is shown


# -- item 4: both spellings of a base URL ------------------------------------------------------

@pytest.mark.parametrize("sent", ["/anthropic/v1/messages", "/anthropic/messages"])
def test_anthropic_route_reaches_v1_messages_from_either_spelling(sent):
    # Anthropic's SDKs post /v1/messages under ANTHROPIC_BASE_URL; @ai-sdk/anthropic posts /messages.
    assert forward(plan({}), sent) == "https://api.anthropic.com/v1/messages"
    # A value set before run with /v1 on it (right for the Vercel AI SDK) works for both as well.
    assert forward(plan({"ANTHROPIC_BASE_URL": "https://gw.example/anthropic/v1"}), sent) == \
        "https://gw.example/anthropic/v1/messages"


@pytest.mark.parametrize("sent", ["/openai/chat/completions", "/openai/v1/chat/completions"])
def test_openai_route_keeps_one_v1(sent):
    assert forward(plan({}), sent) == "https://api.openai.com/v1/chat/completions"


def test_a_versionless_openai_compatible_server_is_not_given_one():
    # OPENAI_BASE_URL holds the version by convention: a server without one (Perplexity, Gemini's
    # compat endpoint) keeps its paths as the client sends them.
    for base, sent, want in (("https://api.perplexity.ai", "/openai/chat/completions",
                              "https://api.perplexity.ai/chat/completions"),
                             ("https://generativelanguage.googleapis.com/v1beta/openai", "/openai/chat/completions",
                              "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions")):
        assert forward(plan({"OPENAI_BASE_URL": base}), sent) == want


@pytest.mark.parametrize("sent,want", [
    # google-genai: the version in the path
    ("/gemini/v1beta/models/g:streamGenerateContent", "/v1beta/models/g:streamGenerateContent"),
    ("/gemini/v1/models/g:streamGenerateContent", "/v1/models/g:streamGenerateContent"),
    # LiteLLM with GEMINI_API_BASE: {api_base}/models/{model}:{endpoint}
    ("/gemini/models/g:streamGenerateContent", "/v1beta/models/g:streamGenerateContent"),
])
def test_gemini_route_gets_a_version_when_the_client_sent_none(sent, want):
    assert forward(plan({}), sent) == "https://generativelanguage.googleapis.com" + want


def test_route_joins_versions_only_at_the_seam():
    r = Route("/x", "https://h.example/base/v1", versions=("/v1",), root=False)
    assert r.url_for("/x/v1/a", "q=1") == "https://h.example/base/v1/a?q=1"
    assert r.url_for("/x/a", "") == "https://h.example/base/v1/a"
    assert r.url_for("/x", "") == "https://h.example/base/v1"
    root = Route("/x", "https://h.example", versions=("/v1",), root=True)
    assert root.url_for("/x/v1x/a", "") == "https://h.example/v1/v1x/a"  # /v1x is not the version /v1
    plain = Route("/x", "https://h.example")
    assert plain.url_for("/x/messages", "") == "https://h.example/messages"  # no versions known: as sent


def test_one_upstream_on_a_known_provider_host_takes_both_spellings():
    # proxy --upstream URL / run --upstream URL: @ai-sdk/anthropic posts /messages, the SDKs /v1/messages
    for up in ("https://api.anthropic.com", "https://api.anthropic.com/v1"):
        routes = Routes.single(up)
        assert {forward(plan_of(routes), p) for p in ("/messages", "/v1/messages")} == \
            {"https://api.anthropic.com/v1/messages"}, up
    assert forward(plan({}, single="https://api.openai.com"), "/chat/completions") == \
        "https://api.openai.com/v1/chat/completions"
    # a host no provider lists (vLLM, a gateway): every path as sent
    local = Routes.single("http://127.0.0.1:8000")
    assert forward(plan_of(local), "/messages") == "http://127.0.0.1:8000/messages"
    assert forward(plan_of(local), "/api/chat") == "http://127.0.0.1:8000/api/chat"


def plan_of(routes: Routes):
    """A stand-in plan holding only ``routes`` (what ``forward`` reads)."""
    return type("P", (), {"routes": routes})()


# -- item 5: the variables frameworks read ------------------------------------------------------

@pytest.mark.parametrize("name,reader", [
    ("GEMINI_API_BASE", "LiteLLM"), ("OLLAMA_API_BASE", "LiteLLM"), ("OLLAMA_BASE_URL", "pydantic-ai"),
    ("ANTHROPIC_API_URL", "langchain-anthropic"), ("GOOGLE_VERTEX_BASE_URL", "google-genai"),
    ("AWS_BEDROCK_RUNTIME_ENDPOINT", "LiteLLM"),
])
def test_frameworks_variables_are_in_the_table(name, reader):
    (v,) = [v for v in variables() if v.name == name]
    assert reader in v.var.read_by
    assert name in rows(plan({}))


def test_each_variable_leads_where_its_readers_would_have_gone():
    r = rows(plan({"ANTHROPIC_BASE_URL": "https://gw.example/anthropic", "OLLAMA_HOST": "gpu:11500",
                   "GOOGLE_CLOUD_LOCATION": "europe-west4"}))
    # langchain-anthropic reads ANTHROPIC_API_URL, then ANTHROPIC_BASE_URL
    assert r["ANTHROPIC_API_URL"] == (f"{PROXY}/anthropic", "https://gw.example/anthropic", "environment: ANTHROPIC_BASE_URL")
    assert r["OLLAMA_API_BASE"][1] == "http://localhost:11434"
    assert r["OLLAMA_HOST"] == (PROXY, "http://gpu:11500", "environment")
    assert r["OLLAMA_BASE_URL"] == (f"{PROXY}/ollama-openai", "http://localhost:11434/v1", "default")
    assert r["GOOGLE_VERTEX_BASE_URL"] == (f"{PROXY}/vertex", "https://europe-west4-aiplatform.googleapis.com", "default")
    assert rows(plan({"GOOGLE_CLOUD_LOCATION": "eu"}))["GOOGLE_VERTEX_BASE_URL"][1] == \
        "https://aiplatform.eu.rep.googleapis.com"
    # LiteLLM's OLLAMA_API_BASE shares OLLAMA_HOST's route when both lead to one server
    same = plan({"OLLAMA_HOST": "gpu:11500", "OLLAMA_API_BASE": "http://gpu:11500"})
    assert rows(same)["OLLAMA_API_BASE"] == (PROXY, "http://gpu:11500", "environment")
    other = plan({"OLLAMA_API_BASE": "http://gpu2:11434"})
    assert rows(other)["OLLAMA_API_BASE"][0] == f"{PROXY}/ollama-2"
    assert forward(other, "/ollama-2/api/chat") == "http://gpu2:11434/api/chat"


def test_upstream_names_are_the_route_names():
    assert route_names() == ["anthropic", "openai", "gemini", "vertex", "ollama", "ollama-openai", "bedrock", "cohere"]
    _, per = parse_upstreams(["vertex=http://127.0.0.1:1", "ollama-openai=http://127.0.0.1:2/v1"])
    r = rows(plan({}, per=per))
    assert r["GOOGLE_VERTEX_BASE_URL"][1:] == ("http://127.0.0.1:1", "--upstream")
    assert r["OLLAMA_BASE_URL"][1:] == ("http://127.0.0.1:2/v1", "--upstream")


def test_one_upstream_gives_each_variable_the_version_its_readers_expect():
    r = rows(plan({}, single="http://127.0.0.1:4000"))
    assert r["OPENAI_BASE_URL"][0] == f"{PROXY}/v1" and r["OLLAMA_BASE_URL"][0] == f"{PROXY}/v1"
    assert r["ANTHROPIC_BASE_URL"][0] == PROXY and r["GEMINI_API_BASE"][0] == PROXY


def test_every_provider_variable_is_in_the_table_once():
    listed = [v.name for p in PROVIDERS.values() for v in p.endpoint.base_env]
    assert sorted(set(listed)) == sorted(v.name for v in variables())
    # Variables that share a route agree on whether their value holds the version.
    by_route: dict[str, set] = {}
    for v in variables():
        by_route.setdefault(v.route, set()).add((v.var.versioned, v.var.versions))
    assert all(len(kinds) == 1 for kinds in by_route.values()), by_route


# -- one table: README, --help, banner ----------------------------------------------------------

def test_readme_run_table_is_the_codes_table():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Launching an agent: `run`"):]
    table = re.search(r"^\| variable \|.*?(?=\n\n)", section, re.S | re.M).group(0)
    assert table == readme_table()


def test_help_lists_every_variable_with_its_route(capsys):
    from inspector.cli import main

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    assert help_text(78) in out
    for v in variables():
        assert f"  {v.name} (route {v.route})" in out


def test_banner_lists_every_variable_and_what_cannot_be_redirected():
    text = banner(plan({}), PROXY)
    assert [line.split()[0] for line in text.splitlines()[1:] if " = " in line] == [v.name for v in variables()]
    assert "not redirected: openai-agents' trace exporter posts to https://api.openai.com/v1/traces/ingest" in text
