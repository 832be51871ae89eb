"""Gemini native: the request side (ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).

``POST /v1beta/models/{model}:streamGenerateContent?alt=sse`` (``alt=sse`` gives SSE frames; without
it the answer is one JSON array); the model is in the URL, not the body; the key goes in
``x-goog-api-key``.
"""
from __future__ import annotations

from inspector.providers.base import Endpoint

ENDPOINT = Endpoint("https://generativelanguage.googleapis.com",
                    "/v1beta/models/{model}:streamGenerateContent?alt=sse", "GEMINI_API_KEY",
                    base_env=("GOOGLE_GEMINI_BASE_URL",))


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """The model moves into the URL path; ``(body, path, headers)``. Raises ``ValueError``
    when the body names no model."""
    body = dict(body)
    model = body.pop("model", None)
    if not isinstance(model, str) or not model.strip():
        raise ValueError('gemini: the request needs a "model" field (e.g. "gemini-2.5-flash"); it goes in the URL')
    body.pop("stream", None)
    path = ENDPOINT.path.format(model=model.strip().removeprefix("models/"))
    return body, path, ({"x-goog-api-key": key} if key else {})
