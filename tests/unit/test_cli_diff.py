"""``stream-inspector diff A B``: exit codes, ``--format text|json``, bad input (one line, exit 2)."""
from __future__ import annotations

import json

import orjson

from tests.dialect_answers import CallSpec, Spec, render, write_native
from tests.e2e.conftest import run_cli

BASE = Spec(text="Let me look.", calls=[CallSpec("get_weather", {"city": "Lisbon"})], stop="tool")


def _files(tmp_path, spec_b: Spec, b_dialect: str = "openai-chat"):
    a, b = tmp_path / "upstream.jsonl", tmp_path / "front.jsonl"
    write_native(render("anthropic-messages", BASE), a)
    write_native(render(b_dialect, spec_b), b)
    return str(a), str(b)


def test_equivalent_streams_exit_0_and_say_which_normalisations_were_applied(tmp_path):
    a, b = _files(tmp_path, BASE)
    code, out, err = run_cli(["diff", a, b, "--format", "text"])
    assert (code, err) == (0, "")
    assert out.startswith("EQUIVALENT\n")
    assert "tool ids rewritten one-to-one between anthropic-messages and openai-chat: toolu_a1 → call_a1" in out
    assert 'stop reasons mapped across dialects: "tool_use" ≈ "tool_calls" (tool)' in out  # JSON, not Python reprs


def test_different_streams_exit_1_with_every_difference_in_json(tmp_path):
    a, b = _files(tmp_path, BASE.with_(calls=[CallSpec("get_weather", {"city": "Porto"})], stop="end", arg_delay=2.0))
    code, out, _ = run_cli(["diff", a, b, "--format", "json"])
    assert code == 1
    d = json.loads(out)
    assert d["equivalent"] is False
    assert [x["kind"] for x in d["differences"]] == ["arguments-differ", "arguments-later", "stop-reason",
                                                    "finding-one-side"]
    assert d["differences"][0]["path"] == "$.city" and d["differences"][0]["pair"] == 1
    assert d["pairs"][1] == {"kind": "tool", "a": 0, "b": 0, "matched_by": "rewritten id",
                             "label": "tool #0 get_weather", "differences": [0, 1]}
    assert d["a"]["dialect"] == "anthropic-messages" and d["b"]["calls"][0]["first_arg_byte_s"] > 2.0
    code, out, _ = run_cli(["diff", a, b, "--format", "json", "--late", "5"])
    assert "arguments-later" not in [x["kind"] for x in json.loads(out)["differences"]]


def test_a_non_streamed_answer_on_one_side_is_read_as_such(tmp_path):
    a, _ = _files(tmp_path, BASE)
    plain = tmp_path / "plain.json"
    plain.write_bytes(orjson.dumps({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{
        "index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": "Let me look.",
                                                               "tool_calls": [{"id": "call_9", "type": "function", "function": {
                                                                   "name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}"}}]}}]}))
    code, out, _ = run_cli(["diff", a, str(plain), "--format", "json"])
    d = json.loads(out)
    assert code == 0, d["differences"]
    assert d["b"]["streamed"] is False
    assert "stream findings not compared: one side is a non-streamed answer" in d["notes"]


def test_trouble_exits_2_with_one_line(tmp_path):
    a, _ = _files(tmp_path, BASE)
    junk = tmp_path / "notes.txt"
    junk.write_text("just some words\n")
    for argv in (["diff", a, str(tmp_path / "missing.jsonl")], ["diff", a, str(junk), "--format", "text"]):
        code, out, err = run_cli(argv)
        assert code == 2 and out == ""
        assert err.startswith("stream-inspector: diff: ") and err.count("\n") == 1, err


def test_max_size_is_taken_as_the_size_error_says(tmp_path):
    """A capture over the limit says ``--max-size N reads it``: diff takes that option too."""
    a, b = _files(tmp_path, BASE)
    code, _, err = run_cli(["diff", a, b, "--format", "text", "--max-size", "100"])
    assert code == 2 and "over the 100 bytes limit" in err and "--max-size" in err
    code, out, _ = run_cli(["diff", a, b, "--format", "text", "--max-size", "1M"])
    assert code == 0 and out.startswith("EQUIVALENT")
