"""Content decoding for the tee: a decoded copy of a ``content-encoding``-coded response body.

The client always gets the body exactly as the upstream sent it; only the copy that goes to
the session and the recording is decoded here (gzip/deflate, br/zstd when httpx can).

Imports: the standard library and httpx; nothing of the project.
"""
from __future__ import annotations

import zlib


class _Decoder:
    """Decodes a ``content-encoding`` for the tee (the client still gets the encoded bytes)."""

    def __init__(self, encoding: str) -> None:
        self.encodings = [e.strip().lower() for e in encoding.split(",") if e.strip()]
        self.encodings = [e for e in self.encodings if e != "identity"]
        self._steps = [self._make(e) for e in reversed(self.encodings)]

    @property
    def active(self) -> bool:
        return bool(self.encodings)

    @staticmethod
    def _make(enc: str):
        if enc in ("gzip", "x-gzip"):
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if enc == "deflate":
            return _Deflate()
        try:  # br needs brotli, zstd needs zstandard: httpx wraps both when installed
            from httpx._decoders import SUPPORTED_DECODERS

            cls = SUPPORTED_DECODERS.get(enc)
            if cls is not None and enc != "identity":
                return cls()
        except (ImportError, RuntimeError):
            pass
        raise ValueError(enc)

    def decode(self, data: bytes) -> bytes:
        for step in self._steps:
            data = step.decompress(data) if hasattr(step, "decompress") else step.decode(data)
        return data

    def flush(self) -> bytes:
        data = b""
        for step in self._steps:
            if data:
                data = step.decompress(data) if hasattr(step, "decompress") else step.decode(data)
            data += step.flush()
        return data


class _Deflate:
    """``deflate`` is zlib-wrapped per RFC 9110 section 8.4.1.2, but some servers send it raw."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj()
        self._first = True

    def decompress(self, data: bytes) -> bytes:
        if self._first and data:
            self._first = False
            try:
                return self._d.decompress(data)
            except zlib.error:
                self._d = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._d.decompress(data)

    def flush(self) -> bytes:
        return self._d.flush()
