"""A request error in each provider's own shape, so its SDK raises its usual error type with our message.

Shapes, from the SDKs that read them:

- Anthropic Messages (and Anthropic on Bedrock): ``{"type": "error", "error": {"type":
  "invalid_request_error", "message"}}`` (``anthropic`` SDK ``_client._make_status_error``: HTTP 400
  -> ``BadRequestError``, ``.message`` from ``error.message``).
- OpenAI Chat and Responses: ``{"error": {"message", "type": "invalid_request_error", "param",
  "code"}}`` (``openai`` SDK ``_client._make_status_error``: 400 -> ``BadRequestError``).
- Gemini: ``{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT"}}`` (google.rpc.Status
  as JSON; ``google-genai`` ``errors.APIError``).
- Ollama: ``{"error": "message"}`` (``ollama`` client ``ResponseError``).
- Cohere and Bedrock ConverseStream: ``{"message": "message"}`` (Cohere v2 error bodies; AWS JSON
  protocol errors, with ``x-amzn-errortype: ValidationException``).

Which shape a dialect uses is its provider record's ``error_shape``. Pure: no I/O.
"""
from __future__ import annotations

import orjson

from inspector.providers import provider_for_dialect


def error_answer(dialect: str | None, message: str, status: int = 400) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """``(headers, body)`` of an HTTP ``status`` answer saying ``message`` in ``dialect``'s error shape
    (dialect names as in SPEC.md; None or unknown: the OpenAI shape, which most compatibles copy)."""
    extra: list[tuple[bytes, bytes]] = []
    provider = provider_for_dialect(dialect)
    shape = provider.error_shape if provider is not None else "openai"
    if shape == "anthropic":
        body: object = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    elif shape == "google":
        body = {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}}
    elif shape == "ollama":
        body = {"error": message}
    elif shape in ("message", "aws-json"):
        body = {"message": message}
        if shape == "aws-json":
            extra.append((b"x-amzn-errortype", b"ValidationException"))
    else:
        body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
    return [(b"content-type", b"application/json"), *extra], orjson.dumps(body)
