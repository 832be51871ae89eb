"""``check --format json`` writes its blocks column by column (``inspector.report.jsonblocks``):
the report must be byte for byte what ``orjson.dumps(report_dict(...))`` gives, on hostile blocks
too (control characters, lone surrogates, huge numbers, deep or non-canonical JSON, the joining
character itself, odd types), and the shortcut must really be taken where it applies."""
from __future__ import annotations

from types import SimpleNamespace

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.capture.redact import remember_secret
from inspector.model.blocks import Block
from inspector.model.display import json_safe
from inspector.model.jsonprogress import JsonProgress
from inspector.report import json as json_report
from inspector.report.jsonblocks import _each_input, blocks_json
from tests.helpers import check_bytes, sse
from tests.unit.test_dialect_anthropic import MSG_START, STOP, args, reason, start, stop

DEEP = "[" * 201 + "]" * 201
"""Nested one level deeper than ``jsondepth.MAX_DEPTH``: no parsed input."""

ARGUMENTS = ['{"path":"a.py","line":0}', '{ "path" : "a.py" }', '{"a":"\\u00e9"}', '{"a":"\\/"}', '{"a":"x\\ny"}',
             '{"n":123456789012345678901234567890}', '{"n":18446744073709551615}', '{"n":-9223372036854775809}',
             '{"n":-0}', '{"n":1.0e5}', '{"n":1.50}', '{"n":1E400}', '{"a":1,"a":2}', DEEP, "[" * 199 + "]" * 199,
             '{"n":NaN}', '{"n":"NaN"}', '{"a":"\\ud800"}', '{"a":"\x7f"}', '{"a":"\u2028\u202e\U0001f600"}', "",
             "  ", "[]", "{}", "1", '"s"', '{"a":', "{} x", '{"a":"b","c":[1,2,{"d":null}]}', '{"k":"Bearer"}',
             '{"a":"\\u0000"}', '{"a":"\\"q\\""}', "[1,2,3]", '{"f":0.1,"g":1e-7,"h":1e16}']
"""Complete, partial and invalid arguments; canonical JSON and JSON that orjson writes back otherwise."""

WORDS = ["read_file", "tool_use", "toolu_01", "a,b", 'q"uote', "back\\slash", "\x1b[31m", "\x7f", "\u202e",
         "é", "", "sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6", "Bearer abcdefghijklmnopqrstu", "x" * 300]
"""Names and ids: plain, with JSON specials, control and bidi characters, the joining character,
key shapes (the report must then scrub: the shortcut steps aside)."""


def old_render(path: str, s) -> str:
    """The report as ``render`` wrote it before the shortcut."""
    return json_safe(orjson.dumps(json_report.report_dict(path, s)).decode())


def same_report(path: str, s) -> str:
    """``render``'s report, asserted equal to ``old_render``'s (or raising what it raises)."""
    try:
        expected = old_render(path, s)
    except Exception as e:  # noqa: BLE001 - whatever the old way raised, the new one must raise too
        with pytest.raises(type(e)):
            json_report.render(path, s)
        return ""
    got = json_report.render(path, s)
    assert got == expected
    return got


def calls(*calls: tuple[str, str, list[str]], text: str | None = None) -> bytes:
    """An Anthropic stream: an optional text block, then one tool block per ``(id, name, pieces)``."""
    events: list = [MSG_START]
    i = 0
    if text is not None:
        events += [start(0), {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
                   stop(0)]
        i = 1
    for tid, name, pieces in calls:
        events += [start(i, "tool_use", id=tid, name=name), *(args(i, p) for p in pieces), stop(i)]
        i += 1
    return sse(*events, reason("tool_use"), STOP)


@pytest.mark.parametrize("arguments", ARGUMENTS)
def test_each_kind_of_arguments_gives_the_old_report(arguments):
    raw = calls(("toolu_01", "read_file", [arguments[:3], arguments[3:]]), ("toolu_02", "read_file", ['{"x":1}']))
    same_report("x", check_bytes(raw))


def test_a_run_of_clean_calls_takes_the_shortcut():
    """The common shape (5 000 short calls, nothing to scrub) must not fall back to ``report_dict``."""
    raw = calls(*((f"toolu_{i:03}", "read_file", ['{"path":"', f'm{i}.py","line":{i}}}']) for i in range(50)))
    s = check_bytes(raw)
    assert blocks_json(s.blocks) is not None
    assert orjson.loads(same_report("x", s))["blocks"][7]["input"] == {"path": "m7.py", "line": 7}


def test_big_blocks_are_left_to_report_dict():
    """The columns cost a few passes over each content character: one big call is cheaper as a dict."""
    big = '{"a":"' + "x" * 5000 + '"}'
    s = check_bytes(calls(("toolu_1", "f", [big[:9], big[9:]]), ("toolu_2", "f", ['{"b":1}'])))
    assert blocks_json(s.blocks) is None
    same_report("x", s)


def test_a_mixed_report_takes_the_shortcut():
    s = check_bytes(calls(("toolu_a", "read_file", ['{"a":1}']), ("toolu_b", "write", ["{ }"]),
                          ("toolu_c", "x", ['{"a":']), text="Hello, world"))
    assert blocks_json(s.blocks) is not None
    same_report("x", s)


@pytest.mark.parametrize("word", WORDS)
def test_hostile_names_and_ids_give_the_old_report(word):
    s = check_bytes(calls((word or "toolu_1", word, ['{"a":1}']), ("toolu_2", "read_file", ['{"a":2}']),
                          text=word))
    same_report("x", s)


def test_a_key_in_the_arguments_leaves_it_to_report_dict():
    s = check_bytes(calls(("toolu_1", "f", ['{"k":"sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6"}']), ("toolu_2", "f", ["{}"])))
    assert blocks_json(s.blocks) is None
    assert "sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6" not in same_report("x", s)


def test_an_escaped_key_in_the_arguments_is_masked_in_the_input():
    key = "sk-\\u0061nt-api03-Q7w8E9r0T1y2U3i4O5p6"
    out = same_report("x", check_bytes(calls(("toolu_1", "f", ['{"k":"' + key + '"}']), ("toolu_2", "f", ["{}"]))))
    assert "Q7w8E9r0T1y2U3i4O5p6" not in out


def test_a_remembered_credential_behind_an_escape_is_masked_in_the_input():
    """The arguments text shows ``\\/`` where the parsed input holds the credential's ``/``: the
    text passes the report's secret test, the input must still be scrubbed."""
    remember_secret("zq8Remembered/Cred77")
    s = check_bytes(calls(("toolu_1", "f", ['{"k":"zq8Remembered\\/Cred77"}']), ("toolu_2", "f", ["{}"])))
    assert blocks_json(s.blocks) is not None
    out = same_report("x", s)
    assert "zq8Remembered/Cred77" not in out and "zq8Remembered\\\\/Cred77" in out


def test_names_equal_at_both_ends_but_not_between():
    s = check_bytes(calls(*((f"toolu_{i}", name, ['{"a":1}']) for i, name in enumerate(["f", "g", "h", "g", "f"]))))
    assert blocks_json(s.blocks) is not None
    assert [b["name"] for b in orjson.loads(same_report("x", s))["blocks"]] == ["f", "g", "h", "g", "f"]


def test_texts_that_are_not_one_value_each_are_parsed_one_by_one():
    """``_each_input`` trusts no count: texts joined may parse as another number of values."""
    assert _each_input(["1,2", "3"]) is None
    assert _each_input(["[1", "2]"]) is None
    assert _each_input(["1", "2.50"]) == ["1", "2.5"]


def test_invalid_utf8_in_a_capture_gives_the_old_report():
    raw = calls(("toolu_1", "read@FF@", ['{"a":"@FE@"}']), ("toolu_2", "f", ["{}"]), text="@FF@")
    same_report("x", check_bytes(raw.replace(b"@FF@", b"\xff").replace(b"@FE@", b"\xfe\xed")))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(ARGUMENTS),
                          st.integers(1, 4)), min_size=1, max_size=6),
       st.one_of(st.none(), st.sampled_from(WORDS)))
def test_any_mix_of_hostile_calls_gives_the_old_report(spec, text):
    pieces = [(tid or "t", name, [a[len(a) * j // n:len(a) * (j + 1) // n] for j in range(n)])
              for tid, name, a, n in spec]
    same_report("x", check_bytes(calls(*pieces, text=text)))


def block(**kw) -> Block:
    return Block(kw.pop("kind", "tool_use"), **kw)


def session(blocks: list[Block], responses: int = 1) -> SimpleNamespace:
    """What ``report_dict`` and ``render`` read of a session."""
    for pos, b in enumerate(blocks):
        b.pos = pos
    return SimpleNamespace(blocks=blocks, findings=[], responses=[None] * responses, dialect_name="anthropic-messages",
                           events=[], duration_s=None, ttfb_s=None, ttfc_s=None, stop_reason="tool_use")


def complete(text: str, **kw) -> Block:
    """A tool block holding ``text`` as its arguments, judged as the J rules judge them."""
    b = block(tool=True, closed=True, **kw)
    b.progress = JsonProgress()
    if text:
        b.progress.feed(text)
    b.replace(text)
    return b


ODD = [True, False, 1.0, 1, "1", "a,b", 2 ** 70, -(2 ** 63) - 1, [1], [1, 2], {"a": "b,c"}, None, 0.1234567, 1e-7,
       1e16, float("nan"), float("inf")]
"""Values a field may hold in the worst case: of another type, not JSON-able, with a comma in their JSON."""


@pytest.mark.parametrize("field", ["index", "choice", "deltas", "first_delta_s", "last_delta_s", "max_gap_s",
                                   "closed", "response"])
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_odd_values_in_any_field_give_the_old_report(field, odd):
    blocks = [complete('{"a":1}', index=i, id=f"toolu_{i}", name="f") for i in range(3)]
    setattr(blocks[1], field, odd)
    same_report("x", session(blocks, responses=2 if field == "response" else 1))
    for b in blocks:  # the same value in every block: the column is one text
        setattr(b, field, odd)
    same_report("x", session(blocks, responses=2 if field == "response" else 1))


def test_equal_values_of_other_types_stay_apart():
    """1, 1.0 and True are equal in Python, not in JSON."""
    blocks = [complete("{}", index=v, id="t", name="f") for v in (1, 1.0, True)]
    s = session(blocks)
    assert blocks_json(blocks) is not None
    assert [b["index"] for b in orjson.loads(same_report("x", s))["blocks"]] == [1, 1.0, True]


def test_times_are_rounded_as_before():
    blocks = [complete("{}", index=i, id="t", name="f", first_delta_s=t, last_delta_s=t and t * 3, max_gap_s=None)
              for i, t in enumerate([0.1234567, None, 1e-7, 2, 12345.0000004])]
    assert blocks_json(blocks) is not None
    same_report("x", session(blocks))


def test_several_responses_carry_response():
    blocks = [complete('{"a":1}', index=0, id="a", name="f", response=0),
              complete('{"a":1}', index=0, id="b", name="f", response=1)]
    out = orjson.loads(same_report("x", session(blocks, responses=2)))
    assert [b["response"] for b in out["blocks"]] == [0, 1]


def test_odd_strings_where_the_wire_strings_go_leave_it_to_report_dict():
    for field, value in [("kind", 3), ("name", ["a"]), ("id", {"a": 1})]:
        blocks = [complete("{}", index=0, id="t", name="f"), complete("{}", index=1, id="u", name="f")]
        setattr(blocks[0], field, value)
        assert blocks_json(blocks) is None
        same_report("x", session(blocks))


def test_a_lone_surrogate_raises_as_before():
    """No parse makes one (orjson refuses them), but a block may hold one: orjson refuses to write it."""
    blocks = [complete("{}", index=0, id="t\ud800", name="f"), complete("{}", index=1, id="u", name="f")]
    with pytest.raises(TypeError):
        old_render("x", session(blocks))
    same_report("x", session(blocks))


def test_text_blocks_and_calls_mixed():
    blocks = [block(kind="text", index=0, closed=True), complete('{"a":[1,2]}', index=1, id="t", name="f"),
              complete('{ "a" : 1 }', index=2, id="u", name="f"), complete("", index=3, id="v", name="g",
                                                                        empty_is_object=True)]
    blocks[0].replace("Hello, \"world\"\n\x7e")
    assert blocks_json(blocks) is not None
    same_report("x", session(blocks))


@pytest.mark.parametrize("arguments", ["", '{"a":', '{"a":1}', "{} x", DEEP])
def test_fields_are_the_block_s_own_values(arguments):
    """``Block.fields`` writes ``content`` and ``status`` out: it must read as the properties do,
    also before the content was ever joined and for an empty call that stands for ``{}``."""
    s = check_bytes(calls(("toolu_1", "f", [arguments[:2], arguments[2:]]), text="Hi"))
    empty = block(index=9, tool=True, empty_is_object=True, closed=True)
    empty.progress = JsonProgress()
    for b in [*s.blocks, empty, block(kind="text")]:
        if b.kind == "text":
            b.append("x")  # content not joined yet
        want = (b.index, b.choice, b.kind, b.id, b.name, None, b.tool, b.status, b.closed, b.deltas,
                b.first_delta_s, b.last_delta_s, b.max_gap_s, b.response)
        got = b.fields()
        assert got[:5] + got[6:] == want[:5] + want[6:] and got[5] == b.content
