"""Incremental framing of bodies made of JSON values: NDJSON, pretty-printed documents, arrays.

NDJSON (Ollama native ``/api/chat`` and other line-per-object streams) gets the same treatment
as SSE so the dialects see one shape: each value becomes a ``Frame(event="message", data=…)``,
positioned by body line and byte offset, whatever the chunking of the body was. Two more shapes
real providers send are read as values too, never as one malformed line after another:

- a pretty-printed value spanning lines (a Google error body ``{ "error": { … } }``);
- one JSON array of values written as they are produced: Gemini's ``streamGenerateContent``
  without ``alt=sse`` (SPEC.md "Capture files"), often pretty-printed, elements separated by
  ``,\\r\\n``; each element is one event with its own line.

Framing problems are reported with the S codes of ``shared/RULES.md`` (S001, S009, S010, S011).
Pure: no I/O, no clocks, no TUI imports.
"""
from __future__ import annotations

import orjson

from inspector.framing.jsonscan import ValueScanner
from inspector.framing.lines import LineReader, Utf8Lines
from inspector.model.frames import Frame, FramingIssue, Item

__all__ = ["NDJSONDecoder"]

_BLANK = " \t\r\n"


class NDJSONDecoder:
    """Incremental decoder of JSON values with the ``SSEDecoder`` interface.

    ``feed(data: bytes, t: float | None) -> list[Frame | FramingIssue]`` takes the next body
    chunk and its arrival time in seconds; ``close(t) -> list[...]`` ends the body (``t``
    defaults to the last chunk's). Items come in body order.

    - Lines end with LF; one CR before it is dropped (CRLF). A lone CR is line content.
    - A line holding one whole JSON value is a Frame (``event="message"``, ``named=False``,
      ``line``/``offset`` of the line, ``t`` of the chunk holding its LF); the parsed value rides
      along (``Frame.payload``) so it is parsed once.
    - An object or array that goes on past its line is read to its closing bracket, across lines
      (one Frame, at its first line). A string still open at a line's end breaks the value there
      (JSON strings hold no raw line break): that line is a Frame of its own, for S002 to judge.
    - A body whose first character is ``[`` is an array of values: each element is a Frame, the
      commas between them and the closing ``]`` are framing. An array never closed is S010.
    - Anything else on a line (text, a scalar) is a Frame of the rest of the line, as it is.
    - S009: one leading UTF-8 BOM is stripped and reported (offsets still count its 3 bytes).
    - S001: invalid UTF-8 is replaced with U+FFFD; reported once, at the first bad byte.
    - S011: LF and CRLF mixed; reported once, where the second kind first shows.
    - S010: a last line without LF is still dispatched at close(); the S010 issue comes
      right *after* that frame (same placement as ``SSEDecoder``).
    """

    def __init__(self) -> None:
        self._lines = LineReader(cr_ends_line=False)
        self._text = Utf8Lines()
        self._last_t: float | None = None
        self._scan = ValueScanner()
        self._value: list[str] | None = None
        """Pieces of the value being read across lines (None between values)."""
        self._start = (0, 0)
        """``(line, offset)`` where that value starts."""
        self._array: bool | None = None
        """The body is one JSON array (None until its first character decides)."""
        self._array_at = (0, 0)
        self._array_closed = False

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        """Decode the next body chunk, received at ``t`` seconds; return completed items."""
        self._last_t = t
        out: list[Item] = []
        self._handle(self._lines.feed(data), t, out)
        return out

    def close(self, t: float | None = None) -> list[Item]:
        """End of body: dispatch a last unterminated line (plus S010 after it), and any value
        still open (as it is, for S002 to judge)."""
        if t is None:
            t = self._last_t
        out: list[Item] = []
        self._handle(self._lines.close(), t, out)
        if self._value is not None:
            self._flush(t, out)
        if self._array and not self._array_closed:
            line, offset = self._array_at
            out.append(FramingIssue("S010", "the JSON array of the body is never closed with ']': the body "
                                    "was cut (strict JSON parsers reject all of it)", line, offset, t))
        return out

    def _handle(self, entries: list[tuple], t: float | None, out: list[Item]) -> None:
        for entry in entries:
            tag = entry[0]
            if tag == "line":
                _, raw, line, offset, kind = entry
                self._line(self._text.decode(raw, line, offset, t, out), line, offset, t, out)
                self._text.eol(kind, line, offset, t, out)
            elif tag == "tail":
                _, raw, line, offset = entry
                before = len(out)
                self._line(self._text.decode(raw, line, offset, t, out), line, offset, t, out)
                # Only a line-per-value body needs the final LF (a document or array does not).
                if not self._array and any(isinstance(i, Frame) and i.line == line for i in out[before:]):
                    out.append(FramingIssue(
                        "S010",
                        f"the last line (line {line}) does not end with a line terminator; "
                        "line-based clients may drop or delay it, shown anyway",
                        line, offset, t))
            elif tag == "bom":
                out.append(self._text.bom_issue(t, entry[1]))

    def _line(self, text: str, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        pos = 0
        end = len(text)
        while pos < end:
            if self._value is not None:
                stop = self._scan.scan(text, pos)
                if stop < 0:
                    self._value.append(text[pos:])
                    if self._scan.in_string:  # a string cannot cross a line: the value breaks here
                        self._flush(t, out)
                    return
                self._value.append(text[pos:stop])
                self._flush(t, out)
                pos = stop
                continue
            while pos < end and (text[pos] in _BLANK or (self._array and text[pos] == ",")):
                pos += 1
            if pos >= end:
                return
            c = text[pos]
            if self._array is None:
                self._array = c == "["
                if self._array:
                    self._array_at = (line, offset)
                    pos += 1
                    continue
            if self._array and c == "]" and not self._array_closed:
                self._array_closed = True
                pos += 1
                continue
            if c not in "{[":
                self._emit(text[pos:].rstrip(_BLANK), None, line, offset, t, out)
                return
            if pos == 0 and c == "{" and text.endswith("}"):
                try:  # the NDJSON case: the line is the value
                    payload = orjson.loads(text)
                except orjson.JSONDecodeError:
                    pass
                else:
                    self._emit(text, payload, line, offset, t, out)
                    return
            self._value = []
            self._start = (line, offset)
            self._scan.reset()

    def _flush(self, t: float | None, out: list[Item]) -> None:
        """Emit the value read across lines (whole, or broken)."""
        line, offset = self._start
        assert self._value is not None  # called only while a value is open
        data = "\n".join(self._value)
        self._value = None
        self._emit(data, None, line, offset, t, out)

    @staticmethod
    def _emit(data: str, payload: object, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        frame = Frame("message", data, "", None, False, line, offset, t)
        if payload is not None:
            frame.payload = payload
        out.append(frame)
