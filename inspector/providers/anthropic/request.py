"""Anthropic Messages: the request side (platform.claude.com/docs/en/build-with-claude/streaming).

``POST /v1/messages`` with ``"stream": true``; the key goes in ``x-api-key``, the API version in
``anthropic-version``.
"""
from __future__ import annotations

from inspector.providers.base import Endpoint

ANTHROPIC_VERSION = "2023-06-01"

ENDPOINT = Endpoint("https://api.anthropic.com", "/v1/messages", "ANTHROPIC_API_KEY",
                    base_env=("ANTHROPIC_BASE_URL", "ANTHROPIC_API_BASE"))


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    body = {**body, "stream": True}
    headers = {"anthropic-version": ANTHROPIC_VERSION}
    if key:
        headers["x-api-key"] = key
    return body, ENDPOINT.path, headers
