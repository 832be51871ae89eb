"""OpenAI Chat Completions: the request side (platform.openai.com/docs/api-reference/chat/create).

``POST /v1/chat/completions`` with ``"stream": true`` and ``stream_options.include_usage`` (so
the usage chunk before ``[DONE]`` is seen); the key is a Bearer token.
"""
from __future__ import annotations

from inspector.providers.base import Endpoint

ENDPOINT = Endpoint("https://api.openai.com", "/v1/chat/completions", "OPENAI_API_KEY",
                    base_env=("OPENAI_BASE_URL", "OPENAI_API_BASE"), sdk_base_path="/v1")


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on with usage; ``(body, path, headers)``."""
    opts = body.get("stream_options")
    body = {**body, "stream": True,
            "stream_options": {**(opts if isinstance(opts, dict) else {}), "include_usage": True}}
    return body, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
