"""openai-chat dialect: assembly, every C rule (one stream that fires it, a near-identical one
that does not), S003/S004/S006/C007 at the stream's edges, and chunk-split invariance."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.capture.load import load_bytes, load_path
from inspector.model.capture import Chunk
from inspector.providers.textcalls import looks_like_tool_call
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from inspector.session.session import EventRecord
from inspector.providers.openai_chat.sniff import sniff


# --------------------------------------------------------------------------- helpers
def chunk(delta: dict | None = None, finish: str | None = None, *, choice: int = 0, **top) -> dict:
    """One chat.completion.chunk with a single choice."""
    c = {"id": "chatcmpl-t", "object": "chat.completion.chunk", "created": 1, "model": "m-test",
         "choices": [{"index": choice, "delta": delta if delta is not None else {}, "finish_reason": finish}]}
    c.update(top)
    return c


def call(index: int | None = 0, id: str | None = "call_1", name: str | None = "lookup",
         args: str | None = "", type: str | None = "function", **extra) -> dict:
    """A tool_calls entry; pass None to leave a key out."""
    e: dict = {}
    if index is not None:
        e["index"] = index
    if id is not None:
        e["id"] = id
    if type is not None:
        e["type"] = type
    fn: dict = {}
    if name is not None:
        fn["name"] = name
    if args is not None:
        fn["arguments"] = args
    if fn:
        e["function"] = fn
    e.update(extra)
    return e


def frag(index: int | None = 0, args: str = "", **extra) -> dict:
    """A continuation fragment: index and arguments only."""
    e: dict = {"function": {"arguments": args}}
    if index is not None:
        e["index"] = index
    e.update(extra)
    return e


def tc(*entries) -> dict:
    return chunk({"tool_calls": list(entries)})


def sse(events, done: bool = True) -> bytes:
    parts = [f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n" for e in events]
    if done:
        parts.append("data: [DONE]\n\n")
    return "".join(parts).encode()


def run(events, done: bool = True):
    return run_capture(load_bytes(sse(events, done)))


def codes(s) -> list[str]:
    return [f.code for f in s.findings]


def tools(s):
    return [b for b in s.blocks if b.kind == "tool_call"]


ONE_CALL = [
    chunk({"role": "assistant", "content": None}),
    tc(call(0, "call_1", "lookup", "")),
    tc(frag(0, '{"q": ')),
    tc(frag(0, '"x"}')),
    chunk({}, "tool_calls"),
    chunk(None, None) | {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}},
]


# --------------------------------------------------------------------------- clean streams
def test_clean_tool_call_stream_is_clean():
    s = run(ONE_CALL)
    assert s.dialect_name == "openai-chat"
    assert codes(s) == []
    (b,) = tools(s)
    assert (b.index, b.choice, b.id, b.name, b.status, b.closed) == (0, 0, "call_1", "lookup", "complete", True)
    assert b.input == {"q": "x"}
    assert b.deltas == 3
    assert b.stop_info == "finish_reason: tool_calls"
    assert s.stop_reason == "tool_calls"
    assert s.model == "m-test"
    assert s.ended


def test_clean_text_reasoning_refusal_blocks():
    s = run([
        chunk({"role": "assistant", "reasoning_content": "think "}),
        chunk({"reasoning": "more"}),
        chunk({"content": "Hel"}),
        chunk({"content": "lo"}),
        chunk({"refusal": "no"}),
        chunk({}, "stop"),
    ])
    assert codes(s) == []
    kinds = {b.kind: b for b in s.blocks}
    assert kinds["reasoning"].content == "think more"
    assert kinds["text"].content == "Hello"
    assert kinds["refusal"].content == "no"
    assert all(b.index is None and b.choice == 0 and b.closed for b in s.blocks)
    assert s.stop_reason == "stop"


def test_empty_content_opens_no_text_block():
    s = run([chunk({"role": "assistant", "content": ""}), chunk({}, "stop")])
    assert s.blocks == []
    assert codes(s) == []


def test_two_choices_stop_reason_is_choice_0():
    s = run([
        {"object": "chat.completion.chunk", "choices": [
            {"index": 0, "delta": {"content": "a"}, "finish_reason": None},
            {"index": 1, "delta": {"content": "b"}, "finish_reason": None}]},
        chunk({}, "length", choice=1),
        chunk({}, "stop", choice=0),
    ])
    assert codes(s) == []
    assert s.stop_reason == "stop"
    assert sorted((b.choice, b.content) for b in s.blocks) == [(0, "a"), (1, "b")]


def test_parallel_indexed_calls():
    s = run([
        tc(call(0, "call_a", "f", '{"a":1}'), call(1, "call_b", "g", "")),
        tc(frag(1, '{"b":2}')),
        chunk({}, "tool_calls"),
    ])
    assert codes(s) == []
    assert [(b.index, b.id, b.input) for b in tools(s)] == [(0, "call_a", {"a": 1}), (1, "call_b", {"b": 2})]


# --------------------------------------------------------------------------- sniffing
def _ev(payload) -> EventRecord:
    return EventRecord(index=0, name="message", data="", payload=payload, line=1, t=None)


@pytest.mark.parametrize("payload, want", [
    ({"object": "chat.completion.chunk", "choices": []}, True),
    ({"choices": [{"index": 0, "delta": {}}]}, True),  # Gemini compat: no `object`
    ({"type": "response.created", "choices": []}, False),
    ({"type": "message_start", "message": {}}, False),
    ({"candidates": []}, False),
    ({"error": {"message": "x"}}, False),
    ([1, 2], False),
])
def test_sniff(payload, want):
    assert sniff(_ev(payload)) is want


# --------------------------------------------------------------------------- C001
def test_c001_fires_by_id_and_not_when_indexed():
    s = run([
        tc(call(None, "function-call-1", "f", '{"a":')),
        tc(call(None, None, None, "1}", type=None)),
        chunk({}, "tool_calls"),
    ])
    assert "C001" in codes(s)
    (b,) = tools(s)
    assert b.input == {"a": 1} and b.closed
    assert "by id" in b.attribution and "by position" in b.attribution
    ok = run([tc(call(0, "function-call-1", "f", '{"a":')), tc(frag(0, "1}")), chunk({}, "tool_calls")])
    assert "C001" not in codes(ok)


def test_c001_attribution_by_position_and_to_last_call():
    s = run([
        tc(call(None, "A", "f", ""), call(None, "B", "g", "")),
        tc(frag(None, '{"a":1}'), frag(None, '{"b":2}')),   # positions 0 and 1 of the batch
        chunk({}, "tool_calls"),
    ])
    a, b = tools(s)
    assert (a.id, a.input, b.id, b.input) == ("A", {"a": 1}, "B", {"b": 2})
    assert "by position" in a.attribution and "by position" in b.attribution
    s2 = run([
        tc(call(None, "A", "f", "")),
        tc(frag(None, ""), frag(None, '{"a":1}')),  # position 1 does not exist: to the last call
        chunk({}, "tool_calls"),
    ])
    (only,) = tools(s2)
    assert only.input == {"a": 1}
    assert "to last call" in only.attribution


def test_c001_separate_indexless_calls_keyed_by_id():
    s = run([
        tc(call(None, "A", "f", '{"x":1}')),
        tc(call(None, "B", "g", '{"y":2}')),
        chunk({}, "tool_calls"),
    ])
    assert [(b.index, b.id, b.input) for b in tools(s)] == [(0, "A", {"x": 1}), (1, "B", {"y": 2})]
    assert "C005" not in codes(s) and "C002" not in codes(s)


def test_c001_named_idless_entry_after_a_complete_call_is_a_new_call():
    s = run([
        tc(call(None, None, "f", '{"x":1}')),
        tc(call(None, None, "f", '{"x":2}')),
        tc(call(None, None, "g", '{"y":')),
        tc(frag(None, "3}")),
        chunk({}, "tool_calls"),
    ])
    got = [(b.index, b.name, b.input) for b in tools(s)]
    assert got == [(0, "f", {"x": 1}), (1, "f", {"x": 2}), (2, "g", {"y": 3})]
    assert "by position" in tools(s)[2].attribution  # position 0 of the latest batch: g
    assert not [c for c in codes(s) if c.startswith("J")]


def test_c001_position_is_within_the_latest_batch():
    s = run([
        tc(call(None, "A", "f", "")), tc(frag(None, '{"a":1}')),
        tc(call(None, "B", "g", "")), tc(frag(None, '{"b":2}')),
        chunk({}, "tool_calls"),
    ])
    assert [(b.id, b.input) for b in tools(s)] == [("A", {"a": 1}), ("B", {"b": 2})]


# --------------------------------------------------------------------------- C002
def test_c002_fires_for_nameless_first_fragment_and_shows_arguments():
    s = run([tc(call(0, "c0", "f", "{}")), tc(call(1, None, "", '{"q":1}')), chunk({}, "tool_calls")])
    assert "C002" in codes(s)
    b = tools(s)[1]
    assert (b.index, b.name, b.input) == (1, None, {"q": 1})
    ok = run([tc(call(0, "c0", "f", "{}")), tc(call(1, "c1", "g", '{"q":1}')), chunk({}, "tool_calls")])
    assert "C002" not in codes(ok)


# --------------------------------------------------------------------------- C003 / C004
def test_c003_tool_calls_with_stop():
    calls = [tc(call(0, "c0", "f", "{}"))]
    assert "C003" in codes(run(calls + [chunk({}, "stop")]))
    assert "C003" not in codes(run(calls + [chunk({}, "tool_calls")]))
    assert "C003" not in codes(run(calls + [chunk({}, "length")]))


def test_c004_tool_calls_without_calls():
    assert "C004" in codes(run([chunk({"content": "hi"}), chunk({}, "tool_calls")]))
    assert "C004" not in codes(run([chunk({"content": "hi"}), chunk({}, "stop")]))


# --------------------------------------------------------------------------- C005
def test_c005_new_id_and_name_splits_the_call():
    s = run([
        tc(call(0, "g1", "w", "")), tc(frag(0, '{"c":"Q"}')),
        tc(call(0, "g2", "w", "")), tc(frag(0, '{"c":"L"}')),
        chunk({}, "tool_calls"),
    ])
    assert codes(s).count("C005") == 1
    a, b = tools(s)
    assert (a.index, a.id, a.input, a.closed) == (0, "g1", {"c": "Q"}, True)
    assert (b.index, b.id, b.input, b.closed) == (0, "g2", {"c": "L"}, True)
    assert not [c for c in codes(s) if c.startswith("J")]


def test_c005_new_id_without_name_stays_on_the_call():
    s = run([tc(call(0, "p1", "read", "")), tc(frag(0, '{"p":', id="p2")), tc(frag(0, "1}", id="p2")),
             chunk({}, "tool_calls")])
    assert codes(s) == ["C005"]
    (b,) = tools(s)
    assert (b.id, b.input, b.extra["other_ids"]) == ("p1", {"p": 1}, ["p2"])


def test_c005_not_for_same_id_or_empty_id():
    s = run([tc(call(0, "p1", "read", "")), tc(frag(0, '{"p":1}', id="")), chunk({}, "tool_calls")])
    assert "C005" not in codes(s) and "C012" not in codes(s)


# --------------------------------------------------------------------------- C006
def test_c006_empty_tool_calls_array():
    s = run([chunk({"content": "1", "tool_calls": []}), chunk({"content": "2", "tool_calls": []}),
             chunk({}, "stop")])
    assert codes(s) == ["C006"]
    assert s.blocks[0].content == "12"
    assert "C006" not in codes(run([chunk({"content": "1", "tool_calls": None}), chunk({}, "stop")]))


# --------------------------------------------------------------------------- C007 / S003 / S004
def test_c007_missing_done():
    events = [chunk({"content": "a"}), chunk({}, "stop")]
    s = run(events, done=False)
    assert codes(s) == ["C007"]
    assert "C007" not in codes(run(events, done=True))


def test_s003_choice_without_finish_reason():
    s = run([chunk({"content": "a"})], done=False)
    assert "S003" in codes(s) and "C007" in codes(s)
    assert "S003" not in codes(run([chunk({"content": "a"}), chunk({}, "stop")], done=False))


def test_s003_call_left_open_gives_j005():
    s = run([tc(call(0, "c", "f", '{"a":'))], done=False)
    assert {"S003", "J005", "C007"} <= set(codes(s))


def test_s004_event_after_done_but_not_usage_before_it():
    usage = {"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 3}}
    good = run([chunk({"content": "a"}), chunk({}, "stop"), usage])
    assert codes(good) == []
    bad = run_capture(load_bytes(sse([chunk({"content": "a"}), chunk({}, "stop")]) + sse([usage], done=True)))
    assert codes(bad).count("S004") == 1


def test_s006_in_band_error():
    s = run([chunk({"content": "a"}), {"error": {"type": "server_error", "message": "boom"}}], done=False)
    assert "S006" in codes(s)
    msg = next(f.message for f in s.findings if f.code == "S006")
    assert "server_error" in msg and "boom" in msg


# --------------------------------------------------------------------------- C008
def test_c008_name_repeated():
    s = run([tc(call(0, "c", "f", '{"a"')), tc(call(0, None, "f", ":1}", type=None)),
             tc(call(0, None, "f", "", type=None)), chunk({}, "tool_calls")])
    assert codes(s) == ["C008"]
    assert tools(s)[0].name == "f"
    ok = run([tc(call(0, "c", "f", '{"a"')), tc(call(0, None, "", ":1}", type=None)), chunk({}, "tool_calls")])
    assert codes(ok) == []


# --------------------------------------------------------------------------- C009
def test_c009_length_with_incomplete_call():
    assert "C009" in codes(run([tc(call(0, "c", "f", '{"a": "x')), chunk({}, "length")]))
    assert "C009" in codes(run([tc(call(0, "c", "f", "")), chunk({}, "length")]))
    ok = run([tc(call(0, "c", "f", '{"a": "x"}')), chunk({}, "length")])
    assert "C009" not in codes(ok)
    assert "C009" not in codes(run([tc(call(0, "c", "f", '{"a": "x')), chunk({}, "tool_calls")]))


# --------------------------------------------------------------------------- C010
def test_c010_signature_kept_on_its_call():
    sig = {"google": {"thought_signature": "U0lH"}}
    s = run([tc(call(None, "A", "f", "{}", extra_content=sig), call(None, "B", "g", "{}")),
             chunk({}, "tool_calls")])
    assert "C010" in codes(s)
    a, b = tools(s)
    assert a.signature == "U0lH" and b.signature is None
    assert "C010" not in codes(run([tc(call(0, "A", "f", "{}")), chunk({}, "tool_calls")]))


def test_c010_standalone_signature_goes_to_first_call_of_the_latest_batch():
    sig = {"google": {"thought_signature": "S2"}}
    s = run([tc(call(None, "A", "f", "{}")), tc(call(None, "B", "g", "{}"), call(None, "C", "h", "{}")),
             tc({"extra_content": sig}), chunk({}, "tool_calls")])
    assert [b.signature for b in tools(s)] == [None, "S2", None]


def test_c010_standalone_signature_goes_to_first_call():
    sig = {"google": {"thought_signature": "U0lH"}}
    s = run([tc(call(None, "A", "f", "{}"), call(None, "B", "g", "{}")),
             tc({"extra_content": sig}),
             chunk({}, "tool_calls")])
    a, b = tools(s)
    assert a.signature == "U0lH" and b.signature is None
    assert "C002" not in codes(s) and len(tools(s)) == 2


def test_c010_signature_before_any_call_waits_for_the_first():
    s = run([chunk({"extra_content": {"google": {"thought_signature": "X"}}}),
             tc(call(0, "A", "f", "{}")), chunk({}, "tool_calls")])
    assert "C010" in codes(s)
    assert tools(s)[0].signature == "X"


# --------------------------------------------------------------------------- C011
@pytest.mark.parametrize("entry", [
    call(0, None, "f", "{}"),                               # no id
    call(0, "c", "f", "{}", type=None),                     # no type
    {"index": 0, "function": {"name": "f", "arguments": "{}", "id": "c"}},  # id inside function
])
def test_c011_incomplete_first_fragment(entry):
    s = run([tc(entry), chunk({}, "tool_calls")])
    assert "C011" in codes(s)


def test_c011_not_for_complete_first_fragment():
    assert "C011" not in codes(run([tc(call(0, "c", "f", "{}")), chunk({}, "tool_calls")]))


def test_c011_function_id_is_the_block_id():
    s = run([tc({"index": 0, "function": {"name": "f", "arguments": "{}", "id": "cid"}}), chunk({}, "tool_calls")])
    assert tools(s)[0].id == "cid"


# --------------------------------------------------------------------------- C012
def test_c012_id_repeated():
    s = run([tc(call(0, "c", "f", '{"a"')), tc(frag(0, ":1", id="c")), tc(frag(0, "}", id="c")),
             chunk({}, "tool_calls")])
    assert codes(s) == ["C012"]
    assert tools(s)[0].input == {"a": 1}
    ok = run([tc(call(0, "c", "f", '{"a"')), tc(frag(0, ":1")), tc(frag(0, "}")), chunk({}, "tool_calls")])
    assert codes(ok) == []


# --------------------------------------------------------------------------- C013
def test_c013_index_gap():
    s = run([tc(call(0, "a", "f", "{}")), tc(call(2, "b", "g", "{}")), chunk({}, "tool_calls")])
    assert "C013" in codes(s)
    s2 = run([tc(call(1, "a", "f", "{}")), tc(call(0, "b", "g", "{}")), chunk({}, "tool_calls")])
    assert "C013" in codes(s2)
    ok = run([tc(call(0, "a", "f", "{}")), tc(call(1, "b", "g", "{}")), chunk({}, "tool_calls")])
    assert "C013" not in codes(ok)


# --------------------------------------------------------------------------- C014
def test_c014_second_finish_reason():
    s = run([tc(call(0, "a", "f", "{}")), chunk({}, "tool_calls"), chunk({}, "tool_calls")])
    assert codes(s) == ["C014"]
    assert s.stop_reason == "tool_calls"
    assert codes(run([tc(call(0, "a", "f", "{}")), chunk({}, "tool_calls"), chunk({}, None)])) == []


# --------------------------------------------------------------------------- C015
@pytest.mark.parametrize("text", [
    '{"name": "get_time", "arguments": {"tz": "UTC"}}',
    '[{"name":"get_local_time","parameters":{}}]',
    '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
    '```json\n{"name": "f", "parameters": {"a": 1}}\n```',
    '[TOOL_CALLS] [{"name": "f", "arguments": {}}]',
])
def test_c015_tool_call_written_as_text(text):
    pieces = [text[i:i + 5] for i in range(0, len(text), 5)]
    s = run([chunk({"content": p}) for p in pieces] + [chunk({}, "stop")])
    assert "C015" in codes(s)
    assert looks_like_tool_call(text)


@pytest.mark.parametrize("text", [
    "The answer is 4.",
    '{"name": "Bob", "age": 3}',
    '[{"name": "f"}]',
    '{"name": "", "arguments": {}}',
    "",
])
def test_c015_not_for_ordinary_text(text):
    assert looks_like_tool_call(text) is None
    assert "C015" not in codes(run([chunk({"content": text}), chunk({}, "stop")]))


def test_c015_not_when_a_structured_call_exists():
    text = '{"name": "f", "arguments": {}}'
    s = run([chunk({"content": text}), tc(call(0, "c", "f", "{}")), chunk({}, "tool_calls")])
    assert "C015" not in codes(s)


def test_c015_judged_at_end_without_finish():
    s = run([chunk({"content": '{"name": "f", "arguments": {}}'})], done=False)
    assert "C015" in codes(s)


# --------------------------------------------------------------------------- C016
def test_c016_content_after_finish():
    s = run([chunk({"content": "a"}), chunk({}, "stop"), chunk({"content": "late"})])
    assert "C016" in codes(s)
    assert s.blocks[0].content == "alate"


def test_c016_tool_call_after_finish_is_closed_at_end():
    s = run([chunk({"content": "a"}), chunk({}, "stop"), tc(call(0, "c", "f", "{}"))])
    assert "C016" in codes(s)
    assert "J005" not in codes(s)
    assert tools(s)[0].closed


@pytest.mark.parametrize("delta", [{}, {"role": "assistant"}, {"content": None}, {"content": ""}])
def test_c016_not_for_empty_or_role_only_delta(delta):
    s = run([chunk({"content": "a"}), chunk({}, "stop"), chunk(delta)])
    assert "C016" not in codes(s)


def test_content_in_the_finishing_chunk_is_not_c016():
    s = run([chunk({"content": "a"}, "stop")])
    assert codes(s) == []
    assert s.blocks[0].content == "a" and s.blocks[0].closed


# --------------------------------------------------------------------------- J rules through the dialect
def test_empty_arguments_j007_and_empty_fragments_count_as_deltas():
    s = run([tc(call(0, "c", "f", "")), tc(frag(0, "")), chunk({}, "tool_calls")])
    assert codes(s) == ["J007"]
    assert tools(s)[0].deltas == 2 and tools(s)[0].status == "empty"


def test_arguments_absent_are_not_a_delta():
    s = run([tc(call(0, "c", "f", None)), chunk({}, "tool_calls")])
    assert tools(s)[0].deltas == 0
    assert "J007" in codes(s)


def test_unknown_shapes_never_crash():
    s = run([chunk({"tool_calls": [1, None, {"index": True}]}), {"choices": "x"}, [1, 2],
             chunk({"content": [{"type": "text", "text": "a"}, {"type": "odd"}]}), chunk({}, 7)])
    assert s.closed
    assert "S008" in codes(s)


# --------------------------------------------------------------------------- chunk-split invariance
def _corpus_dirs() -> list[Path]:
    from tests.conftest import SHARED_CORPUS

    return [d for d in (SHARED_CORPUS,) if d.is_dir()]


def _chat_cases() -> list[Path]:
    for d in _corpus_dirs():
        found = []
        for exp in sorted(d.glob("*.expect.json")):
            if json.loads(exp.read_text()).get("dialect") != "openai-chat":
                continue
            stem = exp.name[: -len(".expect.json")]
            found += [p for p in d.iterdir() if p.name.startswith(stem + ".") and p != exp]
        if found:
            return found
    return []


def _split(cap, size: int):
    chunks = [Chunk(c.t, c.data[i:i + size], c.line) for c in cap.chunks for i in range(0, max(len(c.data), 1), size)]
    return cap.copy_with(chunks=chunks)


def _result(cap) -> dict:
    rep = report_dict("x", run_capture(cap))
    return {"blocks": rep["blocks"], "findings": rep["findings"], "stop_reason": rep["stop_reason"],
            "dialect": rep["dialect"]}


CHAT_CASES = _chat_cases()


@pytest.mark.parametrize("path", CHAT_CASES, ids=lambda p: p.name)
def test_chunk_split_invariance(path):
    cap = load_path(path)
    whole = _result(cap)
    assert whole["dialect"] == "openai-chat"
    for size in (1, 7, 61):
        assert _result(_split(cap, size)) == whole, f"split every {size} bytes changed the result"

