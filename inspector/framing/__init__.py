"""Framing: a response body, fed as timed byte chunks, cut into frames.

Second layer of the pipeline (``source → framing → dialect → session → sinks``). Decoders are
pure and incremental: ``feed(data: bytes, t) -> list[Frame | Comment | FramingIssue]`` and
``close(t) -> list[...]``; chunk boundaries never change what they return except the times.

Lives here: ``lines`` (line splitting, UTF-8, BOM, line endings), ``sse`` (WHATWG event
streams), ``ndjson`` (one JSON value per line), ``eventstream`` (AWS binary event-stream
messages, Bedrock), and ``choose_decoder``.
May import: ``inspector.model`` and third-party parsing libraries; nothing else of the project.
"""
from __future__ import annotations

from inspector.framing.eventstream import CONTENT_TYPE as EVENTSTREAM_TYPE
from inspector.framing.eventstream import EventStreamDecoder, looks_like_eventstream
from inspector.framing.ndjson import NDJSONDecoder
from inspector.framing.sse import SSEDecoder

Decoder = SSEDecoder | NDJSONDecoder | EventStreamDecoder


def choose_decoder(content_type: str, probe: bytes) -> Decoder:
    """The decoder for a body: by its content type (lower case, may be empty) when it names a
    stream format, else by its first non-blank bytes (``probe``): a first byte 0x00 or 0x01
    starts an AWS event-stream message (its length's high byte; no text format starts so),
    ``{``/``[`` start NDJSON, anything else is read as SSE (pasted bug reports often have no head
    at all)."""
    if EVENTSTREAM_TYPE in content_type:
        return EventStreamDecoder()
    if "event-stream" in content_type:
        return SSEDecoder()
    if "ndjson" in content_type or "jsonl" in content_type:
        return NDJSONDecoder()
    if probe[:1] in (b"\x00", b"\x01"):  # decided on one byte: chunking must not change the choice
        return EventStreamDecoder()
    if probe[:1] in (b"{", b"["):
        return NDJSONDecoder()
    return SSEDecoder()
