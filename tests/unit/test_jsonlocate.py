"""Where a JSONPath's value is written in JSON text (the V002 mark in the TUI's argument view)."""
from __future__ import annotations

import pytest

from inspector.model.jsonlocate import path_steps, value_span
from inspector.session.rules.schemas import Violation
from inspector.tui.widgets.argument_view import violation_spans

TEXT = '{"a": [1, "x", {"b": null}], "c": {"d e": 2.5}, "n": {}}'


@pytest.mark.parametrize("path, value", [
    ("$", TEXT), ("$.a", '[1, "x", {"b": null}]'), ("$.a[1]", '"x"'), ("$.a[2].b", "null"),
    ("$.c.d e", "2.5"), ("$.n", "{}"),
])
def test_the_span_is_the_value_as_written(path, value):
    a, b = value_span(TEXT, path)
    assert TEXT[a:b] == value


@pytest.mark.parametrize("text, path", [
    (TEXT, "$.z"), (TEXT, "$.a[3]"), (TEXT, "$.a.b"), (TEXT, "$.c[0]"), (TEXT, "$.n.x"),
    ('{"a": ', "$.a"), ("not json", "$"), ("", "$"), (TEXT, "a.b"), (TEXT, "$..a"),
])
def test_a_path_not_in_the_text_or_text_not_json_is_none(text, path):
    assert value_span(text, path) is None


def test_arguments_nested_past_the_parser_give_none_not_a_crash():
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert value_span(deep, "$.a[0]") is None  # json cannot parse it (RecursionError): nothing marked


def test_steps_of_a_jsonschema_path():
    assert path_steps("$.a.b[0][12].c") == ["a", "b", 0, 12, "c"] and path_steps("$") == []


def test_a_violation_about_keys_marks_the_opening_brace_only():
    text = '{"city": "Porto", "x": 1}'
    spans = violation_spans(text, [Violation("$", "required", "'days' is a required property"),
                                   Violation("$.city", "maxLength", "'Porto' is too long")])
    assert spans == ((0, 1), (9, 16))
