"""V rules (RULES.md V001–V005): every dialect's capture with its request, one call per code and a
near miss beside each (a call that validates, a tool the provider runs itself, a keyword the
validator does not know)."""
from __future__ import annotations

import pytest

from inspector.feeds.run import run_capture
from tests.declared_requests import ANY, TIME, TOOLS, WEATHER, request_body, with_request
from tests.dialect_answers import DIALECTS, CallSpec, Spec, render

PARALLEL_SWITCH = ("anthropic-messages", "bedrock-anthropic", "openai-chat", "openai-responses")
"""Dialects whose requests can refuse parallel calls (``disable_parallel_tool_use``, ``parallel_tool_calls``)."""
FORCING = tuple(d for d in DIALECTS if d != "ollama")
"""Dialects whose requests can force a tool call (Ollama has no ``tool_choice``)."""


def check(dialect: str, spec: Spec, **request) -> list:
    tools = request.pop("tools", TOOLS)
    s = run_capture(with_request(render(dialect, spec), request_body(dialect, tools, **request)))
    return [f for f in s.findings if f.code.startswith("V")]


def codes(findings) -> list[str]:
    return sorted(f.code for f in findings)


GOOD = CallSpec("get_weather", {"city": "Porto", "days": 3})


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_call_that_validates_raises_nothing(dialect):
    assert check(dialect, Spec(calls=[GOOD])) == []


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v001_a_call_to_a_function_the_request_did_not_declare(dialect):
    found = check(dialect, Spec(calls=[CallSpec("delete_everything", {"path": "/"})]))
    assert codes(found) == ["V001"]
    assert "'delete_everything'" in found[0].message and "get_time, get_weather" in found[0].message
    assert found[0].event is not None  # at the event that closed the call


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v002_names_the_json_path_and_the_failed_keyword(dialect):
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 0})]))
    assert codes(found) == ["V002"]
    assert "$.days: 0 is less than the minimum of 1 (minimum)" in found[0].message
    assert found[0].severity == "warning"  # not strict: the provider promised nothing


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v002_a_missing_required_key_and_an_extra_one(dialect):
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto", "when": "now"})]))
    assert codes(found) == ["V002"]
    assert "$: 'days' is a required property (required)" in found[0].message
    assert "(additionalProperties)" in found[0].message


@pytest.mark.parametrize("dialect", ("anthropic-messages", "openai-chat", "openai-responses"))
def test_v002_is_an_error_when_the_tool_is_strict(dialect):
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": "3"})]), strict=True)
    assert codes(found) == ["V002"] and found[0].severity == "error"
    assert "$.days: '3' is not of type 'integer' (type)" in found[0].message


def test_responses_tools_are_strict_unless_they_say_otherwise():
    """openai-python ``FunctionToolParam.strict``: "Default `true`"."""
    spec = Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 0})])
    body = request_body("openai-responses", TOOLS)
    for tool in body["tools"]:
        del tool["strict"]
    s = run_capture(with_request(render("openai-responses", spec), body))
    assert [(f.code, f.severity) for f in s.findings] == [("V002", "error")]


@pytest.mark.parametrize("dialect", FORCING)
def test_v003_a_forced_call_that_never_came(dialect):
    found = check(dialect, Spec(text="It is sunny.", stop="end"), choice=ANY)
    assert codes(found) == ["V003"] and "called none" in found[0].message


@pytest.mark.parametrize("dialect", FORCING)
def test_v003_not_judged_when_the_answer_was_cut_short(dialect):
    """Anthropic ``any`` with ``stop_reason: max_tokens`` (and every dialect's length stop): the answer
    could not call; no false alarm."""
    assert check(dialect, Spec(text="It is", stop="length"), choice=ANY) == []


@pytest.mark.parametrize("dialect", FORCING)
def test_v003_another_declared_function_than_the_forced_one(dialect):
    found = check(dialect, Spec(calls=[CallSpec("get_time", {"zone": "UTC"})]), choice="get_weather")
    assert codes(found) == ["V003"]
    assert "forced get_weather" in found[0].message and "called get_time instead" in found[0].message


@pytest.mark.parametrize("dialect", FORCING)
def test_v003_the_forced_function_was_called(dialect):
    assert check(dialect, Spec(calls=[GOOD]), choice="get_weather") == []
    assert check(dialect, Spec(calls=[GOOD]), choice=ANY) == []


@pytest.mark.parametrize("dialect", PARALLEL_SWITCH)
def test_v004_two_calls_when_the_request_refused_parallel_calls(dialect):
    two = Spec(calls=[GOOD, CallSpec("get_time", {"zone": "UTC"}, key="a2")])
    found = check(dialect, two, no_parallel=True)
    assert codes(found) == ["V004"] and "2 tool calls (get_weather, get_time)" in found[0].message
    assert check(dialect, Spec(calls=[GOOD]), no_parallel=True) == []
    assert check(dialect, two) == []


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v005_a_keyword_the_validator_does_not_know_and_the_rest_still_judged(dialect):
    odd = {**WEATHER, "properties": {**WEATHER["properties"], "city": {"type": "string", "x_units": "km",
                                                                       "format": "city-name"}}}
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 99})]),
                  tools={"get_weather": odd})
    assert codes(found) == ["V002", "V005"]
    v005 = next(f for f in found if f.code == "V005")
    assert "at $.properties.city: 'x_units' is not a keyword the validator knows" in v005.message
    assert "format 'city-name' is not checked" in v005.message and v005.severity == "info"


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v005_a_schema_that_is_not_one_judges_the_name_only(dialect):
    broken = {"type": "object", "properties": {"city": {"type": "town"}}}
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto"})]), tools={"get_weather": broken})
    assert codes(found) == ["V005"] and "not a valid schema" in found[0].message


@pytest.mark.parametrize("dialect", DIALECTS)
def test_no_declared_tools_means_nothing_judged(dialect):
    cap = render(dialect, Spec(calls=[CallSpec("anything", {"x": 1})]))
    with_request(cap, {"model": "m", "messages": []})
    assert [f for f in run_capture(cap).findings if f.code.startswith("V")] == []


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_schema_is_judged_once_per_call_at_its_close(dialect):
    """Two calls of one tool, both wrong: two V002 (one per call), one V005 for the schema."""
    odd = {**TIME, "x_hint": 1}
    spec = Spec(calls=[CallSpec("get_time", {"zone": 1}), CallSpec("get_time", {"zone": 2}, key="a2")])
    found = check(dialect, spec, tools={"get_time": odd})
    assert codes(found) == ["V002", "V002", "V005"]
