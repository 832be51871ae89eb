"""AWS Bedrock ConverseStream: the request side (``POST /model/{modelId}/converse-stream``).

The body is the Converse shape (``messages`` with ``content: [{"text": …}, {"toolUse": …}]``,
``system``, ``inferenceConfig``, ``toolConfig``); the model goes into the path. Streaming is the
operation itself, there is no ``stream`` flag. Auth: SigV4 or a Bedrock API key
(``inspector.providers.bedrock``).
"""
from __future__ import annotations

from inspector.providers.bedrock import bearer, endpoint, model_path

ENDPOINT = endpoint("converse-stream")


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """``(body, path, headers)``: the model id moved into the path. Raises ``ValueError`` without one."""
    body, path = model_path(body, ENDPOINT.path)
    body.pop("stream", None)
    return body, path, bearer(key)
