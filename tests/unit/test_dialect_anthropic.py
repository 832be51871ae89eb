"""Anthropic Messages: a clean stream is clean; each A rule fires on its shape and not on a near miss."""
from __future__ import annotations

import pytest

from tests.helpers import check_bytes, codes, sse

MSG_START = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                                  "model": "claude-test", "content": [], "stop_reason": None}}
STOP = {"type": "message_stop"}


def start(i, kind="text", **cb):
    block = {"type": kind, **cb}
    if kind == "text":
        block.setdefault("text", "")
    if kind == "tool_use":
        block.setdefault("id", "toolu_1")
        block.setdefault("name", "lookup")
        block.setdefault("input", {})
    return {"type": "content_block_start", "index": i, "content_block": block}


def text(i, s):
    return {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": s}}


def args(i, s):
    return {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": s}}


def stop(i):
    return {"type": "content_block_stop", "index": i}


def reason(r):
    return {"type": "message_delta", "delta": {"stop_reason": r, "stop_sequence": None}, "usage": {"output_tokens": 5}}


def run(*events, **kw):
    return check_bytes(sse(*events), **kw)


CLEAN_TOOL = [MSG_START, start(0), text(0, "Let me check."), stop(0), start(1, "tool_use"),
              args(1, '{"q": '), args(1, '"tides"}'), stop(1), reason("tool_use"), STOP]


def test_clean_tool_call_is_clean_and_assembles():
    s = run(*CLEAN_TOOL)
    assert codes(s) == []
    assert s.dialect_name == "anthropic-messages" and s.stop_reason == "tool_use" and s.model == "claude-test"
    t, tool = s.blocks
    assert (t.kind, t.content, t.closed) == ("text", "Let me check.", True)
    assert (tool.kind, tool.name, tool.status, tool.input, tool.deltas) == ("tool_use", "lookup", "complete", {"q": "tides"}, 2)


def test_tool_block_without_input_is_an_empty_object():
    s = run(MSG_START, start(0, "tool_use"), stop(0), reason("tool_use"), STOP)
    assert codes(s) == []
    assert s.blocks[0].status == "complete" and s.blocks[0].input == {}


def test_A001_orphan_delta_creates_no_block():
    s = run(MSG_START, start(0), text(0, "hi"), stop(0), args(1, "{}"), stop(1), reason("end_turn"), STOP)
    assert codes(s) == ["A001"]
    assert len(s.blocks) == 1 and s.findings[0].index == 1 and s.findings[0].event == 4


def test_A002_delta_type_mismatch_is_not_applied():
    s = run(MSG_START, start(0), args(0, '{"a":1}'), text(0, "ok"), stop(0), reason("end_turn"), STOP)
    assert codes(s) == ["A002"]
    assert s.blocks[0].content == "ok"


def test_A003_duplicate_start_replaces_the_slot():
    s = run(MSG_START, start(0, "tool_use", id="toolu_a"), args(0, '{"a'), start(0, "tool_use", id="toolu_b"),
            args(0, '{"b":2}'), stop(0), reason("tool_use"), STOP)
    assert "A003" in codes(s)
    old, new = s.blocks
    assert old.replaced and not old.closed and new.input == {"b": 2}
    assert "J005" not in codes(s) and "J002" not in codes(s)


def test_A004_index_gap():
    assert "A004" in codes(run(MSG_START, start(1), text(1, "x"), stop(1), reason("end_turn"), STOP))
    assert "A004" not in codes(run(MSG_START, start(0), text(0, "x"), stop(0), reason("end_turn"), STOP))


def test_A005_delta_after_stop_and_second_stop():
    s = run(MSG_START, start(0), text(0, "x"), stop(0), text(0, "late"), stop(0), reason("end_turn"), STOP)
    assert codes(s) == ["A005", "A005"]
    assert s.blocks[0].content == "x"


def test_A006_overlapping_blocks():
    s = run(MSG_START, start(0), start(1, "tool_use"), text(0, "a"), args(1, "{}"), stop(0), stop(1),
            reason("tool_use"), STOP)
    assert codes(s) == ["A006"]


def test_A006_names_the_lowest_open_index_whatever_the_sets_history():
    """With 2, 3 and 8 open, block 17 and then block 0 start: both name block 2. The open set's iteration
    order hangs on its adds and discards (block 1 opened and closed before; a whole call takes none), so
    naming its first element named block 8 for one and block 2 for the other (breaker's repro)."""
    s = run(MSG_START, start(0, "tool_use"), stop(0), start(1, "tool_use"), args(1, "{}"), stop(1),
            start(2, "tool_use"), start(3), start(8, "tool_use"), start(17, "tool_use"), start(0, "tool_use"))
    said = [f.message for f in s.findings if f.code == "A006"]
    assert said[-2:] == ["block 17 starts while block 2 is still open", "block 0 starts while block 2 is still open"]


@pytest.mark.parametrize("blocks,r,fires", [
    ([start(0, "tool_use"), args(0, "{}"), stop(0)], "end_turn", True),
    ([start(0, "tool_use"), args(0, "{}"), stop(0)], "tool_use", False),
    ([start(0), text(0, "x"), stop(0)], "tool_use", True),
    ([start(0), text(0, "x"), stop(0)], "end_turn", False),
])
def test_A007_stop_reason_mismatch(blocks, r, fires):
    assert ("A007" in codes(run(MSG_START, *blocks, reason(r), STOP))) is fires


def test_A008_max_tokens_inside_a_tool_call():
    s = run(MSG_START, start(0, "tool_use"), args(0, '{"body": "abc'), reason("max_tokens"), STOP)
    assert {"A008", "J005"} <= set(codes(s)) and "A007" not in codes(s)
    ok = run(MSG_START, start(0, "tool_use"), args(0, "{}"), stop(0), start(1), text(1, "x"), stop(1),
             reason("max_tokens"), STOP)
    assert "A008" not in codes(ok)


def test_A009_empty_text_block():
    assert codes(run(MSG_START, start(0), stop(0), reason("end_turn"), STOP)) == ["A009"]


def test_A010_start_input_and_deltas():
    s = run(MSG_START, start(0, "tool_use", input={"q": 1}), args(0, '{"q": 1}'), stop(0), reason("tool_use"), STOP)
    assert codes(s) == ["A010"]
    whole = run(MSG_START, start(0, "tool_use", input={"q": 1}), stop(0), reason("tool_use"), STOP)
    assert codes(whole) == [] and whole.blocks[0].input == {"q": 1}


@pytest.mark.parametrize("ident,fires", [({"id": "toolu 1"}, True), ({"name": ""}, True),
                                         ({"name": "x" * 201}, True), ({"id": "toolu_A-1"}, False),
                                         ({"name": "x" * 200}, False), ({"name": "x"}, False), ({"name": 7}, True),
                                         ({"name": ["read"]}, True), ({"id": 7}, True), ({"id": None}, True)])
def test_A011_tool_identity(ident, fires):
    s = run(MSG_START, start(0, "tool_use", **ident), args(0, "{}"), stop(0), reason("tool_use"), STOP)
    assert ("A011" in codes(s)) is fires


@pytest.mark.parametrize("tid", ["toolu_1", "_x", "if", "A", "1abc", "a-b", "-", "", "toolu_1\n", "toolu\n1", "é",
                                 "toolu_é", "ab c", "a\u0660", "\uff21", "x\t"])
def test_A011_id_check_is_the_pattern_s(tid):
    """The id check skips the regex for ASCII identifiers: A011 fires exactly when ^[a-zA-Z0-9_-]+$
    does not match (``$`` also before a final newline), for identifiers, digits first, dashes,
    non-ASCII letters and digits, whitespace."""
    from inspector.providers.anthropic.stream import TOOL_ID

    s = run(MSG_START, start(0, "tool_use", id=tid), args(0, "{}"), stop(0), reason("tool_use"), STOP)
    assert ("A011" in codes(s)) is (TOOL_ID.match(tid) is None)


def test_A012_first_event_not_message_start_but_pings_are_fine():
    assert codes(run(start(0), text(0, "x"), stop(0), reason("end_turn"), STOP))[0] == "A012"
    assert codes(run({"type": "ping"}, MSG_START, start(0), text(0, "x"), stop(0), reason("end_turn"), STOP)) == []


def test_A013_missing_stop_reason():
    assert codes(run(MSG_START, start(0), text(0, "x"), stop(0), STOP)) == ["A013"]


def test_A014_text_block_never_stopped_and_S003():
    s = run(MSG_START, start(0), text(0, "x"))
    assert sorted(codes(s)) == ["A014", "S003"]


def test_A015_thinking_without_signature():
    think = {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hmm"}}
    sig = {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "c2ln"}}
    base = [MSG_START, start(0, "thinking", thinking="", signature=""), think]
    assert "A015" in codes(run(*base, stop(0), reason("end_turn"), STOP))
    signed = run(*base, sig, stop(0), reason("end_turn"), STOP)
    assert "A015" not in codes(signed) and signed.blocks[0].signature == "c2ln"


def test_A016_empty_message():
    assert codes(run(MSG_START, reason("end_turn"), STOP)) == ["A016"]


def test_S004_event_after_message_stop():
    assert codes(run(*CLEAN_TOOL, {"type": "ping"})) == ["S004"]


def test_S005_event_name_differs_from_type():
    raw = sse(*CLEAN_TOOL).replace(b"event: content_block_stop\ndata: {\"type\": \"content_block_stop\", \"index\": 0",
                                   b"event: content_block_end\ndata: {\"type\": \"content_block_stop\", \"index\": 0", 1)
    assert codes(check_bytes(raw)) == ["S005"]


def test_S006_in_band_error_shows_type_and_message():
    s = run(MSG_START, start(0), text(0, "x"), {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    f = [f for f in s.findings if f.code == "S006"][0]
    assert "overloaded_error" in f.message and "Overloaded" in f.message


def test_S008_unknown_types_are_info_only():
    s = run(MSG_START, start(0, "brand_new_block"), stop(0), {"type": "new_event"}, reason("end_turn"), STOP)
    assert set(codes(s)) == {"S008"} and all(f.severity == "info" for f in s.findings)


def test_unnamed_events_detect_too():
    s = check_bytes(sse(*CLEAN_TOOL, named=False))
    assert s.dialect_name == "anthropic-messages" and codes(s) == []
