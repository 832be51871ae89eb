"""Cohere v2 chat: the docs' streams read clean with the right blocks; K001, K002, S003, S006, S008 and the
J rules fire on their shapes and not on a near miss; detection by event shape and by URL."""
from __future__ import annotations

import copy
import json

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.report.spans import span_for
from tests.conftest import ROOT
from tests.helpers import check_bytes, codes, sse

HERE = ROOT / "tests" / "real_streams" / "cohere"
TOOL_STEP = HERE / "docs-tool-use-streaming-tool-calls.sse"
ANSWER_STEP = HERE / "docs-tool-use-streaming-response.sse"


def events(path=TOOL_STEP) -> list[dict]:
    return [json.loads(line[6:]) for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("data: ")]


def run(evs, **kw):
    return check_bytes(sse(*evs), **kw)


def of_type(evs, typ):
    return [e for e in evs if isinstance(e, dict) and e.get("type") == typ]


def test_tool_calling_step_reads_clean_with_plan_and_two_calls():
    s = run_capture(load_path(TOOL_STEP))
    assert s.dialect_name == "cohere-chat" and codes(s) == []
    assert s.stop_reason == "TOOL_CALL" and s.ended
    assert [b.kind for b in s.blocks] == ["tool_plan", "tool_call", "tool_call"]
    assert s.blocks[0].content == "I will search for the weather in Madrid and Brasilia."
    calls = s.blocks[1:]
    assert [(b.id, b.name, b.status) for b in calls] == [("get_weather_p1t92w7gfgq7", "get_weather", "complete"),
                                                         ("get_weather_ay6nmvjgp9vn", "get_weather", "complete")]
    assert [json.loads(b.content) for b in calls] == [{"location": "Madrid"}, {"location": "Brasilia"}]
    assert all(b.closed for b in s.blocks)


def test_answer_step_reads_clean_with_text_and_its_citations():
    s = run_capture(load_path(ANSWER_STEP))
    assert s.dialect_name == "cohere-chat" and codes(s) == [] and s.stop_reason == "COMPLETE"
    (text,) = s.blocks
    assert text.kind == "text" and text.content == "It is currently 24°C in Madrid and 28°C in Brasilia."
    assert [c["text"] for c in text.extra["citations"]] == ["24°C", "28°C"]


def test_usage_goes_to_the_span_from_the_token_counts():
    span = span_for(run_capture(load_path(TOOL_STEP)), start=0.0)
    assert span.attributes["gen_ai.provider.name"] == "cohere"
    assert span.attributes["gen_ai.usage.input_tokens"] == 913  # tokens, not billed_units (37)
    assert span.attributes["gen_ai.usage.output_tokens"] == 83
    assert span.attributes["gen_ai.response.id"] == "fba98ad3-e5a1-413c-a8de-84fbf9baabf7"  # message-start's id
    assert span.attributes["gen_ai.response.finish_reasons"] == ["TOOL_CALL"]


def test_thinking_content_is_a_thinking_block():
    evs = [{"type": "message-start", "id": "m", "delta": {"message": {"role": "assistant"}}},
           {"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}}},
           {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"thinking": "hmm"}}}},
           {"type": "content-end", "index": 0},
           {"type": "content-start", "index": 1, "delta": {"message": {"content": {"type": "text", "text": ""}}}},
           {"type": "content-delta", "index": 1, "delta": {"message": {"content": {"text": "Hi"}}}},
           {"type": "content-end", "index": 1},
           {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}]
    s = run(evs)
    assert codes(s) == [] and [(b.kind, b.content) for b in s.blocks] == [("thinking", "hmm"), ("text", "Hi")]


def test_k001_tool_calls_as_a_list_is_dropped_by_the_sdk_but_still_read():
    evs = events()
    for e in of_type(evs, "tool-call-start") + of_type(evs, "tool-call-delta"):
        e["delta"]["message"]["tool_calls"] = [e["delta"]["message"]["tool_calls"]]
    s = run(evs)
    assert set(codes(s)) == {"K001"}
    assert "delta.message.tool_calls is a list, not an object" in s.findings[0].message
    assert json.loads(s.blocks[1].content) == {"location": "Madrid"}  # the inspector still reads it as meant


def test_k001_missing_call_id_and_near_miss_null_name():
    evs = events()
    start = of_type(evs, "tool-call-start")[0]
    del start["delta"]["message"]["tool_calls"]["id"]
    s = run(evs)
    assert codes(s) == ["K001"] and "tool_calls.id is missing" in s.findings[0].message
    near = events()
    of_type(near, "tool-call-start")[0]["delta"]["message"]["tool_calls"]["function"]["name"] = None
    assert "K001" not in codes(run(near))  # Optional fields take null


def test_k001_usage_word_and_near_miss_numeric_string():
    evs = events()
    evs[-1]["delta"]["usage"]["tokens"]["input_tokens"] = "many"
    assert codes(run(evs)) == ["K001"]
    near = events()
    near[-1]["delta"]["usage"]["tokens"]["input_tokens"] = "913"  # pydantic's lax float takes it
    assert codes(run(near)) == []


def test_k002_done_before_message_end_and_near_miss_after_it():
    evs = events()
    mid = evs.index(of_type(evs, "tool-call-delta")[3])
    s = run(evs[: mid + 1] + ["[DONE]"] + evs[mid + 1:])
    assert codes(s) == ["K002"]
    assert codes(run(evs + ["[DONE]"])) == []  # harmless after message-end


def test_no_message_end_is_s003():
    assert codes(run(events()[:-1])) == ["S003"]


def test_error_finish_reason_is_s006_with_its_message_and_the_open_call_is_j005():
    evs = events()
    mid = evs.index(of_type(evs, "tool-call-delta")[3])
    end = {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "internal server error"}}
    s = run(evs[: mid + 1] + [end])
    assert sorted(codes(s)) == ["J005", "S006"]
    assert "internal server error" in next(f.message for f in s.findings if f.code == "S006")
    timeout = copy.deepcopy(end)
    timeout["delta"] = {"finish_reason": "TIMEOUT"}
    assert "S006" in codes(run(evs[: mid + 1] + [timeout]))


def test_max_tokens_mid_call_keeps_the_call_open():
    evs = events()
    mid = evs.index(of_type(evs, "tool-call-delta")[3])
    s = run(evs[: mid + 1] + [{"type": "message-end", "delta": {"finish_reason": "MAX_TOKENS"}}])
    assert codes(s) == ["J005"] and s.stop_reason == "MAX_TOKENS"


def test_j001_on_invalid_arguments_and_j004_on_a_list():
    evs = events()
    of_type(evs, "tool-call-delta")[0]["delta"]["message"]["tool_calls"]["function"]["arguments"] = "}{"
    assert "J001" in codes(run(evs))
    evs = [e for e in events() if e["type"] != "tool-call-delta"]
    for e in of_type(evs, "tool-call-start"):
        e["delta"]["message"]["tool_calls"]["function"]["arguments"] = "[1]"
    assert set(codes(run(evs))) == {"J004"}


def test_unknown_event_type_and_finish_reason_are_s008():
    evs = events()
    evs.insert(3, {"type": "tool-call-chunk", "index": 0})
    evs[-1]["delta"]["finish_reason"] = "SAFETY"
    s = run(evs)
    assert codes(s) == ["S008", "S008"]


def test_a_second_response_after_message_end_is_judged_on_its_own():
    evs = events()
    s = run(evs + evs)
    assert codes(s) == ["S004"] and len(s.responses) == 2


def test_detected_by_url_when_no_event_identifies():
    from inspector.session import detect
    assert detect.fallback({"url": "https://api.cohere.com/v2/chat"}) == "cohere-chat"
    assert detect.fallback({"url": "http://127.0.0.1:9/cohere/v2/chat"}) == "cohere-chat"
    assert detect.fallback({"url": "http://127.0.0.1:9/v2/chat/completions"}) != "cohere-chat"


def test_history_sent_back_is_read_by_the_chat_shape(tmp_path):
    """A v2 request's history is Chat-shaped (assistant ``tool_calls`` with string arguments, ``tool`` messages by
    ``tool_call_id``): Q006 when the arguments sent back differ from the streamed ones, nothing when they match."""
    from tests.e2e.conftest import run_cli

    def history(location: str) -> str:
        call = {"id": "get_weather_p1t92w7gfgq7", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"location": location})}}
        body = {"model": "command-a-03-2025", "stream": True, "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "tool_plan": "I will search.", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call["id"], "content": "24C"}]}
        path = tmp_path / f"{location}.json"
        path.write_text(json.dumps(body))
        return str(path)

    def found(location: str) -> list[str]:
        code, out, err = run_cli(["check", "--format", "json", "--request", history(location), str(TOOL_STEP)])
        assert code in (0, 1), err
        return [f["code"] for f in json.loads(out)["findings"]]

    assert found("Madri") == ["Q006"]
    assert found("Madrid") == []



def test_an_http_error_body_is_s007_alone():
    from tests.helpers import timed

    cap = timed((0.1, '{"id": "x", "message": "invalid api token"}'), end=(0.2, "eof"), status=401,
                ctype="application/json")
    cap.request = {"method": "POST", "url": "https://api.cohere.com/v2/chat", "headers": {}, "body": None}
    s = run_capture(cap)
    assert s.dialect_name == "cohere-chat" and codes(s) == ["S007"]
    assert "invalid api token" in s.findings[0].message


def test_deltas_without_an_index_go_to_the_call_started_last():
    evs = events()
    for e in of_type(evs, "tool-call-delta"):
        del e["index"]
    s = run(evs)
    assert codes(s) == [] and [json.loads(b.content) for b in s.blocks[1:]] == [{"location": "Madrid"},
                                                                              {"location": "Brasilia"}]
    assert "started last" in s.blocks[1].attribution
