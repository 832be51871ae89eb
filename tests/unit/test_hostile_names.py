"""A file name is text from outside too (a shared capture keeps the name it was sent with, a folder
walked by ``check`` holds whatever files it holds): whatever command names it in a message, no
escape sequence, C1 control or bidi override in it reaches the terminal raw; and a name that is not
UTF-8 (bytes Python keeps as lone surrogates) is a name like any other, never an internal error."""
from __future__ import annotations

import json
import os

import pytest

from inspector.cli import main
from tests.hostile import FORBIDDEN, HOSTILE, native

MISSING = f"missing-{HOSTILE}.jsonl"


def _raw(text: str) -> list[str]:
    return [f for f in FORBIDDEN if f in text] + [hex(ord(c)) for c in text if 0x80 <= ord(c) < 0xA0]


@pytest.mark.parametrize("argv", [
    ["check", MISSING], ["check", "--format", "json", MISSING], ["export", MISSING, "--to", "html"],
    ["diff", MISSING, MISSING, "--format", "json"], ["compare", MISSING, MISSING, "--format", "json"],
    ["serve", MISSING], ["serve", "--match", MISSING], ["rules", HOSTILE],
    ["live", "--provider", "anthropic", "--request", MISSING, "--format", "json"],
    ["conform", "--provider", "anthropic", "--base-url", "http://127.0.0.1:9", "--matrix", MISSING],
    ["conform", "--client", "true", "--provider", "anthropic", "--capture", MISSING],
], ids=lambda argv: " ".join(a for a in argv if a not in (MISSING, HOSTILE)))
def test_a_hostile_file_name_is_shown_escaped_by_every_command(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.strip() and not _raw(out + err), err
    assert "\\x1b]52" in err  # named, visibly


@pytest.fixture
def undecodable(tmp_path):
    """A capture whose name has a byte that is not UTF-8 (and an escape), as ``sys.argv`` gives it."""
    name = os.fsdecode(b"odd-\x9b\x1b[2J.jsonl")
    (tmp_path / name).write_text(native("anthropic"), encoding="utf-8")
    return str(tmp_path / name)


@pytest.mark.parametrize("argv", [
    ["check", "{f}"], ["check", "--format", "json", "{f}"], ["check", "--format", "github", "{f}"],
    ["diff", "--format", "json", "{f}", "{f}"], ["compare", "--format", "json", "{f}", "{f}"],
    ["export", "--to", "har", "{f}"], ["export", "--to", "html", "{f}"],
], ids=lambda argv: " ".join(a for a in argv if a != "{f}"))
def test_a_file_name_that_is_not_utf8_is_reported_not_a_crash(argv, undecodable, capsys):
    code = main([a.format(f=undecodable) for a in argv])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert not _raw(out + err), out + err
    if "json" in argv or "har" in argv:
        json.loads(out.splitlines()[0] if argv[0] == "check" else out)


def test_conform_list_and_title_show_a_shared_matrix_file_escaped(tmp_path, capsys):
    # A matrix file is shared like a capture: its names, notes and model are text from outside.
    esc = "".join(  # HOSTILE in a TOML basic string: every control, quote and backslash as a \\u escape
        c if 0x20 <= ord(c) < 0x7F and c not in "\"\\\\" else f"\\u{ord(c):04x}" for c in HOSTILE)
    matrix = tmp_path / "m.toml"
    matrix.write_text(f'provider = "anthropic"\nmodel = "m-{esc}"\n\n[[case]]\nname = "c"\nabout = "about {esc}"\n'
                      'expect = { calls = 0 }\nbody = { max_tokens = 5, messages = [] }\n', encoding="utf-8")
    assert main(["conform", "--provider", "anthropic", "--matrix", str(matrix), "--list"]) == 0
    out, err = capsys.readouterr()
    assert "about \\x1b]52" in out and not _raw(out + err), out
    assert main(["conform", "--provider", "anthropic", "--matrix", str(matrix), "--base-url", "http://127.0.0.1:9",
                 "--format", "text"]) in (1, 2)
    out, err = capsys.readouterr()
    assert not _raw(out + err), out
