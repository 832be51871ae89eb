"""JSON from a capture, parsed only when it nests no deeper than ``MAX_DEPTH`` (S019).

Why this module exists: a hostile capture can nest arrays 100 000 deep. orjson refuses more than
1 024 levels (an error), Python's ``json`` and every recursive walk over a parsed value (diff,
redaction, pretty-printing, the explain screen) hit the recursion limit near 1 000 (a crash). So
every parse of capture JSON goes through ``loads``: a value deeper than ``MAX_DEPTH`` is refused
as ``TooDeep`` (an ``orjson.JSONDecodeError``: every caller already treats it as "not JSON"), and
the code that walks parsed values recursively is bounded by it (two or three frames per level
stay far below the recursion limit). No real provider nests anywhere near that deep.
"""
from __future__ import annotations

import re
from collections.abc import Container, Iterator
from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

import orjson

from inspector.model.lazyre import lazy

MAX_DEPTH = 200
"""Deepest nesting of arrays and objects parsed (levels)."""

TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"
"""The reason ``TooDeep`` gives (the session reports S019 for it)."""

_STR_TOKENS = lazy(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_BYTES_TOKENS = lazy(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""Strings (skipped whole) and brackets: compiled when a text first holds more than ``MAX_DEPTH`` brackets."""


class TooDeep(orjson.JSONDecodeError):
    """The JSON text nests deeper than ``MAX_DEPTH``."""

    def __init__(self) -> None:
        super().__init__(TOO_DEEP, "", 0)


def depth_over(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """True when ``text`` (JSON, or a prefix of it) opens more than ``limit`` arrays or objects
    at once; brackets inside strings do not count. O(len): one count, and a scan only when the
    text holds more than ``limit`` opening brackets at all."""
    if len(text) <= limit:  # fewer characters than the limit: fewer brackets too
        return False
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= limit:
            return False
        return _deeper(_STR_TOKENS.finditer(text), "[{", "]}", limit)
    data = bytes(text)
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    return _deeper(_BYTES_TOKENS.finditer(data), (0x5B, 0x7B), (0x5D, 0x7D), limit)


def _deeper(tokens: Iterator[re.Match[Any]], opening: Container[Any], closing: Container[Any], limit: int) -> bool:
    """True when the bracket tokens (strings skipped whole) open more than ``limit`` at once."""
    depth = 0
    for m in tokens:
        c = m.group()[0]
        if c in opening:
            depth += 1
            if depth > limit:
                return True
        elif c in closing:
            depth -= 1
    return False


def loads(text: str | bytes) -> object:
    """``orjson.loads(text)``; raises ``TooDeep`` (an ``orjson.JSONDecodeError``) for a value
    nested deeper than ``MAX_DEPTH``, ``orjson.JSONDecodeError`` for anything else not JSON."""
    if depth_over(text):
        raise TooDeep()
    return orjson.loads(text)
