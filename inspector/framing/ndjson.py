"""Incremental NDJSON framing (Ollama native ``/api/chat`` and other line-per-object streams).

NDJSON bodies get the same treatment as SSE so the dialects see one shape: each non-blank
line becomes a ``Frame(event="message", data=line)``,
positioned by body line and byte offset, whatever the chunking of the body was. Framing
problems are reported with the S codes of ``shared/RULES.md`` (S001, S009, S010, S011).

Pure: no I/O, no clocks, no TUI imports.
"""
from __future__ import annotations

from inspector.framing.lines import LineReader, Utf8Lines
from inspector.model.frames import Frame, FramingIssue, Item

__all__ = ["NDJSONDecoder"]


class NDJSONDecoder:
    """Incremental NDJSON decoder with the ``SSEDecoder`` interface.

    ``feed(data: bytes, t: float | None) -> list[Frame | FramingIssue]`` takes the next body
    chunk and its arrival time in seconds; ``close(t) -> list[...]`` ends the body (``t``
    defaults to the last chunk's). Items come in body order.

    - Lines end with LF; one CR before it is dropped (CRLF). A lone CR is line content.
    - Each line that is not blank (whitespace only) becomes a Frame: ``event="message"``,
      ``data`` = the line without its terminator, ``named=False``, ``line``/``offset`` of the
      line, ``t`` of the chunk holding its LF.
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

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        """Decode the next body chunk, received at ``t`` seconds; return completed items."""
        self._last_t = t
        out: list[Item] = []
        self._handle(self._lines.feed(data), t, out)
        return out

    def close(self, t: float | None = None) -> list[Item]:
        """End of body: dispatch a last unterminated line (plus S010 after it)."""
        if t is None:
            t = self._last_t
        out: list[Item] = []
        self._handle(self._lines.close(), t, out)
        return out

    def _handle(self, entries: list[tuple], t: float | None, out: list[Item]) -> None:
        for entry in entries:
            tag = entry[0]
            if tag == "line":
                _, raw, line, offset, kind = entry
                self._frame(raw, line, offset, t, out)
                self._text.eol(kind, line, offset, t, out)
            elif tag == "tail":
                _, raw, line, offset = entry
                if self._frame(raw, line, offset, t, out):
                    out.append(FramingIssue(
                        "S010",
                        f"the last line (line {line}) does not end with a line terminator; "
                        "line-based clients may drop or delay it, shown anyway",
                        line, offset, t))
            elif tag == "bom":
                out.append(self._text.bom_issue(t))

    def _frame(self, raw: bytes, line: int, offset: int, t: float | None, out: list[Item]) -> bool:
        text = self._text.decode(raw, line, offset, t, out)
        if not text.strip():
            return False
        out.append(Frame("message", text, "", None, False, line, offset, t))
        return True
