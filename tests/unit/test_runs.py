"""Runs of deltas taken whole (``inspector.session.runs``) give exactly what taking each event alone gives.

Every case is run twice: as it comes (the framing hands runs over, the session takes them in one
step where it can) and on the exact path (no fast framing, so no runs: each event alone). The
JSON report, every block's content and fragment times, and the whole event log must be equal.
Generated streams put in what could make a run differ from its events one by one: escapes,
non-ASCII text, empty fragments, arguments that complete or turn invalid in the middle of a run,
fragments that re-send the whole text (J006), top-level numbers, deltas after the block stopped,
a delta for an index never started, control characters orjson refuses, native captures with
several events per chunk, and chunk boundaries anywhere.
"""
from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.framing.sse import SSEDecoder
from inspector.model.capture import Capture, Chunk, End
from inspector.model.frames import FrameRun
from inspector.providers import PROVIDERS
from inspector.feeds.run import run_capture
from inspector.report.json import report_dict

FRAGMENTS = st.lists(st.one_of(
    st.sampled_from(['{"a": ', '"x\\"y"', '1', ', "b": [', ']', '}', '', ' ', '\\n', 'é', '"', '{', '\\u00e9',
                     'tru', 'e', '12', '.5', 'zz', '\t', '{"a": 1}']),
    st.text(alphabet='abc"{}[]:,\\ é0', max_size=6)), min_size=1, max_size=40)


def _sse(events: list[tuple[str | None, dict]]) -> bytes:
    out = []
    for name, payload in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {orjson.dumps(payload).decode()}\n\n")
    return "".join(out).encode()


def anthropic(tool_fragments: list[str], text_fragments: list[str], *, stop_early: bool = False,
              bad_index: bool = False) -> bytes:
    ev = [("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message",
                                                                  "role": "assistant", "model": "m", "content": []}}),
          ("content_block_start", {"type": "content_block_start", "index": 0,
                                   "content_block": {"type": "text", "text": ""}})]
    ev += [("content_block_delta", {"type": "content_block_delta", "index": 0,
                                    "delta": {"type": "text_delta", "text": f}}) for f in text_fragments]
    ev += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
           ("content_block_start", {"type": "content_block_start", "index": 1,
                                    "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}})]
    half = len(tool_fragments) // 2
    for i, f in enumerate(tool_fragments):
        if stop_early and i == half:
            ev.append(("content_block_stop", {"type": "content_block_stop", "index": 1}))
        ev.append(("content_block_delta", {"type": "content_block_delta", "index": 7 if bad_index and i >= half else 1,
                                           "delta": {"type": "input_json_delta", "partial_json": f}}))
    ev += [("content_block_stop", {"type": "content_block_stop", "index": 1}),
           ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
           ("message_stop", {"type": "message_stop"})]
    return _sse(ev)


def chat(tool_fragments: list[str], text_fragments: list[str], *, finish_early: bool = False,
         obfuscate: bool = False) -> bytes:
    """``obfuscate``: each chunk ends with OpenAI's random ``obfuscation`` padding (a second string
    that varies along a run)."""
    pads = iter(range(10**6))

    def chunk(delta: dict, finish: str | None = None) -> tuple[None, dict]:
        c = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if obfuscate:
            n = next(pads)
            c["obfuscation"] = "pQ\\" * (n % 3) + "é" * (n % 2) + str(n)
        return None, c
    ev = [chunk({"role": "assistant", "content": ""})]
    ev += [chunk({"content": f}) for f in text_fragments]
    ev.append(chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                     "function": {"name": "f", "arguments": ""}}]}))
    for i, f in enumerate(tool_fragments):
        if finish_early and i == len(tool_fragments) // 2:
            ev.append(chunk({}, "tool_calls"))
        ev.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}))
    ev.append(chunk({}, "tool_calls"))
    return _sse(ev) + b"data: [DONE]\n\n"


def cohere(tool_fragments: list[str], text_fragments: list[str], *, end_early: bool = False,
           as_list: bool = False) -> bytes:
    """Cohere v2 chat (PROTOCOLS.md §8): a plan and a text block from ``text_fragments``, a tool call from
    ``tool_fragments``; ``end_early``: its ``tool-call-end`` halfway; ``as_list``: from halfway on the deltas
    carry ``tool_calls`` as a list (K001, a shape cohere-python drops)."""
    def msg(typ: str, index: int | None, **message) -> tuple[str, dict]:
        e = {"type": typ, "delta": {"message": message}}
        return typ, e if index is None else {**e, "index": index}

    ev = [msg("message-start", None, role="assistant")]
    ev += [msg("tool-plan-delta", None, tool_plan=f) for f in text_fragments]
    ev.append(msg("content-start", 0, content={"type": "text", "text": ""}))
    ev += [msg("content-delta", 0, content={"text": f}) for f in text_fragments]
    ev += [("content-end", {"type": "content-end", "index": 0}),
           msg("tool-call-start", 0, tool_calls={"id": "c1", "type": "function",
                                                 "function": {"name": "f", "arguments": ""}})]
    half = len(tool_fragments) // 2
    for i, f in enumerate(tool_fragments):
        if end_early and i == half:
            ev.append(("tool-call-end", {"type": "tool-call-end", "index": 0}))
        tc = {"function": {"arguments": f}}
        ev.append(msg("tool-call-delta", 0, tool_calls=[tc] if as_list and i >= half else tc))
    ev += [("tool-call-end", {"type": "tool-call-end", "index": 0}),
           ("message-end", {"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}})]
    return _sse(ev)


def _fingerprint(s) -> str:
    blocks = [(b.content, list(b.fragment_times), b.deltas, b.last_fragment, b.first_delta_s, b.last_delta_s,
               b.max_gap_s, b.status) for b in s.blocks]
    events = [(e.index, e.name, e.data, e.line, e.t, e.named, e.keepalive, e.block, e.response, e.offset)
              for e in s.events]
    return json.dumps([report_dict("x", s), blocks, events, s.first_content_t], sort_keys=True, default=repr)


def _both(cap: Capture, compile_after: int = 2000) -> tuple[str, str, int]:
    """Fingerprints as it comes and on the exact path, and how many runs formed. ``compile_after``:
    events a template is matched by hand before its regexes are compiled (0: compiled at once)."""
    made = []
    feed = SSEDecoder.feed

    def counting(self, data, t=None):
        out = feed(self, data, t)
        made.extend(x for x in out if isinstance(x, FrameRun))
        return out

    with pytest.MonkeyPatch.context() as m:
        m.setattr(SSEDecoder, "feed", counting)
        m.setattr("inspector.framing.sse._COMPILE_AFTER", compile_after)
        fast = _fingerprint(run_capture(cap))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(SSEDecoder, "_fast", lambda self, data, t, out: data)
        exact = _fingerprint(run_capture(cap))
    return fast, exact, len(made)


def _capture(body: bytes, cuts: list[int] | None = None, timed: bool = False) -> Capture:
    """``body`` in chunks: one ends after the first event (runs form once the dialect is known,
    so from the second chunk on), others end at ``cuts``."""
    first = body.index(b"\n\n") + 2
    edges = sorted({0, first, len(body), *(c % (len(body) + 1) for c in cuts or ())})
    chunks = [Chunk(0.1 * i if timed else None, body[a:b]) for i, (a, b) in enumerate(zip(edges, edges[1:]))]
    return Capture(chunks=chunks, end=End(chunks[-1].t, "eof"))


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STREAM = dict(tool=FRAGMENTS, text=FRAGMENTS, cuts=st.lists(st.integers(0, 10_000), max_size=3), timed=st.booleans(),
              compile_after=st.sampled_from([0, 3, 2000]))
"""What every dialect's streams vary: fragments, chunk cuts, timing, how a run's template is matched."""


DIALECTS = {
    "anthropic-messages": lambda tool, text, early, odd: anthropic(tool, text, stop_early=early, bad_index=odd),
    "openai-chat": lambda tool, text, early, odd: chat(tool, text, finish_early=early, obfuscate=odd),
    "cohere-chat": lambda tool, text, early, odd: cohere(tool, text, end_early=early, as_list=odd),
}
"""Each generator with its two faults: a block closed ``early`` (Anthropic ``content_block_stop``, Chat
``finish_reason``, Cohere ``tool-call-end``) and an ``odd`` second half (Anthropic deltas to an index never
started, Chat's varying ``obfuscation`` padding, Cohere ``tool_calls`` as a list)."""


def test_every_dialect_that_takes_runs_whole_has_a_generator_here():
    # A dialect answering ``run_target`` itself (not inherited: Bedrock's Anthropic events never come as
    # SSE runs) is held to the line-by-line path by the property test below, so it needs a generator.
    takes = {p.dialect_name for p in PROVIDERS.values() if "run_target" in vars(p.dialect)}
    assert takes == set(DIALECTS)


@pytest.mark.parametrize("dialect", DIALECTS)
@PROPERTY
@given(**STREAM, early=st.booleans(), odd=st.booleans())
def test_runs_match_the_exact_path(dialect, tool, text, cuts, timed, early, odd, compile_after):
    fast, exact, _ = _both(_capture(DIALECTS[dialect](tool, text, early, odd), cuts, timed), compile_after)
    assert fast == exact


def test_a_long_tool_call_is_taken_in_runs():
    """The case runs exist for: they form, and change nothing."""
    args = json.dumps({"lines": [f"line {i}: \"q\" é ✓" for i in range(400)]})
    frags = [args[i:i + 8] for i in range(0, len(args), 8)]
    bodies = (anthropic(frags, ["Hel", "lo"]), chat(frags, ["Hel", "lo"]), chat(frags, ["Hi"], obfuscate=True),
              cohere(frags, ["Hel", "lo"]))
    for body, compile_after in ((b, c) for b in bodies for c in (0, 2000)):  # regexes compiled, matched by hand
        fast, exact, runs = _both(_capture(body), compile_after)
        assert runs >= 1
        assert fast == exact
        s = run_capture(_capture(body))
        tool = next(b for b in s.blocks if b.tool)
        assert tool.content == args and tool.status == "complete" and not s.findings


def test_a_native_capture_points_run_events_at_their_chunk_line():
    """Several events per recorded chunk: each event's line is its chunk record's file line."""
    frags = [f'"{i}", ' for i in range(50)]
    body = anthropic(["["] + frags + ['"end"]'], ["a", "b", "c"])
    cap = _capture(body, cuts=[len(body) // 3, 2 * len(body) // 3], timed=True)
    cap.chunks = [Chunk(c.t, c.data, line=10 + i) for i, c in enumerate(cap.chunks)]
    fast, exact, runs = _both(cap)
    assert runs >= 1 and fast == exact


def test_run_events_can_be_read_back_one_by_one():
    """The packed log answers like a list: index, negative index, slice, iteration."""
    frags = ["[1"] + [", 2"] * 30 + ["]"]
    s = run_capture(_capture(anthropic(frags, ["x"])))
    events = list(s.events)
    assert [e.index for e in events] == list(range(len(s.events)))
    assert s.events[-1].data == events[-1].data and s.events[5].payload == events[5].payload
    assert [e.index for e in s.events[3:9]] == [3, 4, 5, 6, 7, 8]
    assert s.events.times() == [e.t for e in events]
    assert s.events.names(2, 9) == {(e.name, e.named) for e in events[2:9]} and len(s.events.names()) == 6
    for start in range(len(events) + 1):  # a range may begin or end inside a run
        for stop in (start, start + 1, start + 7, None, -1):
            assert s.events.names(start, stop) == {(e.name, e.named) for e in events[start:stop]}
    mid = s.events[len(events) // 2]
    assert mid.payload["delta"]["partial_json"] == ", 2" and mid.block is not None


def test_a_control_character_in_a_run_breaks_it_up():
    """A raw tab inside a JSON string is not JSON: that event alone gets S002, as line by line."""
    body = anthropic(["[1", ", 2", ", 3", ", 4", "]"], ["x"]).replace(b'", 3', b'",\t3')
    fast, exact, _ = _both(_capture(body))
    assert fast == exact and '"S002"' in fast


def test_a_fragment_that_resends_the_text_is_judged_in_a_run():
    """J006 judges a fragment at least as long as the text before it: such fragments go alone."""
    for body in (anthropic(["[", "[", "1", "]", "]"], ["x"]), chat(["[", "[", "1", "]", "]"], ["x"]),
                 anthropic(['{"a": [', '{"a": [', "1", "2", "]}"], ["x"])):
        fast, exact, runs = _both(_capture(body))
        assert runs >= 1 and fast == exact and '"J006"' in fast


def _short_calls_then_one_long(calls: int, long_fragments: list[str]) -> bytes:
    """``calls`` tool calls of 3 deltas each (runs of 2 at most), then one call of ``long_fragments``."""
    ev = [("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message",
                                                                  "role": "assistant", "model": "m", "content": []}})]
    parts = [['{"i":', str(i), "}"] for i in range(calls)] + [long_fragments]
    for i, frags in enumerate(parts):
        ev.append(("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": {"type": "tool_use", "id": f"toolu_{i}", "name": "f",
                                                             "input": {}}}))
        ev += [("content_block_delta", {"type": "content_block_delta", "index": i,
                                        "delta": {"type": "input_json_delta", "partial_json": f}}) for f in frags]
        ev.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    ev += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
           ("message_stop", {"type": "message_stop"})]
    return _sse(ev)


def test_the_search_for_runs_goes_off_where_none_form_and_back_on_for_a_long_call():
    """Thousands of 3-delta calls: after a streak of short runs the framing stops looking (a few
    dozen runs formed, not one per call); the long call at the end is still taken in runs once the
    search is back on; the report is the exact path's."""
    from inspector.session.runs import RunGate

    long_fragments = ['{"lines": ['] + [f'"{i}", ' for i in range(3000)] + ['"end"]}']
    body = _short_calls_then_one_long(4000, long_fragments)
    cap = Capture(chunks=[Chunk(None, body[i:i + 65536]) for i in range(0, len(body), 65536)])
    fast, exact, runs = _both(cap)
    assert fast == exact
    short_runs = 4000
    assert runs < short_runs // 10, runs  # without the gate: one run per call
    s = run_capture(cap)
    assert s.blocks[-1].content == "".join(long_fragments) and not s.findings
    assert any(item.__class__.__name__ == "EventRun" and item.count > 100 for item in s.events._items)
    gate = RunGate()
    assert not any(gate.saw_run(2, 10 * k) for k in range(RunGate.PATIENCE - 1))
    assert gate.saw_run(2, 500) and not gate.armed
    assert not gate.rearm(500 + RunGate.FIRST_WAIT - 1, 3, 2) and gate.rearm(500 + RunGate.FIRST_WAIT, 9, 1)
    assert gate.wait == 2 * RunGate.FIRST_WAIT  # off again soon: a longer wait before the next look
    assert not gate.saw_run(5000, 9000) and gate.wait == RunGate.FIRST_WAIT  # a long run resets it
    for _ in range(RunGate.PATIENCE):
        gate.saw_run(2, 9100)
    assert not gate.armed and not gate.rearm(9200, 40, 3) and not gate.rearm(9300, 41, 100)  # new blocks
    assert gate.rearm(9400, 41, 100 + RunGate.LONG)  # one block took many deltas since the last look
    for _ in range(RunGate.PATIENCE - 1):  # the shape changed: a full streak again before it goes off
        assert not gate.saw_run(2, 9500)
    assert gate.saw_run(2, 9500) and gate.rearm(9500 + gate.wait, -1, 0)  # a second look after the wait:
    assert not any(gate.saw_run(2, 20000) for _ in range(RunGate.RELOOK - 1))  # off again after RELOOK
    assert gate.saw_run(2, 20000) and not gate.armed


def _chat_short_calls(calls: int) -> bytes:
    """OpenAI Chat: ``calls`` tool calls, each an opening and 3 argument deltas (runs of 2), then the finish."""
    head = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    chunks = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": None},
                                    "finish_reason": None}]}]
    for i in range(calls):
        chunks.append({**head, "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "id": f"call_{i}", "type": "function", "function": {"name": "f", "arguments": ""}}]},
            "finish_reason": None}]})
        chunks += [{**head, "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "function": {"arguments": a}}]}, "finish_reason": None}]} for a in ('{"i":', str(i), "}")]
    chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


@pytest.mark.parametrize("dialect", ["anthropic", "chat"])
def test_the_search_for_runs_goes_off_in_the_middle_of_a_chunk(dialect):
    """One chunk of 300 short calls after the first event: the framing tells the gate of each run as it
    makes it (``SSEDecoder.on_run``), so it makes ``PATIENCE`` runs and frames the rest of the chunk an
    event at a time (it made one run per call when the gate heard of runs only after the chunk); the
    report is the exact path's."""
    from inspector.session.runs import RunGate

    body = _short_calls_then_one_long(300, ["{}"]) if dialect == "anthropic" else _chat_short_calls(300)
    fast, exact, runs = _both(_capture(body))
    assert fast == exact
    assert runs == RunGate.PATIENCE


def test_runs_reach_the_session_only_through_its_run_writer_interface():
    """``runs.py`` touches no private attribute of the session, and the J rules add a delta
    through the writer's public method (issue 26: the one bypass of the writer interface)."""
    import ast
    from pathlib import Path

    import inspector.session.rules.arguments as arguments
    import inspector.session.runs as runs

    for module, owner in ((runs, "s"), (arguments, "self.s")):
        tree = ast.parse(Path(module.__file__).read_text())
        private = [f"{ast.unparse(n.value)}.{n.attr}" for n in ast.walk(tree)
                   if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
                   and ast.unparse(n.value) == owner]
        assert not private, (module.__name__, private)
