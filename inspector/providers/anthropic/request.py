"""Anthropic Messages: the request side (platform.claude.com/docs/en/build-with-claude/streaming).

``POST /v1/messages`` with ``"stream": true``; the key goes in ``x-api-key``, the API version in
``anthropic-version``.
"""
from __future__ import annotations

from inspector.providers.endpoint import BaseVar, Endpoint

ANTHROPIC_VERSION = "2023-06-01"

DEFAULT_BASE = "https://api.anthropic.com"
VERSIONS = ("/v1",)
BASE_ENV = (
    # anthropic-sdk-python ``_client.py`` and anthropic-sdk-typescript read it as a root and post
    # ``/v1/messages``; @ai-sdk/anthropic reads the same variable as ``…/v1`` and posts ``/messages``.
    BaseVar("ANTHROPIC_BASE_URL", "`anthropic` SDKs (Python, TypeScript), Claude Code, "
            "the Vercel AI SDK's `@ai-sdk/anthropic` (which expects `/v1` on it), LiteLLM, langchain-anthropic",
            DEFAULT_BASE, versions=VERSIONS),
    # langchain_anthropic ``chat_models.py``: ``base_url_env=["ANTHROPIC_API_URL", "ANTHROPIC_BASE_URL"]``.
    BaseVar("ANTHROPIC_API_URL", "langchain-anthropic (before `ANTHROPIC_BASE_URL`)", DEFAULT_BASE,
            versions=VERSIONS, fallback=("ANTHROPIC_BASE_URL",)),
    # litellm ``main.py``: ``get_secret("ANTHROPIC_API_BASE") or get_secret("ANTHROPIC_BASE_URL")``.
    BaseVar("ANTHROPIC_API_BASE", "LiteLLM (before `ANTHROPIC_BASE_URL`)", DEFAULT_BASE,
            versions=VERSIONS, fallback=("ANTHROPIC_BASE_URL",)),
)
ENDPOINT = Endpoint(DEFAULT_BASE, "/v1/messages", "ANTHROPIC_API_KEY", base_env=BASE_ENV)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    body = {**body, "stream": True}
    headers = {"anthropic-version": ANTHROPIC_VERSION}
    if key:
        headers["x-api-key"] = key
    return body, ENDPOINT.path, headers
