"""One event's raw bytes out of a capture, made safe to show (the TUI's event detail view).

Why this module exists: an event record keeps its data as framed (``data:`` lines joined), not
the bytes that carried it; someone chasing a framing fault (CRLF, a BOM, a ``data:`` without a
space, bytes between two events) needs the bytes themselves. Each record knows the body offset
of its first byte (``EventRecord.offset``); the bytes run from there to the next event's first
byte (or the body's end), so comments and blank lines before the next event are shown too.

A capture is a stranger's file: the bytes are shown with secrets masked (a ``ChunkScrubber``
warmed up on the bytes before them, so a key cut by the event boundary is masked as well) and
every control character written out (``display_text``): nothing in them can drive a terminal.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate

from inspector.capture.b64values import mask_b64_values
from inspector.capture.redact import ChunkScrubber
from inspector.model.display import display_text

MAX_BYTES = 256 * 1024
"""Most bytes of one event shown (a bigger event is cut; the view says how many bytes follow)."""
WARM_UP = 1024
"""Bytes before the event read by the scrubber first (a secret cut by the event's first byte)."""
HEX_WIDTH = 16
"""Bytes per row of a hex dump."""


@dataclass(frozen=True, slots=True)
class EventBytes:
    """Bytes ``start``..``stop`` of the body (``data``: at most ``MAX_BYTES`` of them)."""

    start: int
    stop: int
    data: bytes
    before: bytes
    """Up to ``WARM_UP`` bytes before ``start`` (context for masking)."""

    @property
    def cut(self) -> int:
        """Bytes of the event not in ``data``."""
        return self.stop - self.start - len(self.data)


class Body:
    """Random access to a capture's body without joining its chunks (``chunks``: ``Chunk``s)."""

    def __init__(self, chunks) -> None:
        self._chunks = [c.data for c in chunks]
        self._starts = [0, *accumulate(map(len, self._chunks))]
        self.size = self._starts[-1]

    def read(self, start: int, stop: int) -> bytes:
        """Bytes ``start``..``stop`` (clipped to the body)."""
        start, stop = max(0, start), min(stop, self.size)
        if start >= stop:
            return b""
        k = bisect.bisect_right(self._starts, start) - 1
        out = []
        pos = start
        while pos < stop and k < len(self._chunks):
            lo = self._starts[k]
            piece = self._chunks[k][pos - lo:stop - lo]
            out.append(piece)
            pos += len(piece)
            k += 1
        return b"".join(out)


def event_bytes(body: Body, events, i: int) -> EventBytes | None:
    """The bytes of ``events[i]`` in ``body``; None when the record has no offset or the body does
    not reach it (a record made by hand, a capture saved before the event arrived)."""
    start = events[i].offset
    if start is None or start >= body.size:
        return None
    stop = body.size
    for j in range(i + 1, len(events)):  # the next event framed from the body (a run's records all are)
        nxt = events[j].offset
        if nxt is not None and nxt > start:
            stop = nxt
            break
    return EventBytes(start, stop, body.read(start, min(stop, start + MAX_BYTES)),
                      body.read(start - WARM_UP, start))


def is_binary(data: bytes) -> bool:
    """Not UTF-8 text, or a control byte other than TAB, LF and CR in it (AWS event-stream)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return any(c < " " and c not in "\t\n\r" for c in text)


def _masked(raw: EventBytes, decode) -> str:
    """The bytes as text (``decode``), secrets masked, also inside base64 ``"bytes"`` values (an AWS
    Bedrock chunk: ``b64values``); both scrubbers warmed up on the bytes before."""
    scrubber, inner = ChunkScrubber(), ChunkScrubber()

    def scrub(text: str) -> str:
        return inner.scrub(text, True)

    before = decode(raw.before)
    scrubber.scrub(before)
    mask_b64_values(before, scrub)
    return mask_b64_values(scrubber.scrub(decode(raw.data)), scrub)


def text_lines(raw: EventBytes) -> list[str]:
    """The bytes as text lines, secrets masked, each line ending shown (``\\n``, CR as ``\\x0d``),
    every other control written out (``display_text``)."""
    text = _masked(raw, lambda b: b.decode("utf-8", "backslashreplace"))
    lines = text.split("\n")
    out = [display_text(part) + "\\n" for part in lines[:-1]]
    if lines[-1]:
        out.append(display_text(lines[-1]))
    return out


def hex_lines(raw: EventBytes) -> list[str]:
    """A hex dump (body offset, ``HEX_WIDTH`` bytes in hex, the printable ASCII of them), secrets
    masked first (the bytes read as Latin-1, so each character is one byte)."""
    data = _masked(raw, lambda b: b.decode("latin-1")).encode("latin-1", "replace")
    out = []
    for k in range(0, len(data), HEX_WIDTH):
        row = data[k:k + HEX_WIDTH]
        hexes = " ".join(f"{b:02x}" for b in row)
        text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in row)
        out.append(f"{raw.start + k:08x}  {hexes:<{HEX_WIDTH * 3 - 1}}  {text}")
    return out


def shown_lines(raw: EventBytes) -> list[str]:
    """``hex_lines`` for binary bytes, else ``text_lines``."""
    return hex_lines(raw) if is_binary(raw.data) else text_lines(raw)
