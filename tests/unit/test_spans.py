"""``inspector.report.spans``: each dialect's usage, request settings and finish reason land on the
GenAI semantic-convention attributes (no OpenTelemetry needed: the record is plain data)."""
from __future__ import annotations

import pytest

from inspector.model.capture import Capture, Chunk, End
from inspector.report.spans import FINDING_EVENT, span_for
from tests import bedrock_frames as bf
from tests.helpers import timed
from inspector.feeds.run import run_capture


def chat_capture():
    chunks = [
        (0.30, 'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n'),
        (0.40, 'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'),
        (0.45, 'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"completion_tokens_details":{"reasoning_tokens":3}}}\n\n'),
        (0.46, "data: [DONE]\n\n"),
    ]
    cap = timed(*chunks, end=(0.5, "eof"))
    cap.request = {"method": "POST", "url": "http://127.0.0.1:8000/v1/chat/completions",
                   "headers": {}, "body": {"model": "gpt-x", "max_completion_tokens": 99, "temperature": 0,
                                           "top_p": 0.9, "stop": "END", "seed": 5, "stream": True}}
    return cap


def test_chat_attributes():
    rec = span_for(run_capture(chat_capture()), start=1000.0, label="x.jsonl")
    a = rec.attributes
    assert rec.name == "chat gpt-x" and rec.start == 1000.0 and rec.end == pytest.approx(1000.5)
    assert (a["gen_ai.provider.name"], a["gen_ai.request.model"], a["gen_ai.response.model"]) == ("openai", "gpt-x", "gpt-x")
    assert (a["gen_ai.request.max_tokens"], a["gen_ai.request.temperature"], a["gen_ai.request.top_p"]) == (99, 0.0, 0.9)
    assert a["gen_ai.request.stop_sequences"] == ["END"] and a["gen_ai.request.seed"] == 5
    assert (a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"], a["gen_ai.usage.reasoning.output_tokens"]) == (11, 7, 3)
    assert a["gen_ai.response.finish_reasons"] == ["stop"] and a["gen_ai.response.id"] == "c1"
    assert a["gen_ai.response.time_to_first_chunk"] == pytest.approx(0.30)
    assert (a["server.address"], a["server.port"]) == ("127.0.0.1", 8000)
    assert rec.error is None and rec.events == []
    assert all(v is not None for v in a.values())


def test_findings_become_events_and_a_reset_is_an_error():
    cap = chat_capture()
    cap.chunks = cap.chunks[:1]
    cap.end.kind, cap.end.t = "reset", 0.35
    s = run_capture(cap)
    rec = span_for(s, start=0.0)
    assert rec.error == "reset" and rec.attributes["error.type"] == "reset"
    assert [e.attributes["stream_inspector.finding.code"] for e in rec.events] == [f.code for f in s.findings]
    assert all(e.name == FINDING_EVENT for e in rec.events)
    assert rec.attributes["stream_inspector.findings.error"] == sum(f.severity == "error" for f in s.findings) > 0


def test_gemini_model_from_the_url_and_usage_metadata():
    body = ('data: {"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP"}],'
            '"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"thoughtsTokenCount":1},"modelVersion":"gemini-x"}\n\n')
    cap = timed((0.2, body), end=(0.3, "eof"))
    cap.request = {"method": "POST", "url": "https://generativelanguage.googleapis.com/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
                   "headers": {}, "body": {"contents": [], "generationConfig": {"maxOutputTokens": 10, "topK": 3}}}
    a = span_for(run_capture(cap), start=0.0).attributes
    assert (a["gen_ai.operation.name"], a["gen_ai.provider.name"], a["gen_ai.request.model"]) == \
        ("generate_content", "gcp.gemini", "gemini-x")
    assert (a["gen_ai.request.max_tokens"], a["gen_ai.request.top_k"]) == (10, 3.0)
    assert (a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"], a["gen_ai.usage.reasoning.output_tokens"]) == (4, 2, 1)


def test_ollama_counts_and_an_unknown_stream():
    line = '{"model":"llama3","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"stop","prompt_eval_count":8,"eval_count":3}\n'
    a = span_for(run_capture(timed((0.1, line), ctype="application/x-ndjson", end=(0.2, "eof"))), start=0.0).attributes
    assert a["gen_ai.provider.name"] == "ollama" and (a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"]) == (8, 3)
    unknown = span_for(run_capture(timed((0.1, "data: {}\n\n"))), start=0.0)
    assert unknown.attributes["gen_ai.provider.name"] == "_OTHER" and unknown.name == "chat"


def test_bedrock_converse_usage_and_provider_name():
    # Converse reports camelCase counts (metadata.usage.inputTokens): read through its record's usage_keys
    # (no span token counts before they moved onto the record).
    body = bf.message_start() + bf.text(0, "Hi") + bf.stop(0) + bf.message_stop() + bf.metadata(inp=21, out=4)
    cap = Capture(chunks=[Chunk(0.1, body)], end=End(t=0.2, kind="eof"),
                  request={"method": "POST", "url": "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream",
                           "headers": {}, "body": {"messages": []}},
                  response={"status": 200, "headers": {"content-type": "application/vnd.amazon.eventstream"}},
                  request_relative=True)
    s = run_capture(cap)
    assert s.dialect_name == "bedrock-converse"
    a = span_for(s, start=0.0).attributes
    assert a["gen_ai.provider.name"] == "aws.bedrock"
    assert (a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"]) == (21, 4)
