"""OpenAI Responses: the request side (developers.openai.com/docs/guides/streaming-responses).

``POST /v1/responses`` with ``"stream": true``; the key is a Bearer token.
"""
from __future__ import annotations

from inspector.providers.base import Endpoint

ENDPOINT = Endpoint("https://api.openai.com", "/v1/responses", "OPENAI_API_KEY",
                    base_env=("OPENAI_BASE_URL", "OPENAI_API_BASE"), sdk_base_path="/v1")


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
