"""How each provider's whole answers and sent-back turns read (``providers/*/answer.py``), and matrix files."""
from __future__ import annotations

import pytest

from inspector.net.conform.grade import CaseResult, _expectations
from inspector.net.conform.matrix import Case, MatrixError, load, parse
from inspector.providers.conformers import CONFORMANCE


def test_anthropic():
    conf = CONFORMANCE["anthropic"]
    turn = conf.read({"content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "Hi"},
                                  {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}],
                      "stop_reason": "tool_use"})
    assert (turn.text, turn.kinds, turn.stop_reason) == ("Hi", ["thinking", "text", "tool_use"], "tool_use")
    assert [(c.id, c.name, c.arguments) for c in turn.calls] == [("toolu_1", "f", {"a": 1})]
    sent = conf.sent_back({"messages": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]})
    assert sent.results == ["toolu_1"] and sent.calls[0].arguments == {}
    assert conf.plain({"model": "m", "stream": True}) == ({"model": "m", "stream": False}, "/v1/messages")
    assert conf.stop_class("max_tokens") == "length" and conf.tool_stop
    with pytest.raises(ValueError):
        conf.read({"choices": []})


def test_openai_chat():
    conf = CONFORMANCE["openai"]
    turn = conf.read({"choices": [{"message": {"content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]},
        "finish_reason": "tool_calls"}]})
    assert [(c.id, c.arguments, c.raw) for c in turn.calls] == [("c1", {"a": 1}, '{"a": 1}')]
    sent = conf.sent_back({"messages": [
        {"role": "assistant", "content": "x", "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"}]})
    assert sent.text == "x" and sent.calls[0].arguments is None and sent.results == ["c1"]
    body, path = conf.plain({"model": "m", "stream_options": {"include_usage": True}})
    assert body == {"model": "m", "stream": False} and path == "/v1/chat/completions"


def test_openai_responses():
    conf = CONFORMANCE["openai-responses"]
    turn = conf.read({"status": "completed", "output": [
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi"}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}]})
    assert (turn.text, turn.calls[0].id, turn.stop_reason) == ("Hi", "call_1", "completed")
    assert conf.stop_class("incomplete") == "length" and not conf.tool_stop
    sent = conf.sent_back({"input": [
        {"role": "user", "content": "q"},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]})
    assert sent.calls[0].name == "f" and sent.results == ["call_1"]


def test_gemini():
    conf = CONFORMANCE["gemini"]
    turn = conf.read({"candidates": [{"content": {"parts": [{"text": "a"}, {"functionCall": {"name": "f", "args": {}}}]},
                                      "finishReason": "STOP"}]})
    assert (turn.text, turn.calls[0].name, conf.stop_class(turn.stop_reason)) == ("a", "f", "end")
    body, path = conf.plain({"model": "models/gemini-x", "contents": []})
    assert path == "/v1beta/models/gemini-x:generateContent" and "model" not in body
    sent = conf.sent_back({"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
                                        {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}]})
    assert sent.results == ["f"]
    with pytest.raises(ValueError, match="model"):
        conf.plain({"contents": []})


def test_ollama():
    conf = CONFORMANCE["ollama"]
    turn = conf.read({"message": {"content": "", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
                      "done": True, "done_reason": "stop"})
    assert turn.calls[0].arguments == {"a": 1} and conf.stop_class("stop") == "end"
    sent = conf.sent_back({"messages": [{"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "f", "arguments": {"a": 1}}}]}, {"role": "tool", "tool_name": "f", "content": "1"}]})
    assert sent.results == ["f"]


def test_cohere():
    """A ``V2ChatResponse`` (cohere-python's shape) and a v2 history with ``tool_plan`` and a tool message."""
    conf = CONFORMANCE["cohere"]
    msg = {"role": "assistant", "tool_plan": "I will look.", "content": [{"type": "thinking", "thinking": "hm"}],
           "tool_calls": [{"id": "get_weather_1", "type": "function",
                           "function": {"name": "get_weather", "arguments": '{"location": "Madrid"}'}}]}
    turn = conf.read({"id": "r", "finish_reason": "TOOL_CALL", "message": msg, "usage": {}})
    assert [(c.id, c.name, c.arguments) for c in turn.calls] == [("get_weather_1", "get_weather", {"location": "Madrid"})]
    assert turn.kinds == ["tool_plan", "thinking", "tool_call"] and conf.stop_class(turn.stop_reason) == "tool"
    assert conf.stop_class("TIMEOUT") == "error" and conf.tool_stop
    sent = conf.sent_back({"messages": [{"role": "user", "content": "weather?"}, msg,
                                        {"role": "tool", "tool_call_id": "get_weather_1", "content": "24C"}]})
    assert sent.results == ["get_weather_1"] and sent.kinds == turn.kinds
    assert conf.plain({"model": "command-a", "stream": True}) == ({"model": "command-a", "stream": False}, "/v2/chat")
    with pytest.raises(ValueError, match="Cohere"):
        conf.read({"choices": [], "message": {}, "finish_reason": "stop"})


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_bundled_matrices_load(provider):
    m = load(provider)
    assert m.provider == provider and m.model and len(m.cases) == 8
    long_case = next(c for c in m.cases if c.name == "long-arguments")
    assert long_case.expect["min_argument_chars"] >= 8000
    assert all(isinstance(t, dict) for c in m.cases for t in c.body.get("tools", []))  # "@name" resolved


def test_a_provider_without_a_bundled_matrix_says_how_to_write_one():
    with pytest.raises(MatrixError, match="no bundled matrix for gemini.*--matrix FILE"):
        load("gemini")


@pytest.mark.parametrize("data,message", [
    ({"case": []}, "no \\[\\[case\\]\\] tables"),
    ({"case": [{"body": {}}]}, "case 1: needs a name"),
    ({"case": [{"name": "a", "body": {}}, {"name": "a", "body": {}}]}, "'a': the name is used twice"),
    ({"case": [{"name": "a"}]}, "needs a body table"),
    ({"case": [{"name": "a", "body": {}, "expect": {"stops": "end"}}]}, "unknown expect key 'stops'"),
    ({"case": [{"name": "a", "body": {}, "expect": {"stop": "done"}}]}, "expect.stop must be one of"),
    ({"case": [{"name": "a", "body": {}, "expect": {"argument_features": ["emoji"]}}]}, "unknown argument feature"),
    ({"provider": "gemini", "case": [{"name": "a", "body": {}}]}, "written for provider 'gemini'"),
])
def test_matrix_errors_are_one_line(data, message):
    with pytest.raises(MatrixError, match=message):
        parse(data, "m.toml", "openai")


@pytest.mark.parametrize("stop,said", [("end", "expected an end stop, got tool_use"),
                                       ("length", "expected a length stop, got tool_use")])
def test_a_missed_stop_class_reads_as_english(stop, said):
    conf = CONFORMANCE["anthropic"]
    turn = conf.read({"content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
                      "stop_reason": "tool_use"})
    result = CaseResult("plain-text", "text only")
    _expectations(result, Case("plain-text", "text only", {}, expect={"stop": stop}), conf, turn)
    assert result.reason == said
