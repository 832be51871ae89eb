"""Tests for inspector.model.jsonprogress: incremental JSON states, offsets, orjson as oracle."""
from __future__ import annotations

import json
import subprocess
import sys

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.model.jsonprogress import (
    COMPLETE,
    EMPTY,
    INVALID,
    MAX_DEPTH,
    PARTIAL,
    TRAILING,
    JsonProgress,
    partial_value,
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(*fragments: str) -> JsonProgress:
    p = JsonProgress()
    for f in fragments:
        p.feed(f)
    return p


def snapshot(p: JsonProgress) -> tuple:
    return (p.state, p.length, p.error_offset, p.error_reason, p.trailing_offset, p.complete_at,
            p.top_kind, p.depth)


def split(text: str, points: list[int]) -> list[str]:
    cuts = sorted({q % (len(text) + 1) for q in points})
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


def orjson_ok(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# Table: (text, state, error_offset, trailing_offset, complete_at)
TABLE = [
    # EMPTY
    ("", EMPTY, None, None, None),
    (" \t\r\n ", EMPTY, None, None, None),
    # PARTIAL
    ("{", PARTIAL, None, None, None),
    ('{"a', PARTIAL, None, None, None),
    ('{"a"', PARTIAL, None, None, None),
    ('{"a" :', PARTIAL, None, None, None),
    ('{"a": 1', PARTIAL, None, None, None),
    ('{"a": 1,', PARTIAL, None, None, None),
    ("[", PARTIAL, None, None, None),
    ("[1, [2, [3", PARTIAL, None, None, None),
    ('"abc', PARTIAL, None, None, None),
    ('"a\\', PARTIAL, None, None, None),
    ('"\\u12', PARTIAL, None, None, None),
    ('"\\ud83d', PARTIAL, None, None, None),
    ('"\\ud83d\\', PARTIAL, None, None, None),
    ('"\\ud83d\\u', PARTIAL, None, None, None),
    ('"\\ud83d\\ude0', PARTIAL, None, None, None),
    ("-", PARTIAL, None, None, None),
    ("1.", PARTIAL, None, None, None),
    ("1e", PARTIAL, None, None, None),
    ("1e-", PARTIAL, None, None, None),
    ("-0.5E+", PARTIAL, None, None, None),
    ("tru", PARTIAL, None, None, None),
    ("n", PARTIAL, None, None, None),
    ("fals", PARTIAL, None, None, None),
    ("[tr", PARTIAL, None, None, None),
    ("[1e400", INVALID, 1, None, None),  # only more exponent digits can follow
    ("1" * 400, PARTIAL, None, None, None),  # overflows, but "e-100" may still follow
    # COMPLETE
    ("{}", COMPLETE, None, None, 2),
    (" {} \n", COMPLETE, None, None, 3),
    ("[]", COMPLETE, None, None, 2),
    ('{"a": [1, 2.5, -3e2, true, false, null, "x"]}', COMPLETE, None, None, 45),
    ('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"', COMPLETE, None, None, 24),
    ('"\\ud83d\\ude00"', COMPLETE, None, None, 14),
    ('"\x7f\u2028é😀"', COMPLETE, None, None, 6),
    ("12", COMPLETE, None, None, 2),
    ("0", COMPLETE, None, None, 1),
    ("-0", COMPLETE, None, None, 2),
    ("1.5e-3 ", COMPLETE, None, None, 6),
    ("true", COMPLETE, None, None, 4),
    ("null", COMPLETE, None, None, 4),
    ('"x"', COMPLETE, None, None, 3),
    ("1.7976931348623157e308", COMPLETE, None, None, 22),
    ("1" * 400 + "e-100", COMPLETE, None, None, 405),
    ("0e99999", COMPLETE, None, None, 7),
    # TRAILING (J003)
    ('{}{"a":1}', TRAILING, None, 2, 2),
    ("{} x", TRAILING, None, 3, 2),
    ("1 2", TRAILING, None, 2, 1),
    ("12x", TRAILING, None, 2, 2),
    ('"a"b', TRAILING, None, 3, 3),
    ("truex", TRAILING, None, 4, 4),
    ("[]]", TRAILING, None, 2, 2),
    ("1.5.3", TRAILING, None, 3, 3),
    # INVALID (J001)
    ("x", INVALID, 0, None, None),
    ("  }", INVALID, 2, None, None),
    ("\ufeff{}", INVALID, 0, None, None),  # BOM
    ("\xa0{}", INVALID, 0, None, None),  # not JSON whitespace
    ("\x0c1", INVALID, 0, None, None),
    ('{"a"}', INVALID, 4, None, None),
    ("{1:2}", INVALID, 1, None, None),
    ("{'a':1}", INVALID, 1, None, None),
    ('{"a":1,}', INVALID, 7, None, None),
    ('{"a":1 "b":2}', INVALID, 7, None, None),
    ("[1,]", INVALID, 3, None, None),
    ("[1 2]", INVALID, 3, None, None),
    ("[}", INVALID, 1, None, None),
    ("[1}", INVALID, 2, None, None),
    ('{"a":1]', INVALID, 6, None, None),
    ("[,", INVALID, 1, None, None),
    ("01", INVALID, 1, None, None),
    ("[00]", INVALID, 2, None, None),
    ("-01", INVALID, 2, None, None),
    ("-x", INVALID, 1, None, None),
    ("[-]", INVALID, 2, None, None),
    ("+1", INVALID, 0, None, None),
    (".5", INVALID, 0, None, None),
    ("1.e5", INVALID, 2, None, None),
    ("[1.]", INVALID, 3, None, None),
    ("1ex", INVALID, 2, None, None),
    ("1e+x", INVALID, 3, None, None),
    ("NaN", INVALID, 0, None, None),
    ("Infinity", INVALID, 0, None, None),
    ("tx", INVALID, 1, None, None),
    ("[nul]", INVALID, 4, None, None),
    ('"a\nb"', INVALID, 2, None, None),
    ('"\x00"', INVALID, 1, None, None),
    ('"\x1f"', INVALID, 1, None, None),
    ('"\\x"', INVALID, 2, None, None),
    ('"\\U0041"', INVALID, 2, None, None),
    ('"\\u12G4"', INVALID, 5, None, None),
    ('"\\ud800"', INVALID, 7, None, None),  # lone high surrogate (orjson rejects)
    ('"\\ud800x"', INVALID, 7, None, None),
    ('"\\ud800\\n"', INVALID, 8, None, None),
    ('"\\ud800\\u0041"', INVALID, 9, None, None),
    ('"\\ud800\\ud800"', INVALID, 10, None, None),
    ('"\\udc00"', INVALID, 4, None, None),  # lone low surrogate
    ('"\ud800"', INVALID, 1, None, None),  # raw surrogate code point in the str
    ("1e400", INVALID, 0, None, None),
    ("[1, -1.8e308]", INVALID, 4, None, None),
    ("1.797693134862315808e308", INVALID, 0, None, None),
    ("1" * 400 + ".5 ", INVALID, 0, None, None),
    ('"a"\ud800', TRAILING, None, 3, 3),
]


@pytest.mark.parametrize(("text", "state", "error_offset", "trailing_offset", "complete_at"), TABLE,
                         ids=[repr(t[0])[:40] for t in TABLE])
def test_table(text, state, error_offset, trailing_offset, complete_at):
    p = run(text)
    assert p.state == state
    assert p.length == len(text)
    assert p.error_offset == error_offset
    assert (p.error_reason is not None) == (state == INVALID)
    assert p.trailing_offset == trailing_offset
    assert p.complete_at == complete_at
    # orjson agrees on COMPLETE
    assert (state == COMPLETE) == orjson_ok(text)
    # one character at a time gives the same result, and so does every single split
    assert snapshot(run(*text)) == snapshot(p)
    for k in range(len(text) + 1):
        assert snapshot(run(text[:k], text[k:])) == snapshot(p), k


REASONS = [
    ('{"a"}', "expected ':' after object key, got '}'"),
    ("[1,]", "expected a JSON value, got ']'"),
    ('{"a":1,}', "expected an object key after ',', got '}' (trailing comma)"),
    ("[1 2]", "expected ',' or ']' after array element, got '2'"),
    ('{"a":1 "b":2}', "expected ',' or '}' after object member, got '\"'"),
    ("01", "leading zeros are not allowed in numbers"),
    ('"a\nb"', "unescaped control character U+000A in string"),
    ('"\x1f"', "unescaped control character U+001F in string"),
    ('"\ud800"', "surrogate code point U+D800 in text (not encodable as UTF-8)"),
    ('"\\ud800"', "high surrogate escape not followed by a low surrogate escape (\\uDC00-\\uDFFF)"),
    ('"\\udc00"', "lone low surrogate escape (\\uDC00-\\uDFFF) without a high surrogate before it"),
    ("[" * (MAX_DEPTH + 1), "nesting deeper than 1024 levels (orjson's limit)"),
    ("1e400", "number out of range (overflows a double)"),
    ("tx", "invalid literal: expected 'true', got 'x'"),
]


@pytest.mark.parametrize(("text", "reason"), REASONS, ids=[repr(t[0])[:40] for t in REASONS])
def test_error_reason(text, reason):
    assert run(text).error_reason == reason


def test_feed_returns_state_sequence():
    p = JsonProgress()
    assert p.state == EMPTY and p.length == 0 and p.complete_at is None and p.top_kind is None
    assert [p.feed(f) for f in [" ", "{", '"a"', ":", "1", "}", " ", "{"]] == [
        EMPTY, PARTIAL, PARTIAL, PARTIAL, PARTIAL, COMPLETE, COMPLETE, TRAILING]
    assert p.trailing_offset == 9 and p.complete_at == 8
    assert p.feed('"a":}}}') == TRAILING  # no longer validated
    assert p.length == 17


def test_invalid_is_sticky():
    p = run("[1,", "]")
    assert p.state == INVALID and p.error_offset == 3
    assert p.feed("]]]") == INVALID
    assert p.length == 7 and p.error_offset == 3


def test_top_level_number_grows():
    p = JsonProgress()
    assert p.feed("12") == COMPLETE and p.complete_at == 2
    assert p.feed("3") == COMPLETE and p.complete_at == 3
    assert p.feed(".") == PARTIAL and p.complete_at is None
    assert p.feed("5") == COMPLETE
    assert p.feed(" ") == COMPLETE and p.complete_at == 5
    assert p.feed("6") == TRAILING and p.trailing_offset == 6


def test_overflowing_number_can_come_back_into_range():
    big = "1" * 400
    p = JsonProgress()
    assert p.feed(big) == PARTIAL
    assert p.feed("e") == PARTIAL
    assert p.feed("-") == PARTIAL
    assert p.feed("0") == PARTIAL  # still 1.1e399
    assert p.feed("100") == COMPLETE
    assert orjson_ok(big + "e-0100")


@pytest.mark.parametrize(("text", "kind"), [
    ("{", "object"), ("[", "array"), ('"', "string"), ("-", "number"), ("7", "number"),
    ("t", "true"), ("f", "false"), ("n", "null"), ("  ", None), ("x", None),
])
def test_top_kind(text, kind):
    assert run(text).top_kind == kind


def test_depth():
    p = JsonProgress()
    depths = []
    for c in '{"a": [[{"b": [1]}], 2]}':
        p.feed(c)
        depths.append(p.depth)
    assert max(depths) == 5 and depths[-1] == 0


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_depth_limit_matches_orjson(opener):
    closer = "]" if opener == "[" else "}"
    ok = opener * MAX_DEPTH + "1" + closer * MAX_DEPTH
    too_deep = opener * (MAX_DEPTH + 1) + "1" + closer * (MAX_DEPTH + 1)
    assert run(ok).state == COMPLETE and orjson_ok(ok)
    p = run(too_deep)
    assert p.state == INVALID and not orjson_ok(too_deep)
    assert p.error_offset == len(opener) * MAX_DEPTH  # the 1025th bracket


def test_halfway_to_overflow_rounds_like_orjson():
    # DBL_MAX + half an ulp, exactly: ties-to-even rounds it to infinity; one less stays finite
    half = str(2**1024 - 2**970)
    below = str(2**1024 - 2**970 - 1)
    cases = {
        half: INVALID,
        below: COMPLETE,
        # far more fraction digits than the significant digits kept: the sticky digit decides
        below + "." + "9" * 2000: COMPLETE,
        half + "." + "0" * 2000 + "1": INVALID,
        "0." + "0" * 1000 + below + "e1309": COMPLETE,
        "0." + "0" * 1000 + half + "e1309": INVALID,
    }
    for text, state in cases.items():
        assert (state == COMPLETE) == orjson_ok(text)
        assert run(text + " ").state == state
        assert run(*split(text + "]", list(range(0, len(text), 7)))).state == (
            TRAILING if state == COMPLETE else INVALID)


# --------------------------------------------------------------------------------------------
# Oracle property tests
unusual = st.sampled_from(['"', "\\", "/", "\b\f\n\r\t", "\x00", "\x1f", "\x7f", "\u2028", "é",
                           "😀", "\U0010ffff", "\ufeff", "{}[],:", "\\u0041"])
chars = st.characters(exclude_categories=("Cs",))
json_text = st.lists(st.one_of(chars, unusual), max_size=12).map("".join)
scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    json_text,
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(json_text, children, max_size=5)),
    max_leaves=25,
)


def serialize(value, style: int) -> str:
    if style == 0:
        return orjson.dumps(value).decode()
    if style == 1:
        return json.dumps(value, ensure_ascii=True)
    if style == 2:
        return json.dumps(value, ensure_ascii=False, indent=2)
    if style == 3:
        return json.dumps(value, ensure_ascii=True, indent="\t", separators=(",", ": "))
    return " \n" + json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\r\n\t "


documents = st.tuples(json_values, st.integers(0, 4)).map(lambda t: serialize(*t))


@FAST
@given(doc=documents, points=st.lists(st.integers(min_value=0), max_size=30))
def test_valid_documents_are_complete_at_any_split(doc, points):
    assert orjson_ok(doc)
    p = run(*split(doc, points))
    assert p.state == COMPLETE, (p.error_offset, p.error_reason)
    assert p.error_offset is None and p.trailing_offset is None
    assert orjson.loads(doc[: p.complete_at]) == orjson.loads(doc)
    assert doc[p.complete_at:].strip(" \t\r\n") == ""


@FAST
@given(doc=documents, data=st.data())
def test_proper_prefixes_are_partial_or_empty(doc, data):
    cuts = data.draw(st.lists(st.integers(0, len(doc) - 1), min_size=1, max_size=10))
    for k in cuts:
        prefix = doc[:k]
        p = run(*split(prefix, data.draw(st.lists(st.integers(min_value=0), max_size=5))))
        if p.top_kind == "number" or prefix.strip(" \t\r\n") == doc.strip(" \t\r\n"):
            # a top-level number is already complete at a shorter length
            assert p.state in (EMPTY, PARTIAL, COMPLETE)
            assert (p.state == COMPLETE) == orjson_ok(prefix)
        else:
            assert p.state in (EMPTY, PARTIAL), (prefix, p.error_offset, p.error_reason)
        assert (p.state == EMPTY) == (prefix.strip(" \t\r\n") == "")


MUTATION_ALPHABET = list('{}[]":,\\ -+.eE0123456789tfnruslax') + [
    "\t", "\n", "\r", "\x00", "\x0b", "\xa0", "é", "\ud800", "\udc00", "\ufeff", "u", "d", "8",
    "c", "D", "/"]


@st.composite
def mutated(draw):
    text = draw(documents)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        k = draw(st.integers(0, len(text)))
        c = draw(st.sampled_from(MUTATION_ALPHABET))
        if op == "insert":
            text = text[:k] + c + text[k:]
        elif op == "delete":
            text = text[:k] + text[k + 1:]
        else:
            text = text[:k] + c + text[k + 1:]
    return text


def check_against_orjson(text: str, p: JsonProgress) -> None:
    ok = orjson_ok(text)
    assert (p.state == COMPLETE) == ok, (text, p.state, p.error_offset, p.error_reason)
    if p.state == EMPTY:
        assert text.strip(" \t\r\n") == ""
    if p.state == TRAILING:
        assert orjson_ok(text[: p.complete_at])
        assert p.trailing_offset >= p.complete_at
        assert text[p.complete_at: p.trailing_offset].strip(" \t\r\n") == ""
    if p.state == INVALID:
        # everything before the error is still a valid prefix
        before = run(text[: p.error_offset])
        assert before.state in (EMPTY, PARTIAL, COMPLETE)
        if "range" not in p.error_reason and "nesting" not in p.error_reason:
            # ... and the character at the offset is the one that broke it
            assert run(text[: p.error_offset + 1]).state == INVALID


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(), points=st.lists(st.integers(min_value=0), max_size=20))
def test_mutations_agree_with_orjson(text, points):
    p = run(*split(text, points))
    check_against_orjson(text, p)


@FAST
@given(text=st.one_of(mutated(), st.text(alphabet=st.sampled_from(MUTATION_ALPHABET), max_size=30)),
       a=st.lists(st.integers(min_value=0), max_size=20),
       b=st.lists(st.integers(min_value=0), max_size=20))
def test_split_never_changes_the_verdict(text, a, b):
    p, q = run(*split(text, a)), run(*split(text, b))
    assert snapshot(p) == snapshot(q)
    assert snapshot(run(*text)) == snapshot(p)
    check_against_orjson(text, p)


@FAST
@given(text=st.text(alphabet=st.sampled_from(MUTATION_ALPHABET), max_size=40))
def test_arbitrary_syntax_soup_agrees_with_orjson(text):
    check_against_orjson(text, run(text))


# --------------------------------------------------------------------------------------------
# partial_value
DOC = '{"a": [1, 2, {"b": "xy"}]}'
PREFIX_VALUES = {
    0: None,
    1: {},                                   # {
    2: {},                                   # {"          dangling key dropped
    4: {},                                   # {"a"
    5: {},                                   # {"a":
    6: {},                                   # {"a":␠
    7: {"a": []},                            # {"a": [
    8: {"a": [1]},                           # {"a": [1
    9: {"a": [1]},                           # {"a": [1,   dangling comma dropped
    12: {"a": [1, 2]},
    14: {"a": [1, 2, {}]},
    16: {"a": [1, 2, {}]},                   # {"a": [1, 2, {"b
    19: {"a": [1, 2, {}]},                   # {"a": [1, 2, {"b":
    20: {"a": [1, 2, {"b": ""}]},            # open string closed
    21: {"a": [1, 2, {"b": "x"}]},
    22: {"a": [1, 2, {"b": "xy"}]},
    23: {"a": [1, 2, {"b": "xy"}]},
    24: {"a": [1, 2, {"b": "xy"}]},
    25: {"a": [1, 2, {"b": "xy"}]},
}


@pytest.mark.parametrize(("k", "expected"), sorted(PREFIX_VALUES.items()))
def test_partial_value_prefixes(k, expected):
    assert partial_value(DOC[:k]) == (expected, False)


def test_partial_value_complete():
    assert partial_value(DOC) == (orjson.loads(DOC), True)
    assert partial_value(" 12 ") == (12, True)


@pytest.mark.parametrize(("text", "expected"), [
    ("", (None, False)),
    ("   ", (None, False)),
    ("-", (None, False)),
    ("tr", (None, False)),
    ("[tr", ([], False)),
    ('{"a": nu', ({}, False)),
    ('{"a": 1, "b": -', ({"a": 1}, False)),
    ("[1.", ([1], False)),
    ("[1e", ([1], False)),
    ("[1e+", ([1], False)),
    ("[1.5e-3", ([0.0015], False)),
    ("12", (12, True)),
    ('"ab\\', ("ab", False)),
    ('"ab\\u00', ("ab", False)),
    ('"ab\\ud83d', ("ab", False)),
    ('"ab\\ud83d\\', ("ab", False)),
    ('"ab\\ud83d\\ude', ("ab", False)),
    ('"ab\\ud83d\\ude00', ("ab😀", False)),
    ('{"k": "v\\n', ({"k": "v\n"}, False)),
    # TRAILING: the first value; INVALID: the longest valid prefix
    ('{"a":1}{"b":2}', ({"a": 1}, False)),
    ("[1, 2, x]", ([1, 2], False)),
    ('{"a": 1, "b"}', ({"a": 1}, False)),
    ("[1, 1e400]", ([1], False)),
    ("01", (0, False)),
    ("}", (None, False)),
])
def test_partial_value_cases(text, expected):
    assert partial_value(text) == expected


@FAST
@given(doc=documents, data=st.data())
def test_partial_value_of_prefixes_never_raises_and_keeps_the_container_type(doc, data):
    full = orjson.loads(doc)
    assert partial_value(doc) == (full, True)
    start = len(doc) - len(doc.lstrip(" \t\r\n"))
    for k in data.draw(st.lists(st.integers(0, len(doc)), max_size=8)):
        value, complete = partial_value(doc[:k])
        if isinstance(full, (dict, list)) and k > start:
            assert type(value) is type(full)


@FAST
@given(text=mutated())
def test_partial_value_never_raises(text):
    value, complete = partial_value(text)
    assert complete == orjson_ok(text)


def test_module_is_pure():
    code = ("import sys, inspector.model.jsonprogress; "
            "bad = [m for m in ('textual', 'rich') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


@FAST
@given(doc=documents, more=st.lists(st.sampled_from([" ", "\n", "}", "]", ",", "x", '"', "1", "{}"]), max_size=4))
def test_a_whole_value_as_the_first_fragment_reads_as_its_characters_one_by_one(doc, more):
    """The first fragment that is a whole object or array (one orjson parse, not the loop) leaves
    the state the loop leaves, and every fragment after it is judged the same."""
    doc = doc.strip(" \t\r\n")
    whole, by_char = JsonProgress(), run(*doc)
    assert whole.feed(doc) == by_char.state
    assert snapshot(whole) == snapshot(by_char)
    for f in more:
        assert whole.feed(f) == by_char.feed(f)
        assert snapshot(whole) == snapshot(by_char)
    assert whole.state == COMPLETE or more
