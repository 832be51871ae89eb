"""Anthropic Messages on AWS Bedrock: the request side (``POST /model/{modelId}/invoke-with-response-stream``).

The body is the Anthropic Messages body without ``model`` (it goes into the path) and without
``stream`` (streaming is the operation), with ``anthropic_version: bedrock-2023-05-31`` (Anthropic's
Bedrock docs). Auth: SigV4 or a Bedrock API key (``inspector.providers.bedrock``).
"""
from __future__ import annotations

from inspector.providers.bedrock import bearer, endpoint, model_path

ENDPOINT = endpoint("invoke-with-response-stream")
ANTHROPIC_VERSION = "bedrock-2023-05-31"


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """``(body, path, headers)``: model into the path, ``anthropic_version`` set unless given.
    Raises ``ValueError`` without a model id."""
    body, path = model_path(body, ENDPOINT.path)
    body.pop("stream", None)
    body.setdefault("anthropic_version", ANTHROPIC_VERSION)
    return body, path, bearer(key)
