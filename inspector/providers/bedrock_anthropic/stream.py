"""Anthropic Messages on AWS Bedrock (``InvokeModelWithResponseStream``, binary event-stream).

Wire facts (botocore ``bedrock-runtime`` ``service-2.json``, ``ResponseStream``; Anthropic's
"Claude on Amazon Bedrock" docs): each event-stream message is a ``chunk`` event whose payload
is ``{"bytes": <base64>}`` (plus Bedrock's padding member ``p``); the bytes are one Anthropic
Messages streaming event as JSON (``message_start`` … ``message_stop``; the last one carries
``amazon-bedrock-invocationMetrics``). Exceptions arrive as exception messages (S006,
``Dialect.generic_error``).

The dialect *is* the Anthropic one (``inspector.providers.anthropic.stream``): every A rule applies
unchanged. This subclass only unwraps each chunk into the event the Anthropic dialect reads (for
``on_event`` and ``next_response``, so glued responses split as they do over SSE); the findings
still point at the chunk (the session's current event). No hook in the Anthropic dialect is needed.
"""
from __future__ import annotations

import base64
import binascii
import orjson

from inspector.capture.b64values import mask_b64
from inspector.capture.redact import mask_in_place
from inspector.model.jsondepth import loads as json_loads
from inspector.model.events import EventRecord
from inspector.model.clients import says
from inspector.providers.bedrock_anthropic.sniff import CHUNK
from inspector.providers.anthropic.stream import STOP_REASONS, AnthropicMessages


def decode_chunk(payload: object) -> dict | None:
    """The Anthropic event inside a ``chunk`` payload, or None when ``bytes`` is not base64 JSON
    of an object."""
    raw = payload.get("bytes") if isinstance(payload, dict) else None
    if not isinstance(raw, str):
        return None
    try:
        inner = json_loads(base64.b64decode(raw, validate=True))
    except (binascii.Error, ValueError):
        return None
    return inner if isinstance(inner, dict) else None


def inner_event(ev: "EventRecord", inner: dict) -> "EventRecord":
    """The Anthropic event ``inner`` as a record at ``ev``'s place (index, line, time, response)."""
    typ = inner.get("type")
    return EventRecord(ev.index, typ if isinstance(typ, str) else "message", orjson.dumps(inner).decode(), inner,
                       ev.line, ev.t, False, False, ev.block, ev.response, ev.offset)


def _quoted(raw: object) -> str:
    """``chunk.bytes`` as a finding quotes it: base64 of JSON that is no object may still hold a
    key, masked in what it decodes to (``b64values.mask_b64``, which reads a value as JSON writes it)."""
    if not isinstance(raw, str):
        return str(raw)
    written = orjson.dumps(raw).decode()[1:-1]
    shown = mask_b64(written, mask_in_place)
    return raw if shown is written else orjson.loads(f'"{shown}"')


class BedrockAnthropic(AnthropicMessages):
    name = "bedrock-anthropic"
    buffered_arguments_hint = ""  # eager_input_streaming is not documented for Bedrock's InvokeModel
    stop_reasons = STOP_REASONS | {"guardrail_intervened"}
    """Bedrock's own ``guardrail_intervened`` besides Anthropic's (PROTOCOLS.md §8)."""

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self._unwrapped: tuple[EventRecord, EventRecord | None] | None = None

    def unwrap(self, ev: "EventRecord") -> "EventRecord | None":
        """The Anthropic event a ``chunk`` carries, as the Anthropic dialect reads it (same index, time
        and place; the inner event's type as its name); None when ``ev`` is no readable chunk.
        The last answer is kept: the session asks ``next_response`` and then ``on_event``."""
        if self._unwrapped is not None and self._unwrapped[0] is ev:
            return self._unwrapped[1]
        inner = decode_chunk(ev.payload) if ev.name == CHUNK else None
        out = None
        if inner is not None:
            out = inner_event(ev, inner)
        self._unwrapped = (ev, out)
        return out

    def next_response(self, ev: "EventRecord") -> bool:
        inner = self.unwrap(ev)
        return inner is not None and super().next_response(inner)

    def on_event(self, ev: "EventRecord") -> None:
        if not isinstance(ev.payload, dict):
            return
        if self.generic_error(ev):
            self.errored = True
            return
        if ev.name != CHUNK:
            self.w.report("S008", f"unknown event type {ev.name!r} "
                          f"(tolerated: {says('S008-eventstream-unknown-event')})")
            return
        inner = self.unwrap(ev)
        if inner is None:
            self.w.report("S002", "chunk.bytes is not base64-encoded JSON of an Anthropic event: "
                          f"{_quoted(ev.payload.get('bytes'))[:80]!r}")
            return
        super().on_event(inner)
