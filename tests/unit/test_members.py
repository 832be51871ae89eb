"""``inspector.model.members``: one member of untrusted JSON read as the type the reader expects."""
from __future__ import annotations

from inspector.model.members import object_member, string_member


def test_an_object_member_or_a_fresh_empty_one():
    inner = {"a": 1}
    assert object_member({"m": inner}, "m") is inner
    for body in ({}, {"m": None}, {"m": [1]}, {"m": "x"}):
        got = object_member(body, "m")
        assert got == {} and got is not object_member(body, "m")  # a new one each time: safe to fill


def test_a_string_member_or_the_default():
    assert string_member({"k": "v"}, "k") == "v"
    assert string_member({"k": ""}, "k", "unknown") == ""  # an empty string is a string
    assert string_member({"k": 3}, "k") is None
    assert string_member({}, "k", "unknown") == "unknown"
    assert string_member({"k": {"a": 1}}, "k", "?") == "?"
