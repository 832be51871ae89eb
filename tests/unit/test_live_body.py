"""How ``live`` reads one response body: each way a read can fail becomes the ``End`` that says so
(``inspector.net.live._next_bytes``, ``_at_end``, ``_unanswered``)."""
from __future__ import annotations

import asyncio
import gzip

import httpx
import pytest

from inspector.model.capture import End
from inspector.net.limits import StreamLimits
from inspector.net.live import _at_end, _next_bytes, _unanswered
from inspector.net.proxy.decode import DecodeError, DecodeLimit, decoder_for


class _Reads:
    """An async iterator of body reads: bytes are returned, exceptions raised, ``...`` waits forever."""

    def __init__(self, *reads) -> None:
        self._reads = list(reads)

    def __aiter__(self):
        return self

    async def __anext__(self) -> bytes:
        if not self._reads:
            raise StopAsyncIteration
        r = self._reads.pop(0)
        if r is ...:
            await asyncio.sleep(3600)
        if isinstance(r, BaseException):
            raise r
        return r


def _next(reads: _Reads, *, limits: StreamLimits = StreamLimits(), decoder=None, t: float = 1.5):
    return asyncio.run(_next_bytes(reads, decoder, limits, lambda: t, timeout=7.0, url="https://api.example.com/v1"))


def test_bytes_come_through_as_read_and_the_end_of_the_body_is_eof():
    reads = _Reads(b"data: 1\n\n")
    assert _next(reads) == b"data: 1\n\n"
    assert _next(reads) == End(1.5, "eof")


@pytest.mark.parametrize("error, kind, text", [
    (httpx.ReadTimeout("slow"), "timeout", "no bytes for 7 s (--timeout)"),
    (httpx.RemoteProtocolError("peer closed connection"), "reset", "peer closed connection"),
    (ConnectionResetError(104, "reset"), "reset", "connection reset by api.example.com:443"),
])
def test_a_failed_read_ends_the_body_saying_why(error, kind, text):
    end = _next(_Reads(error))
    assert (end.t, end.kind, end.error) == (1.5, kind, text)


def test_max_duration_cuts_a_read_that_does_not_come():
    limits = StreamLimits(max_duration=0.01)
    end = _next(_Reads(...), limits=limits, t=0.0)
    assert (end.kind, end.error) == ("cancelled", limits.duration_reached())


def test_a_body_that_does_not_decode_ends_reset_and_a_bomb_is_cut():
    end = _next(_Reads(b"not gzip at all"), decoder=decoder_for("gzip"))
    assert end.kind == "reset" and end.error.startswith("content-encoding: cannot decode the body")
    bomb = gzip.compress(b"\0" * 4_000_000)
    end = _next(_Reads(bomb), decoder=decoder_for("gzip", max_bytes=1000))
    assert end.kind == "cancelled" and end.error.startswith("cut: ")


def test_cancellation_goes_on_to_the_caller():
    with pytest.raises(asyncio.CancelledError):
        _next(_Reads(asyncio.CancelledError()))


class _Held:
    """A decoder whose ``flush`` gives ``held`` (or raises it)."""

    def __init__(self, held) -> None:
        self.held = held

    def flush(self) -> bytes:
        if isinstance(self.held, Exception):
            raise self.held
        return self.held


def test_at_eof_the_decoder_gives_its_last_bytes_other_ends_stay_as_they_are():
    eof = End(2.0, "eof")
    assert _at_end(_Held(b"data: tail\n\n"), eof) == (eof, b"data: tail\n\n")
    assert _at_end(_Held(DecodeError("gzip: truncated")), eof) == \
        (End(2.0, "reset", "content-encoding: cannot decode the end of the body (gzip: truncated)"), b"")
    assert _at_end(_Held(DecodeLimit("too big")), eof) == (End(2.0, "cancelled", "cut: too big"), b"")
    timeout = End(2.0, "timeout", "no bytes")
    assert _at_end(_Held(b"never asked"), timeout) == (timeout, b"")  # only the end of the body flushes
    assert _at_end(None, eof) == (eof, b"")


def test_no_response_head_names_the_timeout_option_or_the_failure():
    assert _unanswered(httpx.ReadTimeout("x"), 3.0, "https://h/v1", 30.0) == \
        End(3.0, "timeout", "no response head within 30 s (--timeout)")
    assert _unanswered(httpx.ConnectTimeout("x"), 3.0, "https://h/v1", 30.0) == \
        End(3.0, "timeout", "timed out connecting to h:443")
    assert _unanswered(ConnectionRefusedError(111, "refused"), 0.1, "http://127.0.0.1:9/v1", 30.0) == \
        End(0.1, "reset", "connection refused by 127.0.0.1:9")
