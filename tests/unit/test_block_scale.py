"""Work per content block stays O(1) however many blocks a stream opens: 100 000 blocks never stopped
(Anthropic), a Bedrock ConverseStream of many blocks, ``compare``'s chart of many tool calls and
``diff``'s pairing of many calls once took time quadratic in the blocks (``bench/bench_scale.py`` has the figures). Speed is not asserted:
each test counts the walks over the stream's blocks that one block costs, and holds what is reported."""
from __future__ import annotations

import random

import orjson

from inspector.compare import compare_captures
from inspector.compare.diff.answer import Call
from inspector.compare.diff.compare import _pair_calls
from inspector.compare.timing import chart_series
from inspector.feeds.base import Driver, Settings
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from tests import bedrock_frames as bf

N = 2000


class CountingSet(set):
    """A set that counts the times it is walked (``min``, ``sorted``, a ``for``)."""

    walks = 0

    def __iter__(self):
        CountingSet.walks += 1
        return super().__iter__()


class CountingList(list):
    walks = 0

    def __iter__(self):
        CountingList.walks += 1
        return super().__iter__()


def _sse(events) -> bytes:
    return b"".join(b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in events)


MESSAGE_START = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                      "content": [], "stop_reason": None}}


def test_blocks_never_stopped_are_not_walked_at_each_start_and_a006_names_the_lowest_open():
    starts = [{"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}
              for i in range(N)]
    stop0 = {"type": "content_block_stop", "index": 0}
    driver = Driver.for_capture(Capture(), Settings(dialect="anthropic-messages"))
    driver.take(Chunk(0.0, _sse([MESSAGE_START, starts[0]])))
    driver.session.dialect.open_slots = CountingSet(driver.session.dialect.open_slots)
    CountingSet.walks = 0
    driver.take(Chunk(0.1, _sse(starts[1:3] + [stop0] + starts[3:])))
    s = driver.close()
    assert CountingSet.walks < 10  # was one walk of every open block per start
    a006 = [f for f in s.findings if f.code == "A006"]
    assert a006[0].message == "block 1 starts while block 0 is still open"
    assert a006[-1].message == f"block {N - 1} starts while block 1 is still open"  # 0 was stopped



def test_blocks_started_and_stopped_in_turn_keep_no_open_index_behind():
    """The heap that names A006's lowest open block holds the open ones, not one entry per block of
    the stream (it was trimmed only when A006 fired), on the per-event path and the short-calls one."""
    for text in (False, True):
        events = [MESSAGE_START]
        for i in range(N):
            block = {"type": "text", "text": ""} if text else {"type": "tool_use", "id": f"toolu_{i}", "name": "f", "input": {}}
            delta = {"type": "text_delta", "text": "a"} if text else {"type": "input_json_delta", "partial_json": "{}"}
            events += [{"type": "content_block_start", "index": i, "content_block": block},
                       {"type": "content_block_delta", "index": i, "delta": delta},
                       {"type": "content_block_stop", "index": i}]
        s = run_capture(Capture(chunks=[Chunk(0.1, _sse(events))]), dialect="anthropic-messages")
        assert len(s.blocks) == N and not [f for f in s.findings if f.code == "A006"]
        assert len(s.dialect.open_heap) <= 1

def test_bedrock_converse_blocks_cost_no_search_of_the_blocks_before_them():
    body = bf.message_start()
    for i in [*range(N), N + 1]:  # the last one skips a position: B006 still told
        body += bf.text(i, "w") + bf.stop(i)
    s = run_capture(Capture(chunks=[Chunk(0.1, body + bf.message_stop() + bf.metadata())]),
                    dialect="bedrock-converse")
    positions = s.dialect.positions
    assert isinstance(positions, (dict, set)), "a membership test per block must not search a list"
    assert [f.message for f in s.findings if f.code == "B006"] == [
        f"content block at contentBlockIndex {N + 1}, expected {N} (the index is the position in the message content)"]


def _calls(shift: float) -> Capture:
    events = [MESSAGE_START]
    for i in range(N):
        events += [{"type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": f"t{i}", "name": "f", "input": {}}},
                   {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
                   {"type": "content_block_stop", "index": i}]
    return Capture(chunks=[Chunk(0.001 * i + shift, _sse([e])) for i, e in enumerate(events)])


def test_compare_chart_finds_each_tool_block_without_walking_the_blocks_again():
    a, b = _calls(0.0), _calls(0.0005)
    cmp = compare_captures(a, b, a_label="a", b_label="b")
    for session in (cmp.session_a, cmp.session_b):
        session.blocks = CountingList(session.blocks)
    CountingList.walks = 0
    streams, fragments = chart_series(cmp, a, b)
    assert CountingList.walks <= 2  # was one walk per tool block
    assert len(fragments) == 2 * N and fragments[("B", N - 1)] == [(fragments[("A", N - 1)][0][0], 2)]


class CountingStr(str):
    """A call id that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other):
        CountingStr.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _reference_pairing(a: list[Call], b: list[Call]) -> list:
    """What ``_pair_calls`` did with a search of B's calls per call of A (the meaning it keeps)."""
    left_b, matched = list(b), {}
    for ca in a:
        if ca.id:
            cb = next((x for x in left_b if x.id == ca.id), None)
            if cb is not None:
                matched[ca.position] = (cb, "id")
                left_b.remove(cb)
    for ca in a:
        if ca.position not in matched:
            cb = next((x for x in left_b if x.name == ca.name), None)
            if cb is not None:
                rewritten = ca.id and cb.id and ca.id != cb.id and ca.position == cb.position
                matched[ca.position] = (cb, "rewritten id" if rewritten else "name")
                left_b.remove(cb)
    for ca in a:
        if ca.position not in matched and left_b:
            matched[ca.position] = (left_b.pop(0), "position")
    return [(ca, *matched.get(ca.position, (None, None))) for ca in a] + [(None, cb, None) for cb in left_b]


def test_diff_pairs_tool_calls_without_searching_b_for_each_call_of_a():
    a = [Call(i, "f", CountingStr(f"call_a{i}"), "{}") for i in range(N)]
    b = [Call(i, "f", CountingStr(f"call_b{i}"), "{}") for i in range(N)]
    CountingStr.compared = 0
    pairs = _pair_calls(a, b)
    assert CountingStr.compared < 3 * N  # was one comparison per pair of calls (N * N)
    assert [(x.position, y.position, how) for x, y, how in pairs] == [(i, i, "rewritten id") for i in range(N)]


def test_diff_pairs_tool_calls_as_it_did():
    rng = random.Random(7)
    for _ in range(300):
        def calls(n):
            return [Call(i, rng.choice(["f", "g", None]), rng.choice(["x", "y", "z", None, ""]), "{}") for i in range(n)]
        a, b = calls(rng.randrange(6)), calls(rng.randrange(6))
        assert _pair_calls(a, b) == _reference_pairing(a, b), (a, b)


class CountingBytes(bytes):
    """Chunk data that counts the bytes copied when something is joined to it with ``+``."""

    copied = 0

    def __radd__(self, other: bytes) -> bytes:
        CountingBytes.copied += len(other) + len(self)
        return bytes(other) + bytes(self)


def test_blank_chunks_before_the_first_event_are_each_looked_at_once():
    # A body that opens with many blank chunks (keep-alive newlines before the first event): each was
    # joined to all the blanks before it and the whole searched again, quadratic in the chunks.
    chunks = [Chunk(0.01 * i, CountingBytes(b"\n" * 100)) for i in range(500)]
    chunks.append(Chunk(6.0, b'event: ping\ndata: {"type": "ping"}\n\n'))
    CountingBytes.copied = 0
    driver = Driver.for_capture(Capture(), Settings())
    for c in chunks:
        driver.take(c)
    s = driver.close()
    assert CountingBytes.copied <= 2 * sum(len(c.data) for c in chunks)  # was 500 * 50 000 / 2
    assert len(s.events) == 1 and s.events[0].line == 50_001 and s.events[0].name == "ping"


def test_diff_pairs_tool_calls_whose_ids_and_names_are_json_objects():
    """A non-streamed answer may carry an object or a list as a call's id or name: paired by equality
    as before the queues, not a TypeError out of hashing it."""
    a = [Call(0, ["f"], {"a": 1, "b": 2}, "{}"), Call(1, {"n": 1}, None, "{}")]
    b = [Call(0, {"n": 1}, None, "{}"), Call(1, ["f"], {"b": 2, "a": 1}, "{}")]
    pairs = [(x.position, y.position, how) for x, y, how in _pair_calls(a, b)]
    assert pairs == [(x.position, y.position, how) for x, y, how in _reference_pairing(a, b)]
    assert pairs == [(0, 1, "id"), (1, 0, "name")]
