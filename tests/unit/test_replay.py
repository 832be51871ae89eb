"""ReplayFeed (inspector/feeds/replay.py): exact seeks, step back from checkpoints, same result as check."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.capture.load import load_path
from inspector.model.capture import Chunk, End, Head
from inspector.feeds.replay import Playback
from inspector.feeds.run import run_capture

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
CAPTURES = sorted(p for p in CORPUS.glob("*") if not p.name.endswith(".expect.json")) if CORPUS.is_dir() else []
BUNDLED = sorted((Path(__file__).resolve().parents[2] / "inspector" / "data" / "captures").glob("*.jsonl"))


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


async def test_instant_play_feeds_everything_in_batches():
    pb = Playback(load_path(BUNDLED[0]), instant=True)
    calls = []
    await pb.play(lambda: calls.append(pb.event_count), budget_s=0.0)
    assert pb.finished and pb.session.closed
    assert calls and calls == sorted(calls)
    assert pb.now() == pb.duration


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
