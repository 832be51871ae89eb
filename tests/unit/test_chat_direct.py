"""The Chat dialect's direct ways for the common chunks (``OpenAIChat.on_event``: a call's opening and
its continuations; ``OpenAIChat.delta_of``: consecutive continuations taken as one group by
``inspector.session.deltas``) give exactly what its general way (``OpenAIChat.on_chunk``) gives, on
hostile streams.

Every generated stream is run twice: as it comes, and with ``on_event`` replaced by ``on_chunk`` and
no groups (every chunk alone, through every field). The JSON and text reports, every block's content, fragment
times and status, and the whole event log must be equal. The streams mix the common shape with
what could make a shortcut differ: tool-call entries without ``index`` or with a negative, boolean,
float or string one, index jumps, ids and names repeated (or changed) on later fragments, several
choices and several entries per chunk, arguments that are no string or ``null``, ``finish_reason``
on a chunk that carries arguments, usage-only chunks, ``null`` fields, extra keys, error and
legacy chunks, ``[DONE]`` in the middle, escapes and non-ASCII text cut anywhere by the chunking,
and arguments holding a key-shaped string. Runs of deltas are taken once with the framing's run
search on and once with it off (so that the repeated continuation chunks reach ``on_event`` one
by one).
"""
from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.feeds.run import run_capture
from inspector.framing.sse import SSEDecoder
from inspector.model.capture import Capture, Chunk, End
from inspector.providers.base import Dialect
from inspector.providers.openai_chat.stream import OpenAIChat
from inspector.report.json import report_dict
from inspector.report.text import render as render_text

ARGS = st.one_of(
    st.sampled_from(['', '{', '"path":"src/mod', 'ule_1.py","li', 'ne":1}', '{"index": 1}', '"function":{"arguments":',
                     '\\u00e9', '\\ud83d', '\\ude00', 'é', '✓"', '\\"', '}', ']', '{"a": [1, 2]}', 'tru', 'e', ' ']),
    st.text(alphabet='ab"{}[]:,\\ é0', max_size=5))
"""Argument fragments: JSON pieces, escapes (a surrogate pair cut in two), non-ASCII, key-shaped strings."""

TEXT = st.one_of(ARGS, st.sampled_from(["Hello there, how are you?", "x" * 9]))
"""Content: fragments, and a sentence long enough to be restated (C019)."""
MISSING = object()
"""A key left out of the object."""
INDEX = st.one_of(*[st.integers(0, 2)] * 6, st.sampled_from([3, -1, True, False, 1.0, "1", None, MISSING]))
"""A tool call's ``index``: mostly one of the first three, sometimes a jump, or no valid index at all."""


def rarely(draw, odds: int = 12) -> bool:
    """True once in ``odds`` draws: a perturbation of the common shape."""
    return draw(st.integers(0, odds - 1)) == 0


def _obj(**fields) -> dict:
    return {k: v for k, v in fields.items() if v is not MISSING}


@st.composite
def continuation(draw) -> dict:
    """The common fragment ``{index, function: {arguments}}``, sometimes bent."""
    fn = {"arguments": draw(st.sampled_from([1, None, {"a": 1}, [1]])) if rarely(draw) else draw(ARGS)}
    if rarely(draw):
        fn["name"] = draw(st.sampled_from(["read_file", "lookup", "", None, "bad name<|x|>"]))
    entry = _obj(index=draw(INDEX), function=fn if not rarely(draw, 30) else draw(st.sampled_from([None, "f", {}])))
    if rarely(draw):
        entry["id"] = draw(st.sampled_from(["call_0", "call_1", "", None]))
    if rarely(draw):
        entry["type"] = "function"
    if rarely(draw, 20):
        entry["extra_content"] = {"google": {"thought_signature": "sig"}}
    return entry


@st.composite
def opening(draw) -> dict:
    """A call's first fragment: id, type, name and arguments (each sometimes missing, null or empty)."""
    def maybe(value):
        return draw(st.sampled_from([MISSING, None, ""])) if rarely(draw) else value
    fn = _obj(name=maybe(draw(st.sampled_from(["read_file", "lookup", "bad name<|x|>"]))),
              arguments=maybe(draw(ARGS)))
    return _obj(index=draw(INDEX), id=maybe(f"call_{draw(st.integers(0, 3))}"), type=maybe("function"), function=fn)


@st.composite
def delta(draw) -> object:
    """Mostly one continuation fragment; else an opening, several entries, text, or something odd."""
    kind = draw(st.integers(0, 19))
    if kind < 9:
        return {"tool_calls": [draw(continuation())]}
    if kind < 12:
        return {"tool_calls": [draw(opening())]}
    if kind == 12:
        return {"tool_calls": draw(st.lists(st.one_of(continuation(), opening(), st.sampled_from([None, 1])),
                                            max_size=3))}
    if kind < 16:
        key = draw(st.sampled_from(["content", "content", "reasoning_content", "reasoning", "refusal"]))
        return {key: draw(st.one_of(*[TEXT] * 8, st.sampled_from([None, 1, ["a"]])))}
    if kind == 16:
        return {"tool_calls": [draw(continuation())], draw(st.sampled_from(["role", "content", "foo"])): "hi"}
    if kind == 17:
        return {"content": draw(TEXT), "role": "assistant"}
    return draw(st.sampled_from([{}, {"role": "assistant"}, None, [], "delta", {"tool_calls": None},
                                 {"tool_calls": {"index": 0, "function": {"arguments": "x"}}},
                                 {"function_call": {"name": "f", "arguments": "{"}},
                                 {"audio": {"transcript": "t", "data": "AAAA"}}]))


@st.composite
def choice(draw, pos: int) -> dict:
    finish = draw(st.sampled_from(["tool_calls", "stop", "", "length", 1, MISSING])) if rarely(draw, 8) else None
    return _obj(index=draw(INDEX) if rarely(draw, 20) else pos,
                delta=MISSING if rarely(draw, 30) else draw(delta()), finish_reason=finish)


PERTURB = {
    "finish": lambda c, v: c["choices"][0].update(finish_reason=v),
    "usage": lambda c, v: c.update(usage=v),
    "error": lambda c, v: c.update(error=v),
    "type": lambda c, v: c.update(type=v),
    "object": lambda c, v: c.update(object=v),
    "id": lambda c, v: c.update(id=v),
    "index": lambda c, v: c["choices"][0]["delta"]["tool_calls"][0].update(index=v),
    "no index": lambda c, v: c["choices"][0]["delta"]["tool_calls"][0].pop("index"),
    "entry key": lambda c, v: c["choices"][0]["delta"]["tool_calls"][0].update(v),
    "function key": lambda c, v: c["choices"][0]["delta"]["tool_calls"][0]["function"].update(v),
    "arguments": lambda c, v: c["choices"][0]["delta"]["tool_calls"][0]["function"].update(arguments=v),
    "choice index": lambda c, v: c["choices"][0].update(index=v),
    "delta key": lambda c, v: c["choices"][0]["delta"].update(v),
    "two entries": lambda c, v: c["choices"][0]["delta"]["tool_calls"].append(v),
    "two choices": lambda c, v: c["choices"].append({"index": 1, "delta": {"tool_calls": [v]}, "finish_reason": None}),
}
"""One change to a common continuation chunk, and the values it may set."""
VALUES = {
    "finish": st.sampled_from(["tool_calls", "stop", "", "length", 1]),
    "usage": st.sampled_from([None, {"completion_tokens": 1}, 3]),
    "error": st.sampled_from([{"message": "boom"}, None, ""]),
    "type": st.sampled_from(["error", "chunk"]),
    "object": st.sampled_from(["text_completion", None]),
    "id": st.sampled_from(["c2", "", None]),
    "index": st.sampled_from([3, -1, True, False, 1.0, "1", None]),
    "no index": st.none(),
    "entry key": st.sampled_from([{"id": "call_0"}, {"id": "call_1"}, {"id": ""}, {"type": "function"},
                                  {"extra_content": {"google": {"thought_signature": "sig"}}}]),
    "function key": st.sampled_from([{"name": "read_file"}, {"name": ""}, {"name": None}, {"id": "x"}]),
    "arguments": st.sampled_from([1, None, {"a": 1}, [1]]),
    "choice index": st.sampled_from([1, None, True, "0"]),
    "delta key": st.sampled_from([{"role": "assistant"}, {"content": "hi"}, {"foo": 1}, {"tool_calls": None}]),
    "two entries": st.one_of(continuation(), opening()),
    "two choices": st.one_of(continuation(), opening()),
}


@st.composite
def common(draw) -> dict | tuple:
    """The common continuation chunk (one choice, one ``{index, function: {arguments}}`` entry), often with
    one change (``PERTURB``), sometimes sent as a named SSE event."""
    c = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
         "choices": [{"index": 0, "delta": {"tool_calls": [{"index": draw(st.integers(0, 2)),
                                                            "function": {"arguments": draw(ARGS)}}]},
                      "finish_reason": None}]}
    if draw(st.booleans()):
        what = draw(st.sampled_from(sorted(PERTURB)))
        PERTURB[what](c, draw(VALUES[what]))
    if rarely(draw, 20):
        return draw(st.sampled_from(["error", "message", "chunk"])), c
    return c


@st.composite
def chat_chunk(draw) -> dict | str | tuple:
    """A chunk: the common one (``common``), or one of any shape: several choices, a usage-only chunk, an
    error, a legacy ``text_completion``, another or no ``id``, a ``type``, extra keys; or ``[DONE]``."""
    if rarely(draw, 30):
        return "[DONE]"
    if draw(st.booleans()):
        return draw(common())
    c = {"id": draw(st.sampled_from(["c2", "", None])) if rarely(draw, 30) else "c1",
         "object": "text_completion" if rarely(draw, 30) else "chat.completion.chunk", "created": 1, "model": "m"}
    if rarely(draw, 25):
        return {**c, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 2}}
    c["choices"] = [draw(choice(i)) for i in range(2 if rarely(draw) else 1)]
    return c


def _body(chunks: list) -> bytes:
    """SSE: ``[DONE]``, a chunk, or ``(event name, chunk)``."""
    out = []
    for c in chunks:
        name, c = c if isinstance(c, tuple) else (None, c)
        data = c if isinstance(c, str) else orjson.dumps(c).decode()
        out.append((f"event: {name}\n" if name else "") + f"data: {data}\n\n")
    return "".join(out).encode()


def _capture(body: bytes, cuts: list[int], timed: bool) -> Capture:
    edges = sorted({0, len(body), *(c % (len(body) + 1) for c in cuts)})
    chunks = [Chunk(0.05 * i if timed else None, body[a:b]) for i, (a, b) in enumerate(zip(edges, edges[1:]))]
    return Capture(chunks=chunks, end=End(chunks[-1].t if chunks else None, "eof"))


def _fingerprint(s) -> str:
    blocks = [(b.kind, b.index, b.choice, b.id, b.name, b.content, list(b.fragment_times), b.deltas, b.last_fragment,
               b.status, b.closed, b.closed_event, b.stop_info, b.attribution, b.signature, b.extra) for b in s.blocks]
    events = [(e.index, e.name, e.data, e.line, e.t, e.named, e.keepalive, e.block, e.response, e.offset)
              for e in s.events]
    responses = [(r.index, r.ended, r.stop_reason, r.model, r.usage) for r in s.responses]
    return json.dumps([report_dict("x", s), render_text("x", s), blocks, events, s.first_content_t, responses],
                      sort_keys=True, default=repr)


def _both(cap: Capture, runs: bool) -> tuple[str, str]:
    """Fingerprints with the direct way and with the general way only (``runs``: the framing's run search on)."""
    with pytest.MonkeyPatch.context() as m:
        if not runs:
            m.setattr(SSEDecoder, "set_run_keys", lambda self, keys, noise=(): None)
        direct = _fingerprint(run_capture(cap))
        m.setattr(OpenAIChat, "on_event", OpenAIChat.on_chunk)
        m.setattr(OpenAIChat, "delta_of", Dialect.delta_of)
        m.setattr(OpenAIChat, "group_starts", frozenset())
        general = _fingerprint(run_capture(cap))
    return direct, general


HEAD = [{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
         "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks=st.lists(chat_chunk(), min_size=4, max_size=30), cuts=st.lists(st.integers(0, 10_000), max_size=4),
       timed=st.booleans(), runs=st.booleans())
def test_the_direct_way_matches_the_general_way(chunks, cuts, timed, runs):
    direct, general = _both(_capture(_body(HEAD + chunks), cuts, timed), runs)
    assert direct == general


@pytest.mark.parametrize("timed", [True, False])
def test_the_common_shape_takes_the_direct_way_and_is_judged_the_same(timed):
    """Not vacuous: on an ordinary stream only the head, the first text, the finish and ``[DONE]`` reach
    ``on_chunk``; each call's opening goes the direct way (``on_event``, not ``on_chunk``; untimed, it is
    taken with its call's deltas and reaches neither: ``OpenAIChat.open_call``); a call's argument chunks
    are taken as one group (they never reach ``on_event``) unless one of them is judged, and then each goes
    alone and is judged at its chunk (J003, J006)."""
    chunks = [*HEAD]
    for i in range(3):
        chunks.append({**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "id": f"call_{i}", "type": "function", "function": {"name": "f", "arguments": ""}}]},
            "finish_reason": None}]})
        for part in (['{"a":', ' 1}'] if i != 1 else ['{"a":', ' 1}}', '{"a": 1}}']):
            chunks.append({**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": i, "function": {"arguments": part}}]}, "finish_reason": None}]})
    chunks.append({**HEAD[0], "choices": [{"index": 0, "delta": {"content": "done"}, "finish_reason": None}]})
    chunks.append({**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    cap = _capture(_body(chunks) + b"data: [DONE]\n\n", [], timed=timed)
    general_calls, event_calls = [], []
    with pytest.MonkeyPatch.context() as m:
        on_chunk, on_event = OpenAIChat.on_chunk, OpenAIChat.on_event
        m.setattr(SSEDecoder, "set_run_keys", lambda self, keys, noise=(): None)
        m.setattr(OpenAIChat, "on_chunk", lambda self, ev: (general_calls.append(ev.index), on_chunk(self, ev))[1])
        m.setattr(OpenAIChat, "on_event", lambda self, ev: (event_calls.append(ev.index), on_event(self, ev))[1])
        on_message = OpenAIChat._on_message  # ``on_event`` for a chunk the session hands over directly
        m.setattr(OpenAIChat, "_on_message", lambda self, p: (event_calls.append(self.w.current.index),
                                                              on_message(self, p))[1])
        s = run_capture(cap)
    assert general_calls == [0, 11, 12, 13]  # the head, the text's opening, the finish, [DONE]
    # calls 0 and 2: their arguments as a group (untimed: with their openings)
    assert event_calls == ([0, 1, 4, 5, 6, 7, 8, 11, 12, 13] if timed else [0, 5, 6, 7, 11, 12, 13])
    assert [(f.code, f.event) for f in s.findings] == [("J003", 6), ("J006", 7)]
    assert [e.block for e in s.events] == [None, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 0, None]
    direct, general = _both(cap, runs=False)
    assert direct == general


def test_a_boolean_index_on_a_bare_fragment_is_no_index():
    """``{"index": true, "function": {"arguments": …}}`` is an entry without a valid index (C001), as it is
    with any other key beside it; it once went straight to call 1 (``True == 1`` as a dict key)."""
    def entry_chunk(entry):
        return {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [entry]}, "finish_reason": None}]}
    chunks = [*HEAD,
              entry_chunk({"index": 0, "id": "call_0", "type": "function", "function": {"name": "a", "arguments": ""}}),
              entry_chunk({"index": 1, "id": "call_1", "type": "function", "function": {"name": "b", "arguments": ""}}),
              entry_chunk({"index": True, "function": {"arguments": "{}"}}),
              {**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    s = run_capture(_capture(_body(chunks) + b"data: [DONE]\n\n", [], timed=False))
    c001 = [f for f in s.findings if f.code == "C001"]
    assert [f.event for f in c001] == [3] and "non-integer index True" in c001[0].message


def _enumerated() -> list:
    """Every change of ``PERTURB`` with each value ``VALUES`` lists for it (the changes whose values are
    generated chunks, two entries or two choices, are left to the generated streams above)."""
    out = []
    for what, strategy in sorted(VALUES.items()):
        values = getattr(strategy, "elements", None) or getattr(getattr(strategy, "wrapped_strategy", None),
                                                                  "elements", None)
        for value in values or ([None] if what == "no index" else []):
            out.append((what, value))
    return out


@pytest.mark.parametrize(("what", "value"), _enumerated())
@pytest.mark.parametrize("timed", [False, True])
def test_each_change_to_an_open_calls_continuation_matches(what, value, timed):
    """Every change of the common continuation chunk, on a call that is open (so the shortcut is on
    the table), between two plain continuations: the direct ways give what the general way gives."""
    opening = {"index": 0, "id": "call_0", "type": "function", "function": {"name": "f", "arguments": ""}}

    def plain(args: str) -> dict:
        return {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": args}}]}, "finish_reason": None}]}
    changed = plain('"a": ')
    PERTURB[what](changed, value)
    chunks = [*HEAD, {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [opening]}, "finish_reason": None}]},
              plain("{"), changed, plain("1}"), {**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    cap = _capture(_body(chunks) + b"data: [DONE]\n\n", [], timed)
    direct, general = _both(cap, runs=False)
    assert direct == general


def test_a_continuation_that_brings_the_first_id_goes_the_general_way():
    """The response's ``id`` comes from the first chunk that has one (it tells a new response after
    ``[DONE]``, S004): until then no chunk takes a shortcut, so a continuation that carries the first id
    sets it, and the chunk with another id after ``[DONE]`` starts a response of its own."""
    def chunk(delta, finish=None, **top):
        c = {**{k: v for k, v in HEAD[0].items() if k != "id"}, **top}
        c["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return c
    opening = {"index": 0, "id": "call_0", "type": "function", "function": {"name": "f", "arguments": ""}}
    chunks = [chunk({"role": "assistant"}), chunk({"tool_calls": [opening]}),
              chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]}),
              chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}, id="c1"),
              chunk({}, "tool_calls"), "[DONE]", chunk({"content": "again"}, id="c2"), chunk({}, "stop", id="c2")]
    cap = _capture(_body(chunks) + b"data: [DONE]\n\n", [], timed=False)
    direct, general = _both(cap, runs=False)
    assert direct == general
    assert len(run_capture(cap).responses) == 2


@pytest.mark.parametrize("name", ["error", "message", "chunk"])
def test_a_named_continuation_of_an_open_call_matches(name):
    """A plain continuation sent as a named SSE event (``error`` is an error event whatever it holds)."""
    opening = {"index": 0, "id": "call_0", "type": "function", "function": {"name": "f", "arguments": ""}}

    def plain(args: str) -> dict:
        return {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": args}}]}, "finish_reason": None}]}
    chunks = [*HEAD, {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [opening]}, "finish_reason": None}]},
              plain("{"), (name, plain('"a": 1')), plain("}"),
              {**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    direct, general = _both(_capture(_body(chunks) + b"data: [DONE]\n\n", [], timed=False), runs=False)
    assert direct == general


_OPEN = ('{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
         '{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"f","arguments":""}}]},'
         '"finish_reason":null}]}')
_CONT = ('{"id":"c1",%s"object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
         '{"tool_calls":[{"index":0,"function":{%s}}]},"finish_reason":null}]}')
_TEXT = ('{"id":"c1",%s"object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
         '{%s}, "finish_reason":null}]}')


def _raw_body(datas: list[str]) -> bytes:
    return "".join(f"data: {d}\n\n" for d in [orjson.dumps(HEAD[0]).decode(), *datas]).encode()


_FINISH = orjson.dumps({**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}).decode()
_PARTS = ['{\\"a\\":', '1,\\"b\\":', '\\"x\\"', '}']
"""A call's arguments as the JSON bodies of its four deltas (valid JSON together: the J rules stay quiet)."""
_OTHER = ['{\\"z\\":', '2', ',\\"y\\":3', '}']
"""Other bodies, also valid together: a decoy's, or a repeated key's (a shortcut that read them would be judged quiet too)."""
_HOSTILE = {
    "plain": (["", ""], ['"arguments":"%s"'] * 4),
    "a decoy key before": (['"arguments":"{",'] * 4, ['"arguments":"%s"'] * 4),
    "a decoy that varies": (['"arguments":"%o",'] * 4, ['"arguments":"%s"'] * 4),
    "a duplicate key": (["", ""], ['"arguments":"%s","arguments":"%o"'] * 4),
    "a duplicate key first": (["", ""], ['"arguments":"%o","arguments":"%s"'] * 4),
    "an escaped key": (['"arguments":"%o",'] * 4, ['"argu\\u006dents":"%s"'] * 4),
    "escapes in the body": ([""] * 4, ['"arguments":"%s"', '"arguments":"%s\\u0020"', '"arguments":"\\t%s"',
                                       '"arguments":"%s"']),
    "a body cut before a quote": ([""] * 4, ['"arguments":"%s"', '"arguments":"%s\\"', '"arguments":"%s\\',
                                             '"arguments":"%s"']),
    "another kind after": ([""] * 4, ['"arguments":"%s"', '"arguments":"%s"', '"arguments":1', '"arguments":"%s"']),
    "a second key after": ([""] * 4, ['"arguments":"%s"', '"arguments":"%s"', '"arguments":"%s","name":"g"',
                                      '"arguments":"%s"']),
}


@pytest.mark.parametrize("case", sorted(_HOSTILE))
@pytest.mark.parametrize("timed", [False, True])
def test_deltas_read_from_the_first_ones_text_match(case, timed):
    """Continuations read from the text of the group's first one (``deltas._template``/``_read_like``: the
    same text but for the string its dialect adds) give what parsing each gives, also when another key
    of that name comes first (a decoy, varying or not), a key repeats, the key is escaped, or the string
    holds escapes, a quote or a trailing backslash."""
    before, fns = _HOSTILE[case]
    datas = [_OPEN]
    for k, fn in enumerate(fns):
        fill = {"%s": _PARTS[k], "%o": _OTHER[k]}
        datas.append(_CONT % tuple("".join(fill.get(x, x) for x in _pieces(t)) for t in (before[k % len(before)], fn)))
    datas.append(_FINISH)
    cap = _capture(_raw_body(datas) + b"data: [DONE]\n\n", [], timed)
    direct, general = _both(cap, runs=False)
    assert direct == general


def _pieces(text: str) -> list[str]:
    """``text`` cut around its ``%s``/``%o`` holes."""
    import re
    return [x for x in re.split(r"(%[so])", text) if x]


@pytest.mark.parametrize("decoy", ['"content":"same",', '"content":"x",', '"content":"varies %d",',
                                   '"arguments":"varies %d",', ""])
@pytest.mark.parametrize("key", ["content", "refusal", "reasoning_content", "reasoning"])
@pytest.mark.parametrize("vary", [True, False])
def test_text_deltas_read_from_the_first_ones_text_match(decoy, key, vary):
    """The same for a channel's text (``content`` is a run key; ``refusal`` and ``reasoning`` are not, and a
    ``content`` decoy beside them must not be taken for theirs), whether the text varies or the decoy alone."""
    words = ("same", "b c", "d", "e") if vary else ("same",) * 4
    datas = [_TEXT % ("", f'"{key}":"start"')] + [_TEXT % (decoy.replace("%d", str(k)), f'"{key}":"{w}"')
                                                   for k, w in enumerate(words)]
    cap = _capture(_raw_body(datas + [_FINISH]) + b"data: [DONE]\n\n", [], False)
    direct, general = _both(cap, runs=False)
    assert direct == general


@pytest.mark.parametrize("timed", [True, False])
def test_a_calls_later_deltas_are_read_from_the_first_ones_text(monkeypatch, timed):
    """Not vacuous: on the common shape, a call's deltas after its first are read from the first one's
    text (not parsed), and the report is the general way's. Untimed, the call's opening is taken whole
    and its first delta is read from its text as well (``OpenAIChat.lead_template``)."""
    import inspector.session.deltas as deltas

    read: list[str] = []
    read_like = deltas._read_like

    def reading(items, j, *args):
        k = read_like(items, j, *args)
        read.extend(frame.data for frame in items[j:k])
        return k

    monkeypatch.setattr(deltas, "_read_like", reading)
    datas = [_OPEN, *(_CONT % ("", f'"arguments":"{p}"') for p in _PARTS), _FINISH]
    cap = _capture(_raw_body(datas) + b"data: [DONE]\n\n", [], timed)
    s = run_capture(cap)
    assert s.blocks[0].content == '{"a":1,"b":"x"}' and not s.findings
    assert read == (datas[2:5] if timed else datas[1:5])  # read from their text; not the finish
    direct, general = _both(cap, runs=False)
    assert direct == general


@pytest.mark.parametrize("case", ["another call", "a finish of the same length"])
def test_a_delta_like_the_first_but_for_more_than_its_string_is_parsed(case):
    """A continuation of the same length as the group's first but with another call's index (the head
    differs) or a ``finish_reason`` in place of ``null`` (the tail differs) is no delta of the group."""
    second = _OPEN.replace('"index":0,"id":"call_0"', '"index":1,"id":"call_1"')
    datas = [_OPEN, second] if case == "another call" else [_OPEN]
    cont = _CONT % ("", '"arguments":"%s"')
    for k, part in enumerate(_PARTS):
        data = cont.replace("%s", part)
        if k == 2:
            data = data.replace('"index":0,"function"', '"index":1,"function"') if case == "another call" \
                else data.replace('"finish_reason":null', '"finish_reason":"ab"')
        datas.append(data)
    cap = _capture(_raw_body(datas + [_FINISH]) + b"data: [DONE]\n\n", [], False)
    direct, general = _both(cap, runs=False)
    assert direct == general


@pytest.mark.parametrize("name", ["error", "message", None])
@pytest.mark.parametrize("typ", ["message", "error", None])
def test_a_plain_chunk_under_another_name_or_with_a_type_goes_the_general_way(name, typ):
    """The direct handler (``_on_message``) reads no event name: a chunk named ``error``, or one with a
    ``type`` (how a direct handler can meet an event of another name), each shaped as a call's opening
    or a continuation, is judged as the general way judges it."""
    opening = {"tool_calls": [{"index": 0, "id": "call_0", "type": "function",
                               "function": {"name": "f", "arguments": ""}}]}
    chunks: list = [*HEAD]
    for delta in (opening, {"tool_calls": [{"index": 0, "function": {"arguments": '{"a":1}'}}]}, {"content": "hi"}):
        chunk = {**HEAD[0], "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        if typ is not None:
            chunk["type"] = typ
        chunks.append((name, chunk) if name else chunk)
    chunks.append({**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    for timed in (False, True):
        direct, general = _both(_capture(_body(chunks) + b"data: [DONE]\n\n", [], timed), runs=False)
        assert direct == general


@pytest.mark.parametrize("name", ["foo", "error", "message"])
def test_a_named_delta_that_repeats_the_first_ones_text_goes_by_its_name(name):
    """A continuation repeating the group's first one but for its string, under an SSE name: named
    ``message`` it is one more delta of the group; under another name it is no delta of the group
    (judged as the general way judges an event of that name)."""
    opening = {**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_0", "type": "function", "function": {"name": "f", "arguments": ""}}]},
        "finish_reason": None}]}
    parts = [{**HEAD[0], "choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "function": {"arguments": a}}]}, "finish_reason": None}]} for a in ('{"a":', "1,", '"b":2', "}")]
    chunks = [*HEAD, opening, parts[0], parts[1], (name, parts[2]), parts[3],
              {**HEAD[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    direct, general = _both(_capture(_body(chunks) + b"data: [DONE]\n\n", [], False), runs=False)
    assert direct == general
