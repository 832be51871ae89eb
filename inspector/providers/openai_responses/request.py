"""OpenAI Responses: the request side (developers.openai.com/docs/guides/streaming-responses).

``POST /v1/responses`` with ``"stream": true``; the key is a Bearer token.
"""
from __future__ import annotations

from inspector.providers.endpoint import Endpoint
from inspector.providers.openai_chat.request import BASE_ENV, DEFAULT_BASE, UNREDIRECTED

# The same SDKs and variables as Chat Completions (``run`` lists each variable once).
ENDPOINT = Endpoint(DEFAULT_BASE, "/v1/responses", "OPENAI_API_KEY", base_env=BASE_ENV, unredirected=UNREDIRECTED)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
