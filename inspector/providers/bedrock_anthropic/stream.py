"""Anthropic Messages on AWS Bedrock (``InvokeModelWithResponseStream``, binary event-stream).

Wire facts (botocore ``bedrock-runtime`` ``service-2.json``, ``ResponseStream``; Anthropic's
"Claude on Amazon Bedrock" docs): each event-stream message is a ``chunk`` event whose payload
is ``{"bytes": <base64>}`` (plus Bedrock's padding member ``p``); the bytes are one Anthropic
Messages streaming event as JSON (``message_start`` … ``message_stop``; the last one carries
``amazon-bedrock-invocationMetrics``). Exceptions arrive as exception messages (S006,
``Dialect.generic_error``).

The dialect *is* the Anthropic one (``inspector.providers.anthropic.stream``): every A rule applies
unchanged. This subclass only unwraps each chunk into the event the Anthropic dialect reads; the
findings still point at the chunk (the session's current event).
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import replace
from typing import TYPE_CHECKING

import orjson

from inspector.providers.anthropic.stream import AnthropicMessages

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

CHUNK = "chunk"


def decode_chunk(payload: object) -> dict | None:
    """The Anthropic event inside a ``chunk`` payload, or None when ``bytes`` is not base64 JSON
    of an object."""
    raw = payload.get("bytes") if isinstance(payload, dict) else None
    if not isinstance(raw, str):
        return None
    try:
        inner = orjson.loads(base64.b64decode(raw, validate=True))
    except (binascii.Error, ValueError):
        return None
    return inner if isinstance(inner, dict) else None


class BedrockAnthropic(AnthropicMessages):
    name = "bedrock-anthropic"
    url_hints = ("/invoke-with-response-stream",)

    @classmethod
    def sniff(cls, ev: "EventRecord") -> bool:
        return ev.name == CHUNK and isinstance(ev.payload, dict) and isinstance(ev.payload.get("bytes"), str)

    def on_event(self, ev: "EventRecord") -> None:
        if not isinstance(ev.payload, dict):
            return
        if self.generic_error(ev):
            self.errored = True
            return
        if ev.name != CHUNK:
            self.w.report("S008", f"unknown event type {ev.name!r} (tolerated: botocore drops unknown events)")
            return
        inner = decode_chunk(ev.payload)
        if inner is None:
            self.w.report("S002", "chunk.bytes is not base64-encoded JSON of an Anthropic event: "
                          f"{str(ev.payload.get('bytes'))[:80]!r}")
            return
        typ = inner.get("type")
        super().on_event(replace(ev, name=typ if isinstance(typ, str) else "message", payload=inner,
                                 data=orjson.dumps(inner).decode(), named=False))
