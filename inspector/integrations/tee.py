"""A recording httpx/httpx2 transport: each response body handed on unchanged, a copy kept as a
``Capture`` (decoded, chunks timed from the request) for the ``stream_inspector`` fixture."""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

from inspector.capture.redact import redact_headers, redact_url
from inspector.model.capture import Capture, Chunk, End
from inspector.net.proxy.decode import DecodeError, decoder_for


@dataclass(slots=True)
class Received:
    """One response an inspecting client received: its head and body chunks as they arrived."""

    response: object
    capture: Capture
    t0: float = field(default_factory=time.monotonic)


def head(request, response) -> Capture:
    """A capture with the exchange's request and response heads (secrets redacted; no body yet)."""
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-encoding"}
    return Capture(request={"method": request.method, "url": redact_url(str(request.url)),
                            "headers": redact_headers(dict(request.headers)), "body": None},
                   response={"status": response.status_code, "headers": redact_headers(headers)},
                   request_relative=True, source_format="native")


class _Recorder:
    """Appends a response's decoded chunks, timed from the request, to its capture."""

    def __init__(self, rec: Received, encoding: str) -> None:
        self.rec = rec
        self.decoder = decoder_for(encoding) if encoding else None

    def _add(self, data: bytes) -> None:
        if data:
            self.rec.capture.chunks.append(Chunk(round(time.monotonic() - self.rec.t0, 6), data))

    def take(self, data: bytes) -> None:
        try:
            self._add(self.decoder.decode(data) if self.decoder else data)
        except DecodeError as e:  # the client gets its bytes all the same; the copy says why it stops
            self.rec.capture.notes.append(f"the body does not decode: {e}")
            self.decoder, self.take = None, lambda data: None  # type: ignore[method-assign]  # stop copying from now on

    def close(self, error: BaseException | None = None) -> None:
        try:
            self._add(self.decoder.flush() if self.decoder and error is None else b"")
        except DecodeError as e:
            self.rec.capture.notes.append(f"the body does not decode: {e}")
        kind = "eof" if error is None else "reset"
        self.rec.capture.end = End(round(time.monotonic() - self.rec.t0, 6), kind, None if error is None else str(error))


def _start(owner, request, response) -> _Recorder:
    """A recorder for ``response``, its capture appended to ``owner.received``."""
    rec = Received(response, head(request, response))
    owner.received.append(rec)
    return _Recorder(rec, response.headers.get("content-encoding", ""))


class Tee:
    """A transport that hands each response body on unchanged and keeps a copy."""

    def __init__(self, inner, owner, stream_class) -> None:
        self.inner, self.owner, self.stream_class = inner, owner, stream_class

    def _tee(self, request, response, t0: float):
        rec = _start(self.owner, request, response)
        rec.rec.t0 = t0
        response.stream = self.stream_class(response.stream, rec)
        return response

    def handle_request(self, request):
        t0 = time.monotonic()
        return self._tee(request, self.inner.handle_request(request), t0)

    def close(self) -> None:
        self.inner.close()


class AsyncTee(Tee):
    async def handle_async_request(self, request):
        t0 = time.monotonic()
        return self._tee(request, await self.inner.handle_async_request(request), t0)

    async def aclose(self) -> None:
        await self.inner.aclose()


class _TeeStream:
    """The body stream a client reads: the transport's, each chunk also given to the recorder."""

    def __init__(self, inner, rec: _Recorder) -> None:
        self.inner, self.rec = inner, rec

    def __iter__(self):
        try:
            for data in self.inner:
                self.rec.take(data)
                yield data
        except Exception as e:
            self.rec.close(e)
            raise
        self.rec.close()

    def close(self) -> None:
        self.inner.close()


class _AsyncTeeStream(_TeeStream):
    async def __aiter__(self):
        try:
            async for data in self.inner:
                self.rec.take(data)
                yield data
        except Exception as e:
            self.rec.close(e)
            raise
        self.rec.close()

    async def aclose(self) -> None:
        await self.inner.aclose()


@functools.cache
def streams(http) -> tuple[type, type]:
    """The tee's sync and async body streams as ``http``'s own stream types (httpx and httpx2 each
    assert a transport's stream is one of theirs)."""
    return (type("TeeStream", (_TeeStream, http.SyncByteStream), {}),
            type("AsyncTeeStream", (_AsyncTeeStream, http.AsyncByteStream), {}))
