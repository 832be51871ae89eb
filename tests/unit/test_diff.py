"""``diff``: one answer written in every dialect, compared across every pair of dialects, once clean
(equivalent, with the normalisations said) and once per difference kind (``inspector.compare.diff``)."""
from __future__ import annotations

import itertools

import pytest

from inspector.compare.diff import answer_from_body, answer_from_session, diff_answers, first_json_difference
from inspector.compare.diff.answer import id_family, ids_optional
from inspector.compare.diff.meaning import same_meaning
from inspector.feeds.run import run_capture
from tests.dialect_answers import DIALECTS, CallSpec, Spec, render

PAIRS = list(itertools.product(DIALECTS, DIALECTS))
"""Every ordered pair of registered dialects (``tests.dialect_answers.DIALECTS`` is the registry's list),
each dialect with itself included."""
NO_IDS = frozenset(d for d in DIALECTS if ids_optional(d))
CROSS = [(a, b) for a, b in PAIRS if a != b]

BASE = Spec(text="Let me look.", calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c"]})], stop="tool")


def answer(dialect: str, spec: Spec, label: str | None = None):
    session = run_capture(render(dialect, spec))
    assert session.dialect_name == dialect
    return answer_from_session(session, label or dialect)


def diff(a: str, b: str, spec_b: Spec, spec_a: Spec = BASE, **kw):
    return diff_answers(answer(a, spec_a, "A"), answer(b, spec_b, "B"), **kw)


def kinds(d) -> list[str]:
    return [x.kind for x in d.differences]


@pytest.mark.parametrize("a,b", PAIRS)
def test_the_same_answer_is_equivalent_in_every_pair_of_dialects(a, b):
    d = diff(a, b, BASE)
    assert d.equivalent, [x.message for x in d.differences]
    assert d.exit_code == 0
    assert [p.kind for p in d.pairs] == ["text", "tool"]
    assert d.pairs[1].matched_by == ("id" if d.a.calls[0].id and d.a.calls[0].id == d.b.calls[0].id else
                                     "rewritten id" if d.a.calls[0].id and d.b.calls[0].id else "name")
    if a != b:
        assert any("dialects differ" in n for n in d.normalisations)
    if (a in NO_IDS) != (b in NO_IDS):
        assert any("sends no tool call ids" in n for n in d.normalisations), d.normalisations
    stops = {x.stop_reason for x in (d.a, d.b)}
    if len(stops) == 2:
        assert any("stop reasons mapped" in n for n in d.normalisations)


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_tool_call_missing_on_one_side(a, b):
    d = diff(a, b, BASE.with_(calls=[], stop="end"))
    missing = [x for x in d.differences if x.kind == "block-missing"]
    assert [(x.what, x.side) for x in missing] == [("tool #0 get_weather", "a")]
    assert "stop-reason" in kinds(d)  # tool on A, end on B
    assert d.exit_code == 1
    assert [p.matched_by for p in d.pairs if p.kind == "tool"] == [None]


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_tool_call_added_on_one_side(a, b):
    extra = CallSpec("get_time", {"tz": "UTC"}, key="b2")
    d = diff(a, b, BASE.with_(calls=BASE.calls + [extra]))
    added = [x for x in d.differences if x.kind == "block-added"]
    assert [(x.what, x.side) for x in added] == [("tool #1 get_time", "b")]
    assert "different numbers of tool calls: A 1, B 2" in d.notes


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_text_block_missing_and_text_that_differs(a, b):
    assert [(x.kind, x.side) for x in diff(a, b, BASE.with_(text="")).differences] == [("block-missing", "a")]
    d = diff(a, b, BASE.with_(text="Let me book."))
    assert kinds(d) == ["text-differs"] and d.differences[0].path == "@7"


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_tool_name_changed(a, b):
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_forecast", {"city": "Lisbon", "units": ["c"]})]))
    assert kinds(d) == ["tool-name-changed"]
    assert (d.differences[0].a, d.differences[0].b) == ("get_weather", "get_forecast")
    assert d.pairs[1].matched_by == ("id" if d.a.calls[0].id and d.a.calls[0].id == d.b.calls[0].id else "position")


@pytest.mark.parametrize("a,b", [(a, b) for a, b in CROSS if a not in NO_IDS and b not in NO_IDS
                                 and id_family(a) != id_family(b)])
def test_ids_of_two_different_tools_are_never_called_rewritten(a, b):
    # Paired by position (the names differ): two different tools, not one call whose id a gateway rewrote.
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_forecast", {"city": "Lisbon", "units": ["c"]}, id="call_other9")]),
             spec_a=BASE.with_(calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c"]}, id="toolu_first1")]))
    assert kinds(d) == ["tool-name-changed"]
    assert not any("rewritten" in n for n in d.normalisations), d.normalisations
    assert any('ids "toolu_first1" and "call_other9" not taken as rewritten: the tool names differ' in n
               for n in d.notes), d.notes
    # The same tools in another order: paired by name, but not at the same position.
    two = [CallSpec("get_weather", {"city": "Lisbon"}, id="toolu_w"), CallSpec("get_time", {"tz": "UTC"}, id="toolu_t")]
    swapped = [CallSpec("get_time", {"tz": "UTC"}, id="call_t"), CallSpec("get_weather", {"city": "Lisbon"}, id="call_w")]
    d = diff(a, b, BASE.with_(calls=swapped), spec_a=BASE.with_(calls=two))
    assert not any("rewritten" in n for n in d.normalisations), d.normalisations
    assert [p.matched_by for p in d.pairs if p.kind == "tool"] == ["name", "name"]


def test_messages_quote_values_as_json_not_python_reprs():
    d = diff("anthropic-messages", "openai-chat",
             BASE.with_(calls=[CallSpec("get_forecast", {"city": {"name": "Lisbon", "ok": True}, "units": ["c"]})]),
             spec_a=BASE.with_(calls=[CallSpec("get_weather", {"city": {"name": "Lisbon", "ok": None}, "units": ["c"]})]))
    messages = " ".join(x.message for x in d.differences)
    assert 'tool name "get_weather" on A, "get_forecast" on B' in messages
    assert "arguments differ at $.city.ok: A null, B true" in messages
    assert "'" not in messages and "None" not in messages and "True" not in messages


@pytest.mark.parametrize("a,b", [(a, b) for a, b in PAIRS if a not in NO_IDS and b not in NO_IDS])
def test_a_tool_id_changed_within_a_family_or_rewritten_across_families(a, b):
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c"]}, id="call_other9")]),
             spec_a=BASE.with_(calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c"]}, id="toolu_first1")]))
    if id_family(a) == id_family(b):
        assert kinds(d) == ["tool-id-changed"]
        assert (d.differences[0].a, d.differences[0].b) == ("toolu_first1", "call_other9")
    else:  # a gateway translating between dialects legitimately mints new ids, one for one
        assert d.equivalent, [x.message for x in d.differences]
        assert any("tool ids rewritten one-to-one" in n and "toolu_first1 → call_other9" in n
                   for n in d.normalisations)


@pytest.mark.parametrize("a,b", [(a, b) for a, b in CROSS if a not in NO_IDS and b not in NO_IDS])
def test_rewritten_ids_that_collide_are_a_difference(a, b):
    two_a = [CallSpec("get_weather", {"city": "Lisbon"}, key="x1"), CallSpec("get_time", {"tz": "UTC"}, key="x2")]
    two_b = [CallSpec("get_weather", {"city": "Lisbon"}, id="same_1"), CallSpec("get_time", {"tz": "UTC"}, id="same_1")]
    d = diff(a, b, BASE.with_(calls=two_b), spec_a=BASE.with_(calls=two_a))
    if id_family(a) != id_family(b):
        assert "tool-id-changed" in kinds(d)


@pytest.mark.parametrize("a,b", [(a, b) for a, b in PAIRS if a not in NO_IDS and b not in NO_IDS])
def test_a_tool_id_lost_on_one_side(a, b):
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c"]}, id="")]))
    assert kinds(d)[0] == "tool-id-missing"
    assert {(x.kind, x.side) for x in d.differences[1:]} <= {("finding-one-side", "b")}  # B's own rules on the empty id
    assert next(x for x in d.differences if x.kind == "tool-id-missing").side == "b"


@pytest.mark.parametrize("a,b", PAIRS)
def test_arguments_that_differ_give_the_path_of_the_first_difference(a, b):
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_weather", {"city": "Lisbon", "units": ["c", "f"]})]))
    assert kinds(d) == ["arguments-differ"]
    x = d.differences[0]
    assert (x.path, x.a, x.b) == ("$.units[1]", "(absent)", "f")
    d = diff(a, b, BASE.with_(calls=[CallSpec("get_weather", {"units": ["c"], "city": "Porto"})]))
    assert [(x.kind, x.path, x.a, x.b) for x in d.differences] == [("arguments-differ", "$.city", "Lisbon", "Porto")]


@pytest.mark.parametrize("a,b", PAIRS)
def test_arguments_that_arrive_later_on_one_side(a, b):
    d = diff(a, b, BASE.with_(arg_delay=3.0))
    late = [x for x in d.differences if x.kind == "arguments-later"]
    assert [(x.what, x.side) for x in late] == [("tool #0 get_weather", "b")], kinds(d)
    assert late[0].b - late[0].a == pytest.approx(3.0, abs=0.1)
    assert diff(a, b, BASE.with_(arg_delay=0.5)).equivalent  # within --late (1 s)
    # on a common clock: the same 3 s, all of it before B's request started, is no delay
    assert not [x for x in diff(a, b, BASE.with_(arg_delay=3.0), b_offset=-3.0).differences
                if x.kind == "arguments-later"]


@pytest.mark.parametrize("a,b", PAIRS)
def test_stop_reasons_that_do_not_correspond(a, b):
    d = diff(a, b, BASE.with_(stop="length"))
    assert "stop-reason" in kinds(d)
    x = next(x for x in d.differences if x.kind == "stop-reason")
    assert "(tool)" in x.message and "(length)" in x.message


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_text_answer_that_ends_normally_corresponds_in_every_dialect(a, b):
    plain = Spec(text="Hello there.", stop="end")
    d = diff(a, b, plain, spec_a=plain)
    assert d.equivalent, [x.message for x in d.differences]


@pytest.mark.parametrize("a,b", PAIRS)
def test_a_finding_on_one_side_only(a, b):
    d = diff(a, b, BASE.with_(drop_end=True))
    one = [x for x in d.differences if x.kind == "finding-one-side"]
    assert one and {x.side for x in one} == {"b"}
    assert all(x.b and x.a is None for x in one)


def test_findings_of_the_same_meaning_correspond_across_dialects():
    # Anthropic end_turn after a tool call (A007) comes out of a gateway as Chat stop (C003)
    d = diff("anthropic-messages", "openai-chat", BASE.with_(stop="end"), spec_a=BASE.with_(stop="end"))
    assert d.equivalent, [x.message for x in d.differences]
    assert {f["code"] for f in d.a.findings} >= {"A007"} and {f["code"] for f in d.b.findings} >= {"C003"}
    assert "finding codes of the same meaning: A007 ≈ C003" in d.normalisations
    assert same_meaning("A007", "B008") and not same_meaning("A007", "J001")


@pytest.mark.parametrize("b", DIALECTS)
def test_different_numbers_of_blocks_are_paired_by_name_never_shifted(b):
    calls = [CallSpec("a_tool", {"k": 1}, key="k1"), CallSpec("b_tool", {"k": 2}, key="k2"),
             CallSpec("c_tool", {"k": 3}, key="k3")]
    d = diff("anthropic-messages", b, BASE.with_(calls=[calls[0], calls[2]]), spec_a=BASE.with_(calls=calls))
    tools = [(p.label, p.a, p.b) for p in d.pairs if p.kind == "tool"]
    assert tools == [("tool #0 a_tool", 0, 0), ("tool #1 b_tool", 1, None), ("tool #2 c_tool", 2, 1)]
    assert kinds(d) == ["block-missing"]


def test_a_non_streamed_answer_compares_without_timing_or_findings():
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "stop_reason": "tool_use",
            "content": [{"type": "text", "text": "Let me look."},
                        {"type": "tool_use", "id": "toolu_a1", "name": "get_weather",
                         "input": {"city": "Lisbon", "units": ["c"]}}]}
    plain = answer_from_body(body, "B")
    assert plain is not None and not plain.streamed and plain.dialect == "anthropic-messages"
    d = diff_answers(answer("anthropic-messages", BASE.with_(drop_end=True), "A"), plain)  # S003 on A
    assert d.equivalent
    assert "stream findings not compared: one side is a non-streamed answer" in d.notes
    assert any("non-streamed answer (read as anthropic-messages)" in n for n in d.notes)
    assert answer_from_body({"hello": "world"}, "x") is None and answer_from_body(b"not json", "x") is None


@pytest.mark.parametrize("a,b,want", [
    ({"x": 1}, {"x": 1.0}, None),
    ({"x": True}, {"x": 1}, ("$.x", True, 1)),
    ({"x": [1, {"y": "z"}]}, {"x": [1, {"y": "w"}]}, ("$.x[1].y", "z", "w")),
    ({"x": {}}, {"x": []}, ("$.x", {}, [])),
    ({"b": 1, "a": 2}, {"a": 2, "b": 1}, None),
])
def test_first_json_difference(a, b, want):
    assert first_json_difference(a, b) == want
