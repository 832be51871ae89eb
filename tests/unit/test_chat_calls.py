"""An untimed Chat call taken whole (``OpenAIChat.open_call``: its opening and its argument deltas in one
pass, the deltas read from their text by the template ``OpenAIChat.lead_template`` learnt from an earlier
call, ``inspector.providers.openai_chat.templates``) gives exactly what taking each chunk alone gives.

Every generated stream is run twice (``test_chat_direct._both``): as it comes, and with every chunk alone
through ``on_chunk``. Many calls in a row, so that later calls meet the template an earlier one taught;
their chunks bent at the text level where a template could be fooled: the index spelled ``1.0``, ``"1"``,
``true``, ``01`` or with a space, a decoy ``"index"`` or ``"arguments"`` before the real one, the keys
repeated (either one counting) or escaped, an ``obfuscation`` field that varies, keys reordered, non-string
or non-empty opening arguments, ids and names with control characters or chat-template tokens, a second
choice whose calls interleave, index gaps, a finish or ``[DONE]`` between calls, and argument text cut
anywhere (escapes and key-shaped strings included).
"""
from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.feeds.run import run_capture
from inspector.session import deltas
from inspector.providers.openai_chat import templates
from inspector.providers.openai_chat.templates import PROBE_INDEX
from inspector.providers.openai_chat.stream import OpenAIChat
from tests.unit.test_chat_direct import ARGS, HEAD, _both, _capture

TOP = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[%s]}'
CHOICE = '{"index":%d,"delta":%s,"finish_reason":null}'
OPENING = '{"tool_calls":[{"index":%d,"id":"%s","type":"function","function":{"name":"%s","arguments":""}}]}'
"""A call's opening (its ``"type":"function"`` sometimes rewritten, its ``arguments`` too)."""
CONTINUATION = '{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}'
FINISH = TOP % ('{"index":0,"delta":{},"finish_reason":"tool_calls"}',)


def _entry(spell):
    """A bend of the call's entry: its ``"index":i,`` written ``spell(i)``."""
    return lambda d, i: d.replace(f'"tool_calls":[{{"index":{i},', '"tool_calls":[{' + spell(i) + ",")


BENDS = {
    "none": lambda d, i: d,
    "index float": _entry(lambda i: f'"index":{i}.0'),
    "index string": _entry(lambda i: f'"index":"{i}"'),
    "index bool": _entry(lambda i: '"index":true'),
    "index exponent": _entry(lambda i: f'"index":{i}e0'),
    "index leading zero": _entry(lambda i: f'"index":0{i}'),
    "index spaced": _entry(lambda i: f'"index": {i}'),
    "index negative": _entry(lambda i: f'"index":-{i}'),
    "index twice, first counts not": _entry(lambda i: f'"index":{i},"index":{i + 1}'),
    "index twice, last counts": _entry(lambda i: f'"index":{i + 1},"index":{i}'),
    "the probe's number counts": _entry(lambda i: f'"index":{i},"index":{PROBE_INDEX}'),
    "an id too": _entry(lambda i: f'"index":{i},"id":"call_{i}"'),
    "a signature too": _entry(lambda i: f'"index":{i},"extra_content":{{"google":{{"thought_signature":"s"}}}}'),
    "decoy index": lambda d, i: d.replace('"model":"m"', f'"model":"m","x":{{"index":{i}}}'),
    "decoy arguments": lambda d, i: d.replace('"model":"m"', '"model":"m","y":{"arguments":"{"}'),
    "decoy arguments after": lambda d, i: d.replace('"finish_reason":null', '"finish_reason":null,"y":{"arguments":"  "}'),
    "arguments twice": lambda d, i: d.replace('{"arguments":', '{"arguments":"zz","arguments":'),
    "arguments twice, last counts not": lambda d, i: d.replace('"}}]}', '","arguments":"q"}}]}'),
    "escaped key": lambda d, i: d.replace('{"arguments":', '{"argu\\u006dents":'),
    "obfuscation": lambda d, i: d[:-1] + f',"obfuscation":"{"ab"[i % 2] * (i % 3)}"}}',
    "padding": lambda d, i: d[:-1] + ',"obfuscation":"' + PADS[len(d) % len(PADS)] + '"}',
    "padding no JSON": lambda d, i: d[:-1] + ',"obfuscation":"a\\x"}',
    "padding twice": lambda d, i: d[:-1] + ',"obfuscation":"' + PADS[len(d) % len(PADS)] + '","obfuscation":"b"}',
    "padding twice, last counts": lambda d, i: d[:-1] + ',"obfuscation":"b","obfuscation":"' + PADS[len(d) % 3] + '"}',
    "padding in the choice": lambda d, i: d.replace('"finish_reason":null', '"obfuscation":"zz","finish_reason":null'),
    "padding first": lambda d, i: '{"obfuscation":"' + PADS[len(d) % len(PADS)] + '",' + d[1:],
    "padding then usage": lambda d, i: d[:-1] + ',"obfuscation":"x","usage":{"total_tokens":1}}',
    "usage then padding": lambda d, i: d[:-1] + ',"usage":{"total_tokens":1},"obfuscation":"x"}',
    "finish then padding": lambda d, i: d.replace('"finish_reason":null', '"finish_reason":"ab"')[:-1]
    + ',"obfuscation":"x"}',
    "the next call's, padded": lambda d, i: _entry(lambda k: f'"index":{k + 1}')(d, i)[:-1] + ',"obfuscation":"x"}',
    "reordered": lambda d, i: d.replace('"id":"c1","object":"chat.completion.chunk",',
                                        '"object":"chat.completion.chunk","id":"c1",'),
    "finish": lambda d, i: d.replace('"finish_reason":null', '"finish_reason":"tool_calls"'),
    "usage": lambda d, i: d[:-1] + ',"usage":{"total_tokens":1}}',
    "a name too": lambda d, i: d.replace('{"arguments":', '{"name":"f","arguments":'),
    "choice 1": lambda d, i: d.replace('[{"index":0,"delta"', '[{"index":1,"delta"'),
}
"""Text-level changes of a chunk (``d``) of the call at index ``i``."""
PADS = ["", "a", "xyz", 'q\\"q', "\\u0041", "\\\\", "é"]
"""OpenAI's ``obfuscation`` padding, as JSON string bodies (escapes, a quote, non-ASCII): it varies by chunk."""
NAMES = st.sampled_from(["read_file"] * 8 + ["a\\u0000b", "a\\nb", "<|call|>", "", "x" * 129, "r\\u00e9ad"])
IDS = st.sampled_from([f"call_{k}" for k in range(4)] * 3 + ["", "a\\u0001b"])


@st.composite
def a_call(draw, index: int) -> list[str]:
    """A call's opening and its continuations, as text (``index``: its wire index, sometimes off)."""
    idx = index if draw(st.integers(0, 9)) else draw(st.sampled_from([index + 1, max(index - 1, 0), 7]))
    opening = OPENING % (idx, draw(IDS), draw(NAMES))
    if not draw(st.integers(0, 11)):
        opening = opening.replace('"arguments":""', '"arguments":' + draw(st.sampled_from(['"{"', "1", "null"])))
    if not draw(st.integers(0, 11)):
        opening = opening.replace('"type":"function"', '"type":' + draw(st.sampled_from(['""', "null", "1", '"x"'])))
    if not draw(st.integers(0, 11)):
        opening = opening.replace('"arguments":""', '"arguments":"","id":"f1"')
    chunks = [TOP % (CHOICE % (0, opening))]
    fragments = draw(st.lists(ARGS, min_size=0, max_size=5))
    for fragment in fragments:
        body = orjson.dumps(fragment).decode() if draw(st.integers(0, 15)) else draw(st.sampled_from(["1", "null"]))
        chunks.append(TOP % (CHOICE % (0, CONTINUATION % (idx, body))))
    if draw(st.integers(0, 2)) == 0:  # every chunk of the call bent alike (a template may be learnt from them)
        bend = BENDS[draw(st.sampled_from(sorted(BENDS)))]
        chunks = [bend(c, idx) for c in chunks]
    if draw(st.integers(0, 2)) == 0:  # one chunk bent
        k = draw(st.integers(0, len(chunks) - 1))
        chunks[k] = BENDS[draw(st.sampled_from(sorted(BENDS)))](chunks[k], idx)
    return chunks


@st.composite
def calls(draw) -> list[str]:
    """Several calls in a row (each the next index of its choice, mostly), now and then something between."""
    out = [orjson.dumps(HEAD[0]).decode()]
    if draw(st.integers(0, 9)) == 0:  # a standalone signature before any call: the first call's (C010)
        out.append(TOP % (CHOICE % (0, '{"tool_calls":[{"index":0,"extra_content":{"google":{"thought_signature":"s"}}}]}')))
    for index in range(draw(st.integers(1, 6))):
        out += draw(a_call(index))
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(["[DONE]", TOP % (CHOICE % (0, '{"content":"hi"}')), FINISH])))
    out.append(FINISH)
    return out


def _sse(datas: list[str]) -> bytes:
    return "".join(f"data: {d}\n\n" for d in datas).encode() + b"data: [DONE]\n\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(datas=calls(), cuts=st.lists(st.integers(0, 20_000), max_size=3), runs=st.booleans())
def test_calls_taken_whole_match_each_chunk_alone(datas, cuts, runs):
    direct, general = _both(_capture(_sse(datas), cuts, False), runs)
    assert direct == general


WHERE = {"its opening": [0], "its first delta": [1], "its second delta": [2], "its last delta": [3],
         "every delta": [1, 2, 3], "every chunk": [0, 1, 2, 3]}


def _three_calls(bent: int, bend: str, where: str, padded: bool = False) -> list[str]:
    """Three calls whose deltas bring ``" "``, ``"\\n"`` and ``"{}"`` (a delta read with another string, a
    decoy's two spaces, is still valid JSON and no J006: the J rules would not stop it), call ``bent`` bent
    at ``where``; ``padded``: every other delta with its own ``obfuscation`` padding."""
    datas = [orjson.dumps(HEAD[0]).decode()]
    for index in range(3):
        chunks = [TOP % (CHOICE % (0, OPENING % (index, f"call_{index}", "read_file")))]
        chunks += [TOP % (CHOICE % (0, CONTINUATION % (index, orjson.dumps(p).decode()))) for p in (" ", "\n", "{}")]
        for k in range(len(chunks)):
            if index == bent and k in WHERE[where]:
                chunks[k] = BENDS[bend](chunks[k], index)
            elif padded and k:
                chunks[k] = chunks[k][:-1] + f',"obfuscation":"{PADS[(3 * index + k) % len(PADS)]}"}}'
        datas += chunks
    return [*datas, FINISH]


@pytest.mark.parametrize("bend", sorted(BENDS))
@pytest.mark.parametrize("where", sorted(WHERE))
@pytest.mark.parametrize("bent", [0, 1])
@pytest.mark.parametrize("padded", [False, True])
def test_each_bend_of_a_call_matches(bend, where, bent, padded):
    """Call 0 teaches the template, calls 1 and 2 use it; chunks of call 0 or 1 are bent: what the template
    cannot prove goes the exact way, and the report is the same. Padded: the others carry OpenAI's
    ``obfuscation`` padding (the template has a slot for it)."""
    direct, general = _both(_capture(_sse(_three_calls(bent, bend, where, padded)), [], False), runs=False)
    assert direct == general


def test_a_delta_of_another_choice_teaches_no_template():
    """A call of choice 0 opened while choice 1 has a call at the same index, and the next chunk a delta of
    that other call: the template is learnt for the choice it proves, not the call just opened."""
    def chunk(choice: int, delta: str) -> str:
        return TOP % (CHOICE % (choice, delta))
    datas = [orjson.dumps(HEAD[0]).decode(), chunk(1, OPENING % (0, "call_a", "read_file")),
             chunk(0, OPENING % (0, "call_b", "read_file"))]
    datas += [chunk(c, CONTINUATION % (0, p)) for c, p in ((1, '" "'), (1, '"\\n"'), (0, '" "'), (0, '"\\n"'))]
    datas.append(FINISH)
    direct, general = _both(_capture(_sse(datas), [], False), runs=False)
    assert direct == general


@pytest.mark.parametrize("padded", [False, True])
def test_later_calls_are_read_from_the_template_an_earlier_one_taught(monkeypatch, padded):
    """Not vacuous: on the common shape the template is learnt once, and every call's deltas, its first
    included, are read from their text (none parsed); its openings never reach ``on_event``. The same
    when every chunk carries its own ``obfuscation`` padding."""
    learnt: list[int] = []
    learn = templates.learn
    monkeypatch.setattr(templates, "learn", lambda *a: (learnt.append(a[3]), learn(*a))[1])
    parsed: list[object] = []
    loads = orjson.loads
    datas = [orjson.dumps(HEAD[0]).decode()]
    deltas_text = []
    for index in range(4):
        datas.append(TOP % (CHOICE % (0, OPENING % (index, f"call_{index}", "read_file"))))
        deltas_text += [TOP % (CHOICE % (0, CONTINUATION % (index, orjson.dumps(p).decode()))) for p in ('{"a":', "1}")]
        if padded:  # each its own padding
            deltas_text[-2:] = [d[:-1] + f',"obfuscation":"{PADS[(2 * index + k) % len(PADS)]}"}}'
                                for k, d in enumerate(deltas_text[-2:])]
        datas += deltas_text[-2:]
    datas.append(FINISH)
    cap = _capture(_sse(datas), [], False)
    monkeypatch.setattr(deltas, "loads", lambda text: (parsed.append(text), loads(text))[1])
    direct: list[int] = []
    on_message = OpenAIChat._on_message
    monkeypatch.setattr(OpenAIChat, "_on_message", lambda self, p: (direct.append(self.w.current.index),
                                                                    on_message(self, p))[1])
    s = run_capture(cap)
    assert learnt == [0]
    assert [b.content for b in s.blocks] == ['{"a":1}'] * 4 and not s.findings
    assert not set(parsed) & set(deltas_text)  # every delta read from its text
    assert direct == [len(datas) - 1]  # the finish alone: no opening, no delta reached the handler
