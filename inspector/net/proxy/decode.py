"""Content decoding for the tee: a decoded copy of a ``content-encoding``-coded response body.

The client always gets the body exactly as the upstream sent it (``Response.aiter_raw``); only
the copy that goes to the session and the recording is decoded, here, through public APIs:
stdlib ``zlib`` for ``gzip``/``x-gzip`` and ``deflate``, and for ``br`` and ``zstd`` the
packages httpx itself uses (``brotli`` or ``brotlicffi``, ``zstandard``) when they are
importable. Any other coding, or br/zstd without its package, raises :class:`NotDecodable`: the
proxy passes such a body through and shows the exchange as encoded, not inspected.

Decompression bombs (issue 24: a 522 KB gzip body decoded to 200 MB): the decoded size is
bounded twice, by ``max_bytes`` (``--max-bytes`` counts decoded bytes too) and by ``max_ratio``
times the coded bytes read so far (past a ``RATIO_FLOOR``), and it is bounded *while* decoding:
zlib is asked for at most the bytes still allowed (``max_length``); br and zstd, whose decoders
return all they can, are fed ``SLICE`` coded bytes at a time. Passing a bound raises
:class:`DecodeLimit`, which says which bound; the caller cuts the body there.

Imports: the standard library, optionally brotli/brotlicffi and zstandard; nothing of the project.
"""
from __future__ import annotations

import zlib


class NotDecodable(ValueError):
    """A coding nothing here decodes; ``str(e)`` is the note shown on the exchange."""


class DecodeError(ValueError):
    """Coded data that does not decode (corrupt, or not what its coding says); ``str(e)`` says why."""


class DecodeLimit(DecodeError):
    """The decoded body would pass ``max_bytes`` or ``max_ratio``; ``str(e)`` is the end's error text."""


MAX_RATIO = 200
"""Most decoded bytes per coded byte. Real LLM streams gzip 5 to 20 times (repetitive SSE framing);
a bomb is thousands of times (gzip tops out near 1032x, zstd and br go much further)."""

RATIO_FLOOR = 1024 * 1024
"""Decoded bytes allowed whatever the ratio: a small, very repetitive body is not a bomb."""

SLICE = 256
"""Coded bytes fed to a br or zstd decoder at a time (zstd's densest block, RLE, turns 4 bytes into
128 KiB, so one slice decodes to at most ~8 MiB before the bound is checked)."""


class _Over(Exception):
    """A step would give more than the bytes still allowed."""


class _Zlib:
    """gzip (RFC 1952) via zlib; ``deflate`` overrides how the first chunk picks its framing."""

    errors: tuple = (zlib.error,)

    def __init__(self, wbits: int = 16 + zlib.MAX_WBITS) -> None:
        self._d = zlib.decompressobj(wbits)

    def decompress(self, data: bytes, room: int) -> bytes:
        """At most ``room`` decoded bytes; raises ``_Over`` when the data holds more."""
        out = self._d.decompress(data, room + 1)  # max_length: never more than one byte past the room
        if len(out) > room:
            raise _Over
        return out

    def flush(self, room: int) -> bytes:
        out = self._d.flush(room + 1)
        if len(out) > room:
            raise _Over
        return out

    @property
    def finished(self) -> bool:
        return self._d.eof


class _Deflate(_Zlib):
    """``deflate`` is zlib-wrapped (RFC 9110 section 8.4.1.2), but some servers send raw DEFLATE.

    # NOTE: as httpx's ``DeflateDecoder`` does: the first chunk is tried as zlib-wrapped; if zlib
    # rejects it, the stream is decoded as raw DEFLATE (``wbits=-15``) from that chunk on. An
    # error in a later chunk is corrupt data. (Empty chunks do not count as the first.)
    """

    def __init__(self) -> None:
        super().__init__(zlib.MAX_WBITS)
        self._first = True

    def decompress(self, data: bytes, room: int) -> bytes:
        if self._first and data:
            self._first = False
            try:
                return super().decompress(data, room)
            except zlib.error:
                self._d = zlib.decompressobj(-zlib.MAX_WBITS)
        return super().decompress(data, room)


class _Sliced:
    """A decoder that returns all it can per call (br, zstd): fed ``SLICE`` bytes at a time, the room
    checked after each, so that a bomb is stopped a few MiB in, not after it has gone off."""

    def _one(self, data: bytes) -> bytes:  # each codec's one call
        raise NotImplementedError

    def decompress(self, data: bytes, room: int) -> bytes:
        out, size = [], 0
        for i in range(0, len(data), SLICE):
            piece = self._one(data[i:i + SLICE])
            size += len(piece)
            if size > room:
                raise _Over
            out.append(piece)
        return b"".join(out)

    def flush(self, room: int) -> bytes:
        return b""  # both decompress eagerly: nothing is held back


class _Brotli(_Sliced):
    """br (RFC 7932) via ``brotli`` (``process``) or ``brotlicffi`` (``decompress``), as httpx supports both."""

    def __init__(self, brotli) -> None:
        self.errors = (brotli.error,)
        self._d = brotli.Decompressor()
        self._step = getattr(self._d, "decompress", None) or self._d.process

    def _one(self, data: bytes) -> bytes:
        return self._step(data) if data else b""

    @property
    def finished(self) -> bool:
        is_finished = getattr(self._d, "is_finished", None)
        return is_finished() if is_finished is not None else True


class _Zstd(_Sliced):
    """zstd (RFC 8878) via ``zstandard``; a body may hold several frames, one after another (as httpx decodes it)."""

    def __init__(self, zstandard) -> None:
        self._zstd = zstandard
        self.errors = (zstandard.ZstdError,)
        self._d = zstandard.ZstdDecompressor().decompressobj()
        self._seen = False

    def _one(self, data: bytes) -> bytes:
        if not data:
            return b""
        self._seen = True
        out = [self._d.decompress(data)]
        while self._d.eof and self._d.unused_data:
            rest = self._d.unused_data
            self._d = self._zstd.ZstdDecompressor().decompressobj()
            out.append(self._d.decompress(rest))
        return b"".join(out)

    @property
    def finished(self) -> bool:
        return not self._seen or self._d.eof


def _step_for(coding: str):
    """A fresh decoder for one coding; raises ``NotDecodable`` (the note says what is missing)."""
    if coding in ("gzip", "x-gzip"):
        return _Zlib()
    if coding == "deflate":
        return _Deflate()
    if coding == "br":
        try:
            import brotli
        except ImportError:
            try:
                import brotlicffi as brotli
            except ImportError:
                raise NotDecodable("content-encoding br: encoded, not inspected (decoding it needs the "
                                   "brotli or brotlicffi package)") from None
        return _Brotli(brotli)
    if coding == "zstd":
        try:
            import zstandard
        except ImportError:
            raise NotDecodable("content-encoding zstd: encoded, not inspected (decoding it needs the "
                               "zstandard package)") from None
        return _Zstd(zstandard)
    raise NotDecodable(f"content-encoding {coding}: encoded, not inspected (no decoder for {coding!r})")


class ContentDecoder:
    """Undoes the codings of one response body, chunk by chunk (``decode``, then ``flush`` once at the end).

    ``max_bytes``: most decoded bytes in all (None: no limit); ``max_ratio``: most decoded bytes per
    coded byte once past ``RATIO_FLOOR`` (module docstring). Passing either raises ``DecodeLimit``.
    """

    def __init__(self, codings: list[str], *, max_bytes: int | None = None, max_ratio: float = MAX_RATIO) -> None:
        self.codings = codings
        """The codings in the order the server applied them (``content-encoding`` order)."""
        self._steps = [(c, _step_for(c)) for c in reversed(codings)]
        self.max_bytes = max_bytes
        self.max_ratio = max_ratio
        self.coded = 0
        """Coded bytes read so far."""
        self.decoded = 0
        """Decoded bytes given out so far."""

    def _room(self) -> int:
        """Decoded bytes still allowed: by the ratio to the coded bytes read, and by ``max_bytes``."""
        room = max(RATIO_FLOOR, int(self.max_ratio * self.coded)) - self.decoded
        if self.max_bytes is not None:
            room = min(room, self.max_bytes - self.decoded)
        return max(room, 0)

    def _over(self, coding: str) -> DecodeLimit:
        if self.max_bytes is not None and self.decoded + self._room() >= self.max_bytes:
            return DecodeLimit(f"content-encoding {coding}: the decoded body passed --max-bytes "
                               f"{self.max_bytes} bytes ({self.coded} coded bytes read, {self.decoded} decoded "
                               "kept, the rest not read)")
        return DecodeLimit(f"content-encoding {coding}: the body decodes to more than {self.max_ratio:g} times "
                           f"its coded size (a decompression bomb: {self.coded} coded bytes read, "
                           f"{self.decoded} decoded kept, the rest not read)")

    def decode(self, data: bytes) -> bytes:
        """The decoded bytes this chunk completes (often ``b""`` at first). Raises ``DecodeError``,
        ``DecodeLimit`` (nothing of this chunk is given out then)."""
        self.coded += len(data)
        room = self._room()
        for coding, step in self._steps:
            try:
                data = step.decompress(data, room)
            except _Over:
                raise self._over(coding) from None
            except step.errors as e:
                raise DecodeError(f"{coding}: {e}") from e
        self.decoded += len(data)
        return data

    def flush(self) -> bytes:
        """What the decoders still hold once the body has ended. Raises ``DecodeError``, ``DecodeLimit``."""
        data = b""
        room = self._room()
        for coding, step in self._steps:
            try:
                if data:
                    data = step.decompress(data, room)
                data += step.flush(room - len(data))
            except _Over:
                raise self._over(coding) from None
            except step.errors as e:
                raise DecodeError(f"{coding}: {e}") from e
        self.decoded += len(data)
        return data

    @property
    def truncated(self) -> list[str]:
        """After ``flush``: the codings whose stream stopped before its end marker (a cut-off body)."""
        return [coding for coding, step in reversed(self._steps) if not step.finished]


def decoder_for(content_encoding: str, *, max_bytes: int | None = None,
                max_ratio: float = MAX_RATIO) -> ContentDecoder | None:
    """The decoder for a ``content-encoding`` value (comma-separated codings, any case), or None when
    it codes nothing (empty, ``identity``); ``max_bytes``, ``max_ratio``: see ``ContentDecoder``.
    Raises ``NotDecodable`` for a coding it cannot undo."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    return ContentDecoder(codings, max_bytes=max_bytes, max_ratio=max_ratio) if codings else None
