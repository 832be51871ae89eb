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

Where runs do not form (thousands of short tool calls, each a few deltas), looking for them costs
and never pays: ``RunGate`` turns the framing's search off after a streak of short runs and back
on, to look again, after a wait that doubles each time the stream still has none (hysteresis).

The session is reached only through ``RunWriter`` (the writer's side for runs), never its privates.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING, Protocol

import orjson

from inspector.model.events import KEEPALIVE_TYPES
from inspector.model.jsonprogress import PARTIAL

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.model.frames import Frame, FrameRun
    from inspector.providers.base import Dialect
    from inspector.session.response import ResponseWriter

SENTINEL = "\x00stream-inspector run\x00"
"""Stands for the varying string in a run's template payload (no provider sends NUL characters)."""
_SENTINEL_BODY = orjson.dumps(SENTINEL).decode()[1:-1]
"""Its JSON string body (a run's ``head`` ends with the opening quote, its ``tail`` starts with the closing one)."""


class RunWriter(Protocol):
    """What taking a run needs of the session (``Session`` implements it)."""

    dialect: "Dialect | None"
    current_response: "ResponseWriter | None"

    def take_frame(self, frame: "Frame") -> None:
        """Dispatch one frame through the exact path."""

    @property
    def last_frame_clean(self) -> bool:
        """The last frame was dispatched (the dialect known, nothing pending) and reported nothing."""

    @property
    def stall_pending(self) -> bool:
        """A silence long enough for a stall finding awaits the next event (T001)."""

    def arguments_resent(self, block: "Block") -> bool:
        """J006 already fired for ``block``."""

    def add_deltas(self, block: "Block", fragments: list, length: int, t: float | None) -> None:
        """Many deltas of ``block`` at once, all arrived at ``t`` (``length``: their characters)."""

    def record_run(self, run: "FrameRun", a: int, b: int, name: str, block: "Block") -> None:
        """Events ``a``..``b - 1`` of ``run`` into the event log, as one packed record."""


class RunGate:
    """Whether the framing looks for runs of deltas now, decided from the stream's shape.

    ``PATIENCE`` runs in a row shorter than ``SHORT`` events turn the search off (every run costs
    a template match in the framing and an attempt here, and a 3-delta run saves nothing). It goes
    back on when the shape changes (one block took ``LONG`` deltas or more between two looks: a
    long call or answer has begun), or, to look again, after ``wait`` events; ``wait`` doubles (up
    to ``MAX_WAIT``) each time the search has to go off again, and one long run resets it. Such a
    second look goes off again after ``RELOOK`` short runs in a row (the stream's shape is known by
    then). The framing reports each run as it makes it (``SSEDecoder.on_run``), so the search goes
    off in the middle of a chunk. The result never depends on it: a run taken whole and its events
    one by one give the same report."""

    SHORT = 8
    PATIENCE = 16
    RELOOK = 2
    LONG = 64
    FIRST_WAIT = 4096
    MAX_WAIT = 1 << 16

    __slots__ = ("armed", "wait", "off_at", "_short", "_block")

    def __init__(self) -> None:
        self.armed = True
        self.wait = self.FIRST_WAIT
        """Events to let pass before looking for runs again."""
        self.off_at = 0
        """Events in the log when the search went off."""
        self._short = 0
        self._block: tuple[int, int] = (-1, 0)
        """The last block looked at while the search is off, and its deltas then."""

    def saw_run(self, length: int, events: int) -> bool:
        """A run of ``length`` events was found (``events`` in the log now); True when the search
        goes off because of it."""
        if length >= self.SHORT:
            self._short, self.wait = 0, self.FIRST_WAIT
            return False
        self._short += 1
        if self._short < self.PATIENCE:
            return False
        self.armed, self._short, self.off_at, self._block = False, 0, events, (-1, 0)
        return True

    def rearm(self, events: int, block: int, deltas: int) -> bool:
        """True when the search, off, goes back on now: ``events`` in the log, the last block
        opened is at ``block`` (-1: none) with ``deltas`` deltas so far."""
        if self.armed:
            return False
        pos, before = self._block
        self._block = (block, deltas)
        if block >= 0 and block == pos and deltas - before >= self.LONG:
            self.armed = True
            return True
        if events - self.off_at < self.wait:
            return False
        self.armed, self.wait = True, min(self.wait * 2, self.MAX_WAIT)
        self._short = self.PATIENCE - self.RELOOK
        return True


def take(s: RunWriter, run: "FrameRun") -> None:
    """Take every event of ``run`` (which follows the event ``s`` dispatched last)."""
    values = run.values
    assert values is not None  # a run holds its strings until it is taken
    done = _in_bulk(s, run) if s.last_frame_clean else 0
    for k in range(done, len(values)):
        s.take_frame(run.frame(k))
    run.values = None  # the blocks hold the strings now; the event log rebuilds events from ``raw``


def _in_bulk(s: RunWriter, run: "FrameRun") -> int:
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
    dialect, response, values = s.dialect, s.current_response, run.values
    assert dialect is not None and response is not None and values is not None  # a clean last frame: all set
    if (name in KEEPALIVE_TYPES or (run.named and typ is not None and typ != name) or response.ended
            or typ in dialect.starts_response or s.stall_pending):
        return 0
    target = dialect.run_target(p, name, SENTINEL)
    if target is None:
        return 0
    block, how = target
    if how == "text":
        if dialect.judges_text(block, values):
            return 0
        s.record_run(run, 0, len(values), name, block)
        s.add_deltas(block, values, sum(map(len, values)), run.t)
        return len(values)
    return _arguments(s, run, name, block)


def _arguments(s: RunWriter, run: "FrameRun", name: str, block: "Block") -> int:
    """Argument fragments: the leading ones J006 could judge one by one, then the rest at once
    (or all but the last) when the JSON state stays a prefix."""
    values = run.values
    assert values is not None  # a run holds its strings until it is taken
    n = len(values)
    longest = max(map(len, values))
    k = 0
    while k < n - 1 and not s.arguments_resent(block) and (block.progress is None or block.progress.length <= longest):
        s.take_frame(run.frame(k))
        k += 1
        if not s.last_frame_clean:
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
            s.record_run(run, k, stop, name, block)
            s.add_deltas(block, values[k:stop], len(text), run.t)
            return stop
        prog.restore(snap)
    return k
