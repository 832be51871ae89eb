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

from inspector.model.static import TYPE_CHECKING

from inspector.framing.messages import MessageDecoder
from inspector.framing.sse import SSEDecoder
from inspector.model.frames import Item

if TYPE_CHECKING:
    from typing import TypeAlias

    from inspector.framing.eventstream import EventStreamDecoder
    from inspector.framing.ndjson import NDJSONDecoder

# ``eventstream`` and ``ndjson`` are imported when a body needs them: an SSE ``check`` does not pay
# for them at start-up (bench/bench_startup.py).

EVENTSTREAM_TYPE = "application/vnd.amazon.eventstream"
"""The content type of an AWS event-stream body (Bedrock's ``InvokeModelWithResponseStream``)."""
EVENTSTREAM_PRELUDE = 12
"""Bytes of an event-stream message's prelude: total length, headers length, CRC (4 each)."""

class BinarySniff:
    """A body that starts with 0x00 or 0x01 and no content type: held until its first 12 bytes say
    whether they are an event-stream prelude (its CRC right), then decoded as event-stream, else
    as SSE (binary garbage is then S001, not a corrupt frame). Deciding on the first 12 bytes, not
    on the chunks that bring them, keeps the result independent of chunking."""

    def __init__(self) -> None:
        self._held = b""
        self.inner: EventStreamDecoder | SSEDecoder | None = None

    def _decide(self) -> EventStreamDecoder | SSEDecoder:
        from inspector.framing.eventstream import PRELUDE, EventStreamDecoder, looks_like_eventstream
        es = len(self._held) >= PRELUDE and looks_like_eventstream(self._held[:PRELUDE])
        self.inner = inner = EventStreamDecoder() if es else SSEDecoder()
        return inner

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        inner = self.inner
        if inner is None:
            self._held += data
            if len(self._held) < EVENTSTREAM_PRELUDE:
                return []
            inner = self._decide()
            data, self._held = self._held, b""
        return inner.feed(data, t)

    def close(self, t: float | None = None) -> list[Item]:
        out: list[Item] = []
        inner = self.inner
        if inner is None:
            inner = self._decide()
            out = inner.feed(self._held, t)
        return out + inner.close(t)


Decoder: TypeAlias = "SSEDecoder | NDJSONDecoder | EventStreamDecoder | BinarySniff | MessageDecoder"


def choose_decoder(content_type: str, probe: bytes) -> Decoder:
    """The decoder for a body: by its content type (lower case, may be empty) when it names a
    stream format, else by its first non-blank bytes (``probe``): a first byte 0x00 or 0x01 may
    start an AWS event-stream message (its length's high byte; no text format starts so:
    ``BinarySniff`` decides on 12 bytes), ``{``/``[`` start NDJSON, anything else is read as SSE
    (pasted bug reports often have no head at all)."""
    if EVENTSTREAM_TYPE in content_type:
        from inspector.framing.eventstream import EventStreamDecoder
        return EventStreamDecoder()
    if "event-stream" in content_type:
        return SSEDecoder()
    if "ndjson" in content_type or "jsonl" in content_type:
        from inspector.framing.ndjson import NDJSONDecoder
        return NDJSONDecoder()
    if probe[:1] in (b"\x00", b"\x01"):
        return BinarySniff()
    if probe[:1] in (b"{", b"["):
        from inspector.framing.ndjson import NDJSONDecoder
        return NDJSONDecoder()
    return SSEDecoder()
