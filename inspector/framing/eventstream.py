"""Incremental AWS event-stream framing (``application/vnd.amazon.eventstream``, AWS Bedrock).

The binary message format (botocore ``eventstream.py``; smithy "event stream" spec), all integers
big-endian::

    prelude   total_length:u32  headers_length:u32  prelude_crc:u32   (CRC32 of the first 8 bytes)
    headers   headers_length bytes: name_len:u8 name type:u8 value, repeated
    payload   total_length - headers_length - 16 bytes
    trailer   message_crc:u32                                          (CRC32 of everything before it)

Header value types: 0 true, 1 false, 2 int8, 3 int16, 4 int32, 5 int64, 6 bytes (u16 length),
7 string (u16 length, UTF-8), 8 timestamp (int64 ms), 9 uuid (16 bytes). botocore limits headers
to 128 KiB and payloads to 24 MiB per message.

Our own decoder rather than botocore's ``EventStreamBuffer``: botocore stops at the first bad
CRC and stops, while the inspector must say *where* a frame broke (byte offset) and go on with
the frames after it; and ``check`` must not pay botocore's import time. botocore is the test
oracle (``tests/unit/test_eventstream.py`` decodes the same bytes with both).

Each message becomes one :class:`~inspector.model.frames.Frame`, named so the dialects see what
botocore's parser would give a client:

- ``:message-type`` ``event`` (or absent): ``event`` = the ``:event-type`` header;
- ``exception``: ``event`` = the ``:exception-type`` header (botocore raises ``EventStreamError``
  with it as the code; the payload is ``{"message": …}``);
- ``error``: ``event`` = ``"error"``; an empty payload is replaced by
  ``{"code": <:error-code>, "message": <:error-message>}`` so the error still says what it was.

``data`` is the payload decoded as UTF-8, ``named`` is True, ``line`` is None (a binary body has
no lines), ``offset`` is the message's first byte. Problems are ``FramingIssue`` items:

- S015 frame-corrupt: a prelude CRC or message CRC mismatch, impossible lengths, or headers
  that do not parse. The decoder then looks for the next offset where a valid prelude starts
  (lengths in range and its CRC right: a false match has odds of 1 in 2**32) and goes on there;
  one finding per corrupt run, with the offset and how many bytes were skipped.
- S016 frame-truncated: the body ended inside a message (its prelude says more bytes follow).
  botocore's reader stops there silently; the partial message is not decoded.
- S001: a payload that is not valid UTF-8 (replaced, reported once).

Pure and incremental: no I/O, no clocks; chunk boundaries (inside a prelude, the headers or the
payload) never change the items, only the times.
"""
from __future__ import annotations

import re
import struct
from zlib import crc32

import orjson

from inspector.framing import EVENTSTREAM_PRELUDE, EVENTSTREAM_TYPE
from inspector.model.frames import Frame, FramingIssue, Item
from inspector.model.clients import says

__all__ = ["EventStreamDecoder", "CONTENT_TYPE", "encode_message", "looks_like_eventstream"]

CONTENT_TYPE = EVENTSTREAM_TYPE
PRELUDE = EVENTSTREAM_PRELUDE
MIN_MESSAGE = 16
"""A prelude and a message CRC, nothing else."""
MAX_HEADERS = 128 * 1024
MAX_PAYLOAD = 24 * 1024 * 1024
_CANDIDATE = re.compile(rb"[\x00\x01]")
"""A message is at most 24 MiB + 128 KiB + 16 bytes long, so its first byte is 0 or 1: where to
look for the next prelude after a corrupt one."""


class _BadHeaders(ValueError):
    pass


def _prelude_ok(buf: bytes | bytearray, i: int) -> bool:
    """A plausible prelude at ``buf[i:i+12]``: its CRC and its lengths."""
    total, hlen, crc = struct.unpack_from("!III", buf, i)
    return crc32(buf[i:i + 8]) == crc and _lengths_ok(total, hlen)


def _lengths_ok(total: int, hlen: int) -> bool:
    return (total >= MIN_MESSAGE and hlen <= MAX_HEADERS and hlen <= total - MIN_MESSAGE
            and total - hlen - MIN_MESSAGE <= MAX_PAYLOAD)


def looks_like_eventstream(probe: bytes) -> bool:
    """True when ``probe`` (a body's first bytes) starts like an event-stream message: byte 0 is
    0 or 1 (no text format starts so), and with 12 bytes or more, a valid prelude."""
    if probe[:1] not in (b"\x00", b"\x01"):
        return False
    return len(probe) < PRELUDE or _prelude_ok(probe, 0)


def parse_headers(data: bytes) -> dict[str, object]:
    """The headers of one message (botocore's types). Raises ``ValueError`` when they do not parse."""
    out: dict[str, object] = {}
    i, n = 0, len(data)
    try:
        while i < n:
            nlen = data[i]
            name = data[i + 1:i + 1 + nlen].decode("utf-8")
            i += 1 + nlen
            typ = data[i]
            i += 1
            if typ in (0, 1):
                value: object = typ == 0
            elif typ in (2, 3, 4, 5, 8):
                fmt = {2: "!b", 3: "!h", 4: "!i", 5: "!q", 8: "!q"}[typ]
                value = struct.unpack_from(fmt, data, i)[0]
                i += struct.calcsize(fmt)
            elif typ in (6, 7):
                vlen = struct.unpack_from("!H", data, i)[0]
                raw = data[i + 2:i + 2 + vlen]
                if len(raw) != vlen:
                    raise _BadHeaders(f"header {name!r} value runs past the headers")
                value = raw.decode("utf-8") if typ == 7 else bytes(raw)
                i += 2 + vlen
            elif typ == 9:
                value = bytes(data[i:i + 16])
                if len(value) != 16:
                    raise _BadHeaders(f"header {name!r} uuid runs past the headers")
                i += 16
            else:
                raise _BadHeaders(f"header {name!r} has unknown value type {typ}")
            if i > n:
                raise _BadHeaders(f"header {name!r} runs past the headers")
            if name in out:
                raise _BadHeaders(f"duplicate header {name!r}")
            out[name] = value
    except (IndexError, struct.error, UnicodeDecodeError) as e:
        raise _BadHeaders(f"headers do not parse at header byte {i}: {e}") from None
    return out


def encode_message(headers: dict[str, object], payload: bytes) -> bytes:
    """One event-stream message (the inverse of the decoder; ``serve`` tests and fixtures use it).

    Header values: ``str`` (string), ``bytes`` (byte array), ``bool``, ``int`` (int32).
    """
    hb = bytearray()
    for name, value in headers.items():
        nb = name.encode("utf-8")
        hb += bytes([len(nb)]) + nb
        if isinstance(value, bool):
            hb += bytes([0 if value else 1])
        elif isinstance(value, int):
            hb += bytes([4]) + struct.pack("!i", value)
        elif isinstance(value, bytes):
            hb += bytes([6]) + struct.pack("!H", len(value)) + value
        else:
            vb = str(value).encode("utf-8")
            hb += bytes([7]) + struct.pack("!H", len(vb)) + vb
    total = MIN_MESSAGE + len(hb) + len(payload)
    head = struct.pack("!II", total, len(hb))
    head += struct.pack("!I", crc32(head))
    body = head + bytes(hb) + payload
    return body + struct.pack("!I", crc32(body))


class EventStreamDecoder:
    """Incremental event-stream decoder with the ``SSEDecoder`` interface (module docstring).

    ``feed(data: bytes, t: float | None) -> list[Frame | FramingIssue]``; ``close(t)`` ends the
    body (``t`` defaults to the last chunk's). Items come in body order.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._base = 0
        """Body offset of ``_buf[0]``."""
        self._last_t: float | None = None
        self._bad_utf8 = False
        self._skip_from: int | None = None
        """Body offset where the current corrupt run began (None: in sync)."""
        self._skip_why = ""

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        """Decode the next body chunk, received at ``t`` seconds; return completed items."""
        self._last_t = t
        self._buf += data
        out: list[Item] = []
        self._drain(t, out)
        return out

    def close(self, t: float | None = None) -> list[Item]:
        """End of body: report a corrupt run still open (S015) or a message cut short (S016)."""
        if t is None:
            t = self._last_t
        out: list[Item] = []
        self._drain(t, out)
        buf, at = self._buf, self._base
        if self._skip_from is not None:
            self._end_skip(self._base + len(buf), t, out, to_end=True)
        elif buf:
            if len(buf) < PRELUDE:
                why = f"inside the prelude of the message at byte {at} ({len(buf)} of its 12 bytes arrived)"
            else:
                total = struct.unpack_from("!I", buf, 0)[0]
                why = (f"inside the message at byte {at}: its prelude declares {total} bytes, {len(buf)} arrived "
                       f"({total - len(buf)} missing)")
            out.append(FramingIssue("S016", f"the body ends {why}; SDK readers stop there without an error, "
                                            "the partial message is not decoded", None, at, t))
        self._buf = bytearray()
        self._base += len(buf)
        return out

    # ------------------------------------------------------------------ internals
    def _drain(self, t: float | None, out: list[Item]) -> None:
        buf = self._buf
        pos = 0
        while True:
            if self._skip_from is not None:
                pos = self._resync(pos, t, out)
                if self._skip_from is not None:
                    break
            if len(buf) - pos < PRELUDE:
                break
            total, hlen, pcrc = struct.unpack_from("!III", buf, pos)
            computed = crc32(buf[pos:pos + 8])
            if computed != pcrc:
                self._start_skip(pos, f"prelude CRC mismatch (declared 0x{pcrc:08x}, computed 0x{computed:08x})")
                pos += 1
                continue
            if not _lengths_ok(total, hlen):
                self._start_skip(pos, f"impossible lengths in the prelude (total {total}, headers {hlen})")
                pos += 1
                continue
            if len(buf) - pos < total:
                break
            msg = memoryview(buf)[pos:pos + total]
            mcrc = struct.unpack_from("!I", msg, total - 4)[0]
            computed = crc32(msg[:total - 4])
            if computed != mcrc:
                msg.release()
                self._start_skip(pos, f"message CRC mismatch (declared 0x{mcrc:08x}, computed 0x{computed:08x}); "
                                      f"the message declared {total} bytes")
                pos += 1
                continue
            try:
                headers = parse_headers(bytes(msg[PRELUDE:PRELUDE + hlen]))
            except _BadHeaders as e:
                msg.release()
                self._start_skip(pos, str(e))
                pos += 1
                continue
            payload = bytes(msg[PRELUDE + hlen:total - 4])
            msg.release()
            self._frame(headers, payload, self._base + pos, PRELUDE + hlen, t, out)
            pos += total
        del buf[:pos]
        self._base += pos

    def _start_skip(self, pos: int, why: str) -> None:
        self._skip_from = self._base + pos
        self._skip_why = why

    def _resync(self, pos: int, t: float | None, out: list[Item]) -> int:
        """Scan from ``pos`` for the next valid prelude; end the corrupt run there (S015)."""
        buf = self._buf
        while True:
            m = _CANDIDATE.search(buf, pos)
            if m is None:
                return len(buf)
            i = m.start()
            if len(buf) - i < PRELUDE:
                return i  # wait for the rest of this candidate's prelude
            if _prelude_ok(buf, i):
                self._end_skip(self._base + i, t, out, to_end=False)
                return i
            pos = i + 1

    def _end_skip(self, until: int, t: float | None, out: list[Item], *, to_end: bool) -> None:
        start = self._skip_from
        assert start is not None  # called only while skipping
        skipped = until - start
        where = ("no valid message follows; the rest of the body" if to_end
                 else f"decoding goes on at the next valid message at byte {until}")
        out.append(FramingIssue(
            "S015", f"corrupt event-stream message at byte {start}: {self._skip_why}; {skipped} bytes skipped, "
                    f"{where} ({says('S015-corrupt-message')})", None, start, t))
        self._skip_from = None

    def _frame(self, headers: dict, payload: bytes, offset: int, payload_at: int, t: float | None,
               out: list[Item]) -> None:
        kind = headers.get(":message-type", "event")
        if kind == "exception":
            name = headers.get(":exception-type")
        elif kind == "error":
            name = "error"
        else:
            name = headers.get(":event-type")
        name = name if isinstance(name, str) and name else "message"
        try:
            data = payload.decode("utf-8")
        except UnicodeDecodeError as exc:
            if not self._bad_utf8:
                self._bad_utf8 = True
                at = offset + payload_at + exc.start
                out.append(FramingIssue("S001", f"invalid UTF-8 at byte offset {at} (payload of the message at "
                                                f"byte {offset}); decoded with U+FFFD replacement (reported once "
                                                "per stream)", None, at, t))
            data = payload.decode("utf-8", "replace")
        if kind == "error" and not data.strip():
            data = orjson.dumps({"code": headers.get(":error-code"),
                                 "message": headers.get(":error-message")}).decode()
        out.append(Frame(name, data, "", None, True, None, offset, t))
