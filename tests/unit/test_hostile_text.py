"""Text sinks (issue 24, item 9): a capture whose every field carries escape sequences, C1 controls
and bidi overrides, checked in every dialect and every format, prints none of them; JSON keeps
every value (as ``\\u`` escapes) and stays parseable."""
from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from inspector.cli import main
from inspector.net.conform.grade import CaseResult
from inspector.net.conform.report import cases_junit, verdicts_junit
from inspector.net.conform.verdict import Verdict
from tests.hostile import BODIES, FORBIDDEN, HOSTILE, write_all


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return write_all(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
@pytest.mark.parametrize("dialect", list(BODIES))
def test_check_prints_no_control_and_no_bidi_character_from_the_data(hostile, dialect, fmt, capsys):
    assert main(["check", str(hostile[dialect]), "--format", fmt]) == 1
    out, err = capsys.readouterr()
    for text in (out, err):
        found = [f for f in FORBIDDEN if f in text]
        assert not found, f"{fmt} {dialect}: raw {found!r}"
        assert not [c for c in text if 0x80 <= ord(c) < 0xA0 or ord(c) < 0x20 and c != "\n"]
    if fmt == "json":
        report = json.loads(out)
        assert report["dialect"].startswith(dialect)
        assert any(HOSTILE in f["message"] for f in report["findings"])  # the value itself is kept
        assert "\\u202e" in out and "\\u009b" in out
    else:
        assert "\\x1b]52;c;" in out and "\\u202eevil" in out  # shown, escaped


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("command", ["diff", "compare"])
def test_diff_and_compare_print_no_control_and_no_bidi_character_from_the_data(hostile, command, fmt, capsys):
    code = main([command, str(hostile["anthropic"]), str(hostile["openai-chat"]), "--format", fmt])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert out and not [f for f in FORBIDDEN if f in out or f in err]
    assert not [c for c in out if 0x80 <= ord(c) < 0xA0]
    if fmt == "json":
        json.loads(out)


@pytest.mark.parametrize("to", ["html", "har"])
@pytest.mark.parametrize("dialect", list(BODIES))
def test_export_to_standard_output_prints_no_control_and_no_bidi_character_from_the_data(hostile, dialect, to,
                                                                                          capsys):
    assert main(["export", str(hostile[dialect]), "--to", to]) == 0
    out, err = capsys.readouterr()
    for text in (out, err):
        found = [f for f in FORBIDDEN if f in text]
        assert not found, f"{to} {dialect}: raw {found!r}"
        assert not [c for c in text if 0x7F <= ord(c) < 0xA0 or ord(c) < 0x20 and c not in "\n"]
    if to == "har":
        json.loads(out)  # the same values, written as \u escapes


def test_conform_reports_escape_what_the_server_sent():
    # a server's answer is quoted in conform's reasons: ESC, C1 and bidi never reach the terminal raw
    from inspector.net.conform.grade import CaseResult
    from inspector.net.conform.report import cases_github, cases_json, cases_text

    bad = "model \x1b]52;c;SGVsbG8=\x07 \u202eevil \x9b2J"
    case = CaseResult("one-tool-call", "a call", grade="fail", reason=bad, problems=[f"fail: {bad}"])
    for out in (cases_text([case], title="t"), cases_github([case], "s"), cases_json([case])):
        assert not any(ch in out for ch in ("\x1b", "\x07", "\u202e", "\x9b")), out
    assert "\\x1b]52" in cases_text([case], title="t")


def test_conform_junit_is_xml_a_ci_reads_and_quotes_nothing_a_terminal_obeys():
    # JUnit XML quotes the server's answer and the client's last words: raw ESC or C1 made it
    # ill-formed XML 1.0 (a CI's parser rejects the whole file) and drove a terminal that showed it
    bad = HOSTILE + "\x00\x0b\ufffe\uffff\udc9b"
    case = CaseResult("one-tool-call", "a call", grade="fail", reason=bad, problems=[f"fail: {bad}"])
    verdict = Verdict(mutation="stall=3", capture="c", provider="anthropic", outcome="mis-assembled", detail=bad,
                      problems=[bad], client=f"exit 1: {bad}")
    for out in (cases_junit([case], "s"), verdicts_junit([verdict], "s")):
        assert not [f for f in FORBIDDEN if f in out], out
        assert not [c for c in out if 0x7F <= ord(c) < 0xA0 or ord(c) < 0x20 and c != "\n"
                    or ord(c) in (0xFFFE, 0xFFFF) or 0xD800 <= ord(c) < 0xE000]
        root = ET.fromstring(out.encode())
        assert "\\x1b]52" in ET.tostring(root, encoding="unicode")  # quoted, visibly

