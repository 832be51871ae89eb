"""ReplayFeed (inspector/feeds/replay.py): exact seeks, step back from checkpoints, same result as check."""
from __future__ import annotations

import asyncio

import pytest

from inspector.capture.load import load_path
from inspector.model.capture import Chunk, End, Head
from inspector.feeds.replay import Playback
from inspector.feeds.run import run_capture
from tests.conftest import ROOT, SHARED_CORPUS
from tests.ui.capture_factory import big_capture

CORPUS = SHARED_CORPUS
CAPTURES = sorted(p for p in CORPUS.glob("*") if not p.name.endswith(".expect.json"))
BUNDLED = sorted((ROOT / "inspector" / "data" / "captures").glob("*.jsonl"))


def _findings(s):
    return [f.to_dict() for f in s.findings]


def _blocks(s):
    return [b.to_dict() for b in s.blocks]


@pytest.mark.parametrize("path", CAPTURES + BUNDLED, ids=lambda p: p.name)
def test_pieces_give_the_same_session_as_check(path):
    cap = load_path(path)
    pb = Playback(cap)
    pb.seek_event(10**9)
    ref = run_capture(cap)
    assert pb.finished
    assert _findings(pb.session) == _findings(ref)
    assert _blocks(pb.session) == _blocks(ref)
    assert pb.total_events == len(ref.events)


@pytest.mark.parametrize("path", CAPTURES + BUNDLED, ids=lambda p: p.name)
def test_seek_lands_exactly_on_every_event(path):
    pb = Playback(load_path(path))
    for n in range(pb.total_events):
        pb.seek_event(n)
        assert pb.event_count == n + 1
    for n in reversed(range(pb.total_events)):  # backwards: rebuilds
        pb.seek_event(n)
        assert pb.event_count == n + 1


def test_one_chunk_with_many_events_is_cut_per_event():
    path = CORPUS / "openai-parallel-indexed.sse"
    cap = load_path(path)
    assert len(cap.chunks) == 1
    pb = Playback(cap)
    for n in range(pb.total_events):  # each step completes one event, though one chunk holds all
        pb.step_forward()
        assert pb.event_count == n + 1


def test_step_back_rebuilds_a_fresh_session_with_fewer_findings():
    pb = Playback(load_path(BUNDLED[1]))  # stall and early stop: J002 at the content_block_stop
    pb.seek_event(pb.total_events)
    errors = [f for f in pb.session.findings if f.code == "J002"]
    assert errors
    stop_event = errors[0].event
    gen = pb.generation
    pb.seek_event(stop_event - 1)
    assert pb.generation == gen + 1
    assert pb.event_count == stop_event
    assert not [f for f in pb.session.findings if f.code == "J002"]
    pb.step_forward()
    assert pb.event_count == stop_event + 1
    assert [f for f in pb.session.findings if f.code == "J002"]
    pb.step_back()
    assert pb.event_count == stop_event


def test_step_back_at_zero_stays_at_zero_and_untimed_clock_is_none():
    pb = Playback(load_path(CORPUS / "openai-parallel-indexed.sse"))
    pb.step_back()
    assert pb.event_count == 0 and pb.position == 0
    assert pb.now() is None


def test_clock_follows_seeks_in_capture_time():
    pb = Playback(load_path(BUNDLED[1]))
    pb.seek_event(0)
    t0 = pb.now()
    assert t0 == pb.session.events[0].t
    pb.seek_event(pb.total_events)
    assert pb.now() == pb.duration


async def test_instant_play_shows_the_whole_capture_at_once():
    pb = Playback(load_path(BUNDLED[0]), instant=True)
    calls = []
    await pb.play(lambda: calls.append(pb.event_count), budget_s=0.0)
    assert pb.finished and pb.session.closed
    assert calls == [pb.total_events]
    assert pb.now() == pb.duration


def _same_as_check(pb, cap) -> None:
    ref = run_capture(cap)
    assert pb.finished
    assert _findings(pb.session) == _findings(ref)
    assert _blocks(pb.session) == _blocks(ref)
    assert pb.total_events == pb.event_count == len(ref.events)


async def test_instant_play_reads_off_the_loop_and_never_shows_a_half_fed_session():
    cap = big_capture(20_000)
    pb = Playback(cap, instant=True, scan=False)
    shown = pb.session
    calls, readings = [], []
    task = asyncio.ensure_future(pb.play(lambda: calls.append(pb.event_count)))
    while not task.done():
        # The loop runs while the thread reads; what it sees is the session from before.
        assert pb.session is shown and pb.event_count == 0 and not pb.finished
        readings.append(pb.reading)
        await asyncio.sleep(0.001)
    await task
    counts = [r or 0 for r in readings]
    assert any(counts) and counts == sorted(counts)  # the count moved, forwards
    assert pb.reading is None and pb.generation == 1 and calls == [pb.event_count]
    _same_as_check(pb, cap)
    assert len(pb.checkpoints) == 1  # none taken while reading: the first seek back takes them
    pb.seek_event(pb.total_events - 10)
    assert pb.event_count == pb.total_events - 9 and len(pb.checkpoints) > 1


async def test_pause_during_an_instant_read_shows_what_was_read_then_resumes_to_the_end():
    cap = big_capture(20_000)
    pb = Playback(cap, instant=True, scan=False)
    task = asyncio.ensure_future(pb.play())
    while (pb.reading or 0) < 500:
        assert not task.done(), "the read ended before it could be paused"
        await asyncio.sleep(0.001)
    pb.pause()
    await task
    assert pb.reading is None and not pb.finished and 500 <= pb.event_count < len(run_capture(cap).events)
    stopped = pb.event_count
    pb.resume()
    await pb.play(budget_s=0.0)  # from part-way: on the loop, in batches
    assert pb.event_count > stopped
    _same_as_check(pb, cap)


async def test_a_cancelled_instant_read_stops_its_thread_and_shows_nothing():
    cap = big_capture(20_000)
    pb = Playback(cap, instant=True, scan=False)
    shown = pb.session
    ended: list[int] = []
    read = pb._read_off_loop

    def spy(stop):
        driver, pos, clock = read(stop)
        ended.append(pos)
        return driver, pos, clock

    pb._read_off_loop = spy
    task = asyncio.ensure_future(pb.play())
    while (pb.reading or 0) < 500:
        assert not task.done(), "the read ended before it could be cancelled"
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    while not ended:
        await asyncio.sleep(0.001)
    assert ended[0] < len(cap.body)  # stopped part-way
    assert pb.session is shown and pb.event_count == 0 and pb.pos == 0 and pb.reading is None
    await pb.play()  # a new play reads it all
    _same_as_check(pb, cap)


async def test_timed_play_pauses_and_resumes():
    pb = Playback(load_path(BUNDLED[0]), speed=10.0)
    task = asyncio.ensure_future(pb.play())
    while pb.event_count < 3:
        await asyncio.sleep(0.001)
    pb.pause()
    await task
    shown = pb.event_count
    assert not pb.finished and shown < pb.total_events
    pb.resume()
    await pb.play()
    assert pb.finished


async def test_items_is_a_plain_source():
    cap = load_path(BUNDLED[2])
    pb = Playback(cap, instant=True)
    items = [item async for item in pb.items()]
    assert isinstance(items[0], Head) and items[0].status == 200
    assert isinstance(items[-1], End)
    chunks = [i for i in items if isinstance(i, Chunk)]
    assert b"".join(c.data for c in chunks) == cap.body


async def test_a_speed_change_during_an_instant_read_plays_the_rest_with_recorded_timing():
    cap = big_capture(20_000, span_s=2.0)
    pb = Playback(cap, instant=True, scan=False)
    task = asyncio.ensure_future(pb.play())
    while (pb.reading or 0) < 500:
        assert not task.done(), "the read ended before the speed changed"
        await asyncio.sleep(0.001)
    pb.set_speed(20.0)  # what + and - do
    while pb.reading is not None:
        await asyncio.sleep(0.001)
    read = pb.event_count
    assert not pb.instant and not task.done() and 500 <= read < 20_000  # shown, then timed
    await task
    _same_as_check(pb, cap)
