"""Pasted text: pure SSE is untouched; SSE or NDJSON inside prose or markdown fences is cut out, and
findings still point at the lines of the file."""
from __future__ import annotations

import json

import pytest

from inspector.capture.load import load_bytes
from inspector.capture.text import extract_stream
from inspector.feeds.run import run_capture

CHUNK = ('{"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
         '"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}')
FINISH = ('{"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
          '"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}')
STREAM = f"data: {CHUNK}\n\ndata: {{broken\n\ndata: {FINISH}\n\ndata: [DONE]\n\n"
"""A chat stream whose second event (body line 3) is not JSON (S002)."""


def s002_line(raw: bytes) -> int:
    s = run_capture(load_bytes(raw))
    (f,) = [f for f in s.findings if f.code == "S002"]
    return f.line


@pytest.mark.parametrize("raw", [
    STREAM.encode(),
    ("\n\n" + STREAM).encode(),
    STREAM.replace("\n", "\r\n").encode(),
    (": keepalive\nevent: x\n" + STREAM + "\n\n").encode(),
    STREAM.encode()[:-1],
    "\ufeff".encode() + STREAM.encode(),
])
def test_pure_sse_comes_back_unchanged(raw):
    cap = extract_stream(raw)
    assert cap.source_format == "sse" and cap.body == raw and cap.line_base == 0 and cap.notes == []
    assert len(cap.chunks) == 1 and cap.chunks[0].t is None


def test_prose_before_and_after_is_dropped_and_lines_are_file_lines():
    raw = ("I get this from the proxy:\nIt breaks the client.\n\n" + STREAM + "Any idea?\nThanks\n").encode()
    cap = load_bytes(raw)
    assert cap.source_format == "text" and cap.line_base == 3
    assert cap.notes == ["ignored 2 lines of prose before the stream and 2 after it"]
    assert b"Any idea" not in cap.body and b"proxy" not in cap.body
    assert s002_line(raw) == 6
    assert [f.code for f in run_capture(cap).findings] == ["S014", "S002"]


def test_prose_after_only_and_last_event_closed():
    raw = (f"data: {CHUNK}\n\ndata: {FINISH}\n\ndata: [DONE]\nthat's all\n").encode()
    cap = load_bytes(raw)
    assert cap.notes == ["ignored 1 line of prose after the stream"] and cap.line_base == 0
    codes = [f.code for f in run_capture(cap).findings]
    assert codes == ["S014"]


def test_markdown_fence():
    raw = ("## Bug\nThe stream:\n```text\n" + STREAM + "```\nAfter that the client hangs.\n").encode()
    cap = load_bytes(raw)
    assert cap.source_format == "text" and cap.line_base == 3
    assert "code fence at lines 4–" in cap.notes[0] and "ignored 3 lines of prose" in cap.notes[0]
    assert s002_line(raw) == 6


def test_fence_without_trailing_blank_line_is_not_unterminated():
    raw = (f"Here:\n```\ndata: {CHUNK}\n\ndata: {FINISH}\n\ndata: [DONE]\n```\n").encode()
    s = run_capture(load_bytes(raw))
    assert [f.code for f in s.findings] == ["S014"] and s.dialect_name == "openai-chat"


def test_only_fences_with_data_lines_and_line_numbers_across_two_fences():
    raw = ("Request:\n```json\n{\"model\": \"m\"}\n```\nResponse part 1:\n```\n"
           f"data: {CHUNK}\n\n```\nthen, a bit later:\n```\ndata: {{broken\n\ndata: {FINISH}\n\ndata: [DONE]\n```\n").encode()
    cap = load_bytes(raw)
    assert "2 code fences" in cap.notes[0]
    assert b"model\": \"m\"}" not in cap.body
    assert s002_line(raw) == 12


def test_ndjson_inside_a_fence():
    lines = [{"model": "m", "created_at": "x", "message": {"role": "assistant", "content": "hi"}, "done": False},
             {"model": "m", "created_at": "x", "message": {"role": "assistant", "content": ""}, "done": True,
              "done_reason": "stop"}]
    raw = ("Ollama says:\n```json\n" + "\n".join(json.dumps(x) for x in lines) + "\n```\n").encode()
    cap = load_bytes(raw)
    s = run_capture(cap)
    assert s.dialect_name == "ollama" and [f.code for f in s.findings] == ["S014"]
    assert s.blocks[0].content == "hi"


def test_ndjson_after_prose_without_fence():
    raw = b'Output:\n{"model":"m","created_at":"x","message":{"content":"a"},"done":false}\n{oops\n'
    s = run_capture(load_bytes(raw))
    assert s.dialect_name == "ollama"
    (f,) = [f for f in s.findings if f.code == "S002"]
    assert f.line == 3


def test_text_with_no_stream_is_left_alone():
    raw = b"hello there\nnothing to see\n"
    cap = extract_stream(raw)
    assert cap.body == raw and cap.notes == []


def test_loading_a_large_sse_body_copies_nothing():
    """The format is told from the head and the structure: no whole-file copy (``strip``, a first-line
    ``split``) and no scan for code fences; the chunk is the bytes as read."""
    import tracemalloc


    event = b'data: {"choices":[{"delta":{"content":"```py\\nx = 1\\n```"}}]}\n\n'
    raw = event * (4_000_000 // len(event)) + b"\n\n\n"
    tracemalloc.start()
    try:
        cap = load_bytes(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cap.source_format == "sse" and cap.chunks[0].data is raw
    assert peak < 256 * 1024, peak


def test_a_fence_line_inside_an_sse_paste_is_one_more_line_of_it():
    """First and last lines are SSE: the paste is the stream, a fence line inside it is an ignored
    field line (no event is dropped for lying outside a fence)."""

    raw = b'data: {"a":1}\n\n```\ndata: {"b":2}\n\n```\ndata: {"c":3}\n\n'
    cap = load_bytes(raw)
    assert cap.source_format == "sse" and cap.chunks[0].data is raw
    assert [e.data for e in run_capture(cap).events] == ['{"a":1}', '{"b":2}', '{"c":3}']
