"""Wrong JSON types never crash (issue 24, item 2): a list or an object where a dialect reads a
string or a number is S018 at that event, and the rest of the stream is still read; an internal
error exits 3 with one line and a saved traceback, never 1 ("findings")."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from inspector.capture.load import load_bytes
from inspector.cli import main
from inspector.feeds.run import run_capture
from tests.conftest import ROOT


def _sse(*events: dict, named: bool = False) -> bytes:
    return "".join((f"event: {e['type']}\n" if named and isinstance(e.get("type"), str) else "")
                   + f"data: {json.dumps(e)}\n\n" for e in events).encode()


def _check(body: bytes, name: str = "x.sse"):
    return run_capture(load_bytes(body, name=name))


A_START = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "c",
                                                "content": [], "stop_reason": None, "usage": {}}}


def _a_text(index: int, text: str) -> list[dict]:
    return [{"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": text}},
            {"type": "content_block_stop", "index": index}]


A_END = [{"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
         {"type": "message_stop"}]

C = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def _chat(delta: dict, finish=None) -> dict:
    return {**C, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


R_ITEM = {"type": "function_call", "id": "fc1", "call_id": "c1", "name": "f", "arguments": "", "status": "in_progress"}


def _responses(bad: dict) -> list[dict]:
    return [{"type": "response.created", "sequence_number": 0, "response": {"id": "r", "status": "in_progress",
                                                                            "output": []}},
            {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": R_ITEM},
            bad,
            {"type": "response.function_call_arguments.delta", "sequence_number": 3, "output_index": 0,
             "item_id": "fc1", "delta": '{"a": 1}'},
            {"type": "response.output_item.done", "sequence_number": 4, "output_index": 0,
             "item": {**R_ITEM, "arguments": '{"a": 1}', "status": "completed"}},
            {"type": "response.completed", "sequence_number": 5, "response": {"id": "r", "status": "completed",
                                                                              "output": []}}]


def _gemini_partial(value) -> list[dict]:
    def frame(fc, finish=None):
        c = {"content": {"role": "model", "parts": [{"functionCall": fc}]}, "index": 0}
        return {"candidates": [{**c, "finishReason": finish} if finish else c]}
    return [frame({"name": "f", "willContinue": True}),
            frame({"partialArgs": [{"jsonPath": "$.city", "stringValue": value, "willContinue": True}],
                   "willContinue": True}),
            frame({"partialArgs": [{"jsonPath": "$.days", "numberValue": 3}], "willContinue": True}),
            frame({}, "STOP")]


CASES = {
    # Anthropic: a delta type that is an object, then a healthy text block
    "anthropic delta.type": ([A_START, {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}},
                              {"type": "content_block_delta", "index": 0, "delta": {"type": {"a": 1}, "text": "x"}},
                              {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
                              {"type": "content_block_stop", "index": 0}, *A_END], 2, "ok"),
    # Anthropic: a type that is an object (dialect detection, then the dialect)
    "anthropic type": ([A_START, {"type": {"type": {}}}, *_a_text(0, "ok"), *A_END], 1, "ok"),
    # Anthropic: an error whose type is an object
    "anthropic error.type": ([A_START, *_a_text(0, "ok"), {"type": "error", "error": {"type": {}, "message": "m"}},
                              *A_END], None, "ok"),
    # Chat: a tool call index that is a list
    "chat tool_calls.index": ([_chat({"role": "assistant", "content": "ok"}),
                               _chat({"tool_calls": [{"index": [], "id": "t", "type": "function",
                                                      "function": {"name": "f", "arguments": "{}"}}]}),
                               _chat({"tool_calls": [{"index": [], "function": {"arguments": "{}"}}]}),
                               _chat({}, "stop")], None, "ok"),
    # Responses: output_index and content_index that are lists
    "responses output_index": (_responses({"type": "response.function_call_arguments.delta", "sequence_number": 2,
                                           "output_index": [], "delta": "x"}), None, '{"a": 1}'),
    "responses content_index": (_responses({"type": "response.output_text.delta", "sequence_number": 2,
                                            "output_index": 0, "item_id": "fc1", "content_index": [],
                                            "delta": "x"}), None, '{"a": 1}'),
    "responses item output_index": (_responses({"type": "response.output_item.added", "sequence_number": 2,
                                                "output_index": {}, "item": {**R_ITEM, "id": "fc2"}}),
                                    None, '{"a": 1}'),
    # Gemini: a partial argument's string value that is a list
    "gemini partialArgs.stringValue": (_gemini_partial([]), None, '"days":3'),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_wrong_type_is_a_finding_and_the_rest_is_read(name):
    events, event, survivor = CASES[name]
    s = _check(_sse(*events, named=name.startswith("anthropic")))
    assert s.dialect_name is not None
    if event is not None:
        s018 = [f for f in s.findings if f.code == "S018"]
        assert s018 and s018[0].event == event, [(f.code, f.event, f.message) for f in s.findings]
    assert any(survivor in b.content for b in s.blocks), [(b.kind, b.content) for b in s.blocks]
    assert len(s.events) == len(events)


def test_s018_names_the_field_and_the_event():
    s = _check(_sse(*CASES["anthropic delta.type"][0], named=True))
    f = next(f for f in s.findings if f.code == "S018")
    assert "content_block_delta" in f.message and "delta.type is an object" in f.message


def test_type_list_on_standard_input_is_read_not_crashed():
    p = subprocess.run([sys.executable, "-m", "inspector", "check", "-"], input=b'data: {"type":[]}\n\n',
                       capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode in (0, 1), p.stderr.decode()
    assert b"Traceback" not in p.stderr and b"unknown" in p.stdout


def test_export_reads_a_har_whose_url_and_method_are_numbers(tmp_path):
    entry = {"startedDateTime": "2025-01-01T00:00:00Z", "time": 1,
             "request": {"method": 7, "url": 12345, "headers": [{"name": "content-type", "value": "application/json"}]},
             "response": {"status": 200, "headers": [{"name": "content-type", "value": "text/event-stream"}],
                          "content": {"mimeType": "text/event-stream", "text": _sse(A_START, *A_END).decode()}},
             "timings": {"wait": 1, "receive": 0}}
    har = tmp_path / "x.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [entry]}}))
    for to in ("html", "har"):
        assert main(["export", str(har), "--to", to, "-o", str(tmp_path / f"out.{to}")]) == 0
    assert main(["check", str(har)]) == 0


def test_an_internal_error_exits_3_with_one_line_and_a_saved_traceback(monkeypatch, capsys):
    import inspector.cli.rules as rules_cmd

    def broken(args):
        raise TypeError("unhashable type: 'list' \x1b]52;c;eA==\x07")

    monkeypatch.setattr(rules_cmd, "run", broken)
    assert main(["rules"]) == 3
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and "internal error" in lines[0] and "\x1b" not in lines[0]
    saved = lines[0].rsplit("traceback saved to ", 1)[1]
    with open(saved, encoding="utf-8") as f:
        text = f.read()
    assert "Traceback" in text and "def broken" not in text and "broken" in text
