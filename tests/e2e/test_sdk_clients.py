"""The official SDKs, pointed at ``serve``, receive the recorded stream and assemble the tool calls.

This is what ``serve`` is for: testing a client against the exact stream a provider once sent,
including one that breaks off (the SDK must see a transport error, not a clean end).
"""
from __future__ import annotations

import anthropic
import openai
import pytest

from inspector.model.capture import Capture, Chunk, End
from inspector.net.serve import ServerThread
from tests.e2e.conftest import ANTHROPIC_OPENING, sse_event

CUT_OFF = Capture(chunks=[Chunk(0.01, b"".join(sse_event(e) for e in ANTHROPIC_OPENING))],
                  response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                  end=End(0.02, "reset"), source_format="native", request_relative=True)


@pytest.fixture(scope="module")
def server():
    from tests.conftest import SHARED_CORPUS

    with ServerThread([SHARED_CORPUS / "anthropic-doc-tool-call.sse", SHARED_CORPUS / "openai-parallel-indexed.sse",
                       SHARED_CORPUS / "http-429-json-body.jsonl", ("cut-off", CUT_OFF)], instant=True) as srv:
        yield srv


def test_anthropic_sdk_assembles_the_tool_call(server):
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.url_for("anthropic-doc-tool-call"),
                                 max_retries=0, timeout=10)
    with client.messages.stream(model="m", max_tokens=64,
                                messages=[{"role": "user", "content": "weather?"}]) as stream:
        message = stream.get_final_message()
    assert message.stop_reason == "tool_use"
    assert [b.type for b in message.content] == ["text", "tool_use"]
    assert message.content[0].text == "Let me look that up."
    tool = message.content[1]
    assert (tool.id, tool.name, tool.input) == ("toolu_01PoA7q", "get_weather", {"location": "Porto Alegre, RS"})


def test_openai_sdk_assembles_parallel_tool_calls(server):
    client = openai.OpenAI(api_key="sk-test", base_url=server.url_for("openai-parallel-indexed") + "/v1",
                           max_retries=0, timeout=10)
    stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], stream=True)
    calls: dict[int, dict] = {}
    finish = None
    for chunk in stream:
        for choice in chunk.choices:
            finish = choice.finish_reason or finish
            for tc in choice.delta.tool_calls or []:
                call = calls.setdefault(tc.index, {"id": None, "name": None, "arguments": ""})
                call["id"] = tc.id or call["id"]
                call["name"] = (tc.function.name if tc.function else None) or call["name"]
                call["arguments"] += (tc.function.arguments or "") if tc.function else ""
    assert finish == "tool_calls"
    assert calls == {0: {"id": "call_A1", "name": "get_stock", "arguments": '{"symbol": "ACME"}'},
                     1: {"id": "call_B2", "name": "get_fx", "arguments": '{"pair": "EURBRL"}'}}


def test_openai_sdk_stream_helper_gives_parsed_arguments(server):
    client = openai.OpenAI(api_key="sk-test", base_url=server.url_for("openai-parallel-indexed") + "/v1",
                           max_retries=0, timeout=10)
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "x"}]) as stream:
        final = stream.get_final_completion()
    calls = final.choices[0].message.tool_calls
    assert [(c.function.name, c.function.arguments) for c in calls] == [
        ("get_stock", '{"symbol": "ACME"}'), ("get_fx", '{"pair": "EURBRL"}')]


def test_anthropic_sdk_sees_the_recorded_http_error(server):
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.url_for("http-429-json-body"),
                                 max_retries=0, timeout=10)
    with pytest.raises(anthropic.RateLimitError) as info:
        with client.messages.stream(model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]) as s:
            s.get_final_message()
    assert info.value.status_code == 429
    assert "slow down" in str(info.value)


def test_anthropic_sdk_sees_a_broken_stream_not_a_clean_end(server):
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.url_for("cut-off"), max_retries=0, timeout=10)
    seen = []
    with pytest.raises(Exception) as info:  # the SDK's own httpx flavour: match on the error, not the class
        with client.messages.stream(model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]) as s:
            for event in s:
                seen.append(event.type)
    assert "incomplete chunked read" in str(info.value) or isinstance(info.value, anthropic.APIConnectionError)
    assert "content_block_start" in seen  # what arrived before the break was delivered
