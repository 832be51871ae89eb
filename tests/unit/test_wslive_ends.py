"""How ``live --transport websocket`` ends a response (``inspector.net.wslive``): the close the server
sent, or the silence that outlasted ``--timeout`` or ``--max-duration``."""
from __future__ import annotations

from websockets.frames import Close

from inspector.model.capture import End
from inspector.net.limits import StreamLimits
from inspector.net.wslive import _closed_end, _silence_end


def test_a_server_close_keeps_its_code_and_reason():
    assert _closed_end(Close(1000, ""), 2.5) == End(2.5, "close", None, code=1000)
    assert _closed_end(Close(1011, "internal error"), 2.5) == End(2.5, "close", "internal error", code=1011)


def test_no_status_code_is_none_and_no_close_frame_is_abnormal():
    assert _closed_end(Close(1005, ""), 1.0).code is None  # RFC 6455 §7.4.1: 1005 is never sent
    assert _closed_end(None, 1.0) == End(1.0, "close", None, code=1006)


def test_silence_ends_as_a_timeout_unless_max_duration_was_reached():
    end = _silence_end(StreamLimits(), 30.0, lambda: 31.0)
    assert (end.t, end.kind, end.error) == (31.0, "timeout", "no message for 30 s (--timeout)")
    limits = StreamLimits(max_duration=20.0)
    end = _silence_end(limits, 30.0, lambda: 20.0)
    assert (end.kind, end.error) == ("cancelled", limits.duration_reached())
    assert _silence_end(limits, 30.0, lambda: 19.9).kind == "timeout"
