"""``run`` with real clients that read the base-URL variables differently (issue 23, items 3 and 4).

- botocore: inside ``run`` only ``bedrock-runtime`` points at the proxy; S3, STS and DynamoDB
  clients keep their endpoints (``AWS_ENDPOINT_URL`` is botocore's override for every service), and
  a Converse stream through the proxy reaches the served capture.
- The Vercel AI SDK's ``@ai-sdk/anthropic`` reads ``ANTHROPIC_BASE_URL`` as ``…/v1`` and posts
  ``/messages``; Anthropic's Python SDK reads it as a root and posts ``/v1/messages``. Both reach
  the upstream's ``/v1/messages``. The JavaScript client is the real package, installed with
  ``npm ci`` from ``tests/clients/node`` (``.ci/run`` does it; here it is done once if missing); the
  test skips only when node or npm is absent.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from inspector.net.serve import ServerThread
from tests.conftest import BEDROCK_CORPUS, ROOT, SHARED_CORPUS
from tests.e2e.conftest import spawn
from tests.e2e.test_run import clean_env, finish

NODE_DIR = ROOT / "tests" / "clients" / "node"
FAKE_AWS = {"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE0000000000", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEX",
            "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}

BOTO_AGENT = textwrap.dedent('''
    import json, sys
    import botocore.session
    from botocore.config import Config

    session = botocore.session.get_session()
    ends = {name: session.create_client(name).meta.endpoint_url for name in ("s3", "sts", "dynamodb", "bedrock-runtime")}
    print(json.dumps(ends), flush=True)
    if len(sys.argv) > 1:
        brt = session.create_client("bedrock-runtime", config=Config(retries={"max_attempts": 1}, read_timeout=10))
        events = list(brt.converse_stream(modelId="anthropic.claude-3-5-haiku-20241022-v1:0",
                                          messages=[{"role": "user", "content": [{"text": "Weather?"}]}])["stream"])
        print("converse", events[-2]["messageStop"]["stopReason"], flush=True)
''')


def aws_env(tmp_path, **extra) -> dict:
    env = clean_env(**FAKE_AWS, AWS_CONFIG_FILE=str(tmp_path / "none"),
                    AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"), **extra)
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK", "AWS_REGION",
              "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_BEDROCK_RUNTIME_ENDPOINT"):
        env.pop(k, None)
    return env


def banner_rows(err: str) -> dict[str, str]:
    return {line.split()[0]: line for line in err.splitlines() if line.startswith("  ") and " = " in line}


def test_only_bedrock_runtime_points_at_the_proxy(tmp_path):
    agent = tmp_path / "boto_agent.py"
    agent.write_text(BOTO_AGENT)
    reports = tmp_path / "reports.jsonl"
    path = BEDROCK_CORPUS / "converse-tool-clean.jsonl"
    with ServerThread([path], instant=True) as srv:
        proc = spawn(["run", "--format", "json", "-o", str(reports),
                      "--upstream", f"bedrock={srv.url_for('converse-tool-clean')}",
                      "--", sys.executable, str(agent), "call"], env=aws_env(tmp_path))
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    ends = json.loads(out.splitlines()[0])
    proxy = err.splitlines()[0].rsplit(" ", 1)[1]  # "stream-inspector run: proxy on URL"
    assert ends["bedrock-runtime"] == f"{proxy}/bedrock"
    assert ends["s3"] == "https://s3.amazonaws.com"
    assert ends["sts"] == "https://sts.us-east-1.amazonaws.com"
    assert ends["dynamodb"] == "https://dynamodb.us-east-1.amazonaws.com"
    assert out.splitlines()[1] == "converse tool_use"
    assert "AWS_ENDPOINT_URL " not in err  # the banner never sets the global override
    (report,) = [json.loads(line) for line in reports.read_text().splitlines()]
    assert report["path"].startswith("/bedrock/model/") and report["dialect"] == "bedrock-converse"


def test_a_global_aws_endpoint_keeps_serving_the_other_services(tmp_path):
    """LocalStack-style ``AWS_ENDPOINT_URL`` before ``run``: S3 still goes there; Bedrock's route
    forwards there too (botocore's fallback), inspected on the way."""
    agent = tmp_path / "boto_agent.py"
    agent.write_text(BOTO_AGENT)
    proc = spawn(["run", "--format", "json", "--", sys.executable, str(agent)],
                 env=aws_env(tmp_path, AWS_ENDPOINT_URL="http://127.0.0.1:4566"))
    out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    ends = json.loads(out.splitlines()[0])
    assert ends["s3"] == ends["sts"] == ends["dynamodb"] == "http://127.0.0.1:4566"
    assert ends["bedrock-runtime"].endswith("/bedrock") and ends["bedrock-runtime"].startswith("http://127.0.0.1:")
    row = banner_rows(err)["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"]
    assert row.endswith("→ http://127.0.0.1:4566 (environment: AWS_ENDPOINT_URL)")


def node_client_dir():
    """``tests/clients/node`` with its packages installed (``npm ci`` once); skip without node/npm."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the Vercel AI SDK client")
    if not (NODE_DIR / "node_modules" / "@ai-sdk" / "anthropic").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=NODE_DIR, check=True, timeout=600)
    return NODE_DIR


PY_ANTHROPIC = textwrap.dedent('''
    import anthropic
    claude = anthropic.Anthropic(max_retries=0, timeout=10)
    with claude.messages.stream(model="claude-x", max_tokens=64, messages=[{"role": "user", "content": "weather?"}]) as s:
        m = s.get_final_message()
    print("python", m.stop_reason, m.content[1].name, flush=True)
''')


def test_vercel_ai_sdk_and_the_python_sdk_both_reach_v1_messages(tmp_path):
    node = node_client_dir()
    py = tmp_path / "py_agent.py"
    py.write_text(PY_ANTHROPIC)
    reports = tmp_path / "reports.jsonl"
    script = f"node {node / 'vercel_anthropic.mjs'} && {sys.executable} {py}"
    with ServerThread([SHARED_CORPUS / "anthropic-doc-tool-call.sse"], instant=True) as srv:
        upstream = srv.url_for("anthropic-doc-tool-call")
        proc = spawn(["run", "--format", "json", "-o", str(reports), "--upstream", f"anthropic={upstream}",
                      "--", "sh", "-c", script], env=clean_env())
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    assert out.splitlines() == ['tool-call get_weather {"location":"Porto Alegre, RS"}', "finish tool-calls",
                                "python tool_use get_weather"]
    got = [json.loads(line) for line in reports.read_text().splitlines()]
    assert [r["path"] for r in got] == ["/anthropic/messages", "/anthropic/v1/messages"]  # as each SDK sent it
    assert [r["url"] for r in got] == [f"{upstream}/v1/messages"] * 2  # where the proxy sent both
    assert all(r["dialect"] == "anthropic-messages" and r["stop_reason"] == "tool_use" for r in got)


# -- item 5: frameworks' own variables ----------------------------------------------------------

def text_capture(tmp_path, dialect: str, name: str, text: str):
    """A clean text-only answer in ``dialect``, as a native capture file named ``name``."""
    from tests.dialect_answers import Spec, render, write_native

    path = tmp_path / f"{name}.jsonl"
    write_native(render(dialect, Spec(text=text, calls=[], stop="end")), path)
    return path


PYDANTIC_OLLAMA = textwrap.dedent('''
    import asyncio
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.ollama import OllamaProvider

    async def main():
        agent = Agent(OpenAIChatModel("llama3.2", provider=OllamaProvider()))  # OLLAMA_BASE_URL only
        async with agent.run_stream("hi") as result:
            print("pydantic-ai", await result.get_output(), flush=True)

    asyncio.run(main())
''')


def test_pydantic_ai_ollama_provider_reads_ollama_base_url_inside_run(tmp_path):
    pytest.importorskip("pydantic_ai")  # a dev dependency: absent only outside `uv sync`
    served = text_capture(tmp_path, "openai-chat", "ollama-v1", "Hello from Ollama.")
    agent = tmp_path / "agent.py"
    agent.write_text(PYDANTIC_OLLAMA)
    reports = tmp_path / "reports.jsonl"
    with ServerThread([served], instant=True) as srv:
        proc = spawn(["run", "--format", "json", "-o", str(reports),
                      "--upstream", f"ollama-openai={srv.url_for('ollama-v1')}/v1",
                      "--", sys.executable, str(agent)], env=clean_env())
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    assert out == "pydantic-ai Hello from Ollama.\n"
    (report,) = [json.loads(line) for line in reports.read_text().splitlines()]
    assert report["path"] == "/ollama-openai/chat/completions" and report["dialect"] == "openai-chat"
    assert report["url"].endswith("/ollama-v1/v1/chat/completions")


LANGCHAIN_ANTHROPIC = textwrap.dedent('''
    from langchain_anthropic import ChatAnthropic
    llm = ChatAnthropic(model="claude-x", max_retries=0, timeout=10)  # ANTHROPIC_API_URL, then ANTHROPIC_BASE_URL
    print("langchain", "".join(chunk.content for chunk in llm.stream("hi")), flush=True)
''')


def test_langchain_anthropic_with_its_own_variable_set_is_still_inspected(tmp_path):
    """A user who set ``ANTHROPIC_API_URL`` (langchain-anthropic reads it before
    ``ANTHROPIC_BASE_URL``) went around the proxy; now it is pointed at it and forwards there."""
    pytest.importorskip("langchain_anthropic")  # a dev dependency: absent only outside `uv sync`
    served = text_capture(tmp_path, "anthropic-messages", "lc", "Hello from Claude.")
    agent = tmp_path / "agent.py"
    agent.write_text(LANGCHAIN_ANTHROPIC)
    reports = tmp_path / "reports.jsonl"
    with ServerThread([served], instant=True) as srv:
        proc = spawn(["run", "--format", "json", "-o", str(reports), "--", sys.executable, str(agent)],
                     env=clean_env(ANTHROPIC_API_URL=srv.url_for("lc")))
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    assert out == "langchain Hello from Claude.\n"
    assert banner_rows(err)["ANTHROPIC_API_URL"].endswith(f"→ {srv.url_for('lc')} (environment)")
    (report,) = [json.loads(line) for line in reports.read_text().splitlines()]
    # its own route: ANTHROPIC_BASE_URL (unset) still leads to Anthropic's API
    assert report["path"] == "/anthropic-2/v1/messages" and report["url"] == f"{srv.url_for('lc')}/v1/messages"


LITELLM_SDK = textwrap.dedent('''
    import litellm
    for model in ("gemini/gemini-x", "ollama_chat/llama-x"):  # GEMINI_API_BASE, OLLAMA_API_BASE
        text = "".join(c.choices[0].delta.content or "" for c in
                       litellm.completion(model=model, messages=[{"role": "user", "content": "hi"}], stream=True,
                                          num_retries=0, timeout=20))
        print(model, text, flush=True)
''')


def test_litellm_sdk_reads_gemini_api_base_and_ollama_api_base_inside_run(tmp_path):
    """LiteLLM's SDK (its own venv: it cannot share this project's, ``tests/gateway/litellm.py``)
    posts Gemini's ``{GEMINI_API_BASE}/models/M:streamGenerateContent`` with no API version: the
    route adds ``/v1beta``; Ollama's ``{OLLAMA_API_BASE}/api/chat`` at the proxy's root."""
    from tests.gateway.litellm import QUIET_ENV, Unavailable, ensure_litellm

    try:
        python = ensure_litellm().with_name("python")
    except Unavailable as e:
        pytest.skip(str(e))
    gemini = text_capture(tmp_path, "gemini", "gem", "Hello from Gemini.")
    ollama = text_capture(tmp_path, "ollama", "oll", "Hello from Ollama.")
    agent = tmp_path / "agent.py"
    agent.write_text(LITELLM_SDK)
    reports = tmp_path / "reports.jsonl"
    with ServerThread([gemini, ollama], instant=True) as srv:
        proc = spawn(["run", "--format", "json", "-o", str(reports),
                      "--upstream", f"gemini={srv.url_for('gem')}", "--upstream", f"ollama={srv.url_for('oll')}",
                      "--", str(python), str(agent)],
                     env=clean_env(GEMINI_API_KEY="gemini-test-key-0000", **QUIET_ENV))
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    assert out.splitlines() == ["gemini/gemini-x Hello from Gemini.", "ollama_chat/llama-x Hello from Ollama."]
    got = {r["path"].split("?")[0]: r for r in map(json.loads, reports.read_text().splitlines())}
    # as LiteLLM sent it, and where the route sent it
    gem = got["/gemini/models/gemini-x:streamGenerateContent"]
    assert gem["dialect"] == "gemini"
    assert gem["url"].startswith(f"{srv.url_for('gem')}/v1beta/models/gemini-x:streamGenerateContent")
    # LiteLLM asks /api/show first (answered here by the same capture), then streams /api/chat
    assert got["/api/chat"]["dialect"] == "ollama" and got["/api/chat"]["url"] == f"{srv.url_for('oll')}/api/chat"


GOOGLE_GENAI = textwrap.dedent('''
    from google import genai
    from google.oauth2.credentials import Credentials

    gemini = genai.Client(api_key="gemini-test-key-0000")  # GOOGLE_GEMINI_BASE_URL
    print("gemini", "".join(c.text or "" for c in gemini.models.generate_content_stream(model="gemini-x", contents="hi")))
    # Vertex AI mode: GOOGLE_VERTEX_BASE_URL (project and location given, so paths keep them)
    vertex = genai.Client(vertexai=True, project="proj-x", location="us-central1", credentials=Credentials(token="ya29.t"))
    print("vertex", "".join(c.text or "" for c in vertex.models.generate_content_stream(model="gemini-x", contents="hi")),
          flush=True)
''')


def test_google_genai_gemini_and_vertex_modes_inside_run(tmp_path):
    pytest.importorskip("google.genai")  # a dev dependency: absent only outside `uv sync`
    gem = text_capture(tmp_path, "gemini", "gem", "Hello from Gemini.")
    vx = text_capture(tmp_path, "gemini", "vx", "Hello from Vertex.")
    agent = tmp_path / "agent.py"
    agent.write_text(GOOGLE_GENAI)
    reports = tmp_path / "reports.jsonl"
    env = clean_env()
    for k in ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_API_KEY"):
        env.pop(k, None)
    with ServerThread([gem, vx], instant=True) as srv:
        proc = spawn(["run", "--format", "json", "-o", str(reports), "--upstream", f"gemini={srv.url_for('gem')}",
                      "--upstream", f"vertex={srv.url_for('vx')}", "--", sys.executable, str(agent)], env=env)
        out, err = finish(proc)
    assert proc.returncode == 0, err[-3000:]
    assert out.splitlines() == ["gemini Hello from Gemini.", "vertex Hello from Vertex."]
    got = {r["path"].split("?")[0]: r for r in map(json.loads, reports.read_text().splitlines())}
    vertex_path = "/v1beta1/projects/proj-x/locations/us-central1/publishers/google/models/gemini-x:streamGenerateContent"
    # google-genai 3.x asks the Gemini API's v1 (``GOOGLE_AI_API_DEFAULT_VERSION``): kept as sent
    gem_path = "/v1/models/gemini-x:streamGenerateContent"
    assert got["/gemini" + gem_path]["dialect"] == "gemini" and got["/gemini" + gem_path]["url"].startswith(
        srv.url_for("gem") + gem_path)
    assert got["/vertex" + vertex_path]["url"].startswith(srv.url_for("vx") + vertex_path)
