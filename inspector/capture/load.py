"""Read any capture people have into a ``Capture``: detected from the content, never the file name.

Accepted (SPEC.md "Capture files"): the native JSON Lines capture, raw SSE text as pasted in bug
reports, NDJSON, HAR, a VCR cassette (vcrpy, pytest-recording; YAML or JSON), SSE pasted inside
prose or markdown fences, and a raw AWS event-stream body (Bedrock's binary stream as ``curl -o``
saves it).

A file holding several streams (HAR, cassette) is read one stream at a time: ``entry=N`` or a path
ending in ``#N`` (``cassette.yaml#3``) picks one; :func:`load_all` gives every stream of a cassette.
"""
from __future__ import annotations

import json
import os
import re
import stat
from inspector.model.static import TYPE_CHECKING

import orjson

from inspector.model.digits import digits_int
from inspector.model.pathnames import path_name
from inspector.model.jsondepth import TooDeep, depth_over, loads
from inspector.model.capture import Capture, Chunk, End
from inspector.model.websocket import WsMessage
from inspector.model.sizes import human_size, size_option

from inspector.capture.clock import Clock
from inspector.capture import memory
from inspector.capture.errors import NATIVE_FORMAT, CaptureError, EmptyCapture
from inspector.capture.text import extract_stream

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

# A format's reader (``cassette``, ``har``, ``websocket``, ``records``) is imported once the format
# is detected: a ``check`` of raw SSE does not pay for the others at start-up (bench/bench_startup.py).

__all__ = ["NATIVE_FORMAT", "CaptureError", "MAX_BYTES", "load_path", "load_bytes", "load_native", "read_limited",
           "probe_path", "load_all", "load_all_bytes", "load_entries", "split_entry"]

MAX_BYTES = 1 << 30
"""Default cap on a capture's size (1 GiB; ``--max-size`` raises it). A capture is held in memory
whole, so a mistaken ``/dev/zero`` or a multi-gigabyte log must be refused before it is read, not
after the machine swaps. What inspecting it may take (3 to over 100 bytes of memory per byte, by
shape) is bounded apart: ``inspector.capture.memory``."""
BLANK = b"\xef\xbb\xbf \t\r\n"
PROBE_BYTES = 1 << 16
_LEADING_BLANK = re.compile(rb"[\xef\xbb\xbf \t\r\n]*")
"""What ``bytes.lstrip(BLANK)`` would strip, found without copying the rest."""
HEAD_BYTES = 4096
"""The part of a file (after leading blanks) its format is told from, with its structure: a cassette's
first lines, a native header's first 400 bytes, a HAR's ``"log"`` opening."""


def _start(raw: bytes) -> int:
    """Where ``raw`` begins after leading blanks and BOM bytes (``len(raw)``: nothing else in it)."""
    m = _LEADING_BLANK.match(raw)
    return m.end() if m is not None else 0


def _unreadable(path, e: OSError) -> CaptureError:
    if isinstance(e, FileNotFoundError):
        if str(path) == "-":  # only ``check`` reads a capture from standard input
            return CaptureError("-: this command reads capture files, not standard input "
                                "(save it to a file, or lint it with: ... | stream-inspector check -)")
        return CaptureError(f"{path_name(path)}: no such file")
    if isinstance(e, IsADirectoryError):
        return CaptureError(f"{path_name(path)}: is a directory")
    return CaptureError(f"{path_name(path)}: cannot read: {e.strerror or e}")


def _empty(name) -> CaptureError:
    return EmptyCapture(f"{name}: empty capture (no bytes to inspect)")


def _check_file(path: str | Path, limit: int) -> None:
    """Raise ``OSError`` or ``CaptureError`` for what must not be opened: a directory, a FIFO or a
    device (stat before open: opening a FIFO blocks until something writes to it), a file over
    ``limit`` bytes."""
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError
    if not stat.S_ISREG(st.st_mode):
        raise CaptureError(f"{path_name(path)}: not a regular file ({_kind(st.st_mode)}); to read a stream from a "
                           "pipe, send it to standard input: ... | stream-inspector check -")
    if st.st_size > limit:
        raise CaptureError(f"{path_name(path)}: {human_size(st.st_size)}, over the {human_size(limit)} limit "
                           f"(--max-size {size_option(st.st_size)} reads it)")


_ENTRY_SUFFIX = re.compile(r"^(.+)#(\d+)$")


def split_entry(path: str | Path, entry: int | None = None) -> tuple[str | Path, int | None]:
    """``"run.yaml#3"`` -> ``("run.yaml", 3)`` when no file has the whole name and ``run.yaml``
    exists; any other path comes back with ``entry`` unchanged."""
    m = _ENTRY_SUFFIX.match(str(path))
    if m is None or os.path.exists(path) or not os.path.exists(m.group(1)):
        return path, entry
    return m.group(1), digits_int(m.group(2))  # capped: ``#`` and 5 000 digits is out of range, not a ValueError


def _read_file(path: str | Path, max_bytes: int | None) -> bytes:
    limit = MAX_BYTES if max_bytes is None else max_bytes
    try:
        _check_file(path, limit)
        with open(path, "rb") as f:
            return read_limited(f, limit, name=path_name(path))
    except OSError as e:
        raise _unreadable(path, e) from None
    except ValueError:  # a name with a NUL in it (from an MCP client's JSON: argv cannot carry one)
        raise CaptureError(f"{path_name(path)!r}: not a file name (it holds a NUL character)") from None


def load_path(path: str | Path, *, entry: int | None = None, max_bytes: int | None = None,
              keep_audio: bool = False) -> Capture:
    """Read a capture file of at most ``max_bytes`` (default ``MAX_BYTES``); a path ending in ``#N``
    picks stream ``N`` of a many-stream file (:func:`split_entry`).

    Raises ``CaptureError`` with one line saying why: missing, a directory, not a regular file
    (a FIFO or a device would block or never end: pipe it to ``check -`` instead), over the size
    cap, unreadable, empty, unrecognised.
    """
    path, entry = split_entry(path, entry)
    return load_bytes(_read_file(path, max_bytes), name=path_name(path), entry=entry, keep_audio=keep_audio)


def load_all(path: str | Path, *, entry: int | None = None, max_bytes: int | None = None,
             keep_audio: bool = False) -> tuple[list[tuple[str, Capture]], int]:
    """Every stream of the file at ``path`` as ``(name, Capture)``, and how many recorded exchanges
    were not streams: a cassette gives each streamed interaction, named ``path#N``; any other file
    (or a chosen ``entry``/``#N``) gives the one ``load_path`` reads. Raises ``CaptureError``."""
    file, entry = split_entry(path, entry)
    streams, skipped = load_all_bytes(_read_file(file, max_bytes), name=path_name(file), entry=entry, keep_audio=keep_audio)
    if len(streams) == 1 and entry is not None:
        streams = [(path_name(path), streams[0][1])]  # named as given: ``run.yaml#3``, or the file with --entry
    return streams, skipped


def load_all_bytes(raw: bytes, *, name: str = "<input>", entry: int | None = None,
                   keep_audio: bool = False) -> tuple[list[tuple[str, Capture]], int]:
    """:func:`load_all` for bytes already read (standard input)."""
    start = _start(raw)
    if entry is None and looks_like_cassette(raw[start:start + HEAD_BYTES]):
        from inspector.capture.cassette import cassette_streams
        streams, skipped = cassette_streams(raw, name=name)
        return [(f"{name}#{i}", cap) for i, cap in streams], skipped
    if entry is None and _is_native(raw, start):
        cap = load_native(raw, name=name)
        if cap.messages is not None:  # a WebSocket: one stream per response
            from inspector.capture.websocket import exchanges
            return [(f"{name}#{i}", ex) for i, ex in enumerate(exchanges(cap, keep_audio=keep_audio))], 0
        return [(name, cap)], 0
    if raw[start:start + 1] == b"{" and _looks_like_har(raw, start):
        from inspector.capture.har import load_har
        return _har_streams(load_har(raw, name=name, entry=entry), name, keep_audio), 0
    return [(name, load_bytes(raw, name=name, entry=entry, keep_audio=keep_audio))], 0


def _har_streams(cap: Capture, name: str, keep_audio: bool) -> list[tuple[str, Capture]]:
    """The streams of one HAR entry: itself, or a WebSocket entry's responses (named apart from
    ``#N``, which names HAR entries)."""
    if cap.messages is None:
        return [(name, cap)]
    from inspector.capture.websocket import exchanges
    return [(f"{name} response {i}", ex) for i, ex in enumerate(exchanges(cap, keep_audio=keep_audio))]


def load_entries(path: str | Path, entries: Iterable[int], *, max_bytes: int | None = None,
                 keep_audio: bool = False) -> Iterator[tuple[int, list[tuple[str, Capture]] | CaptureError]]:
    """For each of ``entries`` of the HAR file at ``path``, in turn: the streams ``load_all(f"{path}#{N}")``
    gives, or the ``CaptureError`` it raises, with the file read and parsed once for all of them
    (``check --entry all``; once per entry was quadratic). A file that is no HAR (any more) is read
    entry by entry as ``load_all`` reads it."""
    name = path_name(path)  # a file name that is no UTF-8 written with \xNN, as load_all names it
    try:
        raw = _read_file(path, max_bytes)
        start = _start(raw)
        if not (raw[start:start + 1] == b"{" and _looks_like_har(raw, start)):
            del raw
            for i in entries:
                try:
                    yield i, load_all(f"{path}#{i}", max_bytes=max_bytes, keep_audio=keep_audio)[0]
                except CaptureError as e:
                    yield i, e
            return
        from inspector.capture.har import entry_capture, read_entries
        parsed = read_entries(raw, name=name)
        del raw  # the parsed entries are all that is read from now on
    except CaptureError as e:
        for i in entries:
            yield i, e
        return
    for i in entries:
        try:
            streams = _har_streams(entry_capture(parsed, name=name, entry=i), name, keep_audio)
        except CaptureError as e:
            yield i, e
            continue
        yield i, [(f"{name}#{i}", streams[0][1])] if len(streams) == 1 else streams  # named as load_all names it


def har_entries(path: str | Path, *, max_bytes: int | None = None) -> list[tuple[int, str]] | None:
    """The streamed entries of the HAR file at ``path`` (``(entry, description)``, see
    ``inspector.capture.har.streamed_entries``), or None when the file is no HAR. Raises
    ``CaptureError`` as :func:`load_path` does."""
    raw = _read_file(path, max_bytes)
    start = _start(raw)
    if not (raw[start:start + 1] == b"{" and _looks_like_har(raw, start)):
        return None
    from inspector.capture.har import streamed_entries
    return streamed_entries(raw, name=path_name(path))


def probe_path(path: str | Path, *, max_bytes: int | None = None) -> None:
    """Raise the ``CaptureError`` :func:`load_path` would raise for a missing, unreadable, empty,
    oversized or not-regular file, reading at most its first 64 KiB (cheap enough to run before a
    UI opens)."""
    path, _ = split_entry(path)
    try:
        _check_file(path, MAX_BYTES if max_bytes is None else max_bytes)
        with open(path, "rb") as f:
            blank = not f.read(PROBE_BYTES).strip(BLANK) and not f.read(1)
    except OSError as e:
        raise _unreadable(path, e) from None
    if blank:
        raise _empty(path)


def read_limited(f, limit: int, *, name: str) -> bytes:
    """All of binary file ``f`` (a file that grows while read, or standard input), refusing more
    than ``limit`` bytes with a ``CaptureError``.

    A file whose size is known is read with a buffer of that size plus one byte: ``read(limit + 1)``
    allocates the whole limit (1 GiB) first, which cost 5 ms of a 5 MB file's read (0.7 ms).
    Only a file that grew since its size was taken is read on, up to the limit (one copy)."""
    try:
        size = os.fstat(f.fileno()).st_size
    except (AttributeError, OSError, ValueError):  # no file descriptor (a wrapper, a closed file)
        size = 0
    if 0 < size <= limit:
        raw = f.read(size + 1)
        if len(raw) > size:
            raw += f.read(limit + 1 - len(raw))
    else:
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise CaptureError(f"{name}: more than {human_size(limit)}, the size limit (--max-size raises it)")
    return raw


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def load_bytes(raw: bytes, *, name: str = "<input>", entry: int | None = None, keep_audio: bool = False) -> Capture:
    """Detect the format of ``raw`` and parse it. The format is told from the first ``HEAD_BYTES``
    after leading blanks and from the structure, never by copying or scanning the whole file: a
    raw SSE body of 40 MB is handed on as it was read. A WebSocket gives one of its responses
    (``inspector.capture.websocket``; ``keep_audio``: with the audio bytes, not their sizes)."""
    start = _start(raw)
    if start == len(raw):
        raise _empty(name)
    if _looks_like_eventstream(raw):
        return Capture(chunks=[Chunk(None, raw)], source_format="eventstream")
    head = raw[start:start + HEAD_BYTES]
    if _is_native(raw, start):
        cap = load_native(raw, name=name)
        if cap.messages is None:
            return cap
        from inspector.capture.websocket import exchanges, pick_exchange
        return pick_exchange(exchanges(cap, keep_audio=keep_audio), name=name, entry=entry)
    if head[:1] == b"{" and _looks_like_har(raw, start):
        from inspector.capture.har import load_har
        cap = load_har(raw, name=name, entry=entry)
        if cap.messages is None:
            return cap
        from inspector.capture.websocket import exchanges, pick_exchange
        return pick_exchange(exchanges(cap, keep_audio=keep_audio), name=name, entry=None, pick=None)
    if looks_like_cassette(head):
        from inspector.capture.cassette import load_cassette
        return load_cassette(raw, name=name, entry=entry)
    if head[:1] in (b"{", b"["):
        return Capture(chunks=[Chunk(None, raw)], source_format="ndjson")
    return extract_stream(raw, name=name)


def looks_like_cassette(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes, leading blanks stripped) starts a cassette: YAML whose
    top level opens with ``interactions:``/``http_interactions:``/``version:`` or JSON with an
    ``"interactions"`` member near its start."""
    start = head[:4000]
    if start[:1] == b"{":
        return b'"interactions"' in start or b'"http_interactions"' in start
    lines = [ln.rstrip() for ln in start.split(b"\n") if ln.strip() and not ln.startswith(b"#")]
    first = lines[0] if lines else b""
    if first == b"---":
        first = lines[1] if len(lines) > 1 else b""
    if first in (b"interactions:", b"http_interactions:"):
        return True
    return first.startswith(b"version:") and b"\ninteractions:" in start


def _looks_like_eventstream(raw: bytes) -> bool:
    """A raw AWS event-stream body (Bedrock, saved with ``curl -o``): its first 12 bytes are a message
    prelude (total length, headers length, CRC32 of those 8 bytes; ``inspector.framing.eventstream``)."""
    if len(raw) < 12 or raw[0] > 1:
        return False
    import struct  # only for a body that may be binary: a text capture's check never loads them (start-up)
    import zlib

    total, hlen, crc = struct.unpack_from("!III", raw, 0)
    return zlib.crc32(raw[:8]) == crc and 16 <= total and hlen <= total - 16


def _is_native(raw: bytes, start: int) -> bool:
    """A native capture: its first line (from ``start``) names the format within 400 bytes."""
    head = raw[start:start + HEAD_BYTES]
    return head[:1] == b"{" and NATIVE_FORMAT.encode() in head[:400].split(b"\n", 1)[0]


def _looks_like_har(raw: bytes, start: int) -> bool:
    """A HAR file: ``"log"`` in its first 2 000 bytes (from ``start``), then ``"creator"`` there or
    ``"entries"`` in its first megabyte (offsets only: nothing copied)."""
    near = start + 2000
    return raw.find(b'"log"', start, near) >= 0 and (raw.find(b'"entries"', start, start + 1_000_000) >= 0
                                                     or raw.find(b'"creator"', start, near) >= 0)


def load_native(raw: bytes, *, name: str = "<input>") -> Capture:
    """Parse the native capture (SPEC.md): a header line, then chunk lines, then an optional end line.

    Lines may end in LF, CRLF or CR, and a BOM may lead (an editor saved it). Every record's types
    are checked: a ``CaptureError`` names the line and the reason. A half-written last line (the
    recorder was killed mid-write) is dropped with a note (S014). A complete record with ``NaN`` or
    ``Infinity`` (Python's ``json`` writes them) is read, not mistaken for a half-written one. Times
    that cannot be true (negative, non-finite, beyond ``MAX_T`` or earlier than the record before)
    are clamped to the previous record's time and listed in ``Capture.timing_notes`` (S017).
    """
    from inspector.capture.records import read_record
    memory.reserve_lines(raw, name)
    lines = raw.removeprefix(b"\xef\xbb\xbf").splitlines()
    try:
        header = loads(lines[0])
    except orjson.JSONDecodeError as e:
        raise CaptureError(f"{name}:1: capture header is not JSON: {e}") from None
    if not isinstance(header, dict) or header.get("format") != NATIVE_FORMAT:
        raise CaptureError(f"{name}:1: not a {NATIVE_FORMAT} header")
    if header.get("version") != 1:
        raise CaptureError(f"{name}:1: unsupported capture version {header.get('version')!r} (this reads 1)")
    try:
        request = _message(header.get("request"), "request")
        response = _message(header.get("response"), "response")
    except ValueError as e:
        raise CaptureError(f"{name}:1: {e}") from None
    cap = Capture(request=request, response=response, source_format="native", request_relative=True)
    clock = Clock()
    for n, line in enumerate(lines[1:], start=2):
        if not n % memory.CHECK_RECORDS:  # a record of a few bytes costs ~10 times its size
            memory.check(name)
        if not line.strip():
            continue
        try:
            rec = loads(line)
        except TooDeep as e:  # a record is {"t", "data"}: nothing legitimate nests like this
            raise CaptureError(f"{name}:{n}: capture record is {e.msg}: not a capture record") from None
        except orjson.JSONDecodeError as e:
            rec = _lenient(line)
            if rec is None:
                if n == len(lines):
                    cap.notes.append(f"line {n}: half-written last record ignored (recorder interrupted?)")
                    break
                raise CaptureError(f"{name}:{n}: capture record is not JSON: {e}") from None
        try:
            item = read_record(rec, n)
        except ValueError as e:
            raise CaptureError(f"{name}:{n}: {e}") from None
        item.t = clock.check(item.t, f"line {n}")
        if isinstance(item, End):
            cap.end = item
        elif isinstance(item, WsMessage):  # a WebSocket capture: ``inspector.capture.websocket`` splits it
            cap.messages = cap.messages if cap.messages is not None else []
            cap.messages.append(item)
        else:
            cap.chunks.append(item)
    cap.timing_notes = clock.notes()
    return cap


def _lenient(line: bytes) -> object | None:
    """``line`` read by Python's ``json`` (which accepts ``NaN``/``Infinity``), or None."""
    if depth_over(line):  # Python's json recurses: never hand it a value this deep
        return None
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None


def _message(value: object, what: str) -> dict | None:
    """The header's ``request``/``response``: an object or null, ``status`` a whole number, ``headers``
    an object (a list of ``[name, value]`` pairs, as HAR and some tools write them, is converted).
    Raises ``ValueError`` saying which member is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"'{what}' must be an object or null, not {_type(value)}")
    out = dict(value)
    status = out.get("status")
    if status is not None and (not isinstance(status, int) or isinstance(status, bool)):
        raise ValueError(f"'{what}.status' must be a whole number or null, not {_type(status)}")
    headers = out.get("headers")
    if isinstance(headers, list):
        try:
            out["headers"] = {str(_pair(h)[0]).lower(): _pair(h)[1] for h in headers}
        except ValueError:
            raise ValueError(f"'{what}.headers' must be an object (or a list of [name, value] pairs)") from None
    elif headers is not None and not isinstance(headers, dict):
        raise ValueError(f"'{what}.headers' must be an object, not {_type(headers)}")
    for key in ("url", "method"):
        if out.get(key) is not None and not isinstance(out[key], str):
            raise ValueError(f"'{what}.{key}' must be a string, not {_type(out[key])}")
    return out


def _pair(h: object) -> tuple:
    if isinstance(h, (list, tuple)) and len(h) == 2:
        return h[0], h[1]
    if isinstance(h, dict) and "name" in h and "value" in h:
        return h["name"], h["value"]
    raise ValueError


def _type(v: object) -> str:
    return {str: "a string", bool: "true/false", int: "a number", float: "a number", list: "a list",
            dict: "an object"}.get(type(v), type(v).__name__)
