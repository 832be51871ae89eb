"""Every ``--help`` has a description, examples and help for every option, defaults shown (issue 12, item 8)."""
from __future__ import annotations

import argparse

import pytest

from inspector.cli import main
from inspector.cli.parser import COMMANDS, build_parser
from inspector.tui.theme_files import short_theme_names


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_is_in_the_parser():
    assert set(_subparsers()) == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_a_description_examples_and_help_for_every_argument(command, capsys):
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    sub = _subparsers()[command]
    assert sub.description and len(sub.description) > 40
    assert "examples:" in out and f"stream-inspector {command}" in out.split("examples:", 1)[1]
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, f"{command}: {action.dest} has no help"
        if action.option_strings and action.default not in (None, False, []) and action.default is not argparse.SUPPRESS:
            shown = f"{action.default:g}" if isinstance(action.default, float) else str(action.default)
            assert f"(default: {shown})" in " ".join(out.split()), f"{command}: default of {action.dest} not shown"


def test_default_ports_are_shown(capsys):
    for command, port in (("proxy", "8787"), ("serve", "8765")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert f"(default: {port})" in capsys.readouterr().out


def test_theme_help_lists_names_that_exist_without_a_checkout(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    names = short_theme_names()
    assert {"dark", "light", "high-contrast"} <= set(names)
    assert all(n in out for n in names) and "themes/" not in out


@pytest.mark.parametrize("columns", [None, "100", "0", "-3", "wide"])
@pytest.mark.parametrize("terminal", [(132, 40), (0, 0), None])
def test_help_width_is_the_one_shutil_gives(columns, terminal, monkeypatch):
    """argparse sizes help with ``shutil.get_terminal_size().columns``; ``terminal_columns`` must agree
    (it stands in for shutil, which check's start-up no longer imports)."""
    import os
    import shutil

    from inspector.cli.parser import terminal_columns
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)

    def size(fd):
        if terminal is None:
            raise OSError("not a terminal")
        return os.terminal_size(terminal)
    monkeypatch.setattr(os, "get_terminal_size", size)
    assert terminal_columns() == shutil.get_terminal_size().columns


def test_a_command_description_is_wrapped_when_help_is_shown(capsys, monkeypatch):
    import textwrap
    monkeypatch.setenv("COLUMNS", "200")
    sub = _subparsers()["check"]
    raw = sub.description
    assert any(len(line) > 78 for line in raw.split("\n"))  # the source holds paragraphs, one a line
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    wrapped = "\n".join(textwrap.fill(par, 78) for par in raw.split("\n"))
    assert wrapped in capsys.readouterr().out


@pytest.mark.parametrize("words,usage,hint", [
    (["check", "--formt", "json", "x.sse"], "usage: stream-inspector check", "did you mean --format?"),
    (["serve", "--lop", "x.jsonl"], "usage: stream-inspector serve", "did you mean --loop?"),
    (["replay", "x.jsonl", "--sped=2"], "usage: stream-inspector replay", "did you mean --speed?"),
    (["rules", "--zzzzzz"], "usage: stream-inspector rules", None),
])
def test_an_unknown_option_is_told_with_its_commands_usage_and_the_nearest_option(words, usage, hint, capsys):
    """A misspelt option of a command: that command's usage (not the program's ``COMMAND ...``)
    and the option it most likely meant."""
    with pytest.raises(SystemExit) as e:
        main(words)
    assert e.value.code == 2
    err = capsys.readouterr().err
    bad = next(w for w in words if w.startswith("--"))
    assert err.startswith(usage) and f"error: unrecognized arguments: {bad}" in err
    assert (hint in err) if hint else "did you mean" not in err
