"""Content blocks: what a stream assembles per index (text, reasoning, tool-call arguments)."""
from __future__ import annotations

import math
from array import array

import orjson

from inspector.model.record import Record
from inspector.model.jsondepth import MAX_DEPTH, loads
from inspector.model.jsonprogress import COMPLETE, EMPTY, INVALID, PARTIAL, TRAILING, JsonProgress

_NAN = math.nan
"""An untimed fragment's time."""
_NO_T, _NO_N = array("d"), array("q")
"""Empty arrays of each kind (a new ``FragmentTimes`` copies them)."""
_ONE_T, _ONE_N = array("d", [_NAN]), array("q", [0])
"""One untimed entry of 0 bytes (``FragmentTimes.EMPTY_DELTA``)."""
_NANS = array("d", [_NAN] * 64).tobytes()
"""The bytes of 64 untimed entries: a run of deltas' times copied from them (``frombytes``), not built as a list."""


class FragmentTimes:
    """When each fragment of a block arrived and how many UTF-8 bytes it carried.

    A sequence of ``(t, n)`` pairs (``t`` seconds or None when untimed, ``n`` bytes), stored in
    two arrays: a 50 000-delta block is two flat buffers, cheap to copy for replay checkpoints
    and invisible to the garbage collector. T003 and the TUI's sparklines read it.
    """

    __slots__ = ("_t", "_n")

    EMPTY_DELTA = (_ONE_T, _ONE_N)
    """``FragmentTimes(*EMPTY_DELTA)``: one untimed entry of 0 bytes (``append(None, 0)`` on a new one)."""

    def __init__(self, t: array = _NO_T, n: array = _NO_N) -> None:
        self._t = t.__copy__()  # a copy of an empty array costs a third of ``array("d")`` (once per block)
        self._n = n.__copy__()

    def append(self, t: float | None, n: int) -> None:
        self._t.append(_NAN if t is None else t)
        self._n.append(n)

    def extend(self, t: float | None, sizes) -> None:
        """Append one entry per size in ``sizes``, all arrived at ``t`` (a run of deltas)."""
        sizes = list(sizes)  # ``fromlist`` copies a list at C speed; ``extend`` asks an iterator item by item
        self._n.fromlist(sizes)
        n = len(sizes)
        if t is None and n <= 64:
            self._t.frombytes(_NANS[:8 * n])
        else:
            self._t.fromlist([_NAN if t is None else t] * n)

    def set(self, pairs) -> None:
        """Replace every entry with ``pairs``."""
        self._t = array("d")
        self._n = array("q")
        for t, n in pairs:
            self.append(t, n)

    def total(self) -> int:
        """All bytes."""
        return sum(self._n)

    def __len__(self) -> int:
        return len(self._n)

    def __iter__(self):
        for t, n in zip(self._t, self._n):
            yield (None if t != t else t, n)

    def pairs(self):
        """The ``(t, n)`` pairs as an iterator over the two arrays (an untimed ``t`` is NaN here, not
        None): what a pass over 50 000 fragments reads without building a tuple per pair first."""
        return zip(self._t, self._n)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [(None if t != t else t, n) for t, n in zip(self._t[i], self._n[i])]
        t = self._t[i]
        return (None if t != t else t, self._n[i])

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __deepcopy__(self, memo) -> "FragmentTimes":
        new = FragmentTimes.__new__(FragmentTimes)
        new._t = array("d", self._t)
        new._n = array("q", self._n)
        return new

    def __repr__(self) -> str:
        return f"FragmentTimes({list(self)!r})"


_PACK = 256
"""Fragments joined into one string at a time (see ``Block.append``)."""

_STATUS = {EMPTY: "empty", PARTIAL: "partial", COMPLETE: "complete", TRAILING: "invalid", INVALID: "invalid"}


class Block(Record):
    """One content block (Anthropic), tool call or text channel (Chat), output item (Responses)...

    Owned by the session: dialects change it only through the session's writer methods
    (``inspector.providers.base.StreamWriter``), sinks only read it. The accumulated text is
    read through :attr:`content` (joined once, cached) and :attr:`length` (no join needed).
    """

    __slots__ = ("kind", "index", "choice", "id", "name", "tool", "empty_is_object", "opened_event", "opened_t",
                 "closed", "closed_event", "closed_t", "replaced", "attribution", "deltas", "first_delta_s",
                 "last_delta_s", "max_gap_s", "last_fragment", "fragment_times", "progress", "whole_input",
                 "stop_info", "signature", "call_id", "pos", "response", "extra", "_parts", "_joined", "_length",
                 "_packed")
    __eq__ = object.__eq__  # compared by identity (``eq=False``)
    __hash__ = object.__hash__  # type: ignore[assignment]  # Record's is None (value equality)

    kind: str
    """The provider's own name: ``text``, ``tool_use``, ``tool_call``, ``function_call``..."""
    index: int | None
    choice: int | None
    id: str | None
    name: str | None
    tool: bool
    """True when the content is JSON arguments judged by the J rules."""
    empty_is_object: bool
    """Anthropic: a tool block with no input text means ``{}`` (status complete)."""
    opened_event: int | None
    opened_t: float | None
    closed: bool
    closed_event: int | None
    closed_t: float | None
    replaced: bool
    """A later start took this block's slot (A003); it raises no end-of-stream findings."""
    attribution: str | None
    """How the block was keyed when the provider sent no index (e.g. ``"by id"``), else None."""
    deltas: int
    first_delta_s: float | None
    last_delta_s: float | None
    max_gap_s: float | None
    last_fragment: str
    """The newest fragment (highlighted by the TUI)."""
    fragment_times: FragmentTimes
    """``[(t, utf8_bytes), ...]`` per fragment: T003 and the TUI's sparklines read it."""
    progress: JsonProgress | None
    whole_input: object
    """Arguments that arrived as an object (Gemini, Ollama) or in a start event; informational."""
    stop_info: str | None
    """Why or how the block ended, for display (e.g. ``finish_reason: tool_calls``)."""
    signature: str | None
    """The provider's signature for this block, to be sent back with it: Anthropic thinking
    ``signature``, Chat ``extra_content.google.thought_signature``, Gemini ``thoughtSignature``."""
    call_id: str | None
    """A second id the provider uses for a call (Responses ``call_id``; ``id`` is the item id)."""
    pos: int
    """Position in ``Session.blocks`` (what ``EventRecord.block`` refers to)."""
    response: int
    """Which response of the body the block belongs to (0-based)."""
    extra: dict
    """Dialect-specific facts for display (item ids, attribution notes...), not part of the report shape."""
    _parts: list
    _joined: str | None
    _length: int
    _packed: int
    """Leading entries of ``_parts`` that are already joined packs of fragments."""

    def __init__(self, kind: str, index: int | None = None, choice: int | None = None, id: str | None = None,
                 name: str | None = None, tool: bool = False, empty_is_object: bool = False,
                 opened_event: int | None = None, opened_t: float | None = None, closed: bool = False,
                 closed_event: int | None = None, closed_t: float | None = None, replaced: bool = False,
                 attribution: str | None = None, deltas: int = 0, first_delta_s: float | None = None,
                 last_delta_s: float | None = None, max_gap_s: float | None = None, last_fragment: str = "",
                 fragment_times: FragmentTimes | None = None, progress: JsonProgress | None = None,
                 whole_input: object = None, stop_info: str | None = None, signature: str | None = None,
                 call_id: str | None = None, pos: int = -1, response: int = 0, extra: dict | None = None,
                 _parts: list | None = None, _joined: str | None = "", _length: int = 0, _packed: int = 0) -> None:
        self.kind = kind
        self.index = index
        self.choice = choice
        self.id = id
        self.name = name
        self.tool = tool
        self.empty_is_object = empty_is_object
        self.opened_event = opened_event
        self.opened_t = opened_t
        self.closed = closed
        self.closed_event = closed_event
        self.closed_t = closed_t
        self.replaced = replaced
        self.attribution = attribution
        self.deltas = deltas
        self.first_delta_s = first_delta_s
        self.last_delta_s = last_delta_s
        self.max_gap_s = max_gap_s
        self.last_fragment = last_fragment
        self.fragment_times = FragmentTimes() if fragment_times is None else fragment_times
        self.progress = progress
        self.whole_input = whole_input
        self.stop_info = stop_info
        self.signature = signature
        self.call_id = call_id
        self.pos = pos
        self.response = response
        self.extra = {} if extra is None else extra
        self._parts = [] if _parts is None else _parts
        self._joined = _joined
        self._length = _length
        self._packed = _packed

    @property
    def content(self) -> str:
        """The accumulated text or argument text (joined lazily, cached)."""
        if self._joined is None:
            self._joined = "".join(self._parts)
            self._parts = [self._joined] if self._joined else []
            self._packed = len(self._parts)
        return self._joined

    @property
    def length(self) -> int:
        """Characters accumulated so far (cheap: no join)."""
        return self._length

    def append(self, fragment: str) -> None:
        """Add a fragment to the content (the session's writer calls this, once per delta)."""
        if fragment:
            parts = self._parts
            parts.append(fragment)
            self._joined = None if len(parts) > 1 else fragment  # a sole part is the content: no join to read it
            self._length += len(fragment)
            if len(parts) - self._packed >= _PACK:
                self._pack()

    def extend(self, fragments: list, length: int) -> None:
        """Add many fragments at once (``length``: their characters together); same content as
        one ``append`` each."""
        parts = self._parts
        parts.extend(filter(None, fragments))
        self._joined = None
        self._length += length
        if len(parts) - self._packed >= _PACK:
            self._pack()

    @property
    def empty_shown(self) -> str | None:
        """What an empty block stands for, to show in place of nothing: ``{}`` for a call whose
        missing arguments mean no parameters (Anthropic, Gemini ``functionCall`` without ``args``),
        ``redacted, N bytes`` for a redacted reasoning block (Bedrock ``redactedContent``, noted by its
        dialect as ``extra["redacted_bytes"]``); None when the block is not empty or stands for nothing."""
        if self._length:
            return None
        if "redacted_bytes" in self.extra:
            return f"redacted, {self.extra['redacted_bytes']} bytes"
        if self.tool and self.empty_is_object and self.closed:
            return "{}"
        return None

    def head(self, n: int) -> str:
        """The first ``n`` characters of the content (reads only the leading fragments: no join)."""
        if self._joined is not None:
            return self._joined[:n]
        need, parts = n, []
        for part in self._parts:
            parts.append(part)
            need -= len(part)
            if need <= 0:
                break
        return "".join(parts)[:n]

    def tail(self, n: int) -> str:
        """The last ``n`` characters of the content (reads only the trailing fragments: no join)."""
        if n <= 0:
            return ""
        if self._joined is not None:
            return self._joined[-n:]
        need, parts = n, []
        for part in reversed(self._parts):
            parts.append(part)
            need -= len(part)
            if need <= 0:
                break
        return "".join(reversed(parts))[-n:]

    def _pack(self) -> None:
        """Join the newest fragments into one string: a long block keeps a few large strings, not
        one small object per delta (and each byte is copied once)."""
        self._parts[self._packed:] = ["".join(self._parts[self._packed:])]
        self._packed += 1

    def delta_at(self, t: float) -> None:
        """A delta arrived at ``t`` seconds: first and last delta times, the largest gap between two."""
        if self.first_delta_s is None:
            self.first_delta_s = t
        elif self.last_delta_s is not None:
            gap = t - self.last_delta_s
            if self.max_gap_s is None or gap > self.max_gap_s:
                self.max_gap_s = gap
        self.last_delta_s = t

    def replace(self, text: str) -> None:
        """Set the whole content at once (arguments that arrived whole)."""
        self._parts = [text] if text else []
        self._joined = text
        self._length = len(text)
        self._packed = len(self._parts)

    @property
    def status(self) -> str | None:
        """SPEC status: ``empty``/``partial``/``complete``/``invalid``; None for non-tool blocks."""
        if not self.tool or self.progress is None:
            return None
        st = self.progress.state
        if st == EMPTY and self.empty_is_object:
            return "complete"
        return _STATUS[st]

    @property
    def input(self):
        """The parsed arguments when complete, else None."""
        return parsed_arguments(self.content) if self.status == "complete" else None

    def fields(self) -> tuple:
        """What a report shows of the block, read in one call: ``(index, choice, kind, id, name,
        content, tool, status, closed, deltas, first_delta_s, last_delta_s, max_gap_s, response)``
        (``to_dict``'s values before its parse; a report of thousands of blocks reads them as columns,
        ``inspector.report.jsonblocks``). Half the cost of reading them one by one: ``content`` and
        ``status`` without their property calls."""
        text = self._joined
        if text is None:
            text = self.content
        progress = self.progress
        if not self.tool or progress is None:  # ``status`` written out (hot: once per block of a report)
            status = None
        else:
            st = progress.state
            status = "complete" if st == EMPTY and self.empty_is_object else _STATUS[st]
        return (self.index, self.choice, self.kind, self.id, self.name, text, self.tool, status, self.closed,
                self.deltas, self.first_delta_s, self.last_delta_s, self.max_gap_s, self.response)

    def to_dict(self) -> dict:
        index, choice, kind, id_, name, text, tool, status, closed, deltas, first, last, gap, _ = self.fields()
        return {
            "index": index, "choice": choice, "kind": kind, "id": id_, "name": name,
            "text": None if tool else text,
            "arguments": text if tool else None,
            "input": parsed_arguments(text) if status == "complete" else None, "status": status, "closed": closed,
            "deltas": deltas, "first_delta_s": first, "last_delta_s": last, "max_gap_s": gap,
        }


def parsed_arguments(text: str):
    """Complete arguments ``text`` parsed (``{}`` when blank: no parameters); None when not JSON
    or nested deeper than ``jsondepth.MAX_DEPTH`` (such arguments have no parsed input)."""
    if not text or text.isspace():  # what ``not text.strip()`` says, without a copy
        return {}
    try:  # text too short to nest that deep is parsed at once, without ``jsondepth.loads``'s check
        return orjson.loads(text) if len(text) <= MAX_DEPTH else loads(text)
    except orjson.JSONDecodeError:
        return None
