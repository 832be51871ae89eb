"""The recording tap: the copy of each forwarded response that is decoded, recorded and inspected.

The endpoint hands every chunk to a :class:`Tee` just before it sends it to the client; the tee
decodes a ``content-encoding`` (``decode``), appends the chunk to the exchange's native
capture (``--record DIR``: ``NNN-METHOD-path.jsonl``, numbered on from the captures already
there, redacted; one record per chunk, one unbuffered write per chunk or per batch of chunks that
arrived together) and queues it on the sink for inspection. Nothing here can stop the forwarding: a failing disk
stops the recording, a body that does not decode stops the copy, each with a note.

Imports: ``decode``, ``sink`` (its type), ``inspector.model.capture``, ``inspector.capture.recorder``.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Protocol

from inspector.model.capture import Chunk, End
from inspector.capture.recorder import Recorder
from inspector.net.proxy.decode import DecodeError, DecodeLimit, NotDecodable, decoder_for


def safe_name(method: str, path: str) -> str:
    """``POST``, ``/v1/messages`` -> ``POST-v1-messages`` (file-name safe, at most 80 characters)."""
    p = re.sub(r"[^A-Za-z0-9._]+", "-", path).strip("-.") or "root"
    m = re.sub(r"[^A-Za-z0-9]+", "", method) or "REQ"
    return f"{m}-{p}"[:80]


def check_record_dir(path: str) -> str | None:
    """None when ``--record DIR`` is usable (created if missing), else the one-line problem."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        return f"--record {path}: not a directory"
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"--record {path}: cannot create: {e.strerror or e}"
    if not os.access(p, os.W_OK):
        return f"--record {path}: not writable"
    return None


def first_free_number(record_dir: str | os.PathLike | None) -> int:
    """Exchange numbers continue after the ``NNN-*.jsonl`` captures already in ``record_dir``."""
    if record_dir is None:
        return 1
    best = 0
    try:
        for p in Path(record_dir).iterdir():
            m = re.match(r"^(\d+)-.*\.jsonl$", p.name)
            if m:
                best = max(best, int(m.group(1)))
    except OSError:
        return 1
    return best + 1


def open_recording(path: str | None, request: dict, response: dict | None) -> Recorder | None:
    """A ``Recorder`` for ``path`` (None: not recording); on an ``OSError`` one stderr line and None."""
    if path is None:
        return None
    try:
        return Recorder(path, request, response)
    except OSError as e:
        _cannot_write(path, e)
        return None


def record_no_response(path: str | None, request: dict, end: End) -> None:
    """The capture of an exchange that got no response: ``response: null`` and the end saying why."""
    if path is None:
        return
    try:
        with Recorder(path, request, None) as rec:
            rec.write_end(end)
    except OSError as e:
        _cannot_write(path, e)


def _cannot_write(path: str, e: OSError) -> None:
    print(f"stream-inspector: proxy: cannot write {path}: {e.strerror or e}", file=sys.stderr)


def end_recording(rec: Recorder | None, end: End) -> None:
    """Write the end line and close; a failing disk is reported, never raised."""
    if rec is None:
        return
    try:
        rec.write_end(end)
        rec.close(end.t)
    except OSError as e:
        _record_failed(rec, e)


def _record_chunk(rec: Recorder, t: float | None, data: bytes) -> Recorder | None:
    """Write one chunk; a failing disk stops the recording (None), never the forwarding."""
    try:
        rec.chunk(t, data)
        return rec
    except OSError as e:
        _record_failed(rec, e)
        return None


def _record_chunks(rec: Recorder, items: list[tuple[float, bytes]]) -> Recorder | None:
    """Write the chunks of a batch with one write; a failing disk stops the recording (None)."""
    try:
        rec.write_chunks(items)
        return rec
    except OSError as e:
        _record_failed(rec, e)
        return None


def _record_failed(rec: Recorder, e: OSError) -> None:
    print(f"stream-inspector: proxy: recording {rec.path} stopped: {e.strerror or e}", file=sys.stderr)
    try:
        rec.close()  # closes the file even when its end line cannot be written
    except OSError:
        pass



class TeeSink(Protocol):
    """What ``Tee`` writes to: the proxy's ``LoopSink`` (handed to the event loop) or mitm's direct
    writer (this process only inspects)."""

    def note(self, n: int, text: str) -> None: ...

    def chunk(self, n: int, chunk: Chunk) -> None: ...

    def chunks(self, n: int, items: list[tuple[float, bytes]]) -> None: ...

    def finish(self, n: int, end: End) -> None: ...

class Tee:
    """The inspected copy of one response body: ``record`` then ``inspect`` per forwarded chunk, ``complete`` after a
    clean end of body, ``close`` exactly once. Times ``t`` are seconds since the request was sent.

    Built before the response head goes to the sink: a ``content-encoding`` nothing here decodes
    posts its note first, so the exchange is shown as encoded, not inspected (not linted).
    ``max_bytes`` bounds the decoded copy (``decode.ContentDecoder``): ``record`` raises
    ``DecodeLimit`` when a chunk would pass it or the decompression-bomb ratio.
    """

    def __init__(self, n: int, sink: TeeSink, encoding: str, rec: Recorder | None,
                 max_bytes: int | None = None) -> None:
        self.n = n
        self.sink = sink
        self.encoding = encoding
        self.rec = rec
        self.copying = True
        """False once the body stopped decoding: the rest is forwarded, not inspected or recorded."""
        try:
            self.decoder = decoder_for(encoding, max_bytes=max_bytes)
        except NotDecodable as e:
            self.decoder = None
            sink.note(n, str(e))

    def record(self, t: float, data: bytes) -> bytes:
        """Decode one forwarded chunk and append it to the recording (before the client is sent it);
        returns the decoded copy for ``inspect`` (``b""``: nothing to inspect). Raises ``DecodeLimit``
        (nothing of the chunk recorded): the caller cuts the exchange there."""
        data = self._decode(data)
        if data and self.rec is not None:
            self.rec = _record_chunk(self.rec, t, data)
        return data

    def record_all(self, batch: list[tuple[float, bytes]]) -> tuple[list[tuple[float, bytes]], DecodeLimit | None]:
        """``record`` for each ``(t, data)`` of a batch that arrived together, the records written to
        the recording in one write (the same lines). Returns the ``(t, decoded copy)`` of each chunk
        that may be forwarded, in order, and None; or, when a chunk passed a decoding limit, those
        before it and the ``DecodeLimit`` (that chunk and the rest are neither recorded nor forwarded)."""
        copies: list[tuple[float, bytes]] = []
        limit = None
        for t, data in batch:
            try:
                copies.append((t, self._decode(data)))
            except DecodeLimit as e:
                limit = e
                break
        if self.rec is not None:
            self.rec = _record_chunks(self.rec, copies)
        return copies, limit

    def _decode(self, data: bytes) -> bytes:
        """The decoded copy of one chunk (``b""`` once the copy has stopped). Raises ``DecodeLimit``."""
        if self.decoder is not None:
            try:
                data = self.decoder.decode(data)
            except DecodeLimit:
                raise
            except DecodeError as e:  # a corrupt encoding: keep forwarding, stop the copy
                self.sink.note(self.n, f"content-encoding {self.encoding}: cannot decode ({e}); the rest was "
                                       "passed through, not inspected")
                self.decoder, self.copying = None, False
        return data if self.copying else b""

    def inspect(self, t: float, data: bytes) -> None:
        """Queue what ``record`` returned for inspection (after the client was sent the chunk)."""
        if data:
            self.sink.chunk(self.n, Chunk(t, data))

    def inspect_all(self, copies: list[tuple[float, bytes]]) -> None:
        """``inspect`` for each ``(t, decoded copy)`` that ``record_all`` returned, one chunk each, in order
        (handed to the sink as one batch)."""
        self.sink.chunks(self.n, copies)

    def complete(self, t: float | None) -> None:
        """The body ended cleanly: pass on what the decoders still hold, and say if it was cut short."""
        if self.decoder is None or not self.copying:
            return
        try:
            tail = self.decoder.flush()
        except DecodeLimit as e:
            self.sink.note(self.n, f"{e}; what came before was inspected")
            return
        except DecodeError as e:
            self.sink.note(self.n, f"content-encoding {self.encoding}: cannot decode its end ({e}); what "
                                   "came before was inspected")
            return
        if tail:
            self._pass(t, tail)
        cut = self.decoder.truncated
        if cut:
            self.sink.note(self.n, f"content-encoding {self.encoding}: the body ended before the {', '.join(cut)} "
                                   "end marker (truncated); what arrived was inspected")

    def close(self, end: End) -> None:
        end_recording(self.rec, end)
        self.sink.finish(self.n, end)

    def _pass(self, t: float | None, data: bytes) -> None:
        if self.rec is not None:
            self.rec = _record_chunk(self.rec, t, data)
        self.sink.chunk(self.n, Chunk(t, data))
