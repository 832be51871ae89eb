"""One detection for every command (issue 23 item 13, issue 25 item 1): a dialect is given only by shapes it
defines, and ``check`` and ``replay`` agree on what is a stream capture at all."""
from __future__ import annotations

import json

import pytest

from inspector.capture.errors import CaptureError
from inspector.capture.load import load_path
from inspector.cli.check import Options, check_one
from inspector.cli.inputs import Input
from inspector.feeds.opening import OpeningFeed
from inspector.feeds.run import stream_problem
from tests.conftest import ROOT, SHARED_CORPUS
from tests.helpers import check_bytes, codes


def sse(*events) -> bytes:
    out = []
    for name, payload in events:
        data = payload if isinstance(payload, str) else json.dumps(payload)
        out.append((f"event: {name}\n" if name else "") + f"data: {data}\n\n")
    return "".join(out).encode()


ASSISTANTS = sse(
    ("thread.run.created", {"id": "run_1", "object": "thread.run", "created_at": 1, "status": "queued", "model": "gpt-4o"}),
    ("thread.message.delta", {"id": "msg_1", "object": "thread.message.delta",
                              "delta": {"content": [{"index": 0, "type": "text", "text": {"value": "Hello"}}]}}),
    ("thread.run.completed", {"id": "run_1", "object": "thread.run", "created_at": 1, "status": "completed"}),
    ("done", "[DONE]"))
INTERACTIONS = sse(
    (None, {"event_type": "interaction.start", "interaction": {"id": "int_1", "status": "in_progress"}}),
    (None, {"event_type": "step.start", "index": 0}),
    (None, {"event_type": "content.delta", "index": 0, "delta": {"type": "text", "text": "Hello"}}),
    (None, {"event_type": "interaction.complete", "interaction": {"id": "int_1", "status": "completed"}}),
    (None, "[DONE]"))


@pytest.mark.parametrize("body,types", [
    (ASSISTANTS, "thread.run.created, thread.message.delta, thread.run.completed, done"),
    (INTERACTIONS, "interaction.start, step.start, content.delta, interaction.complete, [DONE]"),
])
def test_events_no_dialect_defines_are_unknown_with_one_S008_naming_them(body, types):
    s = check_bytes(body)
    assert s.dialect_name == "unknown" and codes(s) == ["S008"]
    assert types in s.findings[0].message
    assert not s.blocks


def test_a_lone_done_or_event_done_decides_nothing():
    for body in (b"data: [DONE]\n\n", b"event: done\ndata: [DONE]\n\n"):
        s = check_bytes(body)
        assert s.dialect_name == "unknown" and "S002" not in codes(s)


def test_near_miss_a_chat_stream_ending_with_done_is_still_chat():
    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
    s = check_bytes(sse((None, chunk), (None, "[DONE]")))
    assert s.dialect_name == "openai-chat" and codes(s) == []


NOT_STREAMS = [ROOT / "README.md", ROOT / "pyproject.toml", SHARED_CORPUS / "openai-parallel-indexed.expect.json"]
STREAMS = [SHARED_CORPUS / "openai-parallel-indexed.sse", SHARED_CORPUS / "wild-gemini-json-array-body.json"]


@pytest.mark.parametrize("path", NOT_STREAMS + STREAMS, ids=lambda p: p.name)
def test_check_and_replay_agree_on_what_is_a_stream(path):
    (checked,) = check_one(Input(str(path), str(path), True), Options("json", None, None, 10.0, {}, None))
    try:
        OpeningFeed(path).open()
        replay_error = None
    except CaptureError as e:
        replay_error = str(e)
    assert (checked.problem is None) == (replay_error is None) == (path in STREAMS)
    if replay_error is not None:
        assert replay_error == checked.problem  # the same sentence from both
        assert stream_problem(load_path(path)) in replay_error


def test_a_forced_dialect_reads_anything_in_both():
    assert stream_problem(load_path(ROOT / "README.md"), dialect="openai-chat") is None
