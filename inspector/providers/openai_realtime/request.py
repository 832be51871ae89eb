"""OpenAI Realtime: the request side (``wss://api.openai.com/v1/realtime?model=…``, WebSocket only).

The opening handshake carries the key as a Bearer token; the conversation then runs as client
events on the socket (PROTOCOLS.md §8). ``prepare`` gives the handshake's path and headers.
"""
from __future__ import annotations

from urllib.parse import quote

from inspector.providers.endpoint import Endpoint
from inspector.providers.openai_chat.request import BASE_ENV, DEFAULT_BASE, UNREDIRECTED

ENDPOINT = Endpoint(DEFAULT_BASE, "/v1/realtime", "OPENAI_API_KEY", accept="", base_env=BASE_ENV,
                    unredirected=UNREDIRECTED)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """``(body, path, headers)`` for the handshake: the model (``body["model"]``, or the session's) in
    the query. Raises ``ValueError`` when no model is named."""
    session = body.get("session")
    model = body.get("model") or (session.get("model") if isinstance(session, dict) else None)
    if not isinstance(model, str) or not model:
        raise ValueError("a Realtime request names its model ('model' or 'session.model')")
    path = f"{ENDPOINT.path}?model={quote(model, safe='')}"
    return body, path, ({"authorization": f"Bearer {key}"} if key else {})
