"""Where a JSON object or array ends, in text fed a line at a time.

A pretty-printed JSON value spans many lines (Google's error bodies, Gemini's answer without
``alt=sse``); it is one value, never one malformed value per line (RULES.md S006). The scanner
tracks nesting, strings and escapes across lines; it does not validate (orjson judges the value
once it is whole). JSON strings cannot hold a raw line break (RFC 8259 §7), so a string still
open at the end of a line means the value is broken there.
"""
from __future__ import annotations

from inspector.model.lazyre import lazy

_SPECIAL = lazy(r'["\\{}\[\]]')
"""The only characters that change the scanner's state."""


class ValueScanner:
    """Nesting state of one JSON object or array being read (``reset`` before each)."""

    __slots__ = ("depth", "in_string", "escape")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escape = False

    def scan(self, text: str, start: int = 0) -> int:
        """Read ``text[start:]``; the index just past the character that closes the value, or -1
        when the value goes on past this text. A closer with nothing open ends it too (broken)."""
        pos = start
        while True:
            if self.escape:
                if pos >= len(text):
                    return -1
                self.escape = False
                pos += 1
            m = _SPECIAL.search(text, pos)
            if m is None:
                return -1
            c = m.group()
            pos = m.end()
            if self.in_string:
                if c == "\\":
                    self.escape = True
                elif c == '"':
                    self.in_string = False
            elif c == '"':
                self.in_string = True
            elif c == "\\":
                continue
            elif c in "{[":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth <= 0:
                    return pos
