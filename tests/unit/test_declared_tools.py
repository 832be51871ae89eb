"""V rules (RULES.md V001–V005): every dialect's capture with its request, one call per code and a
near miss beside each (a call that validates, a tool the provider runs itself, a keyword the
validator does not know)."""
from __future__ import annotations

import copy
import json

import pytest

from inspector.cli import main
from inspector.compare.diff.answer import answer_from_session
from inspector.compare.diff.captures import diff_captures
from inspector.compare.diff.compare import diff_answers
from inspector.compare.diff.hops import attribute
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from inspector.net.conform.mutate import Spec as MutationSpec, apply
from tests.helpers import sse
from tests.declared_requests import ANY, TIME, TOOLS, WEATHER, request_body, with_request
from tests.dialect_answers import DIALECTS, CallSpec, Spec, render, write_native

PARALLEL_SWITCH = ("anthropic-messages", "bedrock-anthropic", "openai-chat", "openai-responses")
"""Dialects whose requests can refuse parallel calls (``disable_parallel_tool_use``, ``parallel_tool_calls``)."""
FORCING = tuple(d for d in DIALECTS if d != "ollama")
"""Dialects whose requests can force a tool call (Ollama has no ``tool_choice``)."""
NAMING = tuple(d for d in FORCING if d != "cohere-chat")
"""Dialects whose requests can force one named function (Cohere forces "a call": ``REQUIRED``)."""


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


@pytest.mark.parametrize("dialect", ("anthropic-messages", "openai-chat", "openai-responses", "cohere-chat"))
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


@pytest.mark.parametrize("dialect", NAMING)
def test_v003_another_declared_function_than_the_forced_one(dialect):
    found = check(dialect, Spec(calls=[CallSpec("get_time", {"zone": "UTC"})]), choice="get_weather")
    assert codes(found) == ["V003"]
    assert "forced get_weather" in found[0].message and "called get_time instead" in found[0].message


@pytest.mark.parametrize("dialect", FORCING)
def test_v003_the_forced_function_was_called(dialect):
    if dialect in NAMING:
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


MEETING = {
    "type": "object",
    "properties": {
        "start": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "length": {"type": "string", "format": "duration"},
        "attendees": {"type": "array", "items": {"type": "string", "format": "email"}},
        "room": {"type": "string", "format": "uuid"},
        "host": {"type": "string", "format": "hostname"},
        "link": {"type": "string", "format": "uri"},
        "seats": {"type": "integer", "format": "int32", "minimum": 1},
        "budget": {"type": "number", "format": "double"},
        "pin": {"type": "string", "format": "password"},
    },
    "required": ["start", "attendees"],
}
"""A tool using the formats OpenAI's Structured Outputs guide lists as supported (date-time, date,
duration, email, uuid, hostname…) and OpenAPI's (int32, double, password, as Gemini's ``Schema``)."""
MEETING_CALL = {"start": "2026-12-01T09:30:00Z", "day": "2026-12-01", "length": "PT30M",
                "attendees": ["ana@example.com"], "room": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "host": "meet.example.com", "link": "https://meet.example.com/x", "seats": 4,
                "budget": 12.5, "pin": "1234"}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_standard_formats_are_annotations_not_v005(dialect):
    """Near miss of V005: ``format: date-time`` and the other JSON Schema / OpenAPI formats are
    known (Draft 2020-12 makes ``format`` an annotation), so a valid call raises nothing, and a
    wrong one raises V002 alone."""
    assert check(dialect, Spec(calls=[CallSpec("plan", MEETING_CALL)]), tools={"plan": MEETING}) == []
    found = check(dialect, Spec(calls=[CallSpec("plan", {**MEETING_CALL, "seats": 0})]), tools={"plan": MEETING})
    assert codes(found) == ["V002"] and "$.seats" in found[0].message


def test_a_tool_the_openai_sdk_built_from_a_pydantic_model_with_dates_raises_nothing():
    """What agents really send: ``openai.pydantic_function_tool`` spells ``datetime``, ``date``,
    ``timedelta`` and ``UUID`` fields as ``format: date-time|date|duration|uuid`` (strict). A valid
    call: no V finding at all (it was V005 before); a wrong one: V002 alone, an error (strict)."""
    import datetime
    import uuid

    import openai
    from pydantic import BaseModel

    class Meeting(BaseModel):
        start: datetime.datetime
        day: datetime.date
        length: datetime.timedelta
        room: uuid.UUID
        seats: int

    tool = openai.pydantic_function_tool(Meeting, name="plan")
    assert tool["function"]["parameters"]["properties"]["start"]["format"] == "date-time"
    body = {"model": "gpt-4o", "stream": True, "messages": [{"role": "user", "content": "book it"}], "tools": [tool]}
    good = {"start": "2026-12-01T09:30:00Z", "day": "2026-12-01", "length": "PT30M",
            "room": "0f8fad5b-d9cb-469f-a165-70867728950e", "seats": 4}

    def found(args):
        cap = with_request(render("openai-chat", Spec(calls=[CallSpec("plan", args)])), copy.deepcopy(body))
        return [f for f in run_capture(cap).findings if f.code.startswith("V")]

    assert found(good) == []
    [bad] = found({**good, "seats": "four"})
    assert bad.code == "V002" and bad.severity == "error" and "$.seats" in bad.message


@pytest.mark.parametrize("fmt", ["date-time", "time", "idn-email", "idn-hostname", "ipv4", "ipv6",
                                 "uri-reference", "iri", "iri-reference", "uri-template", "json-pointer",
                                 "relative-json-pointer", "regex", "int64", "float", "byte", "binary", "enum"])
def test_every_spec_format_is_known(fmt):
    """No V005 whether or not the validator asserts the format (one it asserts may still give V002)."""
    tool = {"type": "object", "properties": {"v": {"type": "string", "format": fmt}}}
    assert "V005" not in codes(check("openai-chat", Spec(calls=[CallSpec("t", {"v": "x"})]), tools={"t": tool}))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v005_a_made_up_format_alone(dialect):
    odd = {**MEETING, "properties": {**MEETING["properties"], "room": {"type": "string", "format": "room-code"}}}
    found = check(dialect, Spec(calls=[CallSpec("plan", MEETING_CALL)]), tools={"plan": odd})
    assert codes(found) == ["V005"]
    assert "at $.properties.room: format 'room-code' is not checked" in found[0].message


@pytest.mark.parametrize("dialect", DIALECTS)
def test_v005_a_schema_that_is_not_one_judges_the_name_only(dialect):
    broken = {"type": "object", "properties": {"city": {"type": "town"}}}
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto"})]), tools={"get_weather": broken})
    assert codes(found) == ["V005"] and "not a valid schema" in found[0].message


LOOKBEHIND = {"propertyNames": {"pattern": "(?<=a)b"}}
"""A pattern only the Python validator takes: the call is judged by it alone (no ``jsonschema_rs``)."""


@pytest.mark.parametrize("schema,why", [
    ({"$ref": "#", **LOOKBEHIND}, "recurses"),
    ({"$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}, "$ref": "#/$defs/x", **LOOKBEHIND}, "recurses"),
    ({"$ref": "#", "required": ["nope"]}, "recurses"),
    ({"$ref": "#/$defs/missing"}, "$ref"),
    ({"type": "object", "properties": {"city": {"$ref": "https://example.invalid/s.json"}}}, "$ref"),
])
@pytest.mark.parametrize("dialect", ["anthropic-messages", "openai-chat", "gemini"])
def test_a_ref_that_loops_or_points_nowhere_is_v005_not_a_crash(dialect, schema, why):
    found = check(dialect, Spec(calls=[CallSpec("get_weather", {"city": "Porto"})]), tools={"get_weather": schema})
    assert codes(found) == ["V005"] and why in found[0].message and "not judged" in found[0].message


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


# ------------------------------------------------------------------ tools the provider runs itself

def test_anthropic_server_tool_calls_are_exempt_and_satisfy_any():
    """A ``server_tool_use`` block (web search) is Anthropic's own call: never V001/V002 even though
    ``web_search`` has no ``input_schema``; with ``tool_choice: any`` it is the call that was forced."""
    body = sse(
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                                              "content": [], "stop_reason": None, "usage": {"input_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "id": "srvtoolu_1",
                                                                      "name": "web_search", "input": {}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                                                              "partial_json": '{"query": 42}'}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 3}},
        {"type": "message_stop"})
    req = {"model": "m", "max_tokens": 9, "messages": [], "tool_choice": {"type": "any"},
           "tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 2},
                     {"name": "get_weather", "input_schema": WEATHER}]}
    cap = Capture(chunks=[Chunk(0.1, body)], request={"method": "POST", "url": "", "headers": {}, "body": req},
                  response={"status": 200, "headers": {"content-type": "text/event-stream"}})
    assert [f.code for f in run_capture(cap).findings] == []


def test_anthropic_defined_client_tools_are_declared_by_name():
    """``bash_20250124`` is a client tool with a built-in schema: a ``tool_use`` named ``bash`` is declared."""
    spec = Spec(calls=[CallSpec("bash", {"command": "ls"})])
    body = {"model": "m", "max_tokens": 9, "messages": [], "tools": [{"type": "bash_20250124", "name": "bash"}]}
    assert [f.code for f in run_capture(with_request(render("anthropic-messages", spec), body)).findings] == []


def test_gemini_parameters_are_the_openapi_subset_mapped_to_json_schema():
    """Upper-case types, ``nullable``, OpenAPI formats and ``propertyOrdering`` (google-genai ``Schema``)."""
    params = {"type": "OBJECT", "propertyOrdering": ["city", "days", "note"],
              "properties": {"city": {"type": "STRING", "description": "a city"},
                             "days": {"type": "INTEGER", "format": "int32", "minimum": 1},
                             "note": {"type": "STRING", "nullable": True, "enum": ["a", "b"], "format": "enum"},
                             "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "maxItems": "2"}},
              "required": ["city", "days"]}
    body = {"contents": [], "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": params}]}]}
    good = Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 2, "note": None, "tags": ["x"]})])
    assert run_capture(with_request(render("gemini", good), body)).findings == []
    bad = Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 0, "note": "c", "tags": ["x", "y", "z"]})])
    [f] = run_capture(with_request(render("gemini", bad), body)).findings
    assert f.code == "V002"
    assert "$.days: 0 is less than the minimum of 1" in f.message and "$.note: 'c' is not one of" in f.message
    assert "$.tags: ['x', 'y', 'z'] is too long (maxItems)" in f.message  # "2": proto JSON's int64 spelling


def test_gemini_snake_case_request_and_validated_mode_is_strict():
    body = {"contents": [], "tool_config": {"function_calling_config": {"mode": "VALIDATED"}},
            "tools": [{"function_declarations": [{"name": "get_weather", "parameters_json_schema": WEATHER}]}]}
    spec = Spec(calls=[CallSpec("get_weather", {"city": "Porto"})])
    [f] = run_capture(with_request(render("gemini", spec), body)).findings
    assert (f.code, f.severity) == ("V002", "error")


def test_responses_hosted_tool_items_are_no_function_calls():
    """A request with ``web_search`` forced to ``required``: the answer's ``web_search_call`` item counts."""
    item = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}}
    resp = {"id": "resp_1", "object": "response", "status": "in_progress", "model": "m", "output": []}
    body = sse({"type": "response.created", "sequence_number": 0, "response": resp},
               {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item},
               {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item},
               {"type": "response.completed", "sequence_number": 3,
                "response": {**resp, "status": "completed", "output": [item]}})
    req = {"model": "m", "input": "go", "tool_choice": "required", "parallel_tool_calls": False,
           "tools": [{"type": "web_search"}, {"type": "function", "name": "get_weather", "parameters": WEATHER}]}
    cap = Capture(chunks=[Chunk(0.1, body)], request={"method": "POST", "url": "", "headers": {}, "body": req},
                  response={"status": 200, "headers": {"content-type": "text/event-stream"}})
    assert [f.code for f in run_capture(cap).findings] == []


def test_a_stored_schema_never_changes_the_verdict_and_bad_declarations_never_crash():
    """Declarations no provider accepts (a tool that is a string, a schema that is a list, a name that
    is a number) are skipped, never a crash."""
    body = {"model": "m", "messages": [], "tools": ["get_weather", {"type": "function", "function": {"name": 3}},
                                                    {"type": "function", "function": {"name": "get_weather",
                                                                                      "parameters": [1]}}],
            "tool_choice": {"type": "function"}, "parallel_tool_calls": "no"}
    spec = Spec(calls=[GOOD])
    assert run_capture(with_request(render("openai-chat", spec), body)).findings == []


def test_replay_checkpoints_copy_the_rules_and_share_the_compiled_schemas():
    cap = with_request(render("openai-chat", Spec(calls=[CallSpec("get_weather", {"city": "P", "days": 0})])),
                       request_body("openai-chat", TOOLS))
    s = run_capture(cap)
    twin = copy.deepcopy(s)
    assert twin.declared.s is twin and twin.declared._compiled is s.declared._compiled
    assert twin.declared.violations == s.declared.violations and s.declared.violations


# ------------------------------------------------------------------ check --request
def _pasted_chat_answer(tmp_path, args: str):
    cap = tmp_path / "answer.sse"
    cap.write_bytes(sse({"id": "c", "object": "chat.completion.chunk", "model": "m", "choices": [
        {"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                               "function": {"name": "get_weather", "arguments": args}}]},
         "finish_reason": None}]},
        {"id": "c", "object": "chat.completion.chunk", "model": "m",
         "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}, "[DONE]", named=False))
    return cap


def test_check_request_supplies_the_declared_tools_of_a_capture_that_recorded_none(tmp_path, capsys):
    """A pasted SSE body has no request; ``--request`` with the agent's tools judges its calls, even
    when that request carries no history (the request that produced the stream)."""
    req = tmp_path / "req.json"
    req.write_text(json.dumps(request_body("openai-chat", TOOLS, strict=True)))
    cap = _pasted_chat_answer(tmp_path, '{"city": "Porto"}')
    assert main(["check", "--format", "json", "--request", str(req), str(cap)]) == 1
    [f] = json.loads(capsys.readouterr().out)["findings"]
    assert f["code"] == "V002" and "$: 'days' is a required property (required)" in f["message"]
    req.write_text(json.dumps({"model": "m"}))
    assert main(["check", "--request", str(req), str(cap)]) == 2
    assert "declares no tools" in capsys.readouterr().err


# ------------------------------------------------------------------ diff: one set of declared tools for both
def test_diff_judges_both_answers_against_the_same_declared_tools(tmp_path):
    """A: the client side, recorded with its request (arguments as declared). B: what a gateway passed
    on, recorded without its request, the list argument turned into a string: B's V002 is one-sided."""
    body = request_body("openai-chat", {"search": {"type": "object", "properties": {
        "kinds": {"type": "array", "items": {"type": "string"}}}, "required": ["kinds"]}})
    a = with_request(render("openai-chat", Spec(calls=[CallSpec("search", {"kinds": ["dataset"]})])), body)
    b = render("anthropic-messages", Spec(calls=[CallSpec("search", {"kinds": '["dataset"]'})]))
    write_native(a, tmp_path / "a.jsonl")
    write_native(b, tmp_path / "b.jsonl")
    d = diff_captures(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"))
    [one] = [x for x in d.differences if x.kind == "finding-one-side"]
    assert one.side == "b" and one.b == "V002" and "$.kinds: '[\"dataset\"]' is not of type 'array'" in one.message
    assert any("judged against the tools" in n for n in d.notes)
    same = diff_captures(str(tmp_path / "a.jsonl"), str(tmp_path / "a.jsonl"))
    assert not [x for x in same.differences if x.kind == "finding-one-side"]


# ------------------------------------------------------------------ serve --mutate on a one-call stream
V_MUTATIONS = [(d, name, code) for d in ("anthropic-messages", "openai-chat", "ollama", "openai-responses", "gemini",
                                         "cohere-chat")
               for name, code in (("undeclared-tool", "V001"), ("schema-violation", "V002"),
                                  ("ignore-tool-choice", "V003"), ("extra-parallel-call", "V004"))
               if (d != "ollama" or code in ("V001", "V002")) and (d in PARALLEL_SWITCH or code != "V004")]
"""Ollama can neither force a call nor refuse two; Gemini and Cohere cannot refuse two (no parallel switch)."""


@pytest.mark.parametrize("dialect,name,code", V_MUTATIONS)
def test_v_mutations_on_a_one_call_capture_with_a_declaring_request(dialect, name, code):
    """The request already declares the tool (its schema is used: a required key dropped) and the
    answer holds one call (extra-parallel-call adds the second, at a time that never goes back)."""
    cap = with_request(render(dialect, Spec(calls=[GOOD])), request_body(dialect, TOOLS))
    mc = apply("case", "case", cap, MutationSpec(name))
    found = [f.code for f in run_capture(mc.capture).findings]
    assert found == [code], (name, found)
    if name == "schema-violation":
        assert "dropped the required key 'city'" in mc.where


def test_a_gateway_that_rewrites_arguments_into_a_violation_is_named_as_the_hop():
    """Back: the provider's Chat answer to the gateway's translated request, arguments as declared.
    Front: the gateway's Anthropic answer to the client, the list turned into a string: V002 there
    only, so the gateway introduced it."""
    schema = {"search": {"type": "object", "properties": {"kinds": {"type": "array", "items": {"type": "string"}}},
                         "required": ["kinds"]}}
    back = run_capture(with_request(render("openai-chat", Spec(calls=[CallSpec("search", {"kinds": ["x"]})])),
                                    request_body("openai-chat", schema)))
    front = run_capture(with_request(render("anthropic-messages", Spec(calls=[CallSpec("search", {"kinds": '["x"]'})])),
                                     request_body("anthropic-messages", schema)))
    found = attribute(diff_answers(answer_from_session(back, "back"), answer_from_session(front, "front")))
    assert [(h.hop, h.what) for h in found if h.what.startswith("V")] == [("gateway", "V002")]


def test_v005_a_draft_the_validator_does_not_know_is_said_and_judged_as_2020_12():
    odd = {**WEATHER, "$schema": "https://example.com/my-draft"}
    found = check("openai-chat", Spec(calls=[CallSpec("get_weather", {"city": "Porto", "days": 0})]),
                  tools={"get_weather": odd})
    assert codes(found) == ["V002", "V005"]
    assert "is not a draft the validator knows (judged as Draft 2020-12)" in next(
        f for f in found if f.code == "V005").message


def test_v002_counts_the_violations_it_does_not_name():
    many = {"type": "object", "properties": {k: {"type": "integer"} for k in "abcde"}}
    found = check("openai-chat", Spec(calls=[CallSpec("get_time", {k: "x" for k in "abcde"})]),
                  tools={"get_time": many})
    assert codes(found) == ["V002"] and "(and 2 more)" in found[0].message
    assert found[0].message.count("is not of type 'integer'") == 3
