"""A declared tool's schema is the request's, and the call is the model's: a ``pattern`` (or a
``patternProperties`` name) that backtracks catastrophically (``^(a+)+$``) on an argument built to
fail it (40 a's and a ``!``) must not hang V002; ``jsonschema`` searched patterns with Python's
backtracking ``re`` (2^40 steps), its searches now run in jsonschema_rs's engine (the one the fast
check uses). Ordinary patterns judge exactly as ``re`` does."""
from __future__ import annotations

import re
import subprocess
import sys

import jsonschema
import pytest

from inspector.session.rules.schemas import compile_schema, violations

EVIL = "^(a+)+$"
ATTACK = "a" * 40 + "!"

JUDGE = """
import sys
from inspector.session.rules.schemas import compile_schema, violations
schema = {schema}
print(violations(compile_schema(schema), {instance})[1])
"""


@pytest.mark.parametrize("schema, instance", [
    ({"type": "object", "properties": {"q": {"type": "string", "pattern": EVIL}}}, {"q": ATTACK}),
    ({"type": "object", "patternProperties": {EVIL: {"type": "integer"}}}, {ATTACK[:-1]: "x", ATTACK: 1}),
    ({"type": "object", "patternProperties": {EVIL: {}}, "additionalProperties": False}, {ATTACK: 1}),
    ({"type": "object", "patternProperties": {EVIL: {}}, "unevaluatedProperties": False}, {ATTACK: 1}),
    ({"type": "object", "propertyNames": {"pattern": EVIL}}, {ATTACK: 1}),
], ids=["pattern", "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames"])
def test_a_pattern_that_backtracks_catastrophically_is_judged_all_the_same(schema, instance):
    # A separate process, so that a hang is a failure (the guard is minutes; the judgement takes milliseconds).
    code = JUDGE.format(schema=repr(schema), instance=repr(instance))
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("V002 did not finish judging the call")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1


PATTERNS = [r"^[a-z]+$", r"^\d{3}-\d{4}$", r"^(?:[A-Z]{2})?\d+$", r"foo|bar", r"^\S+@\S+\.\S+$", r"^[^\s]{1,8}$",
            r"^(?!tmp)[a-z_]+$", r"(\w)\1", r"^.{2,4}$", r"colou?r", r"^-?(0|[1-9]\d*)(\.\d+)?$"]
WORDS = ["abc", "ABC", "123-4567", "US42", "42", "foobar", "a@b.co", "a b", "tmpfile", "files", "aab", "ab",
         "Émile", "é", "colr", "color", "-0.5", "01", ""]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_ordinary_patterns_judge_as_python_re_does(pattern):
    schema = {"type": "object", "properties": {"q": {"type": "string", "pattern": pattern}}}
    compiled = compile_schema(schema)
    for word in WORDS:
        expected = re.search(pattern, word) is not None
        found, n = violations(compiled, {"q": word})
        assert (n == 0) == expected, (pattern, word, found)
        if n:
            assert found[0].keyword == "pattern" and found[0].message == f"{word!r} does not match {pattern!r}"


def test_another_user_of_jsonschema_in_the_process_keeps_python_re():
    """Only V002's own judging searches in the linear engine: a pattern it refuses (``\\Z``, which V002
    leaves unjudged) still judges by ``re`` for the process's other jsonschema users (the pytest plugin
    runs in theirs)."""
    compile_schema({"type": "object", "properties": {"q": {"type": "string", "pattern": "x"}}})  # installs LinearRe
    schema = {"type": "string", "pattern": r"a\Z"}
    assert jsonschema.Draft202012Validator(schema).is_valid("ba")
    assert not jsonschema.Draft202012Validator(schema).is_valid("ab")


@pytest.mark.parametrize("schema, instance", [
    ({"type": "object", "patternProperties": {r"_id\Z": {"type": "integer"}}}, {"query": "hello", "user_id": "3"}),
    ({"type": "object", "properties": {"q": {"type": "string", "pattern": r"a{,3}"}}}, {"q": "zzz"}),
    ({"$defs": {"id": {"patternProperties": {r"(?#c)x": {"type": "integer"}}}}, "$ref": "#/$defs/id"}, {"y": "s"}),
], ids=["patternProperties", "pattern", "under-defs"])
def test_a_pattern_the_engine_does_not_take_constrains_nothing(schema, instance):
    """Not judged (a V005 note) means no V002 from it: counted as matching, a ``patternProperties``
    name put its subschema on every member (``query`` was 'not of type integer')."""
    compiled = compile_schema(schema)
    assert any("is not judged" in note for note in compiled.notes)
    assert violations(compiled, instance) == ([], 0)
