"""Line splitting shared by the SSE and NDJSON decoders: bytes in, lines with body positions out.

``LineReader`` cuts a body fed in arbitrary chunks into lines (1-based line numbers, byte
offsets), holding partial lines and a split CRLF across chunks; ``Utf8Lines`` decodes each
line and reports the framing facts that belong to lines: S001 invalid UTF-8, S009 BOM,
S011 mixed line endings (``shared/RULES.md``). Pure: no I/O, no clocks.
"""
from __future__ import annotations

import re

from inspector.model.frames import FramingIssue, Item
from inspector.model.lazyre import lazy

__all__ = ["LineReader", "Utf8Lines", "BOM"]

BOM = b"\xef\xbb\xbf"

# NOTE: "a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A
# LINE FEED (LF) character not preceded by a U+000D CARRIAGE RETURN (CR) character, and a
# single U+000D CARRIAGE RETURN (CR) character not followed by a U+000A LINE FEED (LF)
# character being the ways in which a line can end." (WHATWG HTML 9.2.6)
_SSE_EOL = re.compile(rb"\r\n|\r|\n")
_LF = lazy(rb"\n")

# Line-reader output entries (tuples, to stay cheap on streams of many small lines):
#   ("bom", n)                                the body started with a UTF-8 BOM (stripped); n = 2
#                                             when a second one follows (kept: only one is stripped)
#   ("line", content, line, offset, kind)     a terminated line; kind "LF" | "CRLF" | "CR",
#                                             or None for a CR that ended the fed bytes
#   ("eol", kind, line, offset)               the terminator kind of that last CR line, once
#                                             the next byte (or close) decided it
#   ("tail", content, line, offset)           at close: a last line with no terminator


class LineReader:
    """Split a byte stream, fed in arbitrary chunks, into lines with body positions.

    ``feed(bytes) -> list[entry]`` / ``close() -> list[entry]``; see the entry shapes above.
    Positions: ``line`` is 1-based, ``offset`` is the byte offset of the line's first byte in
    the body as received (a stripped BOM still counts, so the first line then starts at 3).

    With ``cr_ends_line=True`` (SSE) CRLF, LF and lone CR end a line. A CR that ends the fed
    bytes ends its line at once (so an event is dispatched as soon as its bytes arrived); an
    LF at the start of the next chunk is then swallowed as the second half of that CRLF.
    With ``cr_ends_line=False`` (NDJSON) only LF ends a line and one CR before it is dropped.
    Cost is linear in the body size: a partial line is accumulated in a ``bytearray`` and
    only the newly fed bytes are scanned for terminators.
    """

    def __init__(self, *, cr_ends_line: bool = True) -> None:
        self._cr_mode = cr_ends_line
        self._eol = _SSE_EOL if cr_ends_line else _LF
        self._head = b""  # first bytes, held while they may still be a split BOM (or two)
        self._started = False
        self._partial = bytearray()
        self._pos = 0  # body offset of the next byte to be fed
        self._line_no = 1  # number of the line now being read
        self._line_start = 0  # body offset of that line
        self._after_cr = False  # the fed bytes ended with a CR: swallow a leading LF
        self._cr_line = (0, 0)

    def feed(self, data: bytes) -> list[tuple]:
        out: list[tuple] = []
        if not self._started:
            data = self._head + data
            if _maybe_more_bom(data):
                self._head = data
                return out
            self._started = True
            self._head = b""
            data = self._strip_bom(data, out)
        self._split(data, out)
        return out

    def _strip_bom(self, data: bytes, out: list[tuple]) -> bytes:
        # NOTE: "The UTF-8 decode algorithm strips one leading UTF-8 Byte Order Mark
        # (BOM), if any." (Encoding standard, used by WHATWG HTML 9.2.6 "Streams must be
        # decoded using the UTF-8 decode algorithm"). Only the first one: a second stays in
        # the first line, where it spoils the first field name even for BOM-aware clients.
        if data.startswith(BOM):
            out.append(("bom", 2 if data[len(BOM):].startswith(BOM) else 1))
            data = data[len(BOM):]
            self._pos = self._line_start = len(BOM)
        return data

    def at_line_start(self) -> bool:
        """Nothing held: the next byte fed starts a line (no partial line, no CR waiting for its LF)."""
        return self._started and not self._partial and not self._after_cr

    def position(self) -> tuple[int, int]:
        """``(line, offset)`` of the next byte to be fed."""
        return self._line_no, self._pos

    def skip_to(self, line: int, offset: int) -> None:
        """Whole lines up to ``offset`` were read elsewhere (a decoder's fast path): continue from there."""
        self._line_no, self._pos, self._line_start = line, offset, offset

    def close(self) -> list[tuple]:
        out: list[tuple] = []
        if not self._started:  # held bytes, all a BOM prefix: plain bytes (after one BOM) after all
            self._started = True
            head, self._head = self._head, b""
            self._split(self._strip_bom(head, out), out)
        if self._after_cr:
            self._after_cr = False
            out.append(("eol", "CR", *self._cr_line))
        if self._partial:
            content = bytes(self._partial)
            self._partial.clear()
            if not self._cr_mode and content.endswith(b"\r"):
                content = content[:-1]
            out.append(("tail", content, self._line_no, self._line_start))
        return out

    def _split(self, data: bytes, out: list[tuple]) -> None:
        if not data:
            return
        if self._after_cr:
            self._after_cr = False
            if data[0] == 0x0A:  # the LF half of a CRLF split across chunks
                out.append(("eol", "CRLF", *self._cr_line))
                data = data[1:]
                self._pos += 1
                self._line_start = self._pos
            else:
                out.append(("eol", "CR", *self._cr_line))
        start = 0
        size = len(data)
        for m in self._eol.finditer(data):
            if self._partial:
                self._partial += data[start:m.start()]
                content = bytes(self._partial)
                self._partial.clear()
            else:
                content = data[start:m.start()]
            end = m.end()
            if self._cr_mode:
                term = end - m.start()
                if term == 2:
                    kind = "CRLF"
                elif data[m.start()] == 0x0A:
                    kind = "LF"
                elif end == size:  # a CR ending the chunk: the next byte decides
                    kind = None
                    self._after_cr = True
                    self._cr_line = (self._line_no, self._line_start)
                else:
                    kind = "CR"
            elif content.endswith(b"\r"):
                content = content[:-1]
                kind = "CRLF"
            else:
                kind = "LF"
            out.append(("line", content, self._line_no, self._line_start, kind))
            self._line_no += 1
            self._line_start = self._pos + end
            start = end
        if start < size:
            self._partial += data[start:]
        self._pos += size


def _maybe_more_bom(data: bytes) -> bool:
    """True while ``data`` (the first bytes of a body) could still grow into one or two BOMs:
    hold them until the next chunk decides."""
    if len(data) < len(BOM):
        return BOM.startswith(data)
    rest = data[len(BOM):]
    return data.startswith(BOM) and len(rest) < len(BOM) and BOM.startswith(rest)


class Utf8Lines:
    """Per-stream bookkeeping shared by the SSE and NDJSON decoders: S001, S009 and S011."""

    def __init__(self) -> None:
        self._bad_lines = 0
        self._eol_kinds: list[str] = []
        self._mixed_reported = False

    def decode(self, raw: bytes, line: int, offset: int, t: float | None, out: list[Item]) -> str:
        """Decode one line's bytes as UTF-8; on bad bytes replace them and report S001 once."""
        # NOTE: "Streams must be decoded using the UTF-8 decode algorithm." (WHATWG HTML 9.2.6)
        # That algorithm replaces bad bytes with U+FFFD and goes on; so does the inspector.
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._bad_lines += 1
            if self._bad_lines == 1:
                at = offset + exc.start
                out.append(FramingIssue(
                    "S001",
                    f"invalid UTF-8 at byte offset {at} (line {line}); decoded with U+FFFD "
                    "replacement (reported once per stream)",
                    line, at, t))
            return raw.decode("utf-8", "replace")

    @property
    def bad_lines(self) -> int:
        """How many lines held invalid UTF-8 so far (S001 is reported only for the first)."""
        return self._bad_lines

    @staticmethod
    def bom_issue(t: float | None, count: int = 1) -> FramingIssue:
        if count > 1:
            return FramingIssue(
                "S009",
                "body starts with two UTF-8 BOMs (EF BB BF EF BB BF): even BOM-aware decoders strip "
                "only one, so the first field reads as '\\ufeffevent'/'\\ufeffdata' and the first "
                "event's name or data is lost",
                1, 0, t)
        return FramingIssue(
            "S009",
            "body starts with a UTF-8 BOM (EF BB BF); stripped as the spec says, but common "
            "SSE clients then read the first field as '\\ufeffevent'/'\\ufeffdata' and "
            "silently drop the first event",
            1, 0, t)

    def eol(self, kind: str, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        """Note a line terminator kind; report S011 once, where a second kind first shows."""
        if kind in self._eol_kinds:
            return
        self._eol_kinds.append(kind)
        if len(self._eol_kinds) == 2 and not self._mixed_reported:
            self._mixed_reported = True
            first, second = self._eol_kinds
            out.append(FramingIssue(
                "S011",
                f"mixed line endings: {first} before, {second} first at line {line}",
                line, offset, t))
