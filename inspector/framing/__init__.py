"""Framing: a response body, fed as timed byte chunks, cut into frames.

Second layer of the pipeline (``source → framing → dialect → session → sinks``). Decoders are
pure and incremental: ``feed(data: bytes, t) -> list[Frame | Comment | FramingIssue]`` and
``close(t) -> list[...]``; chunk boundaries never change what they return except the times.

Lives here: ``lines`` (line splitting, UTF-8, BOM, line endings), ``sse`` (WHATWG event
streams), ``ndjson`` (one JSON value per line), and ``choose_decoder``.
May import: ``inspector.model`` and third-party parsing libraries; nothing else of the project.
"""
from __future__ import annotations

from inspector.framing.ndjson import NDJSONDecoder
from inspector.framing.sse import SSEDecoder

Decoder = SSEDecoder | NDJSONDecoder


def choose_decoder(content_type: str, probe: bytes) -> Decoder:
    """The decoder for a body: by its content type (lower case, may be empty) when it names a
    stream format, else by its first non-blank bytes (``probe``): ``{``/``[`` start NDJSON,
    anything else is read as SSE (pasted bug reports often have no head at all)."""
    if "event-stream" in content_type:
        return SSEDecoder()
    if "ndjson" in content_type or "jsonl" in content_type:
        return NDJSONDecoder()
    if probe[:1] in (b"{", b"["):
        return NDJSONDecoder()
    return SSEDecoder()
