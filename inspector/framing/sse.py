"""Spec-exact, incremental SSE framing that keeps positions and reports what clients hide.

Common SSE clients (httpx-sse, the Anthropic and OpenAI SDK decoders) are good enough to use
and quiet about the stream's framing: a leading BOM silently costs them the first event, an
unterminated final event vanishes, mixed or CR-only line endings go unnoticed. The inspector
has to show exactly what a spec-following client would see *and* what it would lose, with
the body line and byte offset of each event, whatever the chunking of the body was.

``SSEDecoder`` follows WHATWG HTML "9.2.6 Interpreting an event stream" line by line on
*bytes* (so chunk boundaries inside a line, a CRLF pair or a UTF-8 character change nothing)
and reports the framing rules of ``shared/RULES.md`` (S001, S009, S010, S011, S013) as
``FramingIssue`` items. ``LineReader`` and ``Utf8Lines`` are shared with the NDJSON decoder.

Pure: no I/O, no clocks (time arrives with each chunk), no TUI imports.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate

import orjson

from inspector.framing.jsonscan import ValueScanner
from inspector.framing.lines import LineReader, Utf8Lines
from inspector.model.digits import digits_int
from inspector.model.frames import Comment, Frame, FrameRun, FramingIssue, Item, unnamed_frames
from inspector.model.lazyre import lazy
from inspector.model.record import Record

__all__ = ["SSEDecoder"]


class _Boundary(Record):
    """Fields seen after data lines of a still-pending event: the possible start of the next
    event of an undelimited (S013) stream, or just late fields of the same event."""

    __slots__ = ("line", "offset", "type", "id", "retry", "new_type", "new_retry")

    line: int
    offset: int
    type: str
    """The buffers as they were before the first such field line (``type``, ``id``, ``retry``)."""
    id: str
    retry: int | None
    new_type: str | None
    """Set by ``event:``/``retry:`` lines after the boundary (``new_type``, ``new_retry``)."""
    new_retry: int | None

    def __init__(self, line: int, offset: int, type: str, id: str, retry: int | None,
                 new_type: str | None = None, new_retry: int | None = None) -> None:
        self.line = line
        self.offset = offset
        self.type = type
        self.id = id
        self.retry = retry
        self.new_type = new_type
        self.new_retry = new_retry


_JSON_START = frozenset("{[")

_BODY = rb'[^"\\\n]*(?:\\.[^"\\\n]*)*'
"""A JSON string body on one line: no raw quote, backslash pairs kept whole (orjson checks the rest)."""
_BODY_END = lazy(_BODY + b'"')
_NAMED = lazy(rb"event:([^\n]*)\ndata:([^\n]*)\n\n")
"""A named event of the fast path's shape: an ``event:`` line, one ``data:`` line, a blank line."""
_TEMPLATES = 64
"""Run templates (see ``SSEDecoder.run_keys``) remembered per decoder."""
_COMPILE_AFTER = 2000
"""Events of one template matched by hand before its patterns are compiled: compiling costs
~0.7 ms, matching by hand ~0.4 µs per event more, and a stream of many short blocks (each its own
template: the index is in it) must not compile one per block."""


def _compile(head: bytes, mid: bytes, tail: bytes) -> tuple[re.Pattern, re.Pattern]:
    """A run template's two patterns: the whole run (how far it goes), and one event (its bodies)."""
    h, md, tl = re.escape(head), re.escape(mid), re.escape(tail)
    one, group = (md + _BODY, md + b"(" + _BODY + b")") if mid else (b"", b"")
    return re.compile(b"(?:" + h + _BODY + one + tl + b")+"), re.compile(h + b"(" + _BODY + b")" + group + tl)


def _by_hand(data: bytes, pos: int, end: int, head: bytes, mid: bytes,
             tail: bytes) -> tuple[list[bytes], list[bytes] | None, int]:
    """The run from ``pos`` matched event by event without compiled patterns:
    ``(bodies, second bodies or None, end of the run)``."""
    raw: list[bytes] = []
    noise: list[bytes] = []
    lh, lm, lt = len(head), len(mid), len(tail)
    starts, body_end = data.startswith, _BODY_END.match
    while pos < end and starts(head, pos):
        m = body_end(data, pos + lh, end)
        if m is None:
            break
        q = m.end() - 1
        if mid:
            if not starts(mid, q):
                break
            n = body_end(data, q + lm, end)
            if n is None or not starts(tail, n.end() - 1):
                break
            raw.append(data[pos + lh:q])
            noise.append(data[q + lm:n.end() - 1])
            pos = n.end() - 1 + lt
        else:
            if not starts(tail, q):
                break
            raw.append(data[pos + lh:q])
            pos = q + lt
    return raw, (noise if mid else None), pos


def _data_only(text: str, line: int, pos: int, ident: str, t: float | None) -> list[Frame] | None:
    """The frames of ``text`` (ASCII, ending in a blank line, no CR; body line ``line`` at byte ``pos``)
    when it is nothing but events of one ``data:`` line each (``data:VALUE\n\n``, the shape of every
    OpenAI Chat chunk), found with a few whole-text passes instead of a step per event; None for any other
    text (a comment, a named event, an ``id:``, a second data line, a stray blank line...).

    Exact: cut at every ``"\n\ndata:"``, the text is ``data:`` V1 ``\n\ndata:`` V2 ... ``\n\n``; when no
    value holds an LF, each event is one ``data:`` line and its blank line. Each value is then what the
    line path dispatches: field ``data``, the value after one optional space (WHATWG HTML 9.2.6). Cut at
    every ``"\n\ndata: "`` first: when that leaves no LF in a value, every event had the space."""
    if not text.startswith("data:"):  # first: a stream of named events leaves here, before any scan
        return None
    if text.startswith("data: "):  # the usual spelling: cut with the space, so no value is copied again
        values = text[6:-2].split("\n\ndata: ")
        if "\n" not in "".join(values):  # memchr over a copy: cheaper than counting LFs one by one
            return unnamed_frames(values, accumulate([len(v) + 8 for v in values], initial=pos), line, ident, t)
    values = text[5:-2].split("\n\ndata:")
    if "\n" in "".join(values):
        return None
    offsets = accumulate([len(v) + 7 for v in values], initial=pos)
    return unnamed_frames([v[1:] if v[:1] == " " else v for v in values], offsets, line, ident, t)


def _named_only(text: str, line: int, pos: int, ident: str, t: float | None,
                names: dict[str, str]) -> list[Frame] | None:
    """``_data_only`` for events of an ``event:`` line and one ``data:`` line each
    (``event:NAME\ndata:VALUE\n\n``, the shape of every Anthropic event); None for any other text.

    Exact: cut at every ``"\n\nevent:"``, each part is NAME, ``\ndata:``, VALUE with no other LF,
    so each event is those two lines and a blank line; the line path would dispatch VALUE (one
    optional space dropped) under NAME (the same; ``message`` and unnamed when empty). ``names``
    maps each raw NAME to its string, so that one string serves every event of that name."""
    if not text.startswith("event:"):
        return None
    frames: list[Frame] = []
    append = frames.append
    for part in text[6:-2].split("\n\nevent:"):
        name, sep, value = part.partition("\ndata: ")  # the value after one space, as the line path reads it
        if not sep:
            name, sep, value = part.partition("\ndata:")  # no space: the first ``data:`` has none to drop
        if not sep or "\n" in value or "\n" in name:
            return None
        event = names.get(name)
        if event is None:
            event = name[1:] if name[:1] == " " else name
            if len(names) < 256:
                names[name] = event
        append(Frame(event or "message", value, ident, None, bool(event), line, pos, t))
        line += 3
        pos += len(part) + 8
    return frames


def _markers(keys) -> tuple[bytes, ...]:
    """The raw ``"key":"`` (and ``"key": "``) openings of each key's string value."""
    return tuple(m for k in keys for m in (b'"%s":"' % k.encode(), b'"%s": "' % k.encode()))


def _is_value(text: str) -> bool:
    """True when ``text`` is ``[DONE]`` or one complete JSON object or array (orjson decides).
    Scalars (``1``, ``"a"``) do not count: joining such lines is what the SSE spec asks for
    (RULES.md S013)."""
    if text == "[DONE]":
        return True
    head = text.lstrip(" \t\r\n")[:1]
    if not head or head not in _JSON_START:
        return False
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


class SSEDecoder:
    """Incremental ``text/event-stream`` decoder (WHATWG HTML 9.2.6) with body positions.

    ``feed(data: bytes, t: float | None) -> list[Frame | Comment | FramingIssue]`` takes the
    next chunk of the body and its arrival time in seconds (None for untimed input);
    ``close(t) -> list[...]`` ends the body (``t`` defaults to the last chunk's). Items come
    in body order; splitting the body into different chunks changes only the ``t`` values.

    A ``Frame`` is a dispatched event (``event`` defaults to ``"message"``, ``named`` tells
    whether a non-empty ``event:`` field was given), ``line``/``offset`` locate its first ``event``/``data``/``id``/``retry`` line,
    ``t`` is the time of the chunk that completed it. ``retry`` is carried on the event whose
    block held it (as httpx-sse does), and reset after each blank line.

    Deliberate deviations from the spec, each reported:
    - S010: at close, a pending event with data is still dispatched (the spec discards it);
      the S010 issue comes right *after* that frame and carries its line and offset. With no
      pending data, an unterminated last line (e.g. ``: ping`` at EOF) gets S010 alone.
    - S013: a ``data:`` line holding ``[DONE]`` or a complete JSON object or array that joins a
      data buffer which is itself ``[DONE]``/a complete object or array ends the buffered event first (the
      spec would join them into one invalid payload). Field lines between the two data lines
      (``event:``, ``id:``, ``retry:``) go with the new event, so the pasted
      ``event:/data:/event:/data:`` form splits too; when a blank line follows instead, they
      stay with the buffered event as the spec says. S013 is reported once, right after the
      first split-off frame, at the new event's first line. Once a stream split like this,
      a last data line ended by a newline counts as terminated (no S010 at close).
    - S009: one leading BOM is stripped (as the spec says) but reported; S001 and S011 too.
    """

    def __init__(self) -> None:
        self._lines = LineReader(cr_ends_line=True)
        self._text = Utf8Lines()
        self._type = ""
        self._data: list[str] = []
        self._data_is_value: bool | None = None  # cached verdict while _data has one line
        self._id = ""
        self._retry: int | None = None
        self._start: tuple[int, int] | None = None
        self._boundary: _Boundary | None = None
        self._undelimited = False
        self._last_t: float | None = None
        self._raw: list[str] | None = None
        """Lines of a bare JSON value being read (an error body written without ``data:``)."""
        self._raw_at = (0, 0)
        self._raw_scan = ValueScanner()
        self._names: dict[bytes, str] = {b"": ""}
        self._named: dict[str, str] = {}
        """``_named_only``'s ``names`` (raw ``event:`` values as text -> the event name)."""
        self.run_keys: dict[str, tuple[bytes, ...]] = {}
        """Event name (``""``: no ``event:`` line) -> the raw ``"key":"`` markers whose string value
        may vary along a run (``FrameRun``); see ``set_run_keys``. Empty: no runs."""
        self.run_noise: tuple[bytes, ...] = ()
        """Raw ``"key":"`` markers of strings after the varying one that may vary too and that no
        rule reads (OpenAI's random ``obfuscation`` padding); see ``set_run_keys``."""
        self._templates: dict[tuple[bytes, ...], int | tuple[re.Pattern, re.Pattern]] = {}
        """Run templates: events matched by hand so far, or the compiled patterns."""
        self.on_run: Callable[[int], object] | None = None
        """Told each run's length (events) as it is framed; it may turn the search off at once
        (``set_run_keys({})``): the rest of the chunk is then framed an event at a time."""

    def set_run_keys(self, keys: dict[str, tuple[str, ...]], noise: tuple[str, ...] = ()) -> None:
        """Emit a ``FrameRun`` for events that repeat the one before but for the string value of
        one of ``keys`` (event name -> payload keys, as ``Dialect.run_keys`` gives them) and maybe
        the string of one ``noise`` key after it (``Dialect.run_noise``)."""
        self.run_keys = {name: _markers(names) for name, names in keys.items()}
        self.run_noise = _markers(noise)

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        """Decode the next body chunk, received at ``t`` seconds; return completed items."""
        self._last_t = t
        out: list[Item] = []
        if not (self._lines.at_line_start() and self._idle()):
            # Finish what the last chunk left open line by line, up to the next blank line.
            k = data.find(b"\n\n")
            if k < 0:
                self._handle(self._lines.feed(data), t, out)
                return out
            self._handle(self._lines.feed(data[:k + 2]), t, out)
            data = data[k + 2:]
        if data and self._lines.at_line_start() and self._idle():
            data = self._fast(data, t, out)
        if data:
            self._handle(self._lines.feed(data), t, out)
        return out

    def _idle(self) -> bool:
        """Between events: no field of a pending event, no bare JSON being read."""
        return (not self._data and self._start is None and self._raw is None and not self._type
                and self._retry is None and self._boundary is None)

    def _fast(self, data: bytes, t: float | None, out: list[Item]) -> bytes:
        """The common case, without the line machinery: whole events of one ``data:`` line, maybe
        after one ``event:`` line, LF only, valid UTF-8, each ended by one blank line. Emits those
        frames (exactly what the line-by-line path would) and returns the bytes from the first
        event that is not of that shape (comments, ``id``/``retry``, several data lines, CR, an
        event cut by the chunk's end...), for the exact path."""
        end = data.rfind(b"\n\n")
        if end < 0 or data.find(b"\r", 0, end) != -1:
            return data
        end += 2
        line, pos = self._lines.position()
        start = 0
        ident = self._id
        names = self._names
        # ASCII bytes are their own characters: decoded once, each value is a slice of the text.
        ascii_text = data[:end].decode("ascii") if data.isascii() else None
        if ascii_text is not None and not self.run_keys:
            frames = _data_only(ascii_text, line, pos, ident, t)
            lines = 2
            if frames is None:
                frames, lines = _named_only(ascii_text, line, pos, ident, t, self._named), 3
            if frames is not None:  # every event of one shape: all of them in one pass
                self._text.eol("LF", line, pos, t, out)  # as the loop below notes it, before the first frame
                out += frames
                self._lines.skip_to(line + lines * len(frames), pos + end)
                return data[end:]
        starts, find, named_event = data.startswith, data.find, _NAMED.match
        while start < end:
            # An event of the fast path's shape: maybe one ``event:`` line, one ``data:`` line, a
            # blank line (``end`` is past a blank line, so each ``find`` below finds an LF).
            if data[start] == 100:  # "d": a ``data:`` line alone (two calls, the value's end found by memchr)
                if not starts(b"data:", start):
                    break
                name, lines, v0 = b"", 2, start + 5
                stop = find(b"\n", v0, end)
                if data[stop + 1] != 10:  # another line of the same event: the exact path
                    break
            else:  # an ``event:`` line first: one match for the three lines (not five calls)
                m = named_event(data, start, end)
                if m is None:
                    break
                name, lines = m.group(1), 3
                stop = m.end() - 2
                v0 = m.start(2)
            # NOTE: "If value starts with a U+0020 SPACE character, remove it from value."
            vstart = v0 + 1 if data[v0] == 32 else v0
            try:
                text = data[vstart:stop].decode("utf-8") if ascii_text is None else ascii_text[vstart:stop]
                event = names.get(name)
                if event is None:
                    event = name.decode("utf-8")
                    if event[:1] == " ":
                        event = event[1:]
                    if len(names) < 256:  # one string per event name, not one per event
                        names[name] = event
            except UnicodeDecodeError:
                break
            if not start:  # the line path notes each line's terminator (S011): LF, before this frame
                self._text.eol("LF", line, pos, t, out)
            out.append(Frame(event or "message", text, ident, None, bool(event), line, pos, t))
            begin = start
            line += lines
            pos += stop + 2 - start
            start = stop + 2
            markers = self.run_keys.get(event) if self.run_keys and start < end else None
            if markers:
                run = self._run(data, begin, v0, stop, end, event, lines, line, pos, t, markers)
                if run is not None:
                    out.append(run)
                    if self.on_run is not None:
                        self.on_run(len(run.raw))
                    line += lines * len(run.raw)
                    pos += run.size
                    start += run.size
        if start:
            self._lines.skip_to(line, pos)
        return data[start:] if start else data

    def _run(self, data: bytes, begin: int, vstart: int, stop: int, end: int, event: str, lines: int,
             line: int, pos: int, t: float | None, markers: tuple[bytes, ...]) -> FrameRun | None:
        """The events from ``stop + 2`` on (up to ``end``) that repeat the event at ``begin`` byte
        for byte but for the string value after its last ``marker``, as one ``FrameRun``; None
        when the next event is not one of them. Equivalent to framing them one by one: each is a
        whole fast-path event, and orjson decodes every string body (one it refuses: no run)."""
        for marker in markers:
            k = data.rfind(marker, vstart, stop)
            if k >= 0:
                break
        else:
            return None
        b0 = k + len(marker)
        if not data.startswith(data[begin:b0], stop + 2):
            return None  # the next event does not start like this one: no template to compile
        m = _BODY_END.match(data, b0, stop)
        if m is None:
            return None
        b1 = m.end() - 1  # the closing quote
        head, mid, tail = data[begin:b0], b"", data[b1:stop + 2]
        for marker in self.run_noise:  # a second string that varies too (obfuscation padding)
            k = tail.rfind(marker)
            if k >= 0:
                m = _BODY_END.match(tail, k + len(marker))
                if m is None:
                    return None
                mid, tail = tail[:k + len(marker)], tail[m.end() - 1:]
                break
        nxt = stop + 2
        key = (head, mid, tail)
        seen = self._templates.get(key, 0)
        if isinstance(seen, int):  # matched by hand until compiling its patterns pays (~0.7 ms)
            raw, noise, after = _by_hand(data, nxt, end, head, mid, tail)
            if len(self._templates) >= _TEMPLATES:
                self._templates.clear()
            self._templates[key] = seen + len(raw) if seen + len(raw) < _COMPILE_AFTER else _compile(head, mid, tail)
        else:
            m = seen[0].match(data, nxt, end)
            after = m.end() if m is not None else nxt
            found = seen[1].findall(data, nxt, after)
            raw, noise = (list(x) for x in zip(*found)) if mid and found else (found, None)
        if not raw:
            return None
        try:
            values = orjson.loads(b'["' + b'","'.join(raw) + b'"]')
            if noise is not None:
                orjson.loads(b'["' + b'","'.join(noise) + b'"]')  # read by no rule, but it must be JSON
        except orjson.JSONDecodeError:
            return None  # an escape or a control character orjson refuses: each event on its own
        if len(values) != len(raw):  # pragma: no cover - the body pattern keeps the quotes apart
            return None
        text = data[vstart:b0].decode("utf-8")
        return FrameRun(event or "message", bool(event), self._id, text[1:] if text[:1] == " " else text,
                        tail[:-2].decode("utf-8"), raw, values, line, lines, pos, len(head) + len(mid) + len(tail), t,
                        after - nxt, mid.decode("utf-8"), noise)

    def close(self, t: float | None = None) -> list[Item]:
        """End of body: flush the last line and any pending event (S010), see the class doc."""
        if t is None:
            t = self._last_t
        out: list[Item] = []
        entries = self._lines.close()
        tail = entries.pop() if entries and entries[-1][0] == "tail" else None
        self._handle(entries, t, out)
        if tail is not None:
            _, raw, line, offset = tail
            self._line(self._text.decode(raw, line, offset, t, out), line, offset, t, out)
        if self._data:
            start = self._start or (0, 0)
            # NOTE: "If the file ends in the middle of an event, before the final empty line,
            # the incomplete event is not dispatched." (WHATWG HTML 9.2.6) The inspector shows
            # it anyway and reports S010, unless S013 already showed blank lines are not used.
            self._emit(self._type, self._id, self._retry, start, t, out)
            if tail is not None or not self._undelimited:
                out.append(FramingIssue(
                    "S010",
                    f"the last event (line {start[0]}) was not dispatched by a blank line"
                    + (" and the body does not end with a line terminator" if tail else "")
                    + "; spec-following clients discard it, shown anyway",
                    start[0], start[1], t))
        elif tail is not None:
            out.append(FramingIssue(
                "S010",
                f"the body does not end with a line terminator (line {tail[2]})",
                tail[2], tail[3], t))
        self._reset_event()
        return out

    # -- lines ---------------------------------------------------------------------------

    def _handle(self, entries: list[tuple], t: float | None, out: list[Item]) -> None:
        text = self._text
        for entry in entries:
            tag = entry[0]
            if tag == "line":
                _, raw, line, offset, kind = entry
                self._line(text.decode(raw, line, offset, t, out), line, offset, t, out)
                if kind is not None:
                    text.eol(kind, line, offset, t, out)
            elif tag == "eol":
                text.eol(entry[1], entry[2], entry[3], t, out)
            elif tag == "bom":
                out.append(text.bom_issue(t, entry[1]))

    def _line(self, text: str, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        if self._raw is not None or (text[:1] in ("{", "[") and not self._data and self._start is None):
            self._bare_json(text, line, offset, t, out)
            return
        # NOTE: "If the line is empty (a blank line): Dispatch the event" (WHATWG HTML 9.2.6)
        if not text:
            self._dispatch(t, out)
            return
        # NOTE: "If the line starts with a U+003A COLON character (:): Ignore the line."
        # The inspector keeps it as a Comment (one leading space dropped, like a field value).
        if text[0] == ":":
            value = text[1:]
            out.append(Comment(value[1:] if value[:1] == " " else value, line, offset, t))
            return
        # NOTE: "Collect the characters on the line before the first U+003A COLON character
        # (:), and let field be that string. [...] If value starts with a U+0020 SPACE
        # character, remove it from value." A line with no colon is a field with an empty
        # value ("using the whole line as the field name, and the empty string as the value").
        field, _, value = text.partition(":")
        if value[:1] == " ":
            value = value[1:]
        if field == "data":
            self._on_data(value, line, offset, t, out)
        elif field == "event":
            # NOTE: "If the field name is "event": Set the event type buffer to field value."
            self._mark(line, offset)
            if self._boundary is not None:
                self._boundary.new_type = value
            self._type = value
        elif field == "id":
            # NOTE: "If the field name is "id": If the field value does not contain U+0000
            # NULL, then set the last event ID buffer to the field value. Otherwise, ignore
            # the field." The buffer is never reset: the id is sticky across events.
            self._mark(line, offset)
            if "\0" not in value:
                self._id = value
        elif field == "retry":
            # NOTE: "If the field name is "retry": If the field value consists of only ASCII
            # digits, then interpret the field value as an integer in base ten [...]
            # Otherwise, ignore the field." (httpx-sse's int() also takes "+5", "1_000".)
            self._mark(line, offset)
            retry = digits_int(value)  # capped: 5 000 digits is no number ``int`` takes
            if retry is not None:
                if self._boundary is not None:
                    self._boundary.new_retry = retry
                self._retry = retry
        # NOTE: "Otherwise: The field is ignored." (unknown field names)

    def _bare_json(self, text: str, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        """A JSON value written without ``data:`` between events: lines a spec-following client
        ignores (unknown field names), but Google writes its error bodies this way after the
        events, and google-genai reads them (PROTOCOLS.md §4). An error object (or a one-element
        array holding one) becomes an event, so it is shown and judged (S006); anything else is
        ignored, as the spec says."""
        if self._raw is None:
            self._raw, self._raw_at = [], (line, offset)
            self._raw_scan.reset()
        self._raw.append(text)
        stop = self._raw_scan.scan(text)
        if stop < 0 and not self._raw_scan.in_string:
            return
        data, self._raw = "\n".join(self._raw), None
        if stop < 0:
            return  # a string cannot cross a line: not a JSON value after all
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        inner = value[0] if isinstance(value, list) and len(value) == 1 else value
        if isinstance(inner, dict) and "error" in inner:
            out.append(Frame("message", data, self._id, None, False, self._raw_at[0], self._raw_at[1], t))

    def _mark(self, line: int, offset: int) -> None:
        """A field line of the pending event: remember where it starts, and where an
        undelimited next event might start if data lines already arrived."""
        if self._start is None:
            self._start = (line, offset)
        elif self._data and self._boundary is None:
            self._boundary = _Boundary(line, offset, self._type, self._id, self._retry)

    def _on_data(self, value: str, line: int, offset: int, t: float | None, out: list[Item]) -> None:
        boundary, self._boundary = self._boundary, None
        is_value: bool | None = None
        if self._data:
            # S013: only parse when a data line joins a non-empty buffer; each line is parsed
            # at most once as the "new" line and its verdict reused while it is alone.
            is_value = _is_value(value)
            if is_value and self._buffer_is_value():
                self._split(boundary, line, offset, t, out)
        elif self._start is None:
            self._start = (line, offset)
        # NOTE: "If the field name is "data": Append the field value to the data buffer, then
        # append a single U+000A LINE FEED (LF) character to the data buffer." Kept as a list
        # joined with LF at dispatch, which is the same as stripping the one trailing LF.
        self._data.append(value)
        self._data_is_value = is_value if len(self._data) == 1 else None

    def _buffer_is_value(self) -> bool:
        if len(self._data) == 1 and self._data_is_value is not None:
            return self._data_is_value
        verdict = _is_value("\n".join(self._data))
        if len(self._data) == 1:
            self._data_is_value = verdict
        return verdict

    def _split(self, b: _Boundary | None, line: int, offset: int, t: float | None,
               out: list[Item]) -> None:
        """S013: dispatch the buffered event and start a new one at the boundary."""
        start = self._start or (line, offset)
        if b is not None:
            self._emit(b.type, b.id, b.retry, start, t, out)
            new_type, new_retry, new_start = b.new_type or "", b.new_retry, (b.line, b.offset)
        else:
            self._emit(self._type, self._id, self._retry, start, t, out)
            new_type, new_retry, new_start = "", None, (line, offset)
        if not self._undelimited:
            self._undelimited = True
            out.append(FramingIssue(
                "S013",
                f"line {new_start[0]} starts a new event with no blank line before it: data "
                "lines each holding a complete JSON value (or [DONE]) are split into separate "
                "events (spec-following clients join them into one invalid payload); "
                "reported once per stream",
                new_start[0], new_start[1], t))
        self._data = []
        self._data_is_value = None
        self._type, self._retry, self._start = new_type, new_retry, new_start

    def _dispatch(self, t: float | None, out: list[Item]) -> None:
        # NOTE: "If the data buffer is an empty string, set the data buffer and the event
        # type buffer to the empty string and return." So `event: ping` + blank line fires
        # nothing (httpx-sse and the SDKs fire an empty event here).
        if self._data:
            self._emit(self._type, self._id, self._retry, self._start or (0, 0), t, out)
        self._reset_event()

    def _reset_event(self) -> None:
        # NOTE: "Set the data buffer and the event type buffer to the empty string." The last
        # event ID buffer is kept (sticky); retry is per event block here, as in httpx-sse.
        self._type = ""
        self._data = []
        self._data_is_value = None
        self._retry = None
        self._start = None
        self._boundary = None

    def _emit(self, type_: str, id_: str, retry: int | None, start: tuple[int, int],
              t: float | None, out: list[Item]) -> None:
        # NOTE: "Initialize event's type attribute to "message" [...] If the event type buffer
        # has a value other than the empty string, change the type of the newly created event
        # to equal the value of the event type buffer."
        out.append(Frame(type_ or "message", "\n".join(self._data), id_, retry, bool(type_), start[0], start[1], t))
