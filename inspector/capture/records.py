"""One body record of the native capture (SPEC.md "Capture files"), written and read.

A record is ``{"t": seconds, "data": text}`` (a chunk that is valid UTF-8 on its own),
``{"t": seconds, "b64": base64}`` (one that is not) or ``{"t": seconds, "end": kind, "error": text}``.
A WebSocket capture's messages are ``{"t": seconds, "ws": "send"|"recv", "data": text}`` (a text
message) or ``{"t", "ws", "b64"}`` (a binary one), and its close is ``{"t": seconds, "end": "close",
"code": 1000, "reason": text}`` (README "WebSocket captures").
The recorder writes them one per line; the HAR export keeps the same records in an entry's
``_chunks`` list (and its ``_end``), so both read back through :func:`read_record`.
"""
from __future__ import annotations

import base64
from zlib import crc32

import orjson

from inspector.capture.clock import seconds
from inspector.capture.redact import ChunkScrubber, mask_in_place, scrub_secrets
from inspector.model.capture import END_KINDS, Chunk, End
from inspector.model.websocket import DIRECTIONS, WsMessage


def round_t(t: float | None) -> float | None:
    """Seconds as records store them: rounded to the microsecond."""
    return None if t is None else round(t, 6)


def chunk_record(t: float | None, data: bytes, scrubber: ChunkScrubber | None = None) -> dict:
    """One chunk record: ``data`` when the chunk (masked) is valid UTF-8 on its own, else ``b64``.

    Anything shaped like an API key inside the chunk, and every credential this process sent or
    forwarded, is masked: some servers quote the key back in a 401 body, and a record is written
    to be shared. ``scrubber`` (one per stream) also masks a key that a chunk boundary cuts in two.
    A chunk that is not valid UTF-8 (a character cut by a read boundary, a binary frame) is masked
    too (``masked_bytes``); an AWS event-stream body keeps its framing (``EventStreamCrc``).
    """
    if scrubber is not None and (frames := _frames(scrubber, data)):
        frames.t = t
        return _bytes_record(t, masked_bytes(data, scrubber))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"t": round_t(t), "b64": base64.b64encode(masked_bytes(data, scrubber)).decode("ascii")}
    return {"t": round_t(t), "data": scrubber.scrub(text) if scrubber is not None else scrub_secrets(text)}


def chunk_line(t: float | None, data: bytes, scrubber: ChunkScrubber) -> bytes:
    """``chunk_record(t, data, scrubber)`` as the recorder writes it: its JSON (``orjson``) and a
    newline, byte for byte. The common chunk of a fast text stream, a run of deltas that
    ``ChunkScrubber.scrub`` proved clean by its recurring cut (``ChunkScrubber.cut``), is written
    from that cut: its bodies, when JSON escapes nothing in them, as they are, joined by the
    recurring text escaped once, so the whole text is not escaped again."""
    if scrubber.frames is False:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            out = scrubber.scrub(text)
            cut = scrubber.cut
            if cut is not None and out is text:
                head, opening, between, middle, end = cut
                if middle is not None:
                    return b"".join((b'{"t":', _t_json(t), b',"data":"', orjson.dumps(head)[1:-1],
                                     opening, middle, between, orjson.dumps(end)[1:-1], b'"}\n'))
            return orjson.dumps({"t": round_t(t), "data": out}, option=orjson.OPT_APPEND_NEWLINE)
    return orjson.dumps(chunk_record(t, data, scrubber), option=orjson.OPT_APPEND_NEWLINE)


_last_t: tuple[float | None, bytes] = (None, b"null")
"""The last time ``_t_json`` wrote, and its JSON."""


def _t_json(t: float | None) -> bytes:
    """``orjson.dumps(round_t(t))``. The chunks of a batch that arrived together share one time object
    (``net.proxy.pump``), so the last one is kept: ``round`` is ~0.2 µs, the identity test none. A
    race between threads can only miss (each tuple is whole)."""
    global _last_t
    last = _last_t
    if t is last[0]:
        return last[1]
    out = orjson.dumps(round_t(t))
    _last_t = (t, out)
    return out


def pending_record(scrubber: ChunkScrubber) -> dict | None:
    """The record of the bytes an AWS event-stream body's last chunk left waiting inside a base64
    value (``b64values.StreamValues``: at most 3), masked as far as they can be, at that chunk's
    time: written once the body ended (``Recorder.end``), else None."""
    frames = scrubber.frames
    if not isinstance(frames, EventStreamCrc) or not frames.values.kept:
        return None
    orig = frames.values.kept
    out = frames.values.flush()
    return _bytes_record(frames.t, frames.fix(orig, _values_kept(out, _masked_text(out, scrubber, True),
                                                                 frames.values.spans)))


def _bytes_record(t: float | None, data: bytes) -> dict:
    """``data`` (already masked) as a ``data`` record when it is UTF-8, else ``b64``."""
    try:
        return {"t": round_t(t), "data": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"t": round_t(t), "b64": base64.b64encode(data).decode("ascii")}


def _frames(scrubber: ChunkScrubber, data: bytes) -> EventStreamCrc | None:
    """The stream's ``EventStreamCrc`` when it is an AWS event-stream body (decided on its first
    chunk: a message starts with byte 0 or 1, which no text format does), else None."""
    if scrubber.frames is None:
        scrubber.frames = EventStreamCrc() if data[:1] in (b"\x00", b"\x01") else False
    return scrubber.frames if isinstance(scrubber.frames, EventStreamCrc) else None


def masked_bytes(data: bytes, scrubber: ChunkScrubber | None = None, keep_length: bool = False,
                 final: bool = False) -> bytes:
    """``data`` (bytes of any kind) with its secrets masked: read as UTF-8 with every byte that is
    not kept as it is (``surrogateescape``), so the key characters around a cut multibyte character
    or inside a binary frame are masked as in text and every other byte comes back unchanged.
    ``scrubber``: the stream's, which also follows a key across chunks. ``keep_length`` (always for
    an event-stream body): the same number of bytes (``redact.masked_as``), for framing that counts
    them. An event-stream body also has the events inside its base64 ``"bytes"`` values masked
    (``b64values.StreamValues``; a chunk that ends inside a base64 quantum leaves its last 1 to 3
    bytes to the next call, or to ``pending_record``, unless ``final``: the body ends with
    ``data``), and each message the masking changed gets its CRC written anew (``EventStreamCrc``)."""
    frames = _frames(scrubber, data) if scrubber is not None else None
    if frames is not None:
        values = frames.values
        orig = values.kept + data
        out = values.feed(data)
        if final and values.kept:
            n = len(out)
            out += values.flush()
            values.spans = [(a + n, b + n) for a, b in values.spans]
        return frames.fix(orig[:len(out)], _values_kept(out, _masked_text(out, scrubber, True), values.spans))
    return _masked_text(data, scrubber, keep_length)


def _values_kept(values_masked: bytes, masked: bytes, spans: list[tuple[int, int]]) -> bytes:
    """``masked`` (``values_masked`` scrubbed as text) with the base64 values' bytes (``spans``) as
    ``values_masked`` has them: decoded, they were masked already; as text, they are no key."""
    if masked is values_masked or not spans:
        return masked
    out = bytearray(masked)
    for a, b in spans:
        out[a:b] = values_masked[a:b]
    return bytes(out)


def _masked_text(data: bytes, scrubber: ChunkScrubber | None, keep_length: bool) -> bytes:
    """``masked_bytes`` of ``data`` read as text (``surrogateescape``), framing aside."""
    text = data.decode("utf-8", "surrogateescape")
    if scrubber is not None:
        out = scrubber.scrub(text, keep_length)
    else:
        out = mask_in_place(text) if keep_length else scrub_secrets(text)
    return data if out == text else out.encode("utf-8", "surrogateescape")


class EventStreamCrc:
    """Keeps an AWS event-stream body's framing valid when masking changed bytes inside a message.

    The masking keeps lengths (``masked_bytes``), so each prelude (total and headers length, its
    CRC) stays right; only a message's trailing CRC32 (of all its bytes before it) changes. It is
    rewritten as it passes, chunk by chunk, without holding anything back (but what ``values``
    holds: the bytes ``fix`` is given are the body's next ones, however they are cut): ``original trailer XOR
    CRC(original) XOR CRC(masked)``, byte for byte, so a message that was intact stays intact and
    one that was corrupt stays corrupt (the decoder's S015 finding as before). The framing facts:
    ``inspector.framing.eventstream`` (botocore ``eventstream.py``). A total length no message can
    have stops the rewriting (the body is not event-stream after all: bytes stay masked).
    """

    MAX_MESSAGE = 24 * 1024 * 1024 + 128 * 1024 + 16
    """botocore's payload and headers limits and the 16 framing bytes."""

    def __init__(self) -> None:
        from inspector.capture.b64values import StreamValues  # an event-stream body only: not every check's start-up

        inner = ChunkScrubber()
        self.values: StreamValues = StreamValues(lambda text: inner.scrub(text, True))
        """Masks the events inside the body's base64 ``"bytes"`` values, in order."""
        self.t: float | None = None
        """The time of the body's last chunk (``pending_record``'s)."""
        self._pos = 0
        """Bytes of the current message seen so far."""
        self._head = b""
        self._total = 0
        self._crc = self._crc_masked = 0
        self._off = False

    def fix(self, orig: bytes, masked: bytes) -> bytes:
        """``masked`` (``orig`` masked, the same length: the body's next chunk) with the trailing
        CRC of each message the masking changed rewritten."""
        if self._off:
            return masked
        out: bytearray | None = None
        i, n = 0, len(orig)
        while i < n:
            pos = self._pos
            if pos < 4:
                take = min(4 - pos, n - i)
                self._head += orig[i:i + take]
            elif pos < self._total - 4:
                take = min(self._total - 4 - pos, n - i)
            else:  # the trailer: its bytes XOR the difference of the two CRCs
                k = pos - (self._total - 4)
                take = min(4 - k, n - i)
                if self._crc != self._crc_masked:
                    delta = (self._crc ^ self._crc_masked).to_bytes(4, "big")[k:k + take]
                    if out is None:
                        out = bytearray(masked)
                    out[i:i + take] = bytes(a ^ b for a, b in zip(orig[i:i + take], delta))
                i += take
                self._pos += take
                if self._pos == self._total:
                    self._pos, self._head, self._crc, self._crc_masked = 0, b"", 0, 0
                continue
            self._crc = crc32(orig[i:i + take], self._crc)
            self._crc_masked = crc32(masked[i:i + take], self._crc_masked)
            i += take
            self._pos += take
            if self._pos == 4:
                self._total = int.from_bytes(self._head, "big")
                if not 16 <= self._total <= self.MAX_MESSAGE:
                    self._off = True
                    break
        return masked if out is None else bytes(out)


def ws_record(t: float | None, direction: str, data: bytes, binary: bool = False,
              scrubber: ChunkScrubber | None = None) -> dict:
    """One WebSocket message record: ``{"t", "ws": direction, "data": text}`` for a text message,
    ``b64`` for a binary one (or a text message that is not UTF-8), secrets masked as in
    :func:`chunk_record`; in a binary message in the same number of bytes (``masked_bytes``: a
    binary format may count them). ``direction`` is ``"send"`` or ``"recv"``."""
    if binary:
        masked = masked_bytes(data, scrubber, keep_length=True, final=True)  # a message is whole
        return {"t": round_t(t), "ws": direction, "b64": base64.b64encode(masked).decode("ascii")}
    rec = chunk_record(t, data, scrubber)
    return {"t": rec.pop("t"), "ws": direction, **rec}


def end_record(end: End) -> dict:
    """The end record for ``end`` (``error`` only when there is one, secrets masked); a WebSocket
    close is ``{"t", "end": "close", "code": int|null, "reason": text}``."""
    rec: dict = {"t": round_t(end.t), "end": end.kind}
    if end.kind == "close":
        rec["code"] = end.code
        if end.error:
            rec["reason"] = scrub_secrets(end.error)
    elif end.error:
        rec["error"] = scrub_secrets(end.error)
    return rec


def read_record(rec: object, line: int | None = None) -> Chunk | End | WsMessage:
    """A chunk, WebSocket message or end record back into a ``Chunk`` (with ``line``), a
    ``WsMessage`` (with ``line``) or an ``End``.

    Raises ``ValueError`` with a short reason (the caller says where): not an object, ``t`` not a
    number, an unknown end kind, a close ``code`` that is not a whole number, ``ws`` neither
    ``send`` nor ``recv``, ``data`` not a string, ``b64`` not base64, or none of the three.
    """
    if not isinstance(rec, dict):
        raise ValueError("capture record is not an object")
    t = rec.get("t")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool)):
        raise ValueError("'t' must be a number of seconds")
    t = seconds(t) if t is not None else None
    if "end" in rec:
        kind = rec.get("end")
        if kind not in END_KINDS:
            raise ValueError(f"unknown end kind {kind!r} (expected one of {', '.join(END_KINDS)})")
        if kind == "close":
            return _close(rec, t)
        error = rec.get("error")
        return End(t=t, kind=kind, error=_text(error) if isinstance(error, str) else None)
    if "ws" in rec:
        return _message(rec, t, line)
    if "data" in rec:
        data = rec["data"]
        if not isinstance(data, str):
            raise ValueError("'data' must be a string")
        return Chunk(t, data.encode("utf-8", "replace"), line)
    if "b64" in rec:
        try:
            return Chunk(t, base64.b64decode(rec["b64"], validate=True), line)
        except (ValueError, TypeError):
            raise ValueError("'b64' is not valid base64") from None
    raise ValueError("record has none of 'data', 'b64', 'end'")


def _close(rec: dict, t: float | None) -> End:
    code = rec.get("code")
    if code is not None and (not isinstance(code, int) or isinstance(code, bool)):
        raise ValueError("close 'code' must be a whole number or null")
    reason = rec.get("reason", rec.get("error"))
    return End(t=t, kind="close", error=_text(reason) if isinstance(reason, str) and reason else None, code=code)


def _text(value: str) -> str:
    """``value`` with any lone surrogate as ``?``, as a chunk's ``data`` is encoded: a record read by
    Python's ``json`` (``NaN`` in it, or a ``\\ud800`` escape orjson refuses) may hold one, and no
    UTF-8 writer (a JSON report, a HAR, a page) takes it."""
    return value if value.isascii() else value.encode("utf-8", "replace").decode("utf-8")


def _message(rec: dict, t: float | None, line: int | None) -> WsMessage:
    direction = rec["ws"]
    if direction not in DIRECTIONS:
        raise ValueError(f"'ws' must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
    if "data" in rec:
        if not isinstance(rec["data"], str):
            raise ValueError("'data' must be a string")
        return WsMessage(t, direction, rec["data"].encode("utf-8", "replace"), False, line)
    if "b64" in rec:
        try:
            return WsMessage(t, direction, base64.b64decode(rec["b64"], validate=True), True, line)
        except (ValueError, TypeError):
            raise ValueError("'b64' is not valid base64") from None
    raise ValueError("WebSocket message record has neither 'data' nor 'b64'")
