"""Cohere v2 chat: the request side (docs.cohere.com/reference/chat-stream).

``POST /v2/chat`` with ``"stream": true``; the key goes in ``Authorization: Bearer``. cohere-python
reads its key from ``CO_API_KEY`` and its base URL from ``CO_API_URL`` (``cohere/client_v2.py``),
default ``https://api.cohere.com``, to which it appends ``/v2/chat``.
"""
from __future__ import annotations

from inspector.providers.endpoint import BaseVar, Endpoint

DEFAULT_BASE = "https://api.cohere.com"
BASE_ENV = (
    # cohere-python ``client_v2.py``/``client.py``: a root; ``ClientV2`` posts ``/v2/chat``, ``Client`` ``/v1/chat``.
    BaseVar("CO_API_URL", "`cohere` Python SDK (`ClientV2`, `Client`)", DEFAULT_BASE, versions=("/v2", "/v1")),
)
ENDPOINT = Endpoint(DEFAULT_BASE, "/v2/chat", "CO_API_KEY", base_env=BASE_ENV)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
