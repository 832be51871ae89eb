"""Streams pasted as text: raw SSE, or SSE/NDJSON inside prose and markdown code fences.

Why it exists: bug reports carry streams as pasted text: a bare SSE body, or one wrapped in a
markdown fence with a sentence before and after it. Such text must be readable as a capture
without hand-editing, and findings must still point at the line of the *file* the user has in
their editor. Pure SSE text comes back unchanged (one untimed chunk, ``source_format`` ``"sse"``);
otherwise the stream part is cut out, ``Capture.line_base`` maps body lines to file lines, and
``Capture.notes`` says what was left out (``source_format`` ``"text"``).

SSE line syntax: WHATWG HTML 9.2.6 (a field line is ``name:value``, a comment starts with
``:``); fences: CommonMark 0.31 §4.5 (three or more backticks or tildes, closed by at least as
many of the same character).
"""
from __future__ import annotations

import re

from inspector.capture import memory
from inspector.model.capture import Capture, Chunk
from inspector.model.lazyre import lazy

_SSE_LINE = re.compile(rb"^(?:(?:event|data|id|retry):|:)")
"""A line a stream author wrote as SSE: a known field, or a comment."""
_DATA_LINE = lazy(rb"^data:")
_FENCE = lazy(rb"^( {0,3})(`{3,}|~{3,})([^\r\n]*)")
_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\n\r\x0b\x0c"
"""What ``bytes.strip`` strips."""
_LEADING_SPACE = re.compile(rb"[ \t\n\r\x0b\x0c]*")
_JSON_LINE_START = (b"{", b"[", b"}", b"]", b" ", b"\t", b'"')
"""How the lines of a pretty-printed JSON value start."""


def _leading_space(raw: bytes) -> int:
    """Offset of the first byte of ``raw`` that is not ASCII space (0 or more of them)."""
    m = _LEADING_SPACE.match(raw)
    assert m is not None  # a ``*`` run matches everywhere
    return m.end()


def extract_stream(raw: bytes, *, name: str = "<input>") -> Capture:
    """Turn pasted text into a ``Capture`` (one untimed chunk); see the module docstring.

    - Pure SSE (its first and last lines SSE lines, blank lines around them): ``raw`` unchanged, ``"sse"``.
    - Markdown fences: the fence(s) holding ``data:`` lines (else NDJSON object lines) are the
      body; lines between two kept fences become blank lines so line numbers stay exact.
    - Otherwise prose lines before the first and after the last SSE (or NDJSON) line are dropped.
    An extracted SSE body always ends with a blank line: the end of the pasted block dispatches
    its last event (the paste, not the wire, cut the stream there). Raises only ``MemoryLimitReached``
    (``inspector.capture.memory``), before splitting a body whose lines would not fit.
    """
    if _plain_sse(raw):
        return Capture(chunks=[Chunk(None, raw)], source_format="sse")
    memory.reserve_lines(raw, name)  # a line of a byte or two costs ~50 times its size here
    lines = raw.splitlines(keepends=True)
    probe = [_without_boms(ln) if i == 0 else ln for i, ln in enumerate(lines)]
    fenced = _from_fences(lines, probe)
    if fenced is not None:
        return fenced
    sse = [i for i, ln in enumerate(probe) if _SSE_LINE.match(ln)]
    if any(_DATA_LINE.match(probe[i]) for i in sse):
        return _cut(lines, probe, sse[0], _json_after(probe, sse[-1]), "sse", raw)
    objs = [i for i, ln in enumerate(probe) if ln.lstrip().startswith(b"{")]
    if objs:
        return _cut(lines, probe, objs[0], objs[-1], "ndjson", raw)
    return Capture(chunks=[Chunk(None, raw)], source_format="sse")


def _plain_sse(raw: bytes) -> bool:
    """A body that is SSE from its first line to its last: taken as it is, without splitting a large
    paste into lines first (nor copying or scanning it: its first and last lines and the first
    ``data:`` line decide). A code fence line between an SSE first line and an SSE last line is
    one more line of the stream (an unknown field, which SSE clients ignore), not a markdown paste:
    a paste wraps its fences around the stream, so its first or last line is prose or a fence."""
    start = _leading_space(raw)
    end = len(raw)
    while end > start and raw[end - 1] in _SPACE:
        end -= 1
    while raw.startswith(_BOM, start, end):
        start += len(_BOM)
    nl = raw.find(b"\n", start, end)
    first = raw[start:nl if nl >= 0 else end]
    last = raw[raw.rfind(b"\n", start, end) + 1:end]
    return bool(_SSE_LINE.match(first) and _SSE_LINE.match(last.lstrip(b"\r"))
                and (raw.startswith(b"data:", start, end) or raw.find(b"\ndata:", start, end) >= 0))


def _json_after(probe: list[bytes], last: int) -> int:
    """The last line of the stream: ``last``, or the end of a bare JSON value right after it (an
    error body written without ``data:``, as Google does after the events), which belongs to it."""
    i = last + 1
    while i < len(probe) and _blank(probe[i]):
        i += 1
    if i >= len(probe) or probe[i][:1] not in (b"{", b"["):
        return last
    end = i
    while i < len(probe) and (_blank(probe[i]) or probe[i][:1] in _JSON_LINE_START):
        if not _blank(probe[i]):
            end = i
        i += 1
    return end


def _without_boms(line: bytes) -> bytes:
    """The first line without its leading BOMs (one or more: S009 reports them, the body keeps them)."""
    while line.startswith(_BOM):
        line = line[len(_BOM):]
    return line


def _blank(line: bytes) -> bool:
    return not line.strip()


def _plural(n: int, word: str = "line") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _terminated(body: list[bytes]) -> list[bytes]:
    if body and not body[-1].endswith((b"\n", b"\r")):
        body[-1] = body[-1] + b"\n"
    return body


def _cut(lines: list[bytes], probe: list[bytes], first: int, last: int, kind: str, raw: bytes) -> Capture:
    before = sum(1 for ln in probe[:first] if not _blank(ln))
    after = sum(1 for ln in probe[last + 1:] if not _blank(ln))
    if not before and not after:
        if kind == "sse":
            return Capture(chunks=[Chunk(None, raw)], source_format="sse")
        return Capture(chunks=[Chunk(None, raw)], source_format="ndjson")
    body = _terminated(list(lines[first:last + 1]))
    if kind == "sse":
        body.append(b"\n")
    notes = []
    if before and after:
        notes.append(f"ignored {_plural(before)} of prose before the stream and {after} after it")
    elif before:
        notes.append(f"ignored {_plural(before)} of prose before the stream")
    else:
        notes.append(f"ignored {_plural(after)} of prose after the stream")
    return Capture(chunks=[Chunk(None, b"".join(body))], source_format="text", line_base=first, notes=notes)


def _fences(probe: list[bytes]) -> list[tuple[int, int, int]]:
    """``(open_line, close_line, indent)`` per fence (0-based; close = len(lines) when unclosed)."""
    out = []
    i, n = 0, len(probe)
    while i < n:
        m = _FENCE.match(probe[i])
        if m is None or (m.group(2)[:1] == b"`" and b"`" in m.group(3)):
            i += 1
            continue
        marker = m.group(2)
        indent = len(m.group(1))
        j = i + 1
        while j < n:
            c = _FENCE.match(probe[j])
            if c and c.group(2)[:1] == marker[:1] and len(c.group(2)) >= len(marker) and not c.group(3).strip():
                break
            j += 1
        out.append((i, j, indent))
        i = j + 1
    return out


def _from_fences(lines: list[bytes], probe: list[bytes]) -> Capture | None:
    fences = _fences(probe)
    if not fences:
        return None

    def content(f) -> list[bytes]:
        o, c, indent = f
        out = []
        for ln in probe[o + 1:c]:
            k = 0
            while k < indent and ln[k:k + 1] == b" ":
                k += 1
            out.append(ln[k:])
        return out

    kind = "sse"
    chosen = [f for f in fences if any(_DATA_LINE.match(ln) for ln in content(f))]
    if not chosen:
        kind = "ndjson"
        chosen = [f for f in fences if any(ln.lstrip().startswith(b"{") for ln in content(f))]
    if not chosen:
        return None
    start = chosen[0][0] + 1
    end = chosen[-1][1]  # exclusive: the closing fence line (or EOF)
    keep: dict[int, bytes] = {}
    for f in chosen:
        for k, ln in enumerate(content(f), start=f[0] + 1):
            keep[k] = ln
    body = [keep.get(i, b"\n") for i in range(start, end)]
    body = _terminated(body)
    if kind == "sse":
        body.append(b"\n")
    prose = sum(1 for i, ln in enumerate(probe) if i not in keep and not _blank(ln)
                and not any(i in (f[0], f[1]) for f in chosen))
    where = ", ".join(f"{f[0] + 2}–{f[1]}" for f in chosen)
    what = "code fence" if len(chosen) == 1 else f"{len(chosen)} code fences"
    note = f"read the stream from the {what} at lines {where}"
    if prose:
        note += f"; ignored {_plural(prose)} of prose around it"
    return Capture(chunks=[Chunk(None, b"".join(body))], source_format="text", line_base=start, notes=[note])
