"""Content decoding for the tee: a decoded copy of a ``content-encoding``-coded response body.

The client always gets the body exactly as the upstream sent it (``Response.aiter_raw``); only
the copy that goes to the session and the recording is decoded, here, through public APIs:
stdlib ``zlib`` for ``gzip``/``x-gzip`` and ``deflate``, and for ``br`` and ``zstd`` the
packages httpx itself uses (``brotli`` or ``brotlicffi``, ``zstandard``) when they are
importable. Any other coding, or br/zstd without its package, raises :class:`NotDecodable`: the
proxy passes such a body through and shows the exchange as encoded, not inspected.

Imports: the standard library, optionally brotli/brotlicffi and zstandard; nothing of the project.
"""
from __future__ import annotations

import zlib


class NotDecodable(ValueError):
    """A coding nothing here decodes; ``str(e)`` is the note shown on the exchange."""


class DecodeError(ValueError):
    """Coded data that does not decode (corrupt, or not what its coding says); ``str(e)`` says why."""


class _Zlib:
    """gzip (RFC 1952) via zlib; ``deflate`` overrides how the first chunk picks its framing."""

    errors: tuple = (zlib.error,)

    def __init__(self, wbits: int = 16 + zlib.MAX_WBITS) -> None:
        self._d = zlib.decompressobj(wbits)

    def decompress(self, data: bytes) -> bytes:
        return self._d.decompress(data)

    def flush(self) -> bytes:
        return self._d.flush()

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

    def decompress(self, data: bytes) -> bytes:
        if self._first and data:
            self._first = False
            try:
                return self._d.decompress(data)
            except zlib.error:
                self._d = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._d.decompress(data)


class _Brotli:
    """br (RFC 7932) via ``brotli`` (``process``) or ``brotlicffi`` (``decompress``), as httpx supports both."""

    def __init__(self, brotli) -> None:
        self.errors = (brotli.error,)
        self._d = brotli.Decompressor()
        self._step = getattr(self._d, "decompress", None) or self._d.process

    def decompress(self, data: bytes) -> bytes:
        return self._step(data) if data else b""

    def flush(self) -> bytes:
        return b""  # both decompress eagerly: nothing is held back

    @property
    def finished(self) -> bool:
        is_finished = getattr(self._d, "is_finished", None)
        return is_finished() if is_finished is not None else True


class _Zstd:
    """zstd (RFC 8878) via ``zstandard``; a body may hold several frames, one after another (as httpx decodes it)."""

    def __init__(self, zstandard) -> None:
        self._zstd = zstandard
        self.errors = (zstandard.ZstdError,)
        self._d = zstandard.ZstdDecompressor().decompressobj()
        self._seen = False

    def decompress(self, data: bytes) -> bytes:
        if not data:
            return b""
        self._seen = True
        out = [self._d.decompress(data)]
        while self._d.eof and self._d.unused_data:
            rest = self._d.unused_data
            self._d = self._zstd.ZstdDecompressor().decompressobj()
            out.append(self._d.decompress(rest))
        return b"".join(out)

    def flush(self) -> bytes:
        return b""  # decompressobj().flush() is a no-op in zstandard

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
    """Undoes the codings of one response body, chunk by chunk (``decode``, then ``flush`` once at the end)."""

    def __init__(self, codings: list[str]) -> None:
        self.codings = codings
        """The codings in the order the server applied them (``content-encoding`` order)."""
        self._steps = [(c, _step_for(c)) for c in reversed(codings)]

    def decode(self, data: bytes) -> bytes:
        """The decoded bytes this chunk completes (often ``b""`` at first). Raises ``DecodeError``."""
        for coding, step in self._steps:
            try:
                data = step.decompress(data)
            except step.errors as e:
                raise DecodeError(f"{coding}: {e}") from e
        return data

    def flush(self) -> bytes:
        """What the decoders still hold once the body has ended. Raises ``DecodeError``."""
        data = b""
        for coding, step in self._steps:
            try:
                if data:
                    data = step.decompress(data)
                data += step.flush()
            except step.errors as e:
                raise DecodeError(f"{coding}: {e}") from e
        return data

    @property
    def truncated(self) -> list[str]:
        """After ``flush``: the codings whose stream stopped before its end marker (a cut-off body)."""
        return [coding for coding, step in reversed(self._steps) if not step.finished]


def decoder_for(content_encoding: str) -> ContentDecoder | None:
    """The decoder for a ``content-encoding`` value (comma-separated codings, any case), or None when
    it codes nothing (empty, ``identity``). Raises ``NotDecodable`` for a coding it cannot undo."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    return ContentDecoder(codings) if codings else None
