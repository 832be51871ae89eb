"""Runs of deltas (``FrameRun``) taken in one step, with the outcome of taking each event alone.

A long tool call or answer is tens of thousands of events that differ only in one string (Anthropic
``partial_json``, Chat ``function.arguments``...). The framing hands such events over as one
``FrameRun`` after the event they repeat; here the session takes them in one step when it can
prove that taking them one by one would do nothing but add their strings to one block:

- the event they repeat was dispatched and reported nothing, the stream is not over, and the
  template (the payload with a sentinel in place of the string) is an object whose ``type`` agrees
  with the event name and opens no new response;
- the dialect names the block and how the string is added (``Dialect.run_target``);
- for arguments, the J rules would judge nothing along the way: J006 is ruled out by lengths
  (every fragment shorter than the text before it), and the JSON state is a prefix before and
  after the run's text (once a container or string has closed at the top, the state can only be
  complete, trailing or invalid, never a prefix again; a top-level number is taken one by one);
  when the whole run's text would leave it something else, the run's last event goes alone (it
  usually completes the arguments), and failing that every event does.

Anything else goes event by event through the exact path. ``tests/unit/test_runs.py`` holds both
ways to the same report and event log on generated streams.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from inspector.model.events import KEEPALIVE_TYPES, EventRun
from inspector.model.jsonprogress import PARTIAL

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.model.frames import FrameRun
    from inspector.session.session import Session

SENTINEL = "\x00stream-inspector run\x00"
"""Stands for the varying string in a run's template payload (no provider sends NUL characters)."""
_SENTINEL_BODY = orjson.dumps(SENTINEL).decode()[1:-1]
"""Its JSON string body (a run's ``head`` ends with the opening quote, its ``tail`` starts with the closing one)."""


def take(s: "Session", run: "FrameRun") -> None:
    """Take every event of ``run`` (which follows the event ``s`` dispatched last)."""
    done = _in_bulk(s, run) if s._clean and s.dialect is not None and not s._pending else 0
    for k in range(done, len(run.values)):
        s._on_frame(run.frame(k))
    run.values = None  # the blocks hold the strings now; the event log rebuilds events from ``raw``


def _in_bulk(s: "Session", run: "FrameRun") -> int:
    """Take what can be taken in one step; return how many leading events were taken."""
    try:
        p = orjson.loads(run.head + _SENTINEL_BODY + run.mid + run.tail)
    except orjson.JSONDecodeError:
        return 0
    if p.__class__ is not dict:
        return 0
    typ = p.get("type")
    typ = typ if typ.__class__ is str else None
    name = run.event if run.named else (typ or "message")
    if (name in KEEPALIVE_TYPES or (run.named and typ is not None and typ != name) or s.current_response.ended
            or typ in s.dialect.starts_response or s._timing.pending_stall is not None):
        return 0
    target = s.dialect.run_target(p, name, SENTINEL)
    if target is None:
        return 0
    block, how = target
    values = run.values
    if how == "text":
        if s.dialect.judges_text(block, values):
            return 0
        _record(s, run, 0, len(values), name, block)
        s._deltas(block, values, sum(map(len, values)), run.t)
        return len(values)
    return _arguments(s, run, name, block)


def _arguments(s: "Session", run: "FrameRun", name: str, block: "Block") -> int:
    """Argument fragments: the leading ones J006 could judge one by one, then the rest at once
    (or all but the last) when the JSON state stays a prefix."""
    values, n = run.values, len(run.values)
    longest = max(map(len, values))
    k = 0
    while k < n - 1 and not s._arguments.resent(block) and (block.progress is None or block.progress.length <= longest):
        s._on_frame(run.frame(k))
        k += 1
        if not s._clean:
            return k
    prog = block.progress
    if k >= n - 1 or prog is None or prog.state != PARTIAL or prog.top_kind == "number":
        return k
    # All of them at once when the arguments stay a prefix (a run in the middle of a long call);
    # else all but the last (the end of the call is usually in the last fragment), then one by one.
    snap = prog.snapshot()
    for stop in (n, n - 1):
        text = "".join(values[k:stop])
        prog.feed(text)
        if prog.state == PARTIAL:
            _record(s, run, k, stop, name, block)
            s._deltas(block, values[k:stop], len(text), run.t)
            return stop
        prog.restore(snap)
    return k


def _record(s: "Session", run: "FrameRun", a: int, b: int, name: str, block: "Block") -> None:
    """Events ``a``..``b - 1`` of ``run`` go into the event log as one packed ``EventRun``."""
    if s._chunk_starts:  # a native capture: every event of the run is on its chunk's file line
        line, base = s._line(run.line, run.offset), None
    else:
        line, base = None, s.line_base
    s.events.add_run(EventRun(len(s.events), run, a, b - a, name, line, base, block.pos, s.current_response.index))
