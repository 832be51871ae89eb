"""OpenAI Chat Completions: the request side (platform.openai.com/docs/api-reference/chat/create).

``POST /v1/chat/completions`` with ``"stream": true`` and ``stream_options.include_usage`` (so
the usage chunk before ``[DONE]`` is seen); the key is a Bearer token.
"""
from __future__ import annotations

from inspector.providers.endpoint import BaseVar, Endpoint, Unredirected

DEFAULT_BASE = "https://api.openai.com"
VERSIONS = ("/v1",)
BASE_ENV = (
    # openai-python ``_client.py`` (default ``https://api.openai.com/v1``), @ai-sdk/openai
    # ``createOpenAI`` (the same default), openai-agents ``openai_provider.py``, pydantic-ai
    # ``providers/openai.py`` (through the openai client), litellm ``main.py`` (before ``OPENAI_API_BASE``).
    BaseVar("OPENAI_BASE_URL", "`openai` SDKs ≥ 1.0 (Python, TypeScript), Codex CLI, the Vercel AI SDK's "
            "`@ai-sdk/openai`, openai-agents, pydantic-ai, LiteLLM",
            DEFAULT_BASE + "/v1", versioned=True, versions=VERSIONS),
    # langchain-openai hands an unset ``OPENAI_API_BASE`` to the openai client, which reads ``OPENAI_BASE_URL``.
    BaseVar("OPENAI_API_BASE", "`openai` < 1.0, LangChain, LiteLLM", DEFAULT_BASE + "/v1", versioned=True,
            versions=VERSIONS, fallback=("OPENAI_BASE_URL",)),
)
UNREDIRECTED = (
    # openai-agents ``tracing/processors.py``: ``_OPENAI_TRACING_INGEST_ENDPOINT``, an argument of
    # ``BackendSpanExporter`` only (no variable moves it).
    Unredirected("openai-agents' trace exporter posts to https://api.openai.com/v1/traces/ingest whatever "
                 "OPENAI_BASE_URL says (set_tracing_disabled(True) or OPENAI_AGENTS_DISABLE_TRACING=1 turns it off)"),
)
ENDPOINT = Endpoint(DEFAULT_BASE, "/v1/chat/completions", "OPENAI_API_KEY", base_env=BASE_ENV,
                    unredirected=UNREDIRECTED)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on with usage; ``(body, path, headers)``."""
    opts = body.get("stream_options")
    body = {**body, "stream": True,
            "stream_options": {**(opts if isinstance(opts, dict) else {}), "include_usage": True}}
    return body, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
