"""T001 while a stall lasts (issue 12, item 5): ``Session.tick`` reports the stall in progress as
``open_stall`` with its gap growing; when bytes return (or the stream ends) the stall's T001 is
the one ``check`` reports on the recorded capture, exactly once."""
from __future__ import annotations

import pytest

from inspector.capture.bundled import bundled_captures
from inspector.capture.load import load_path
from inspector.feeds.base import Driver, Settings
from inspector.feeds.run import run_capture
from tests.conftest import SHARED_CORPUS
from tests.helpers import sse, timed

START = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                              "content": [], "stop_reason": None, "usage": {}}}
BLOCK = {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
DELTA = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}
STOP = [{"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"}]


def _live(cap, tick_every: float = 0.25):
    """Feed ``cap`` as a live source would: its chunks, and clock ticks through every silence."""
    driver = Driver.for_capture(cap, Settings())
    s = driver.session
    clock, seen = 0.0, []
    for chunk in cap.chunks:
        while chunk.t is not None and clock + tick_every < chunk.t:
            clock += tick_every
            s.tick(clock)
            if s.open_stall is not None:
                seen.append(s.open_stall.message)
        driver.take(chunk)
    end = cap.end
    while end is not None and end.t is not None and clock + tick_every < end.t:
        clock += tick_every
        s.tick(clock)
        if s.open_stall is not None:
            seen.append(s.open_stall.message)
    return driver.close(cap.end), seen


def test_a_stall_is_reported_while_it_lasts_and_once_when_it_ends():
    cap = timed((0.4, sse(START, BLOCK)), (0.5, sse(DELTA)), (13.0, sse(DELTA, *STOP)), end=(13.1, "eof"))
    driver = Driver.for_capture(cap, Settings())
    s = driver.session
    driver.take(cap.chunks[0])
    driver.take(cap.chunks[1])
    s.tick(5.0)
    assert s.open_stall is None  # 4.5 s of silence: under the threshold
    s.tick(10.6)
    first = s.open_stall
    assert first is not None and first.code == "T001" and "10.1 s so far" in first.message
    assert "after t=0.500 s" in first.message
    s.tick(12.5)
    assert "12.0 s so far" in s.open_stall.message  # the gap grows while it lasts
    assert not [f for f in s.findings if f.code == "T001"]  # not yet in findings: still open
    driver.take(cap.chunks[2])
    assert s.open_stall is None
    driver.close(cap.end)
    stalls = [f for f in s.findings if f.code == "T001"]
    assert len(stalls) == 1
    assert [f.to_dict() for f in s.findings] == [f.to_dict() for f in run_capture(cap).findings]


def test_before_the_first_byte_and_before_the_end():
    cap = timed((12.0, sse(START, BLOCK, DELTA)), (12.2, sse(*STOP)), end=(25.0, "reset"))
    live, seen = _live(cap)
    assert any("before the first byte" in m for m in seen)
    assert any("after t=12.2 s" in m and "so far" in m for m in seen)
    assert live.open_stall is None
    assert [f.to_dict() for f in live.findings] == [f.to_dict() for f in run_capture(cap).findings]
    assert sum(f.code == "T001" for f in live.findings) == 2


def test_the_severity_override_applies_to_the_stall_in_progress():
    cap = timed((12.0, sse(START)))
    driver = Driver.for_capture(cap, Settings(severity_overrides={"T001": "error"}))
    driver.session.tick(11.0)
    assert driver.session.open_stall.severity == "error"


def _timed_captures():
    paths = [p for p in bundled_captures()]
    paths += sorted(p for p in SHARED_CORPUS.glob("*.jsonl"))
    return paths


@pytest.mark.parametrize("path", _timed_captures(), ids=lambda p: p.name)
def test_ticking_through_every_silence_ends_with_what_check_reports(path):
    cap = load_path(path)
    if not cap.timed:
        pytest.skip("untimed")
    live, _ = _live(cap, tick_every=0.5)
    assert [f.to_dict() for f in live.findings] == [f.to_dict() for f in run_capture(cap).findings]
