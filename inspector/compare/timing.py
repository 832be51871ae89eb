"""``compare A B``: two streams of the same request on one time axis, tool block by tool block.

Why this module exists: a tool call that "hangs" for minutes and then arrives at once is the
server buffering the parameters; with Anthropic's ``eager_input_streaming: true`` on the tool
the same arguments stream as they are generated (PROTOCOLS.md §1, "Eager / fine-grained tool
streaming"; platform.claude.com "fine-grained tool streaming"). Being told so (T003) is less
convincing than seeing both runs side by side. This module is the headless core of that view:
it runs both captures through ordinary sessions, measures every tool block, pairs the blocks of
A with those of B, and states the differences in words. The TUI
(``inspector/tui/screens/compare.py``) draws the same numbers and scrubs the shared time axis with
:class:`StreamAt`. No Textual import here: the TUI is imported inside ``cmd_compare``'s tui branch.

Definitions (every time is seconds from the request for native captures; inputs timed from
their first byte count from it; untimed inputs give null):

- a *tool block* is a block whose content is JSON arguments (``Block.tool``), not replaced by
  a duplicate start (A003); its *position* counts tool blocks in stream order from 0;
- ``started_s``: the block's opening event; ``closed_s``: its closing event (null if never closed);
- ``first_arg_byte_s`` / ``last_arg_byte_s``: arrival of the first / last fragment carrying at
  least one byte of argument text (an empty ``partial_json: ""`` does not count), timed by the
  chunk that completed its event (as T003 does, RULES.md);
- ``wait_s`` = ``first_arg_byte_s − started_s``; ``stream_s`` = the block's lifetime, from its
  start to its close (or to the end of the stream when it never closed);
- ``max_gap_s`` / ``max_gap_at_s``: the longest silence in the block's argument timeline (start,
  every byte-carrying fragment, close) and when it began, so a wait before the first byte counts;
- ``late_share``: the share of argument bytes that arrived in the last 10 % of the lifetime
  (T003's measure; ≥ 0.9 on a lifetime ≥ ``--stall`` is T003);
- ``buffered``: T003 fired for the block.

Pairing: the k-th tool block named N in A pairs with the k-th tool block named N in B, so the
same calls pair even when their order differs (``matched_by: "name"``); blocks left over on both
sides then pair in order (``"position"``: different tools, e.g. two captures of different
requests); what remains is a pair with one side null. Pairs are listed in A's order, then
B-only blocks in B's order.

``--format json`` (one object; ``null`` where a value cannot be known)::

    {"a": STREAM, "b": STREAM, "pairs": [PAIR...], "summary": [str...]}
    STREAM = {"path": str, "dialect": str, "http_status": int|null, "timed": bool,
              "eager_input_streaming": "on"|"off"|"default"|"mixed"|null,
              "duration_s": float|null, "ttfb_s": float|null, "stop_reason": str|null,
              "events": int, "findings": [code...],
              "tools": [{"index": int, "block_index": int|null, "id": str|null, "name": str|null,
                         "kind": str, "started_s", "first_arg_byte_s", "last_arg_byte_s",
                         "closed_s", "wait_s", "stream_s", "max_gap_s", "max_gap_at_s": float|null,
                         "arg_bytes": int, "deltas": int, "late_share": float|null,
                         "status": "empty"|"partial"|"complete"|"invalid"|null,
                         "buffered": bool, "findings": [code...]}]}
    PAIR = {"name": str|null, "a": int|null, "b": int|null,      # positions in a.tools / b.tools
            "matched_by": "name"|"position"|null,
            "started_gap_s", "first_arg_byte_gap_s", "last_arg_byte_gap_s", "closed_gap_s",
            "wait_gap_s", "stream_gap_s": float|null,            # A − B: positive = later/longer in A
            "same_arguments": bool|null}

``eager_input_streaming`` reads the request stored in the capture: ``on`` when every client tool sets
it true (or leaves it unset under the ``fine-grained-tool-streaming-2025-05-14`` beta header),
``off`` when every tool sets it false, ``default`` when no tool sets it, ``mixed`` otherwise;
null without a request or client tools (server tools such as ``web_search`` take no such flag).
Times are rounded to microseconds, ``late_share`` to 4 places.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from inspector.capture.redact import scrub_secrets, scrub_value
from inspector.feeds.base import Driver, Settings
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, End
from inspector.session.session import Session
from inspector.model.display import json_safe

SAME_S = 0.05
"""Differences shorter than this are stated as "the same time"."""
LATE_FRACTION = 0.1
"""The final share of a block's lifetime that ``late_share`` looks at (T003's 10 %)."""
BETA_HEADER = "fine-grained-tool-streaming-2025-05-14"


def _r(t: float | None, places: int = 6) -> float | None:
    return None if t is None else round(t, places)


# ---------------------------------------------------------------------------------- measures
@dataclass(slots=True)
class ToolTiming:
    """When one tool block's arguments arrived (see the module docstring for each field)."""

    index: int
    block_index: int | None
    id: str | None
    name: str | None
    kind: str
    started_s: float | None
    first_arg_byte_s: float | None
    last_arg_byte_s: float | None
    closed_s: float | None
    wait_s: float | None
    stream_s: float | None
    max_gap_s: float | None
    max_gap_at_s: float | None
    arg_bytes: int
    deltas: int
    late_share: float | None
    status: str | None
    buffered: bool
    findings: list[str]
    arguments: str = field(default="", repr=False)
    """The accumulated argument text (compared between A and B; not in the JSON)."""

    def to_dict(self) -> dict:
        return {
            "index": self.index, "block_index": self.block_index, "id": self.id, "name": self.name,
            "kind": self.kind, "started_s": _r(self.started_s), "first_arg_byte_s": _r(self.first_arg_byte_s),
            "last_arg_byte_s": _r(self.last_arg_byte_s), "closed_s": _r(self.closed_s), "wait_s": _r(self.wait_s),
            "stream_s": _r(self.stream_s), "max_gap_s": _r(self.max_gap_s), "max_gap_at_s": _r(self.max_gap_at_s),
            "arg_bytes": self.arg_bytes, "deltas": self.deltas, "late_share": _r(self.late_share, 4),
            "status": self.status, "buffered": self.buffered, "findings": list(self.findings),
        }


@dataclass(slots=True)
class StreamTiming:
    """One side of the comparison: the stream's totals and its tool blocks."""

    path: str
    dialect: str
    http_status: int | None
    timed: bool
    eager: str | None
    duration_s: float | None
    ttfb_s: float | None
    stop_reason: str | None
    events: int
    findings: list[str]
    tools: list[ToolTiming]
    origin: float = 0.0
    """Subtracted from the session's times (0 for request-relative captures)."""

    def to_dict(self) -> dict:
        return {"path": self.path, "dialect": self.dialect, "http_status": self.http_status, "timed": self.timed,
                "eager_input_streaming": self.eager, "duration_s": _r(self.duration_s), "ttfb_s": _r(self.ttfb_s),
                "stop_reason": self.stop_reason, "events": self.events, "findings": list(self.findings),
                "tools": [t.to_dict() for t in self.tools]}


@dataclass(slots=True)
class Pair:
    """A tool block of A and its counterpart in B (either may be None)."""

    name: str | None
    """A's tool name (B's when A has no block here)."""
    a: ToolTiming | None
    b: ToolTiming | None
    matched_by: str | None = None
    """``name`` or ``position`` (different names, paired by order); None when one side is missing."""

    def gap(self, attr: str) -> float | None:
        """``A.attr − B.attr`` in seconds, or None when either is unknown."""
        if self.a is None or self.b is None:
            return None
        x, y = getattr(self.a, attr), getattr(self.b, attr)
        return None if x is None or y is None else round(x - y, 6)

    @property
    def block(self) -> ToolTiming:
        """A's block, or B's when A has none (``pair_tools`` never makes a pair without one)."""
        if self.a is not None:
            return self.a
        if self.b is None:
            raise ValueError("a pair with no tool block on either side")
        return self.b

    @property
    def same_arguments(self) -> bool | None:
        if self.a is None or self.b is None:
            return None
        return _canonical(self.a.arguments) == _canonical(self.b.arguments)

    def to_dict(self) -> dict:
        return {"name": self.name, "a": None if self.a is None else self.a.index,
                "b": None if self.b is None else self.b.index, "matched_by": self.matched_by,
                "started_gap_s": self.gap("started_s"), "first_arg_byte_gap_s": self.gap("first_arg_byte_s"),
                "last_arg_byte_gap_s": self.gap("last_arg_byte_s"), "closed_gap_s": self.gap("closed_s"),
                "wait_gap_s": self.gap("wait_s"), "stream_gap_s": self.gap("stream_s"),
                "same_arguments": self.same_arguments}


@dataclass(slots=True)
class Comparison:
    """Both sides, the pairs and the sentences (``to_dict`` is the ``--format json`` object)."""

    a: StreamTiming
    b: StreamTiming
    pairs: list[Pair]
    summary: list[str]
    session_a: Session | None = field(default=None, repr=False)
    session_b: Session | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        return {"a": self.a.to_dict(), "b": self.b.to_dict(), "pairs": [p.to_dict() for p in self.pairs],
                "summary": list(self.summary)}

    @property
    def axis_end(self) -> float:
        """The end of the shared time axis: the later of the two streams' ends (at least 1 s)."""
        ends = [s.duration_s for s in (self.a, self.b) if s.duration_s is not None]
        return max(ends + [1.0]) if ends else 1.0


def _canonical(text: str):
    try:
        return ("json", orjson.loads(text))
    except orjson.JSONDecodeError:
        return ("text", text)


def eager_setting(request: dict | None) -> str | None:
    """``on``/``off``/``default``/``mixed`` from the request's tools, or None (see the module docstring)."""
    if not isinstance(request, dict):
        return None
    body = request.get("body")
    tools = body.get("tools") if isinstance(body, dict) else None
    if not isinstance(tools, list) or not tools:
        return None
    headers = {str(k).lower(): v for k, v in (request.get("headers") or {}).items()}
    beta = BETA_HEADER in str(headers.get("anthropic-beta", ""))
    values = set()
    for t in tools:
        if not isinstance(t, dict) or t.get("type", "custom") != "custom":
            continue  # server tools (web_search_…) take no such flag
        v = t.get("eager_input_streaming")
        values.add(True if v is True else False if v is False else (True if beta else None))
    if values == {True}:
        return "on"
    if values == {False}:
        return "off"
    if values == {None}:
        return "default"
    return "mixed" if values else None


def tool_timing(block, position: int, session: Session, origin: float = 0.0) -> ToolTiming:
    """Measure one tool block of a closed ``session`` (times shifted by ``-origin``)."""

    def rel(t):
        return None if t is None else t - origin

    end_t = session.end.t if session.end is not None and session.end.t is not None else session.last_byte_t
    started = rel(block.opened_t)
    closed = rel(block.closed_t) if block.closed else None
    until = closed if closed is not None else rel(end_t)
    byte_times = [(rel(t), n) for t, n in block.fragment_times if n and t is not None]
    total = sum(n for _, n in block.fragment_times if n)
    first = byte_times[0][0] if byte_times else None
    last = byte_times[-1][0] if byte_times else None
    points = [p for p in [started] + [t for t, _ in byte_times] + [until] if p is not None]
    max_gap = max_at = None
    for x, y in zip(points, points[1:]):
        if max_gap is None or y - x > max_gap:
            max_gap, max_at = y - x, x
    late = None
    if started is not None and until is not None and total and byte_times:
        life = until - started
        cut = until - LATE_FRACTION * life
        late = sum(n for t, n in byte_times if t >= cut) / total
    codes = sorted({f.code for f in session.findings
                    if f.index is not None and f.index == block.index and f.code[0] in "JT"})
    if block.index is None:
        codes = []
    return ToolTiming(
        index=position, block_index=block.index, id=block.id, name=block.name, kind=block.kind,
        started_s=started, first_arg_byte_s=first, last_arg_byte_s=last, closed_s=closed,
        wait_s=None if first is None or started is None else first - started,
        stream_s=None if started is None or until is None else until - started,
        max_gap_s=max_gap, max_gap_at_s=max_at, arg_bytes=total, deltas=block.deltas, late_share=late,
        status=block.status, buffered="T003" in codes, findings=codes, arguments=block.content)


def stream_timing(path: str, cap: Capture, session: Session) -> StreamTiming:
    """Measure a closed session of ``cap``."""
    timed = cap.timed
    origin = 0.0
    if timed and not cap.request_relative:
        origin = next((c.t for c in cap.chunks if c.t is not None), 0.0)
    tools = [b for b in session.blocks if b.tool and not b.replaced]
    status = (cap.response or {}).get("status")
    end_t = session.end.t if session.end is not None and session.end.t is not None else session.last_byte_t
    duration = None if not timed or end_t is None else end_t - origin
    return StreamTiming(
        path=path, dialect=session.dialect_name or "unknown", http_status=status if isinstance(status, int) else None,
        timed=timed, eager=eager_setting(cap.request), duration_s=duration,
        ttfb_s=session.ttfb_s if timed else None, stop_reason=session.stop_reason, events=len(session.events),
        findings=sorted({f.code for f in session.findings}),
        tools=[tool_timing(b, i, session, origin) if timed else _untimed(tool_timing(b, i, session, origin))
               for i, b in enumerate(tools)],
        origin=origin)


def _untimed(t: ToolTiming) -> ToolTiming:
    for name in ("started_s", "first_arg_byte_s", "last_arg_byte_s", "closed_s", "wait_s", "stream_s",
                 "max_gap_s", "max_gap_at_s", "late_share"):
        setattr(t, name, None)
    return t


def pair_tools(a: list[ToolTiming], b: list[ToolTiming]) -> list[Pair]:
    """Pair the tool blocks of A and B (see "Pairing" in the module docstring).

    First by name: the k-th block named N in ``a`` with the k-th named N in ``b``. Blocks left
    over on both sides then pair by order (``matched_by="position"``); the rest stand alone.
    """
    pending: dict[str | None, list[ToolTiming]] = {}
    for t in b:
        pending.setdefault(t.name, []).append(t)
    by_name: dict[int, ToolTiming] = {}
    for t in a:
        queue = pending.get(t.name)
        if queue:
            by_name[t.index] = queue.pop(0)
    used = {o.index for o in by_name.values()}
    left_b = [t for t in b if t.index not in used]
    by_pos = dict(zip((t.index for t in a if t.index not in by_name), left_b))
    used |= {o.index for o in by_pos.values()}
    pairs = []
    for t in a:
        if t.index in by_name:
            pairs.append(Pair(t.name, t, by_name[t.index], "name"))
        elif t.index in by_pos:
            pairs.append(Pair(t.name, t, by_pos[t.index], "position"))
        else:
            pairs.append(Pair(t.name, t, None))
    pairs += [Pair(t.name, None, t) for t in b if t.index not in used]
    return pairs


# --------------------------------------------------------------------------------- sentences
def _s(t: float) -> str:
    """Seconds for a sentence: 329.6 s, 12.80 s, 0.62 s, 0.004 s."""
    a = abs(t)
    if a >= 100:
        return f"{t:.1f} s"
    if a >= 0.1:
        return f"{t:.2f} s"
    return f"{t:.3f} s"


def _bytes(n: int) -> str:
    return f"{n:,} byte" + ("" if n == 1 else "s")


_EAGER_WORDS = {"on": "eager streaming on", "off": "eager streaming off", "default": "eager streaming not set",
                "mixed": "eager streaming on some tools"}


def _side(name: str, s: StreamTiming) -> str:
    """``A (eager streaming off)`` or just ``A``."""
    words = _EAGER_WORDS.get(s.eager or "")
    return f"{name} ({words})" if words else name


def _tool_name(p: Pair) -> str:
    return p.name or "(unnamed tool)"


def summarize(a: StreamTiming, b: StreamTiming, pairs: list[Pair], *, stall_s: float = 10.0) -> list[str]:
    """The differences in words, most telling first: first argument bytes, bursts, closes, totals."""
    sides = {"A": a, "B": b}
    out = _stream_notes(a, b, pairs)
    many = len(pairs) > 1
    for p in pairs:
        lead = f"{_tool_name(p)} #{p.block.index}: " if many else ""
        out += [lead + text if lead else text[:1].upper() + text[1:] for text in _pair_sentences(p, sides, stall_s)]
    if a.duration_s is not None and b.duration_s is not None:
        ttfb = ""
        if a.ttfb_s is not None and b.ttfb_s is not None:
            ttfb = f"; first byte {_s(a.ttfb_s)} vs {_s(b.ttfb_s)}"
        out.append(f"Whole stream: A {_s(a.duration_s)}, B {_s(b.duration_s)}{ttfb}.")
    return out


def _stream_notes(a: StreamTiming, b: StreamTiming, pairs: list[Pair]) -> list[str]:
    """Sentences on what limits the comparison: an HTTP error, no timing, two dialects, no tool block."""
    out: list[str] = []
    sides = {"A": a, "B": b}
    for name, s in sides.items():
        if s.http_status is not None and s.http_status >= 400:
            out.append(f"{name} got HTTP {s.http_status}: its body is an error, not a stream to compare.")
    if not a.timed and not b.timed:
        out.append("Neither stream carries timing (pasted text?): only their content can be compared.")
    else:
        out += [f"{name} carries no timing (pasted text?): only its content can be compared."
                for name, s in sides.items() if not s.timed]
    if a.dialect != b.dialect and "unknown" not in (a.dialect, b.dialect):
        out.append(f"A is {a.dialect} and B is {b.dialect}: compared anyway, tool block by tool block.")
    if not pairs:
        out.append("Neither stream has a tool block: nothing to compare but the totals.")
    return out


def _pair_sentences(p: Pair, sides: dict[str, StreamTiming], stall_s: float) -> list[str]:
    """The sentences on one pair, lower-case and without the tool's name: how it was paired, when
    the first argument byte came, how each side's arguments arrived, when the call was complete,
    whether the arguments are the same."""
    out: list[str] = []
    if p.a is None or p.b is None:
        here, there = ("A", "B") if p.b is None else ("B", "A")
        out.append(f"tool block {p.block.index} of {here} ({_tool_name(p)}) has no counterpart in {there}.")
    else:
        if p.matched_by == "position":
            out.append(f"tool block {p.a.index} of A ({p.a.name or 'unnamed'}) and {p.b.index} of B "
                       f"({p.b.name or 'unnamed'}) are different tools, paired by position.")
        out += _first_byte_sentence(p.a, p.b, sides)
    for name, t in (("A", p.a), ("B", p.b)):
        if t is not None:
            out += _arrival_sentences(name, t, sides[name].eager, stall_s)
    if p.a is not None and p.b is not None:
        out += _close_sentence(p.a, p.b) + _same_arguments_sentence(p, p.a, p.b)
    return out


def _first_byte_sentence(a: ToolTiming, b: ToolTiming, sides: dict[str, StreamTiming]) -> list[str]:
    """Which side's first argument byte came later, and by how much (none when either never came)."""
    fa, fb = a.first_arg_byte_s, b.first_arg_byte_s
    if fa is None or fb is None:
        return []
    gap = round(fa - fb, 6)
    if abs(gap) < SAME_S:
        return [f"first argument byte at the same time in both ({_s(fa)} vs {_s(fb)})."]
    later, (x, fx), (y, fy) = ("A", (a, fa), (b, fb)) if gap > 0 else ("B", (b, fb), (a, fa))
    waits = ""
    if x.wait_s is not None and y.wait_s is not None:
        waits = f" ({_s(x.wait_s)} vs {_s(y.wait_s)} after the block started)"
    return [f"first argument byte {_s(abs(gap))} later in {_side(later, sides[later])}: "
            f"{_s(fx)} vs {_s(fy)}{waits}."]


_JSON_CODES = ("J001", "J002", "J003", "J004", "J005")
"""Codes that say a block's arguments are not valid JSON (RULES.md, J rules)."""


def _arrival_sentences(name: str, t: ToolTiming, eager: str | None, stall_s: float) -> list[str]:
    """How side ``name``'s arguments ended and arrived: broken JSON, no text, one late burst
    (T003, or the same shape on a lifetime of at least ``stall_s``), or streamed in deltas."""
    out: list[str] = []
    bad = [c for c in t.findings if c in _JSON_CODES]
    if bad:
        why = " (eager streaming may deliver invalid JSON)" if eager == "on" else ""
        out.append(f"{name}'s arguments ended {t.status or 'broken'} ({', '.join(bad)}): do not execute "
                   f"this call{why}.")
    late, first, last, life = t.late_share, t.first_arg_byte_s, t.last_arg_byte_s, t.stream_s
    if t.arg_bytes == 0:
        out.append(f"{name}'s tool block carried no argument text.")
    elif late is None or first is None or last is None or life is None:
        pass  # untimed: nothing to say on arrival (a known late_share implies a known lifetime)
    elif t.buffered or (late >= 0.9 and life >= stall_s):
        wait = f", after {_s(t.wait_s)} with none" if t.wait_s is not None else ""
        out.append(f"{name}'s arguments arrived as one late burst (T003): {late:.0%} of "
                   f"{_bytes(t.arg_bytes)} in the last {_s(LATE_FRACTION * life)} of the block's "
                   f"{_s(life)} lifetime{wait}.")
    elif t.deltas > 1 and t.max_gap_s is not None:  # known with a lifetime: start and close are two points
        out.append(f"{name} streamed its arguments in {t.deltas} deltas over "
                   f"{_s(last - first)} ({_s(first)} to {_s(last)}); longest silence {_s(t.max_gap_s)}.")
    return out


def _close_sentence(a: ToolTiming, b: ToolTiming) -> list[str]:
    """Which side had the complete call first, when the closes differ by ``SAME_S`` or more."""
    ca, cb = a.closed_s, b.closed_s
    if ca is None or cb is None:
        return []
    gap = round(ca - cb, 6)
    if abs(gap) < SAME_S:
        return []
    earlier, x, y = ("B", cb, ca) if gap > 0 else ("A", ca, cb)
    return [f"the tool call was complete {_s(abs(gap))} earlier in {earlier} ({_s(x)} vs {_s(y)})."]


def _same_arguments_sentence(p: Pair, a: ToolTiming, b: ToolTiming) -> list[str]:
    """Identical arguments, or a warning when two calls of the same name generated different ones."""
    same = p.same_arguments
    if same:
        return [f"identical arguments in both ({_bytes(a.arg_bytes)})."]
    if same is False and p.matched_by == "name":
        return [f"the arguments differ (A {_bytes(a.arg_bytes)}, B {_bytes(b.arg_bytes)}): "
                "the two runs generated different calls, so compare the timing with care."]
    return []


# ---------------------------------------------------------------------------------- building
def compare_sessions(a_path: str, a_cap: Capture, a_session: Session, b_path: str, b_cap: Capture,
                     b_session: Session, *, stall_s: float = 10.0) -> Comparison:
    """Compare two closed sessions of the given captures."""
    a = stream_timing(a_path, a_cap, a_session)
    b = stream_timing(b_path, b_cap, b_session)
    pairs = pair_tools(a.tools, b.tools)
    return Comparison(a, b, pairs, summarize(a, b, pairs, stall_s=stall_s), a_session, b_session)


def compare_captures(a_cap: Capture, b_cap: Capture, *, a_label: str = "A", b_label: str = "B",
                     dialect: str | None = None, stall_s: float = 10.0) -> Comparison:
    """Run both captures through fresh sessions and compare them.

    Raises ``ValueError`` for an unknown ``dialect``.
    """
    sa = run_capture(a_cap, dialect=dialect, stall_s=stall_s)
    sb = run_capture(b_cap, dialect=dialect, stall_s=stall_s)
    return compare_sessions(a_label, a_cap, sa, b_label, b_cap, sb, stall_s=stall_s)


# ---------------------------------------------------------------------------------- scrubbing
class StreamAt:
    """A capture's session as it was at time ``t``: every chunk that had arrived by then.

    Moving forward feeds only the new chunks; moving back rebuilds from the start (sessions are
    append-only). A chunk counts once ``chunk.t <= t`` (``t`` on this stream's own time base,
    i.e. plus ``origin``); at or after the end record's time the session is closed with it.
    Untimed captures show everything at any ``t``.
    """

    def __init__(self, cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                 origin: float = 0.0) -> None:
        self.cap = cap
        self.origin = origin
        self._settings = Settings(dialect=dialect, stall_s=stall_s)
        self._timed = cap.timed
        self.end_t = cap.end.t if cap.end is not None and cap.end.t is not None else \
            next((c.t for c in reversed(cap.chunks) if c.t is not None), None)
        self._reset()

    def _reset(self) -> None:
        self._driver = Driver.for_capture(self.cap, self._settings)
        self.session = self._driver.session
        self.fed = 0
        self.t: float | None = None

    def at(self, t: float) -> Session:
        """The session at ``t`` seconds on the shared axis (same object while moving forward)."""
        t = t + self.origin
        if not self._timed:
            t = float("inf")
        if self.t is not None and t < self.t:
            self._reset()
        chunks = self.cap.chunks
        while self.fed < len(chunks):
            chunk = chunks[self.fed]
            if chunk.t is not None and chunk.t > t:
                break
            self._driver.take(chunk)
            self.fed += 1
        if not self.session.closed and self.fed == len(chunks) and (self.end_t is None or t >= self.end_t):
            self._driver.close(self.cap.end or End(self.end_t, "eof"))
        self.t = t
        return self.session

    def times(self) -> list[float]:
        """Arrival times on the shared axis (chunks and the end), sorted, without repeats."""
        ts = {c.t - self.origin for c in self.cap.chunks if c.t is not None}
        if self.end_t is not None:
            ts.add(self.end_t - self.origin)
        return sorted(ts)


def block_at(session: Session, tool: ToolTiming | None):
    """The block of ``session`` that is ``tool`` (by position among tool blocks), or None yet."""
    if tool is None:
        return None
    n = -1
    for b in session.blocks:
        if b.tool and not b.replaced:
            n += 1
            if n == tool.index:
                return b
    return None


def chart_series(cmp: Comparison, a_cap: Capture, b_cap: Capture) -> tuple[dict, dict]:
    """What the chart draws, on the shared axis.

    Returns ``({"A": [(t, bytes)], "B": [...]}, {("A"|"B", tool position): [(t, bytes)]})``: every
    body chunk of each stream, and every argument fragment of each tool block.
    """
    streams, fragments = {}, {}
    for name, side, cap, session in (("A", cmp.a, a_cap, cmp.session_a), ("B", cmp.b, b_cap, cmp.session_b)):
        o = side.origin
        streams[name] = [(c.t - o, len(c.data)) for c in cap.chunks if c.t is not None and side.timed]
        if session is None:
            continue
        blocks = [b for b in session.blocks if b.tool and not b.replaced]  # once: block_at per tool was quadratic
        for t in side.tools:
            b = blocks[t.index] if t.index < len(blocks) else None
            if b is not None and side.timed:
                fragments[(name, t.index)] = [(ft - o, n) for ft, n in b.fragment_times if ft is not None and n]
    return streams, fragments


def initial_cursor(cmp: Comparison) -> float:
    """Where the scrubber starts: half-way between the first pair's two first argument bytes
    (one stream is streaming its arguments there, the other may still be silent), else mid-axis."""
    for p in cmp.pairs:
        if p.a is not None and p.b is not None and p.a.first_arg_byte_s is not None \
                and p.b.first_arg_byte_s is not None and abs(p.a.first_arg_byte_s - p.b.first_arg_byte_s) >= SAME_S:
            return round((p.a.first_arg_byte_s + p.b.first_arg_byte_s) / 2, 3)
    return round(cmp.axis_end / 2, 3)


# ---------------------------------------------------------------------------------- rendering
def render_text(cmp: Comparison) -> str:
    """The summary sentences and a small table (``--format text``)."""

    def f(t: float | None) -> str:
        return "-" if t is None else f"{t:.2f}"

    lines = []
    for name, s in (("A", cmp.a), ("B", cmp.b)):
        bits = [s.dialect]
        if s.eager:
            bits.append(f"eager_input_streaming {s.eager}")
        if s.duration_s is not None:
            bits.append(f"{s.duration_s:.2f} s")
        bits.append(f"{len(s.tools)} tool block" + ("" if len(s.tools) == 1 else "s"))
        lines.append(f"{name}: {s.path} ({', '.join(bits)})")
    lines.append("")
    lines += [f"- {scrub_secrets(x)}" for x in cmp.summary]  # a tool name is wire text: it may be key-shaped
    if cmp.pairs:
        lines.append("")
        head = ("", "tool", "start", "1st byte", "last byte", "close", "bytes", "deltas", "max gap", "late")
        rows = [head]
        for p in cmp.pairs:
            for name, t in (("A", p.a), ("B", p.b)):
                if t is None:
                    rows.append((name, scrub_secrets(_tool_name(p)), "-", "-", "-", "-", "-", "-", "-", "(none)"))
                    continue
                late = "-" if t.late_share is None else f"{t.late_share:.0%}"
                rows.append((name, scrub_secrets(f"#{t.index} {t.name or '?'}"), f(t.started_s), f(t.first_arg_byte_s),
                             f(t.last_arg_byte_s), f(t.closed_s), str(t.arg_bytes), str(t.deltas), f(t.max_gap_s),
                             late))
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        for r in rows:
            cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])] + [c.rjust(w) for c, w in zip(r[2:], widths[2:])]
            lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render_json(cmp: Comparison) -> str:
    """``--format json``: ``Comparison.to_dict`` with every string from the wire scrubbed (tool names, ids)."""
    return json_safe(orjson.dumps(scrub_value(cmp.to_dict())).decode())
