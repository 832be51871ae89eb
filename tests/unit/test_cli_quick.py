"""``inspector.cli.quick.check_args`` against the exact path, check's argparse parser: whenever the
quick reading answers, the parser accepts the same command line and reads the same attributes."""
from __future__ import annotations

import contextlib
import io
import random

import pytest

from inspector.cli import check, main
from inspector.cli.parser import build_parser
from inspector.cli.quick import check_args

WORDS = ["check", "a.sse", "b.jsonl", "-", "", "runs/", "--format", "json", "text", "github", "xml", "--fail-on",
         "info", "warning", "error", "--severity", "C007=info", "--dialect", "anthropic-messages", "openai-chat", "nope",
         "--jobs", "-j", "1", "4", "0", "-1", "+2", " 3", "1_0", "٣", "--keep-audio", "--otlp", "--stall", "2",
         "--max-size", "1M", "--entry", "all", "--request", "r.json", "--", "-h", "--help", "--form", "--format=json",
         "-j4", "--version", "-x", "--keep", "-jobs", "- x", "--fail-on=info", "check"]
"""Words the hostile command lines are made of: valid and refused values, every option of check
(read quickly or not), abbreviations, ``=`` forms, ``--``, help, a second ``check``."""


def _full(words: list[str]) -> dict | None:
    """What check's parser reads from ``words`` (None: it refuses them or shows help)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return vars(build_parser(only="check").parse_args(words))
    except SystemExit:
        return None


def test_a_quick_reading_is_the_parsers_reading_on_hostile_command_lines():
    rng = random.Random(32)
    quick = 0
    for _ in range(4000):
        words = ["check", *rng.choices(WORDS, k=rng.randint(0, 7))]
        got = check_args(words)
        if got is not None:
            quick += 1
            assert vars(got) == _full(words), words
    assert quick > 400  # the quick path is taken often enough for the comparison to mean something


@pytest.mark.parametrize("words", [
    ["check", "a.sse"], ["check", "--format", "json", "a.sse"], ["check", "-"], ["check", "a", "b", "c"],
    ["check", "--format", "github", "--fail-on", "warning", "--severity", "C007=info", "runs/**/*.jsonl"],
    ["check", "a.sse", "--format", "json", "--format", "text"], ["check", "-j", "2", "a", "b", "--keep-audio"],
    ["check", "--dialect", "anthropic-messages", "--jobs", "007", "a.sse"], ["check", "check"]])
def test_usual_command_lines_are_read_quickly_and_as_the_parser_does(words):
    got = check_args(words)
    assert got is not None and vars(got) == _full(words)


@pytest.mark.parametrize("words", [
    [], ["rules"], ["check"], ["check", "--help"], ["check", "a", "-h"], ["check", "--form", "json", "a"],
    ["check", "--format=json", "a"], ["check", "--", "a"], ["check", "a", "--format", "json", "b"],
    ["check", "--format", "xml", "a"], ["check", "--format"], ["check", "a", "--format", "-"],
    ["check", "-j", "0", "a"], ["check", "-j", "+2", "a"], ["check", "-j4", "a"], ["check", "--jobs", "٣", "a"],
    ["check", "--dialect", "nope", "a"], ["check", "--otlp", "a"], ["check", "--stall", "2", "a"],
    ["check", "--entry", "all", "a"], ["check", "--request", "r.json", "a"], ["check", "--max-size", "1M", "a"],
    ["check", "--severity", "", "a"], ["check", "-x", "a"], ["--version", "check", "a"]])
def test_anything_else_goes_to_the_parser(words):
    assert check_args(words) is None


def test_check_runs_the_same_from_either_reading(tmp_path, capsys):
    cap = tmp_path / "one.sse"
    cap.write_bytes(b'event: ping\ndata: {"type": "ping"}\n\ndata: {"a":1}\n\n')
    outputs = []
    for fmt in ("text", "json", "github"):
        words = ["check", "--format", fmt, "--severity", "S008=error", str(cap)]
        for args in (check_args(words), build_parser(only="check").parse_args(words)):
            code = check.run(args)
            outputs.append((code, capsys.readouterr()))
        assert outputs[-1] == outputs[-2]
    assert main(["check", str(cap)]) == check.run(build_parser(only="check").parse_args(["check", str(cap)]))
