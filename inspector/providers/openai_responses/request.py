"""OpenAI Responses: the request side (developers.openai.com/docs/guides/streaming-responses).

``POST /v1/responses`` with ``"stream": true``; the key is a Bearer token.
"""
from __future__ import annotations

from inspector.providers.endpoint import BaseVar, Endpoint
from inspector.providers.openai_chat.request import BASE_ENV, DEFAULT_BASE, UNREDIRECTED, VERSIONS


def http_of_ws(url: str) -> str:
    """A WebSocket base URL as the HTTP URL of the same API (``wss://h/v1`` → ``https://h/v1``)."""
    scheme, sep, rest = url.strip().partition("://")
    return {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme) + sep + rest


WEBSOCKET_ENV = (
    # openai-agents ``models/openai_provider.py``: ``OPENAI_WEBSOCKET_BASE_URL`` becomes the client's
    # ``websocket_base_url`` (its Responses WebSocket session); unset, the socket's URL is derived from
    # the base URL (``models/_openai_websocket.py``: http → ws, https → wss, plus ``/responses``).
    BaseVar("OPENAI_WEBSOCKET_BASE_URL", "openai-agents (its Responses WebSocket session)", DEFAULT_BASE + "/v1",
            route="openai", versioned=True, versions=VERSIONS, fallback=("OPENAI_BASE_URL",), parse=http_of_ws,
            parse_text="`ws(s)://` read as `http(s)://`", websocket=True),
)

# The same SDKs and variables as Chat Completions (``run`` lists each variable once), and the WebSocket mode's.
ENDPOINT = Endpoint(DEFAULT_BASE, "/v1/responses", "OPENAI_API_KEY", base_env=BASE_ENV + WEBSOCKET_ENV,
                    unredirected=UNREDIRECTED)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
