"""Standard input as it arrives: each read stamped with its arrival time (``check -``).

``curl -sN … | stream-inspector check -`` is a live stream through a pipe: a read on a pipe
returns what has arrived, so each read is one chunk as the network (or curl) handed it over, and
its time tells a stall (T001) from a steady stream. Times count from the first byte (the request's
own time is unknown here: SPEC.md, "other inputs with timing but no request time").

A body that is a capture format of its own (native JSON Lines, HAR) keeps its recorded times; so
does a pasted text whose body had prose cut out (its offsets no longer match the arrivals).
"""
from __future__ import annotations

import os
import time

from inspector.capture.load import CaptureError
from inspector.model.capture import Capture, Chunk
from inspector.model.sizes import human_size

READ_SIZE = 64 * 1024


def read_arrivals(f, limit: int, *, name: str) -> list[Chunk]:
    """Every read of binary file ``f`` until its end, as ``Chunk(t, data)`` with ``t`` seconds since
    the first non-empty read. Raises ``CaptureError`` past ``limit`` bytes (everything read so far
    is dropped with it: the size limit is a refusal, as for files)."""
    try:
        fd = f.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests' BytesIO): one untimed chunk
        raw = f.read(limit + 1)
        _refuse(len(raw), limit, name)
        return [Chunk(None, raw)] if raw else []
    chunks: list[Chunk] = []
    total = 0
    start = None
    while True:
        data = os.read(fd, READ_SIZE)
        if not data:
            return chunks
        now = time.monotonic()
        if start is None:
            start = now
        total += len(data)
        _refuse(total, limit, name)
        chunks.append(Chunk(round(now - start, 6), data))


def with_arrivals(cap: Capture, arrivals: list[Chunk]) -> Capture:
    """``cap`` (parsed from the joined ``arrivals``) with its body split where the reads were and
    timed by them, when ``cap`` is that body untouched and untimed; else ``cap`` as it is."""
    untimed = all(c.t is None for c in cap.chunks)
    if not untimed or cap.line_base or len(arrivals) < 1 or cap.source_format in ("native", "har", "websocket"):
        return cap
    body = b"".join(c.data for c in arrivals)
    if cap.body != body:
        return cap
    cap.chunks = list(arrivals)
    cap.request_relative = False
    return cap


def _refuse(size: int, limit: int, name: str) -> None:
    if size > limit:
        raise CaptureError(f"{name}: more than {human_size(limit)}, the size limit (--max-size raises it)")
