"""The two Bedrock dialects beyond the corpus cases: Anthropic-on-Bedrock judges exactly what the
Anthropic dialect judges (every A rule, on every Anthropic case of the shared corpus re-wrapped in
Bedrock chunks), detection, exceptions, summaries."""
from __future__ import annotations

import base64
import json

import pytest

from inspector.capture.load import load_bytes, load_path
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from inspector.model.events import EventRecord
from inspector.providers import summarize
from inspector.report.json import report_dict
from tests import bedrock_frames as f
from tests.conftest import corpus_cases

ANTHROPIC_CASES = [c for c in corpus_cases()
                   if json.loads(c[2].read_text(encoding="utf-8")).get("dialect") == "anthropic-messages"]
JUDGED = ("A", "J")
"""What the events themselves decide (S and T codes depend on the SSE text and its timing)."""


def _rewrapped(session) -> bytes:
    """Each event the Anthropic dialect read, as Bedrock sends it: a ``chunk`` holding its JSON."""
    return b"".join(f.chunk(ev.payload) for ev in session.events if isinstance(ev.payload, dict))


def _blocks(report: dict) -> list:
    return [(b["kind"], b["index"], b["text"], b["arguments"], b["status"], b["closed"]) for b in report["blocks"]]


def _codes(report: dict) -> list:
    return sorted(x["code"] for x in report["findings"] if x["code"].startswith(JUDGED))


@pytest.mark.parametrize("stem,capture,expect", ANTHROPIC_CASES, ids=[c[0] for c in ANTHROPIC_CASES])
def test_every_anthropic_case_judges_the_same_inside_bedrock_chunks(stem, capture, expect):
    sse = run_capture(load_path(capture))
    if sse.dialect_name != "anthropic-messages" or any(not isinstance(e.payload, dict) for e in sse.events):
        pytest.skip("not a stream of Anthropic JSON events (S-rule case)")
    bedrock = run_capture(Capture(chunks=[Chunk(None, _rewrapped(sse))], source_format="eventstream"))
    assert bedrock.dialect_name == "bedrock-anthropic"
    a, b = report_dict("sse", sse), report_dict("bedrock", bedrock)
    assert _codes(b) == _codes(a)
    assert _blocks(b) == _blocks(a)
    assert b["stop_reason"] == a["stop_reason"]
    # findings point at the same event (one chunk per Anthropic event)
    assert [(x["code"], x["event"], x["index"]) for x in b["findings"] if x["code"].startswith(JUDGED)] == \
           [(x["code"], x["event"], x["index"]) for x in a["findings"] if x["code"].startswith(JUDGED)]


def test_a_raw_body_is_detected_from_its_bytes():
    body = f.message_start() + f.text(0, "Hi") + f.stop(0) + f.message_stop() + f.metadata()
    cap = load_bytes(body)
    assert cap.source_format == "eventstream"
    s = run_capture(cap)
    assert s.dialect_name == "bedrock-converse" and s.findings == [] and s.usage["outputTokens"] == 38
    assert load_bytes(b"\x00not a prelude at all").source_format != "eventstream"


@pytest.mark.parametrize("path,dialect", [("/model/m/converse-stream", "bedrock-converse"),
                                          ("/model/m/invoke-with-response-stream", "bedrock-anthropic")])
def test_an_exception_alone_is_s006_in_the_dialect_the_url_names(path, dialect):
    body = f.exception("throttlingException", "Too many requests, please wait before trying again.")
    cap = load_bytes(f.native(body, path=path).encode())
    s = run_capture(cap)
    assert s.dialect_name == dialect
    (err,) = [x for x in s.findings if x.code == "S006"]
    assert "throttlingException: Too many requests" in err.message and err.event == 0


def test_an_exception_without_any_dialect_is_still_s006():
    s = run_capture(load_bytes(f.exception("validationException", "bad input")))
    assert s.dialect_name == "unknown"
    assert {x.code for x in s.findings} == {"S006", "S008"}


def test_chunk_bytes_that_are_not_an_anthropic_event_are_s002():
    body = f.chunk({"type": "message_start", "message": {}}) + f.event("chunk", {"bytes": "!!not base64!!"})
    s = run_capture(load_bytes(body))
    assert s.dialect_name == "bedrock-anthropic"
    assert [x.event for x in s.findings if x.code == "S002"] == [1]


def test_padding_and_unknown_events_are_tolerated():
    body = (f.message_start() + f.event("someNewEvent", {"x": 1}) + f.text(0, "Hi") + f.stop(0)
            + f.message_stop() + f.metadata())
    s = run_capture(load_bytes(body))
    assert [(x.code, x.severity) for x in s.findings] == [("S008", "info")]


def test_summaries_lead_with_the_block_and_fragment():
    def line(dialect, name, payload):
        return summarize(EventRecord(0, name, json.dumps(payload), payload, None, None, True), dialect)

    assert line("bedrock-converse", "contentBlockDelta",
                {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"a"'}}, "p": "abc"}) == '#1 toolUse "{\\"a\\""'
    assert line("bedrock-converse", "contentBlockStart", {"contentBlockIndex": 1, "start": {
        "toolUse": {"toolUseId": "tooluse_1", "name": "get_weather"}}}) == "#1 start toolUse get_weather tooluse_1"
    assert line("bedrock-converse", "messageStop", {"stopReason": "end_turn", "p": "ab"}) == "stopReason=end_turn"
    inner = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}
    chunk_payload = json.loads(f.chunk(inner)[f.chunk(inner).index(b'{"bytes"'):-4])
    assert line("bedrock-anthropic", "chunk", chunk_payload) == 'content_block_delta #0 text_delta "Hi"'


def test_a_har_entry_with_a_base64_event_stream_body():
    body = f.message_start() + f.text(0, "Hi") + f.stop(0) + f.message_stop() + f.metadata()
    entry = {"request": {"method": "POST", "url": "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream",
                         "headers": []},
             "response": {"status": 200, "headers": [{"name": "content-type",
                                                      "value": "application/vnd.amazon.eventstream"}],
                          "content": {"mimeType": "application/vnd.amazon.eventstream", "encoding": "base64",
                                      "text": base64.b64encode(body).decode()}}, "timings": {}}
    har = {"log": {"version": "1.2", "creator": {"name": "devtools"}, "entries": [entry]}}
    s = run_capture(load_bytes(json.dumps(har).encode()))
    assert s.dialect_name == "bedrock-converse" and s.findings == [] and s.blocks[0].content == "Hi"


def test_two_converse_responses_glued_are_judged_each_on_its_own():
    one = [f.message_start(), f.tool_start(0), f.tool_input(0, "{}"), f.stop(0), f.message_stop("tool_use"),
           f.metadata()]
    two = [f.message_start(), f.text(0, "Done."), f.stop(0), f.message_stop(), f.metadata()]
    s = run_capture(load_bytes(b"".join(one + two)))
    report = report_dict("x", s)
    assert [x["code"] for x in report["findings"]] == ["S004"]  # no B006/B005 from the second on the first
    assert [(b["kind"], b["response"]) for b in report["blocks"]] == [("tool_use", 0), ("text", 1)]
