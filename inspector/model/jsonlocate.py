"""Where the value at a JSONPath sits in JSON text, so a violation can be marked where it is.

``value_span('{"a": [1, "x"]}', "$.a[1]")`` → ``(10, 13)``: the character offsets (end exclusive)
of that value as written, whitespace excluded. Paths are the ones ``jsonschema`` reports
(``ValidationError.json_path``: ``$``, ``.key`` for every key, ``[n]`` for every index); a key that
itself holds ``.`` or ``[`` cannot be told apart in that spelling and is not found. Nothing raises:
text that is not JSON, or a path not in it, gives ``None``. A key written twice is found at its
first occurrence.
"""
from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # public in CPython, absent from typeshed

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def path_steps(path: str) -> list[str | int] | None:
    """``"$.a.b[0]"`` → ``["a", "b", 0]``; ``None`` when ``path`` is not spelled that way."""
    if not path.startswith("$"):
        return None
    steps: list[str | int] = []
    i = 1
    while i < len(path):
        m = _STEP.match(path, i)
        if m is None:
            return None
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        i = m.end()
    return steps


def value_span(text: str, path: str) -> tuple[int, int] | None:
    """Offsets ``(start, end)`` of the value at ``path`` in ``text`` (see the module docstring)."""
    steps = path_steps(path)
    if steps is None:
        return None
    try:
        at = _skip(text, 0)
        for step in steps:
            child = _child(text, at, step)
            if child is None:
                return None
            at = child
        return at, _end(text, at)
    except (ValueError, IndexError, RecursionError):  # not JSON, cut short, or nested past the parser
        return None


def _skip(text: str, i: int) -> int:
    m = _WS.match(text, i)
    assert m is not None  # ``[...]*`` matches everywhere, if only the empty string
    return m.end()


def _end(text: str, i: int) -> int:
    return _DECODER.raw_decode(text, i)[1]


def _child(text: str, i: int, step: str | int) -> int | None:
    """Offset of the member ``step`` of the container starting at ``i``, or None."""
    if isinstance(step, int):
        if text[i] != "[":
            return None
        i = _skip(text, i + 1)
        n = 0
        while text[i] != "]":
            if n == step:
                return i
            after = _after(text, i)
            if after is None:
                return None
            i = after
            n += 1
        return None
    if text[i] != "{":
        return None
    i = _skip(text, i + 1)
    while text[i] == '"':
        key, i = scanstring(text, i + 1)
        i = _skip(text, i)
        if text[i] != ":":
            return None
        i = _skip(text, i + 1)
        if key == step:
            return i
        after = _after(text, i)
        if after is None:
            return None
        i = after
    return None


def _after(text: str, i: int) -> int | None:
    """Offset of the next member after the value at ``i`` and its comma; None at the container's end."""
    i = _skip(text, _end(text, i))
    return _skip(text, i + 1) if text[i] == "," else None
