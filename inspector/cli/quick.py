"""``check``'s usual command lines read without ``argparse`` (start-up: importing argparse, which
brings gettext and locale, and building check's parser cost ~17 M of the ~220 M instructions of a
one-event ``check``, more than its work).

``check_args`` takes only what it can prove argparse reads the same way: ``check`` first, then
captures (one run of plain words, or ``-``) and the options in ``_VALUED``/``_FLAGS`` spelled out
whole, each value a plain word argparse accepts. Anything else (help, an abbreviation, ``--opt=value``,
``--``, a value argparse would refuse, captures split by an option, any other option) gives None and
``inspector.cli.main`` builds the parser, which then reads, refuses or helps exactly as before.
``tests/unit/test_cli_quick.py`` holds the two readings equal, hostile command lines included.
"""
from __future__ import annotations

from types import SimpleNamespace

from inspector.model.severity import WORST_FIRST
from inspector.providers import dialect_names

FORMATS = ("text", "json", "github")
"""``check --format``'s choices."""

DEFAULTS = {"command": "check", "format": "text", "fail_on": "error", "request": None,
            "entry": None, "jobs": None, "otlp": False, "dialect": None, "stall": 10.0, "max_size": None,
            "keep_audio": False, "max_memory": None}
"""Every attribute check's parser sets when no option is given (but ``captures``, required, and
``severity``, a new list each time)."""

_VALUED = {"--format": "format", "--fail-on": "fail_on", "--dialect": "dialect", "--severity": "severity",
           "--jobs": "jobs", "-j": "jobs"}
"""Options with a value that ``check_args`` reads, and their attribute."""
_FLAGS = {"--keep-audio": "keep_audio"}
"""Flags (``store_true``) that ``check_args`` reads, and their attribute."""


def _value(dest: str, word: str) -> object:
    """``word`` as argparse stores it for ``dest``, or None where argparse might not accept it."""
    if dest == "format":
        return word if word in FORMATS else None
    if dest == "fail_on":
        return word if word in WORST_FIRST else None
    if dest == "dialect":
        return word if word in dialect_names() else None
    if dest == "jobs":  # ``_count``: a whole number of 1 or more (digits only here: no sign, space or ``_``)
        return int(word) if word.isascii() and word.isdigit() and int(word) >= 1 else None
    return word  # --severity: any string (check.run judges it)


def check_args(words: list[str]) -> SimpleNamespace | None:
    """``words`` (the command line without the program) as check's parser would read it, or None
    when this reading does not prove that (the caller then uses the parser)."""
    if not words or words[0] != "check":
        return None
    found: dict[str, object] = dict(DEFAULTS)
    captures: list[str] = []
    severity: list[str] = []
    run_over = False  # an option came after captures: argparse takes them as one run, a second is an error
    i = 1
    while i < len(words):
        word = words[i]
        if word[:1] != "-" or word == "-":
            if run_over:
                return None
            captures.append(word)
            i += 1
        elif word in _FLAGS:
            run_over = bool(captures)
            found[_FLAGS[word]] = True
            i += 1
        else:
            run_over = bool(captures)
            dest = _VALUED.get(word)
            if dest is None or i + 1 >= len(words) or words[i + 1][:1] in ("-", ""):
                return None
            value = _value(dest, words[i + 1])
            if value is None:
                return None
            if dest == "severity":
                severity.append(words[i + 1])
            else:
                found[dest] = value
            i += 2
    if not captures:
        return None
    return SimpleNamespace(captures=captures, **{**found, "severity": severity})
