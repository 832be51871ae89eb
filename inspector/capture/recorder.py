"""Write the native capture (SPEC.md "Capture files") while a stream arrives.

Why a class of its own: a recording is evidence, so it must survive the process dying at any
moment. Every record is one JSON line, written whole by a single ``write()`` on an unbuffered file
(the records of chunks that arrived together share one: ``write_chunks``), so
a kill (even SIGKILL) leaves every chunk received so far on disk and at worst one half-written
last line, which the loader drops with a note (``inspector.capture.load.load_native``). Secrets in
the request and response headers and the URL are redacted before anything is written.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import overload

import orjson

from inspector.capture.load import NATIVE_FORMAT
from inspector.model.capture import END_KINDS, Capture, Chunk, End
from inspector.capture.records import chunk_line, end_record, pending_record, ws_record
from inspector.model.websocket import WsMessage
from inspector.capture.b64values import mask_b64_members
from inspector.capture.redact import ChunkScrubber, mask_in_place, redact_headers, redact_url, scrub_value


@overload
def redact_request(request: dict) -> dict: ...
@overload
def redact_request(request: None) -> None: ...
def redact_request(request: dict | None) -> dict | None:
    """The request as a capture header stores it: ``{"method", "url", "headers", "body"}``, with
    secret headers and query values redacted and key shapes or remembered credentials masked
    anywhere in the other headers and in the body (a tool result can hold a key), also inside its
    base64 attachments (``b64values.mask_b64_members``: a ``.env`` file sent as a document)."""
    if request is None:
        return None
    out = dict(request)
    out["url"] = redact_url(out.get("url"))
    out["headers"] = scrub_value(redact_headers(out.get("headers")))
    for key in out.keys() - {"method", "url", "headers"}:  # the body, a WebSocket's ``sent`` messages
        out[key] = mask_b64_members(scrub_value(out[key]), mask_in_place)  # also inside base64 attachments
    return out


@overload
def redact_response(response: dict) -> dict: ...
@overload
def redact_response(response: None) -> None: ...
def redact_response(response: dict | None) -> dict | None:
    """``{"status", "headers"}`` with ``set-cookie`` and friends redacted, key shapes masked."""
    if response is None:
        return None
    out = dict(response)
    out["headers"] = scrub_value(redact_headers(out.get("headers")))
    return out


class Recorder:
    """Append-only native capture writer.

    ``Recorder(path, request, response)`` creates (truncates) ``path`` and writes the header line;
    then ``chunk(t, data)`` per network chunk (``t`` = seconds since the request was sent) and
    ``end(kind, t, error)`` once. ``close()`` writes an ``end`` line saying ``cancelled`` if none
    was written (the stream was abandoned). Usable as a context manager. Raises ``OSError`` when
    the file cannot be created; write errors later are also ``OSError``.
    """

    def __init__(self, path: str | os.PathLike, request: dict | None = None, response: dict | None = None) -> None:
        self.path = Path(path)
        self.chunks = 0
        """Chunk records written so far."""
        self.ended = False
        self._scrubber = ChunkScrubber()
        # buffering=0: each write() below goes straight to the kernel, nothing waits in a Python buffer.
        self._f = open(self.path, "wb", buffering=0)  # noqa: SIM115 (closed in close())
        header = {"format": NATIVE_FORMAT, "version": 1, "request": redact_request(request),
                  "response": redact_response(response)}
        self._write(header)

    def _write(self, record: dict) -> None:
        self._write_lines(orjson.dumps(record, option=orjson.OPT_APPEND_NEWLINE))

    def _write_lines(self, lines: bytes) -> None:
        # One write() per call; a raw file may in theory write less, so finish the same lines.
        view = memoryview(lines)
        while view:
            n = self._f.write(view)
            if n is None:  # non-blocking file: never the case for a regular file
                continue
            view = view[n:]

    def chunk(self, t: float | None, data: bytes) -> None:
        """Record one network chunk exactly as received (empty chunks are skipped)."""
        if self.ended or not data:
            return
        self._write_lines(chunk_line(t, data, self._scrubber))
        self.chunks += 1

    def write_chunks(self, items: Sequence[tuple[float | None, bytes]]) -> None:
        """``chunk(t, data)`` for each ``(t, data)`` in order, the records written with one ``write()``
        (the same lines as one call each: a batch that arrived together costs one system call)."""
        if self.ended:
            return
        scrubber = self._scrubber
        records = [chunk_line(t, data, scrubber) for t, data in items if data]
        if records:
            self._write_lines(records[0] if len(records) == 1 else b"".join(records))
            self.chunks += len(records)

    def write_chunk(self, chunk: Chunk) -> None:
        """``chunk()`` for a ``Chunk``."""
        self.chunk(chunk.t, chunk.data)

    def message(self, msg: WsMessage) -> None:
        """Record one WebSocket message, either direction, whole (``{"t", "ws", "data"|"b64"}``;
        README "WebSocket captures"); the opening handshake is the header's request and response."""
        if self.ended:
            return
        self._write(ws_record(msg.t, msg.direction, msg.data, msg.binary))
        self.chunks += 1

    def end(self, kind: str = "eof", t: float | None = None, error: str | None = None, code: int | None = None) -> None:
        """Record how the stream ended (once; later calls are ignored). A WebSocket's close is kind
        ``close`` with its ``code`` and the reason as ``error``."""
        if self.ended:
            return
        if kind not in END_KINDS:
            raise ValueError(f"end kind must be one of {', '.join(END_KINDS)}, not {kind!r}")
        pending = pending_record(self._scrubber)  # the last bytes of an event-stream chunk cut in base64
        if pending is not None:
            self._write(pending)
            self.chunks += 1
        self._write(end_record(End(t, kind, error, code)))
        self.ended = True

    def write_end(self, end: End) -> None:
        """``end()`` for an ``End``."""
        self.end(end.kind, end.t, end.error, end.code)

    def close(self, t: float | None = None) -> None:
        """Close the file; an unended recording gets ``end: cancelled`` at ``t``."""
        if self._f.closed:
            return
        try:
            if not self.ended:
                self.end("cancelled", t, "recording closed before the stream ended")
        finally:
            self._f.close()

    def abandon(self) -> None:
        """Close the file without writing anything more (after a write error)."""
        try:
            self._f.close()
        except OSError:
            pass

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_capture(capture: Capture, path: str | os.PathLike) -> int:
    """Write ``capture`` to ``path`` as a native capture (request, response head, every chunk or
    WebSocket message, the end), secrets redacted as a recording redacts them. Returns the chunks written; raises
    ``OSError``. A capture without an end (a stream still arriving) ends ``cancelled`` at its last
    chunk, saying the save cut it there."""
    with Recorder(path, capture.request, capture.response) as rec:
        for chunk in list(capture.chunks):
            rec.write_chunk(chunk)
        for msg in list(capture.messages or []):
            rec.message(msg)
        if capture.end is not None:
            rec.write_end(capture.end)
        else:
            times = [c.t for c in capture.chunks] + [m.t for m in capture.messages or []]
            last = next((t for t in reversed(times) if t is not None), None)
            rec.end("cancelled", last, "saved while the stream was still arriving")
        return rec.chunks
