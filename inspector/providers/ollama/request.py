"""Ollama native: the request side (github.com/ollama/ollama docs/api.md "Generate a chat completion").

``POST /api/chat`` streams NDJSON by default (``"stream": true`` said explicitly); a local server
needs no key.
"""
from __future__ import annotations

from inspector.providers.base import Endpoint

ENDPOINT = Endpoint("http://localhost:11434", "/api/chat", None, accept="application/x-ndjson",
                    base_env=("OLLAMA_HOST",), base_env_keeps_path=False)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
