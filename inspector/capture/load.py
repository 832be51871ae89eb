"""Read any capture people have into a ``Capture``: detected from the content, never the file name.

Accepted (SPEC.md "Capture files"): the native JSON Lines capture, raw SSE text as pasted in bug
reports, NDJSON, HAR, SSE pasted inside prose or markdown fences, and a raw AWS event-stream body
(Bedrock's binary stream as ``curl -o`` saves it).
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import orjson

from inspector.model.capture import Capture, Chunk, End

from inspector.capture.errors import NATIVE_FORMAT, CaptureError
from inspector.capture.har import load_har
from inspector.capture.records import read_record
from inspector.capture.text import extract_stream

__all__ = ["NATIVE_FORMAT", "CaptureError", "load_path", "load_bytes", "load_native", "probe_path"]

BLANK = b"\xef\xbb\xbf \t\r\n"
PROBE_BYTES = 1 << 16


def _unreadable(path, e: OSError) -> CaptureError:
    if isinstance(e, FileNotFoundError):
        return CaptureError(f"{path}: no such file")
    if isinstance(e, IsADirectoryError):
        return CaptureError(f"{path}: is a directory")
    return CaptureError(f"{path}: cannot read: {e.strerror or e}")


def _empty(name) -> CaptureError:
    return CaptureError(f"{name}: empty capture (no bytes to inspect)")


def load_path(path: str | Path, *, entry: int | None = None) -> Capture:
    """Read a capture file. Raises ``CaptureError`` (missing, unreadable, empty, unrecognised)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise _unreadable(path, e) from None
    return load_bytes(raw, name=str(path), entry=entry)


def probe_path(path: str | Path) -> None:
    """Raise the ``CaptureError`` :func:`load_path` would raise for a missing, unreadable or empty
    file, reading at most its first 64 KiB (cheap enough to run before a UI opens)."""
    try:
        with open(path, "rb") as f:
            blank = not f.read(PROBE_BYTES).strip(BLANK) and not f.read(1)
    except OSError as e:
        raise _unreadable(path, e) from None
    if blank:
        raise _empty(path)


def load_bytes(raw: bytes, *, name: str = "<input>", entry: int | None = None) -> Capture:
    """Detect the format of ``raw`` and parse it."""
    if not raw.strip(BLANK):
        raise _empty(name)
    if _looks_like_eventstream(raw):
        return Capture(chunks=[Chunk(None, raw)], source_format="eventstream")
    head = raw.lstrip(BLANK)
    first_line = head.split(b"\n", 1)[0]
    if head[:1] == b"{" and NATIVE_FORMAT.encode() in first_line[:400]:
        return load_native(raw, name=name)
    if head[:1] == b"{" and _looks_like_har(head):
        return load_har(raw, name=name, entry=entry)
    if head[:1] in (b"{", b"["):
        return Capture(chunks=[Chunk(None, raw)], source_format="ndjson")
    return extract_stream(raw, name=name)


def _looks_like_eventstream(raw: bytes) -> bool:
    """A raw AWS event-stream body (Bedrock, saved with ``curl -o``): its first 12 bytes are a message
    prelude (total length, headers length, CRC32 of those 8 bytes; ``inspector.framing.eventstream``)."""
    if len(raw) < 12 or raw[0] > 1:
        return False
    total, hlen, crc = struct.unpack_from("!III", raw, 0)
    return zlib.crc32(raw[:8]) == crc and 16 <= total and hlen <= total - 16


def _looks_like_har(head: bytes) -> bool:
    start = head[:2000]
    return b'"log"' in start and (b'"entries"' in head[:1_000_000] or b'"creator"' in start)


def load_native(raw: bytes, *, name: str = "<input>") -> Capture:
    """Parse the native capture (SPEC.md): a header line, then chunk lines, then an optional end line.

    A half-written last line (the recorder was killed mid-write) is dropped with a note; any other
    unreadable line is a ``CaptureError`` naming the line.
    """
    lines = raw.split(b"\n")
    if lines and lines[-1].strip() == b"":
        lines.pop()
    try:
        header = orjson.loads(lines[0])
    except orjson.JSONDecodeError as e:
        raise CaptureError(f"{name}:1: capture header is not JSON: {e}") from None
    if not isinstance(header, dict) or header.get("format") != NATIVE_FORMAT:
        raise CaptureError(f"{name}:1: not a {NATIVE_FORMAT} header")
    if header.get("version") != 1:
        raise CaptureError(f"{name}:1: unsupported capture version {header.get('version')!r} (this reads 1)")
    cap = Capture(request=header.get("request"), response=header.get("response"),
                  source_format="native", request_relative=True)
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError:
            if n == len(lines):
                cap.notes.append(f"line {n}: half-written last record ignored (recorder interrupted?)")
                break
            raise CaptureError(f"{name}:{n}: capture record is not JSON") from None
        try:
            item = read_record(rec, n)
        except ValueError as e:
            raise CaptureError(f"{name}:{n}: {e}") from None
        if isinstance(item, End):
            cap.end = item
        else:
            cap.chunks.append(item)
    return cap
