"""How ``live`` reads one response body: each way a read can fail becomes the ``End`` that says so
(``inspector.net.live._read_end``, ``_at_end``, ``_unanswered``)."""
from __future__ import annotations

import asyncio
import gzip

import httpx
import pytest

from inspector.model.capture import End
from inspector.net.limits import StreamLimits
from inspector.net.live import _at_end, _read_end, _unanswered
from inspector.net.proxy.decode import DecodeError, DecodeLimit, decoder_for


def _end(error: Exception, limits: StreamLimits = StreamLimits()) -> End:
    return _read_end(error, 1.5, limits, timeout=7.0, url="https://api.example.com/v1")


@pytest.mark.parametrize("error, kind, text", [
    (StopAsyncIteration(), "eof", None),
    (httpx.ReadTimeout("slow"), "timeout", "no bytes for 7 s (--timeout)"),
    (httpx.RemoteProtocolError("peer closed connection"), "reset", "peer closed connection"),
    (ConnectionResetError(104, "reset"), "reset", "connection reset by api.example.com:443"),
    (DecodeError("gzip: bad header"), "reset", "content-encoding: cannot decode the body (gzip: bad header)"),
    (DecodeLimit("passed --max-bytes"), "cancelled", "cut: passed --max-bytes"),
])
def test_a_failed_read_ends_the_body_saying_why(error, kind, text):
    assert _end(error) == End(1.5, kind, text)


def test_max_duration_is_the_timeout_that_wait_for_raises():
    limits = StreamLimits(max_duration=2.0)
    assert _end(asyncio.TimeoutError(), limits) == End(1.5, "cancelled", limits.duration_reached())


def test_a_real_decoder_failure_maps_to_its_end():
    with pytest.raises(DecodeError) as bad:
        decoder_for("gzip").decode(b"not gzip at all")
    assert _end(bad.value).kind == "reset"
    with pytest.raises(DecodeLimit) as bomb:
        decoder_for("gzip", max_bytes=1000).decode(gzip.compress(b"\0" * 4_000_000))
    assert _end(bomb.value).kind == "cancelled"


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
