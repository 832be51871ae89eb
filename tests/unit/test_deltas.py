"""The short-call path gives exactly what the plain per-event path gives.

Three fast paths sit beside the exact one: consecutive deltas of one block taken in one step
(``inspector.session.deltas``), a block's start, deltas and stop taken in one pass
(``inspector.session.groups``) and the handler resolved once per event type (``Dialect.direct``).
Every generated stream is read twice: as it comes, and on the exact path (no delta groups, the
dialect's ``on_event`` for every event, no runs of deltas). The JSON report, every block's content,
fragment times and timing, and the whole event log must be equal. The streams are hostile: indexes
interleaved, deltas before their start or after their stop, duplicate starts, missing stops, delta
types that do not fit the block, unknown event types, in-band errors, SSE names that disagree with
the type, data that is not JSON, arguments that turn invalid or complete in the middle of a call,
fragments that re-send the text (J006), top-level numbers, empty fragments, escapes and non-ASCII
text cut anywhere, a key-shaped string in the arguments, a retry spliced in, events after the end,
timed and untimed chunks cut anywhere, native captures with file lines.
"""
from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.feeds.run import run_capture
from inspector.framing.sse import SSEDecoder
from inspector.model.capture import Capture, Chunk, End
from inspector.providers.anthropic.stream import AnthropicMessages
from inspector.session import deltas, detect, groups
from inspector.session.session import Session
from tests.unit.test_runs import _fingerprint

KEY = "sk-ant-api03-" + "A" * 40
FRAGMENT = st.one_of(
    st.sampled_from(['{"path":"src/mod', 'ule_1.py","li', 'ne":1}', '{"a": ', '"x\\"y"', "1", ", ", "]", "}", "{",
                     "[", "", " ", "\\n", "é", "[" * 201 + "]" * 201, '{"a": ' + "[" * 200 + "]" * 200 + "}", '"', "\\u00e9", "\\ud83d", "\\ude00", "tru", "e", "12", ".5", "zz",
                     '{"a": 1}', '{"key": "' + KEY + '"}', KEY, "\t", '"\\', "\u2028"]),
    st.text(alphabet='ab"{}[]:,\\ é0-', max_size=5))
INDEX = st.sampled_from([0, 1, 2, 0, 1, "x", None, True])


def _start(index, kind, ident, extra, name="read_file"):
    block = {"type": kind, "id": ident, "name": name}
    if kind in ("tool_use", "server_tool_use"):
        block["input"] = extra
    elif kind in ("text", "thinking"):
        block[kind] = ""
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index, dtype, value):
    key = {"input_json_delta": "partial_json", "text_delta": "text", "thinking_delta": "thinking",
           "signature_delta": "signature"}.get(dtype, "value")
    return {"type": "content_block_delta", "index": index, "delta": {"type": dtype, key: value}}


IDENT = st.sampled_from(["toolu_1", "toolu_1", "toolu_2", "bad id!", 7, "t-1", "t\u00f6", "1abc", "", None])
TOOL_NAME = st.sampled_from(["read_file"] * 6 + ["", "x" * 200, "x" * 201, None, 3, "r\u00e9ad"])
"""A011's edges: ids that match its pattern without being identifiers, non-ASCII, empty; names at 200/201."""
START = st.builds(_start, INDEX, st.sampled_from(["tool_use", "tool_use", "text", "thinking", "server_tool_use",
                                                  "bogus"]),
                  IDENT, st.sampled_from([{}, {}, {"a": 1}, None, [], 0, "x"]), TOOL_NAME)
DELTA = st.builds(_delta, INDEX, st.sampled_from(["input_json_delta"] * 6 + ["text_delta", "thinking_delta",
                                                                              "signature_delta", "bogus_delta"]),
                  st.one_of(FRAGMENT, FRAGMENT, st.just(None)))
OTHER = st.sampled_from([
    {"type": "content_block_stop", "index": 0}, {"type": "content_block_stop", "index": 1},
    {"type": "content_block_stop", "index": 2}, {"type": "ping"}, {"type": "brand_new_event", "x": 1},
    {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, {"type": "message_stop"},
    {"type": "message_start", "message": {"id": "msg_2", "type": "message", "content": []}},
    {"type": ["not", "a", "string"]}, "not json"])
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text("ab\"\\é\n\u2028😀") | st.just(KEY),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("ab\"é", max_size=3), inner,
                                                                                max_size=3), max_leaves=8)


@st.composite
def _split(draw) -> list:
    """A JSON value's text cut anywhere (escapes and characters split across fragments), with now
    and then whitespace or an empty fragment; an object most of the time, as tool arguments are."""
    value = draw(st.dictionaries(st.text("ab_", max_size=4), JSON, max_size=3) | JSON)
    text = orjson.dumps(value).decode() + draw(st.sampled_from(["", "", " ", "\n"]))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=6)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


KIND = st.sampled_from(["tool_use", "tool_use", "tool_use", "text", "thinking", "server_tool_use", "bogus"])


@st.composite
def _call(draw) -> list:
    """A block as models send it, or nearly: its start, deltas (now and then one of another index or
    type, or another event in between) and, usually, its stop."""
    index = draw(INDEX)
    kind = draw(KIND)
    dtype = {"text": "text_delta", "thinking": "thinking_delta"}.get(kind, "input_json_delta")
    events = [_start(index, kind, draw(IDENT), draw(st.sampled_from([{}, {}, {}, {"a": 1}, None])), draw(TOOL_NAME))]
    for fragment in draw(_split() | _split() | st.lists(FRAGMENT, max_size=7)):
        odd = draw(st.sampled_from(["no"] * 8 + ["index", "type", "event"]))
        if odd == "event":
            events.append(draw(OTHER))
        events.append(_delta(draw(INDEX) if odd == "index" else index,
                             "signature_delta" if odd == "type" else dtype, fragment))
    if draw(st.booleans()) or draw(st.booleans()):
        events.append({"type": "content_block_stop", "index": index})
    return events


EVENTS = st.lists(st.one_of(_call(), _call(), st.builds(lambda e: [e], st.one_of(DELTA, START, OTHER))),
                  max_size=8).map(lambda groups: [e for g in groups for e in g])
NAME = st.sampled_from(["same"] * 8 + ["none", "other"])


def _sse(events: list, names: list) -> bytes:
    out = []
    for k, payload in enumerate(events):
        how = names[k % len(names)]
        data = payload if isinstance(payload, str) else orjson.dumps(payload).decode()
        typ = payload.get("type") if isinstance(payload, dict) else None
        name = {"same": typ if isinstance(typ, str) else None, "none": None, "other": "content_block_delta"}[how]
        out.append((f"event: {name}\n" if name else "") + f"data: {data}\n\n")
    return "".join(out).encode()


def _stream(events: list, names: list) -> bytes:
    start = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                                  "model": "m", "content": []}}
    return _sse([start, *events], ["same", *names])


REQUEST = {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {}, "body": {
    "model": "m", "tools": [{"name": "read_file", "input_schema": {
        "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]}}
"""A request declaring the tool the calls name (the V rules judge each call at its stop)."""


def _capture(body: bytes, cuts: list[int], timed: float, native: bool, declared: bool = False) -> Capture:
    """``body`` cut at ``cuts``, chunk ``k`` arriving at ``timed * k`` seconds (0: untimed; 4 and 12
    make keep-alive-only spells and stalls, T002 and T001, with the 10 s threshold); ``declared``:
    with a request that declares tools."""
    edges = sorted({0, len(body), *(c % (len(body) + 1) for c in cuts)})
    chunks = [Chunk(timed * k if timed else None, body[a:b], line=10 + k if native else None)
              for k, (a, b) in enumerate(zip(edges, edges[1:]))]
    # A pasted capture's skipped prose (``line_base``) when the chunks have no file lines of their own.
    return Capture(chunks=chunks, end=End(chunks[-1].t, "eof"), line_base=0 if native else 3,
                   request=REQUEST if declared else None)


class _OnEventAlways(AnthropicMessages):
    """The Anthropic dialect reading every event through ``on_event`` (its ``direct`` stays empty)."""

    def on_event(self, ev):
        super().on_event(ev)


def _exact_make(name, writer):
    return _OnEventAlways(writer) if name == "anthropic-messages" else detect.dialect_class(name)(writer)


def _both(cap: Capture, runs: bool = True, whole: list | None = None) -> tuple[str, str, int]:
    """Fingerprints as it comes and on the exact path, and how many delta groups were taken in one step
    (``runs``: False, the framing hands no runs of deltas over on either path; ``whole``: gets how many
    frames each block group took, ``inspector.session.groups``)."""
    taken = []
    take, take_group = deltas.take, groups.take

    def counting(s, items, i, least=deltas.MIN, lead=None, head=None):
        k = take(s, items, i, least, lead, head)
        taken.append(k)
        return k

    def counting_groups(s, items, i):
        k = take_group(s, items, i)
        if whole is not None:
            whole.append(k)
        return k

    fingerprint = _every_field
    with pytest.MonkeyPatch.context() as m:
        m.setattr(deltas, "take", counting)
        m.setattr(groups, "take", counting_groups)
        if not runs:
            m.setattr(SSEDecoder, "_fast", lambda self, data, t, out: data)
        fast = fingerprint(run_capture(cap))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(deltas, "take", lambda s, items, i, least=2: 0)
        m.setattr(groups, "take", lambda s, items, i: 0)
        m.setattr(detect, "make", _exact_make)
        m.setattr(SSEDecoder, "_fast", lambda self, data, t, out: data)  # no runs of deltas either
        exact = fingerprint(run_capture(cap))
    return fast, exact, sum(1 for k in taken if k > 0)


def _every_field(s) -> str:
    """``_fingerprint`` and every field of every block the report leaves out (the places it opened and
    closed at, its stop info, notes, position, response, identity), and the V rules' verdicts."""
    fields = [(b.opened_event, b.opened_t, b.closed, b.closed_event, b.closed_t, b.stop_info, repr(b.extra),
               b.attribution, b.id, b.name, b.kind, b.index, b.pos, b.response, b.replaced, b.tool, b.empty_is_object)
              for b in s.blocks]
    return _fingerprint(s) + repr(fields) + repr(sorted(s.declared.violations.items()))


TIMED = st.sampled_from([0, 0.1, 4.0, 12.0])
PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(events=EVENTS, names=st.lists(NAME, min_size=1, max_size=60),
       cuts=st.lists(st.integers(0, 10_000), max_size=4), timed=TIMED, native=st.booleans(), declared=st.booleans())
def test_hostile_streams_read_the_same_on_both_paths(events, names, cuts, timed, native, declared):
    fast, exact, _ = _both(_capture(_stream(events, names), cuts, timed, native, declared))
    assert fast == exact


def _calls(parts: list[list[str]], text: list[str] = ()) -> list:
    events: list = []
    for i, frags in enumerate(parts):
        events.append(_start(i, "tool_use", f"toolu_{i}", {}))
        events += [_delta(i, "input_json_delta", f) for f in frags]
        events.append({"type": "content_block_stop", "index": i})
    if text:
        n = len(parts)
        events.append(_start(n, "text", "x", None))
        events += [_delta(n, "text_delta", f) for f in text]
        events.append({"type": "content_block_stop", "index": n})
    return events + [{"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, {"type": "message_stop"}]


@PROPERTY
@given(parts=st.lists(st.lists(FRAGMENT, max_size=6), min_size=1, max_size=12),
       text=st.lists(FRAGMENT, max_size=6), cuts=st.lists(st.integers(0, 10_000), max_size=4),
       timed=TIMED, native=st.booleans(), declared=st.booleans())
def test_well_formed_short_calls_read_the_same_on_both_paths(parts, text, cuts, timed, native, declared):
    """Short calls as models send them, with any argument text: what the one-step path takes."""
    events = _calls(parts, text)
    fast, exact, _ = _both(_capture(_stream(events, ["same"] * len(events)), cuts, timed, native, declared))
    assert fast == exact


def test_short_calls_are_taken_in_one_step_and_report_what_the_exact_path_reports():
    """The path is taken (a group per call), and the findings it must leave to the exact path are
    there: J001 at the invalid fragment, J003, J006 at the re-sent fragment, J002 at the stop."""
    parts = [['{"path":"src/mod', f'ule_{i}.py","li', f'ne":{i}}}'] for i in range(30)]
    parts += [['{"a":', ' 1}', "x"], ['{"a":', " 1} ", '{"b": 2}'], ["[1", "[1, 2]"], ['{"a', '": [1'],
              ["10.0", "10"]]  # a top-level number: complete, and a shorter fragment of the same value follows
    events = _calls(parts, ["Hel", "lo"])
    whole: list[int] = []
    fast, exact, _ = _both(_capture(_stream(events, ["same"] * len(events)), [], 0, False), whole=whole)
    assert fast == exact
    assert whole[0] == 5 * 30  # start, 3 deltas and stop of each bench-like call, all in one pass
    for code in ("J001", "J003", "J006", "J002", "J004"):
        assert f'"{code}"' in fast
    assert fast.count('"J006"') == 2  # the whole array sent again, and 10 after 10.0


def test_a_subclass_that_reads_events_its_own_way_gets_no_direct_handler():
    """Bedrock unwraps each event before the Anthropic rules read it: neither fast path may skip that."""
    from inspector.providers.bedrock_anthropic.stream import BedrockAnthropic
    from inspector.session.session import Session

    s = Session(dialect_name="bedrock-anthropic")
    dialect = s.dialect
    assert isinstance(dialect, BedrockAnthropic)
    dialect.A012_missing_message_start("message_start")
    assert not dialect.direct
    assert dialect.delta_of(_delta(0, "input_json_delta", "{")) is None


def test_the_timing_rules_see_every_event_of_a_group():
    """Keep-alives only for 12 s while a block is open, then its deltas in one chunk: T002 at the first
    of them; the next keep-alive-only spell is timed from the group's events (t=12), not from before.
    No gap between chunks reaches the 10 s stall (T001 pending would keep the group on the exact path)."""
    head = _stream([_start(0, "tool_use", "toolu_1", {})], ["same"])
    ping = _sse([{"type": "ping"}], ["same"])
    group = _sse([_delta(0, "input_json_delta", f) for f in ('{"a', '": ', "1}")], ["same"] * 3)
    tail = _sse([{"type": "content_block_stop", "index": 0}, {"type": "message_delta",
                                                               "delta": {"stop_reason": "tool_use"}},
                 {"type": "message_stop"}], ["same"] * 3)
    chunks = [Chunk(t, data) for t, data in ((0.0, head), (6.0, ping), (12.0, group), (18.0, ping), (26.0, tail))]
    fast, exact, taken = _both(Capture(chunks=chunks, end=End(26.0, "eof")), runs=False)
    assert taken == 1 and fast == exact
    assert fast.count("only keepalives") == 2 and "t=12.0 \\u2192 26.0 s" in fast  # JSON-escaped arrow


def test_a_stall_before_a_whole_block_is_reported_at_its_start():
    """A block's start, deltas and stop arrive in one chunk 15 s after the message began: T001 (the
    silence) is reported at the start event, which the one-pass path takes with the stall pending."""
    head = _stream([], [])
    call = _sse([_start(0, "tool_use", "toolu_1", {}), *(_delta(0, "input_json_delta", f) for f in ('{"a', '": 1}')),
                 {"type": "content_block_stop", "index": 0}, {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
                 {"type": "message_stop"}], ["same"] * 6)
    whole: list[int] = []
    fast, exact, _ = _both(Capture(chunks=[Chunk(0.0, head), Chunk(15.0, call)], end=End(15.0, "eof")), runs=False,
                           whole=whole)
    assert 4 in whole and fast == exact
    assert '"T001"' in fast and '"event": 1' in fast


def test_an_event_log_with_groups_of_deltas_reads_as_its_records():
    """Untimed groups of deltas are kept as ``EventSpan`` in the log (each record made when asked): every
    way of reading the log (index, negative index, slice, iteration, ``times``, ``names`` over any
    range) gives what the records themselves say, with named and unnamed deltas mixed in one group."""
    from inspector.model.events import EventSpan

    parts = [['{"path":"src/mod', f'ule_{i}.py","li', f'ne":{i}}}'] for i in range(4)]
    events = _calls(parts)
    # Two blocks open at once: a group of block 4 ends at block 5's delta, parsed there; block 5's two
    # deltas then make a group of their own (the span must not keep that parsed value).
    events[-2:-2] = [_start(4, "tool_use", "toolu_4", {}), _start(5, "tool_use", "toolu_5", {}),
                     _delta(4, "input_json_delta", "{}"), _delta(5, "input_json_delta", '{"a":'),
                     _delta(5, "input_json_delta", "1}"), {"type": "content_block_stop", "index": 4},
                     {"type": "content_block_stop", "index": 5}]
    names = ["same", "same", "none", "same", "none", "same"]
    s = run_capture(_capture(_stream(events, names * len(events)), [], 0, False))
    log = s.events
    spans = [x for x in log._items if x.__class__ is EventSpan]
    assert spans and all(f.payload is None for x in spans for f in x.frames)  # the log keeps text, not parsed values
    records = list(log)
    n = len(records)
    assert [e.index for e in records] == list(range(n))
    assert {(e.name, e.named) for e in records if e.name == "content_block_delta"} == {
        ("content_block_delta", True), ("content_block_delta", False)}
    for k in range(n):
        for got in (log[k], log[k - n]):
            assert (got.index, got.name, got.data, got.line, got.t, got.named, got.block, got.response, got.offset) == (
                records[k].index, records[k].name, records[k].data, records[k].line, records[k].t, records[k].named,
                records[k].block, records[k].response, records[k].offset)
        assert got.payload == orjson.loads(got.data)
    assert log.times() == [e.t for e in records]
    for a in range(n + 1):
        for b in range(a, n + 1):
            assert log.names(a, b) == {(e.name, e.named) for e in records[a:b]}, (a, b)
            assert [e.index for e in log[a:b]] == list(range(a, b))


def _one_chunk(events: list, declared: bool = False) -> tuple[str, str, int]:
    """``events`` after ``message_start`` in one untimed chunk, read both ways (fingerprints), and how
    many starts the dialect took whole (``open_call`` opened a block, or ``take_calls`` took its call)."""
    opened = []
    open_call, take_call = AnthropicMessages.open_call, Session.take_call

    def counting(self, p, at):
        block = open_call(self, p, at)
        opened.append(block is not None)
        return block

    def counting_calls(self, *args):
        block = take_call(self, *args)
        opened.append(block is not None)
        return block

    with pytest.MonkeyPatch.context() as m:
        m.setattr(AnthropicMessages, "open_call", counting)
        m.setattr(Session, "take_call", counting_calls)
        fast, exact, _ = _both(_capture(_stream(events, ["same"] * len(events)), [], 0, False, declared))
    return fast, exact, sum(opened)


def _whole_call(index: int, ident: object = "toolu_1", name: object = "read_file", parts=('{"a', '": 1}')) -> list:
    return [_start(index, "tool_use", ident, {}, name), *(_delta(index, "input_json_delta", f) for f in parts),
            {"type": "content_block_stop", "index": index}]


@pytest.mark.parametrize(("events", "code", "whole"), [
    (_whole_call(0, "bad id!"), "A011", 0),
    (_whole_call(0, "t\u00f6"), "A011", 0),  # an identifier, not ASCII: outside ^[a-zA-Z0-9_-]+$
    (_whole_call(0, "t-1"), None, 0),  # matches the pattern without being an identifier: judged, nothing found
    (_whole_call(0, name=""), "A011", 0),
    (_whole_call(0, name="x" * 201), "A011", 0),
    (_whole_call(0, name="x" * 200), None, 1),
    (_whole_call(0, name="x"), None, 1),
    (_whole_call(0)[:-1] + _whole_call(1), "A006", 1),  # block 0 still open when block 1 starts
    (_whole_call(1), "A004", 0),
    (_whole_call(0) + _whole_call(0), "A003", 1),
    (_whole_call(0, parts=('{"a": ' + "[" * 200, "]" * 200 + "}")), "S019", 1),  # deep: judged at the stop
    (_whole_call(0, parts=('{"a": 1',)), "J002", 1),
    (_whole_call(0, parts=("[1]",)), "J004", 1),
    (_whole_call(0, parts=()), None, 1),  # no deltas: the input is {}
    # deltas right after a start taken whole that are not its plain argument deltas: judged one by one
    (_whole_call(0) + [_start(1, "tool_use", "toolu_1", {}), _delta(True, "input_json_delta", "{}"),
                       {"type": "content_block_stop", "index": 1}], "A001", 2),  # index True is not 1
    ([_start(0, "tool_use", "toolu_1", {}), _delta(0, "text_delta", "hi"), {"type": "content_block_stop", "index": 0}],
     "A002", 1),
    ([_start(0, "tool_use", "toolu_1", {}), _delta(0, "input_json_delta", '{"a": "'), _delta(0, "input_json_delta", None),
      _delta(0, "input_json_delta", 7), _delta(0, "input_json_delta", '"}'), {"type": "content_block_stop", "index": 0}],
     None, 1),  # a fragment that is not a string counts as ""
    ([_start(0, "tool_use", "toolu_1", {}), {"type": "content_block_delta", "index": 0, "delta": "x"},
      {"type": "content_block_stop", "index": 0}], "S008", 1),  # a delta that is not an object
    ([_start(0, "tool_use", "toolu_1", {}), {**_delta(0, "input_json_delta", "{}"), "error": {"type": "x"}},
      {"type": "content_block_stop", "index": 0}], None, 1),
    # the second block's stop names block 0 (stopped already): A005, block 1 left open (J005)
    (_whole_call(0) + _whole_call(1)[:-1] + [{"type": "content_block_stop", "index": 0}], "A005", 2),
])
def test_a_block_taken_whole_reports_what_the_exact_path_reports(events, code, whole):
    """The dialect takes a start whole only where its rules (A003, A004, A006, A011) are silent, and
    the stop only where the J rules, S019 and its own checks are; everything else is judged as usual."""
    fast, exact, opened = _one_chunk(events)
    assert fast == exact
    assert opened == whole
    if code is not None:
        assert f'"{code}"' in fast
    else:
        assert '"A011"' not in fast


def test_a_call_to_a_declared_tool_is_judged_at_its_stop():
    """With a request declaring tools the V rules judge each call at its stop: a call missing a required
    parameter gets V002 there, on both paths."""
    fast, exact, opened = _one_chunk(_whole_call(0, parts=('{"b": 1}',)), declared=True)
    assert fast == exact and opened == 1
    assert '"V002"' in fast


def _two_calls_read_by(dialect: type) -> object:
    """The session of two whole calls, untimed, read by ``dialect`` (a subclass of Anthropic's) in place of
    Anthropic's own."""
    def make(name, writer):
        return dialect(writer) if name == "anthropic-messages" else detect.dialect_class(name)(writer)

    events = _whole_call(0) + _whole_call(1)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(detect, "make", make)
        return run_capture(_capture(_stream(events, ["same"] * len(events)), [], 0, False))


def test_a_subclass_with_its_own_start_handler_sees_every_start():
    """A dialect that handles starts its own way: no start is taken whole past it."""
    seen = []

    class OwnStart(AnthropicMessages):
        def _block_start(self, p):
            seen.append(p.get("index"))
            super()._block_start(p)

    s = _two_calls_read_by(OwnStart)
    assert seen == [0, 1] and not s.dialect.whole_calls
    assert [b.closed for b in s.blocks] == [True, True]


def test_a_subclass_is_asked_for_each_start_it_refuses():
    """A dialect that takes no start whole (its own ``open_call``): the per-call pass, which stands for the
    base class's hooks, takes none of its calls either; it is asked for every start."""
    seen = []

    class OwnOpen(AnthropicMessages):
        def open_call(self, p, at):
            seen.append(p.get("index"))
            return None

    s = _two_calls_read_by(OwnOpen)
    assert seen == [0, 1] and s.dialect.whole_calls
    assert [(b.content, b.closed) for b in s.blocks] == [('{"a": 1}', True)] * 2


def test_an_event_log_holds_a_whole_block_as_one_span():
    """An untimed short call is one ``EventSpan``: its start, deltas and stop, each record named by its type."""
    from inspector.model.events import EventSpan

    events = _whole_call(0, parts=("{", "}")) + _whole_call(1, parts=())
    s = run_capture(_capture(_stream(events, ["same", "none"] * len(events)), [], 0, False))
    items = s.events._items
    spans = [x for x in items if x.__class__ is EventSpan]
    assert len(set(map(id, spans))) == 2 and all(f.payload is None for x in spans for f in x.frames)
    assert [e.name for e in s.events][1:] == ["content_block_start", "content_block_delta", "content_block_delta",
                                              "content_block_stop", "content_block_start", "content_block_stop",
                                              "message_delta", "message_stop"][:len(s.events) - 1]
    assert [e.block for e in s.events][1:7] == [0, 0, 0, 0, 1, 1]
    assert s.events.names(1, 4) == {("content_block_start", True), ("content_block_delta", False),
                                    ("content_block_delta", True)}


@pytest.mark.parametrize("odd", [
    _whole_call(3, "bad id!"), _whole_call(3, name=""), _whole_call(4), _whole_call(2),  # A011, A004, A003
    _whole_call(3, parts=()), _whole_call(3, parts=('{"a": 1',)), _whole_call(3, parts=("[1]",)),  # J002, J004
    _whole_call(3, parts=('{"a": ' + "[" * 200, "]" * 200 + "}")),  # deep: S019 at the stop
    _whole_call(3, parts=('{"a":', ' 1}', "x")), _whole_call(3, parts=('{"a": 1}', '{"a": 1}')),  # J003, J006
    _whole_call(3)[:-1],  # no stop: block 4 starts while block 3 is open (A006)
    _whole_call(3, parts=('{"a": "', *("x",) * 200, '"}')),  # a long call: runs of deltas take it
    [*_whole_call(3)[:-1], {"type": "content_block_stop", "index": 2}],  # a stop for a stopped block (A005)
    [*_whole_call(3)[:2], {"type": "ping"}, *_whole_call(3)[2:]],
    [*_whole_call(3)[:2], {**_delta(3, "input_json_delta", "}"), "error": {"type": "x"}}, *_whole_call(3)[3:]],
    [_start(3, "tool_use", "toolu_3", {"a": 1}), *_whole_call(3)[1:]],  # A010
    [_start(3, "text", "x", None), _delta(3, "text_delta", "hi"), {"type": "content_block_stop", "index": 3}],
    # the deltas' or the stop's text neither as Anthropic writes it nor parsed by the pass (a key it does not expect,
    # a delta that is no JSON, another index, a stop that is no JSON): left to the usual way
    [_start(3, "tool_use", "toolu_3", {}), '{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta",'
     '"partial_json":"{\\"a","x":"y"}}', _delta(3, "input_json_delta", '":1}'), {"type": "content_block_stop", "index": 3}],
    [*_whole_call(3)[:2], '{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"}"}}x',
     *_whole_call(3)[2:]],
    [*_whole_call(3)[:2], {"type": "content_block_delta", "index": 30, "delta": {"type": "input_json_delta",
                                                                                 "partial_json": '": 1}'}},
     *_whole_call(3)[3:]],
    [*_whole_call(3)[:-1], '{"type":"content_block_stop","index":3}x'],
    ['{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_3","name":"a\tb",'
     '"input":{}}}', *_whole_call(3)[1:]],  # a raw control character: no JSON
    ['{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_3","name":"a"b",'
     '"input":{}}}', *_whole_call(3)[1:]],
    ['{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_3","name":"",'
     '"input":{}}}', *_whole_call(3)[1:]],  # A011
    ['{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_3","name":"read_file",'
     '"input":{}}}x', *_whole_call(3)[1:]],
])
@pytest.mark.parametrize("declared", [False, True])
def test_a_call_the_pass_cannot_take_stops_it_before_that_call(odd, declared):
    """Three short calls, one the per-call pass (``Dialect.take_calls``) must leave to the usual way, then two
    more: everything reads as on the exact path, and the pass takes the calls before the odd one in one
    go (not with tools declared: the V rules judge each call at its stop)."""
    events = [*_whole_call(0), *_whole_call(1), *_whole_call(2), *odd, *_whole_call(4), *_whole_call(5)]
    whole: list[int] = []
    fast, exact, _ = _both(_capture(_stream(events, ["same"] * len(events)), [], 0, False, declared), whole=whole)
    assert fast == exact
    assert whole[0] == 12 if not declared else whole[0] < 12  # 4 events a call


@pytest.mark.parametrize("odd", [
    [_start(3, "tool_use", "toolu_3", {}), _delta(3, "input_json_delta", '{"a": "' + 'x\\u00e9\\"' * 60 + '"}'),
     {"type": "content_block_stop", "index": 3}],  # longer than what is parsed at once: the text's head still reads it
    [*_whole_call(3)[:2], {"delta": {"partial_json": '": 1}', "type": "input_json_delta"}, "index": 3,
                           "type": "content_block_delta"}, *_whole_call(3)[3:]],
    [*_whole_call(3)[:-1], '{"type": "content_block_stop", "index": 3}'],
    [*_whole_call(3)[:-1], {"type": "content_block_stop", "index": 3, "x": [1]}],
    [_start(3, "server_tool_use", "srvtoolu_3", {}), *_whole_call(3)[1:]],
    _whole_call(3, name="r\u00e9ad \u2028x"), _whole_call(3, name='a"b\\'),  # (the second escaped)
    _whole_call(3, name="x" * 200, ident="t_" + "9" * 300),  # longer than what is parsed at once
    ['{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_3",'
     '"name":"read_file","input":{} }}', *_whole_call(3)[1:]],
])
def test_the_pass_reads_a_call_written_otherwise(odd):
    """A call whose deltas or stop are not written as Anthropic writes them, but say the same: the pass
    takes it all the same (parsed), and everything reads as on the exact path."""
    events = [*_whole_call(0), *_whole_call(1), *_whole_call(2), *odd, *_whole_call(4), *_whole_call(5)]
    whole: list[int] = []
    fast, exact, _ = _both(_capture(_stream(events, ["same"] * len(events)), [], 0, False), whole=whole)
    assert fast == exact
    assert whole[0] == 12 + len(odd) + 8
