"""Ollama native NDJSON: a clean stream is clean; N001, C015 and S003/S004/S006 fire on their shapes and
not on a near miss; chunk boundaries never change the result."""
from __future__ import annotations

import json

import pytest

from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from inspector.providers.ollama.sniff import sniff
from tests.helpers import check_bytes, codes


def line(content="", *, done=False, thinking=None, tool_calls=None, reason="stop", **extra) -> dict:
    msg = {"role": "assistant", "content": content}
    if thinking is not None:
        msg["thinking"] = thinking
    if tool_calls is not None:
        msg["tool_calls"] = tool_calls
    out = {"model": "llama-test", "created_at": "2026-01-01T00:00:00Z", "message": msg, "done": done, **extra}
    if done:
        out["done_reason"] = reason
        out["eval_count"] = 5
    return out


def gen(response="", *, done=False, reason="stop") -> dict:
    out = {"model": "llama-test", "created_at": "2026-01-01T00:00:00Z", "response": response, "done": done}
    if done:
        out["done_reason"] = reason
    return out


def tc(name="lookup", args=None, index=0, **kw):
    return {"function": {"index": index, "name": name, "arguments": {"q": 1} if args is None else args}, **kw}


def body(*lines) -> bytes:
    return "".join((json.dumps(x) if not isinstance(x, str) else x) + "\n" for x in lines).encode()


def run(*lines, **kw):
    return check_bytes(body(*lines), **kw)


def test_clean_chat_stream_is_clean():
    s = run(line("Hel"), line("lo"), line(done=True))
    assert codes(s) == []
    assert s.dialect_name == "ollama" and s.stop_reason == "stop" and s.model == "llama-test"
    (b,) = s.blocks
    assert (b.kind, b.content, b.closed, b.deltas) == ("text", "Hello", True, 2)


def test_clean_tool_call_and_thinking():
    s = run(line(thinking="hmm"), line(thinking=" ok"), line(tool_calls=[tc(), tc("other", {}, 1, id="call_b")]),
            line(done=True))
    assert codes(s) == []
    th, a, b = s.blocks
    assert (th.kind, th.content) == ("thinking", "hmm ok")
    assert (a.kind, a.name, a.status, a.input, a.closed, a.content) == ("tool_call", "lookup", "complete", {"q": 1}, True, '{"q":1}')
    assert (b.id, b.input) == ("call_b", {})


def test_tool_call_without_arguments_is_an_empty_object():
    s = run(line(tool_calls=[{"function": {"name": "now"}}]), line(done=True))
    assert codes(s) == [] and s.blocks[0].status == "complete" and s.blocks[0].input == {}


def test_generate_endpoint_response_field():
    s = run(gen("Hi"), gen(" there"), gen(done=True, reason="length"))
    assert codes(s) == [] and s.blocks[0].content == "Hi there" and s.stop_reason == "length"


# --------------------------------------------------------------------------- N001
def test_N001_string_arguments_judged_by_j_rules():
    s = run(line(tool_calls=[tc(args='{"q": 1}')]), line(done=True))
    assert codes(s) == ["N001"] and s.blocks[0].input == {"q": 1}
    bad = run(line(tool_calls=[tc(args='{"q": ')]), line(done=True))
    assert codes(bad) == ["N001", "J002"]


def test_N001_near_miss_object_arguments():
    assert "N001" not in codes(run(line(tool_calls=[tc(args={"q": "x"})]), line(done=True)))


# --------------------------------------------------------------------------- C015
def test_C015_tool_call_written_as_text():
    s = run(line('{"name": "get_time", '), line('"arguments": {}}'), line(done=True))
    assert codes(s) == ["C015"] and s.findings[0].event == 2


def test_C015_tags_and_no_done():
    s = run(line("<tool_call>{\"name\": \"x\", \"arguments\": {}}</tool_call>"))
    assert set(codes(s)) == {"C015", "S003"}


def test_C015_near_misses():
    assert codes(run(line('{"answer": 42}'), line(done=True))) == []
    assert codes(run(line('{"name": "x", "arguments": {}}'), line(tool_calls=[tc()]), line(done=True))) == []


# --------------------------------------------------------------------------- S rules
def test_S003_no_done_line():
    s = run(line("partial"))
    assert codes(s) == ["S003"] and not s.blocks[0].closed


def test_S004_line_after_done():
    assert codes(run(line("a"), line(done=True), line("late"))) == ["S004"]


def test_S006_error_line_ends_the_stream():
    s = check_bytes(body(line("a"), {"error": "model runner has unexpectedly stopped"}))
    assert codes(s) == ["S006"]
    assert "unexpectedly stopped" in s.findings[0].message


def test_not_sniffed_without_done_key():
    from inspector.session.session import EventRecord

    assert not sniff(EventRecord(0, "message", "", {"model": "m", "message": {}}, 1, None))
    assert sniff(EventRecord(0, "message", "", {"model": "m", "message": {}, "done": False}, 1, None))


def test_bad_shapes_never_crash():
    s = run(line(tool_calls=[1, {"function": "x"}, {"function": {"arguments": [1]}}]), "not json",
            {"model": "m", "done": False, "message": "text"}, line(done=True))
    assert s.closed and "J004" in codes(s) and "S002" in codes(s)


# --------------------------------------------------------------------------- chunk-split invariance
def _result(cap) -> dict:
    rep = report_dict("x", run_capture(cap))
    return {k: rep[k] for k in ("blocks", "findings", "stop_reason", "dialect")}


@pytest.mark.parametrize("size", [1, 4, 33])
def test_chunk_split_invariance(size):
    raw = body(line(thinking="ünï"), line("[{\"name\": \"f\", "), line("\"parameters\": {}}]"),
               line(tool_calls=[tc(args="{}")]), line(done=True), line("late"))
    whole = _result(Capture(chunks=[Chunk(None, raw)]))
    assert {f["code"] for f in whole["findings"]} == {"N001", "S004"}
    split = Capture(chunks=[Chunk(None, raw[i:i + size]) for i in range(0, len(raw), size)])
    assert _result(split) == whole
