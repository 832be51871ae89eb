"""Deep nesting is a finding, never a RecursionError (issue 24, item 3): JSON from a capture is
parsed only up to ``MAX_DEPTH`` levels (``inspector.model.jsondepth``); beyond it an event is
S019 and kept as text, tool arguments are S019 and not parsed, and a capture record is refused
with its line; ``check``, ``export`` and ``diff`` finish."""
from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.capture.load import load_bytes
from inspector.cli import main
from inspector.feeds.run import run_capture
from inspector.model.events import NOT_JSON, parse_payload
from inspector.model.jsondepth import MAX_DEPTH, TooDeep, depth_over, loads


def _depth(value) -> int:
    """Reference: nesting depth of a parsed value (iterative)."""
    best, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            best = max(best, d)
            stack += [(x, d + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return best


def _nested(n: int, inner: object = 1) -> str:
    return "[" * n + json.dumps(inner) + "]" * n


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab'),
                           lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids,
                                                                                     max_size=3), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(min_value=0, max_value=8))
def test_depth_over_agrees_with_the_parsed_depth(value, limit):
    text = json.dumps(value)
    assert depth_over(text, limit) == (_depth(value) > limit)
    assert depth_over(text.encode(), limit) == (_depth(value) > limit)


def test_loads_refuses_what_it_cannot_walk_safely():
    assert loads(_nested(MAX_DEPTH - 1)) is not None
    with pytest.raises(TooDeep):
        loads(_nested(MAX_DEPTH + 1))
    with pytest.raises(TooDeep):
        loads("[" * 100_000)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
@pytest.mark.parametrize("shape", ["[]", "{}", "cut", "bare"])
def test_an_event_payload_is_refused_past_max_depth_at_every_length(depth, shape):
    """``parse_payload`` skips the bracket count for data shorter than ``2 * (MAX_DEPTH + 1)``: the
    payload at and around that length is what ``jsondepth.loads`` gives (nested arrays and objects at the
    shortest, a prefix cut short, and with bytes after it), so the shortcut is exact."""
    if shape == "[]":
        data = "[" * depth + "]" * depth
    elif shape == "{}":
        data = '{"":' * (depth - 1) + "{}" + "}" * (depth - 1)
    elif shape == "cut":
        data = "[" * depth + "]" * (depth - 1)
    else:
        data = "[" * depth + "]" * depth + " "
    try:
        expected = loads(data)
    except orjson.JSONDecodeError:
        expected = NOT_JSON
    assert parse_payload(data) == expected
    assert (parse_payload(data) is NOT_JSON) == (depth > MAX_DEPTH or shape == "cut")


def _capture(tmp_path, records: list[str]):
    head = {"format": "stream-inspector-capture", "version": 1, "request": None,
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    p = tmp_path / "deep.jsonl"
    p.write_text("\n".join([json.dumps(head), *records]) + "\n")
    return p


@pytest.mark.parametrize("command", [["check"], ["export", "--to", "html"], ["export", "--to", "har"]])
def test_a_record_of_100000_brackets_is_one_line_and_exit_2(tmp_path, capsys, command):
    p = _capture(tmp_path, ['{"t": 0.1, "data": "data: {}\\n\\n"}', "[" * 100_000])
    argv = [command[0], str(p), *command[1:]] + (["-o", str(tmp_path / "out")] if command[0] == "export" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ":3: capture record is nested deeper than" in err[0]


def _anthropic(*middle: str) -> bytes:
    start = json.dumps({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                            "model": "c", "content": [], "usage": {}}})
    events = [start, *middle,
              json.dumps({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
              json.dumps({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "after"}}),
              json.dumps({"type": "content_block_stop", "index": 0}),
              json.dumps({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}}),
              json.dumps({"type": "message_stop"})]
    return "".join(f"data: {e}\n\n" for e in events).encode()


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 800, 5_000, 100_000])
def test_a_deep_event_is_s019_and_the_rest_is_read(depth):
    deep = '{"type": "ping", "x": ' + _nested(depth) + "}"
    s = run_capture(load_bytes(_anthropic(deep), name="x.sse"))
    assert [(f.code, f.event) for f in s.findings] == [("S019", 1)]
    assert [b.content for b in s.blocks] == ["after"]


def _tool(arguments: str) -> bytes:
    events = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                    "model": "c", "content": [], "usage": {}}},
              {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t",
                                                                           "name": "f", "input": {}}},
              {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                                                                    "partial_json": arguments}},
              {"type": "content_block_stop", "index": 0},
              {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
              {"type": "message_stop"}]
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()


def test_deep_arguments_are_s019_and_diff_compares_them_as_text(tmp_path, capsys):
    deep, shallow = tmp_path / "deep.sse", tmp_path / "shallow.sse"
    deep.write_bytes(_tool('{"a": ' + _nested(1_000) + "}"))
    shallow.write_bytes(_tool('{"a": ' + _nested(3) + "}"))
    s = run_capture(load_bytes(deep.read_bytes(), name="deep.sse"))
    assert [f.code for f in s.findings] == ["S019"] and s.blocks[0].input is None
    assert main(["diff", str(deep), str(shallow), "--format", "text"]) == 1
    assert "arguments differ" in capsys.readouterr().out
    assert main(["diff", str(deep), str(deep), "--format", "json"]) == 0
    for to in ("html", "har"):
        assert main(["export", str(deep), "--to", to, "-o", str(tmp_path / f"x.{to}")]) == 0
