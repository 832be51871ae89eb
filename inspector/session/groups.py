"""A block's whole life (its start, its deltas, its stop) taken in one step, each event as the exact path takes it.

A short tool call is a start event, a few deltas and a stop event, and the framing hands the
session many such events at once. Taking each through ``Session.take_frame`` pays the general
checks of every event (a new response? an end marker seen? JSON? a name that disagrees with the
type? the dialect detected yet?) and four calls of dispatch before the dialect's handler runs. An
untimed run of short calls goes first to the dialect's own pass (``Dialect.take_calls``: Anthropic
writes out its checks for the wire shape, a call at a time). Otherwise the session takes such a
group in one pass over its frames:

- the start (a type in ``Dialect.group_starts``) and the stop (``Dialect.group_stops``): each
  recorded in the event log as ``take_frame`` records it, seen by the timing rules, and handed to
  the handler ``on_event`` would call for it (``Dialect.direct``), so everything they report is
  reported at the same event, in the same order;
- the deltas in between: ``inspector.session.deltas`` (taken together when nothing could be
  reported on the way, else one by one).

What lets the general checks go is asked once per event and is cheap: a JSON object whose string
``type`` (one of those two sets: never a keep-alive, never one that opens a response) agrees with
its SSE name, while the response is under way. The timing rules see each event as in
``take_frame`` (a stall pending reports T001 at it). Any other event ends the group where it is,
and the session takes it (and what follows) the usual way. ``tests/unit/test_deltas.py`` holds both
ways to the same report and event log on generated streams.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from inspector.model.events import parse_payload
from inspector.model.frames import Frame
from inspector.session import deltas

if TYPE_CHECKING:
    from inspector.providers.base import Dialect
    from inspector.session.session import Session


def take(s: "Session", items: list, i: int) -> int:
    """Take ``items[i]`` (a frame whose event may open a block) and, after it, the block's deltas and
    its stop. Returns how many items were taken (0: ``items[i]`` goes the usual way, its payload
    parsed on it)."""
    dialect, response = s.dialect, s.current_response
    assert dialect is not None and response is not None  # called once the dialect is known
    if response.ended:
        return 0
    if dialect.whole_calls and s.untimed_calls:
        taken = dialect.take_calls(s, items, i) or _call(s, items, i, dialect)
        if taken:
            return taken
    if not _one(s, items[i], dialect.group_starts):
        return 0
    j, n = i + 1, len(items)
    if j < n:
        k = deltas.take(s, items, j, 1)
        if k < 0:  # looked at, to be taken one by one
            for m in range(j, j - k):
                s.take_frame(items[m])
            k = -k
        j += k
        stops = dialect.group_stops  # none in a dialect whose blocks close at a later event (Chat)
        if j < n and stops and _one(s, items[j], stops):  # the deltas cannot end the response
            j += 1
    return j - i


def _one(s: "Session", frame: Frame, types: frozenset) -> bool:
    """Take ``frame`` (any item the decoder gave: only a ``Frame`` qualifies) when it is an event of
    one of ``types`` that the dialect's direct handler takes and nothing of ``take_frame``'s general
    checks applies (the response under way: the caller's check); False (its payload kept on it)
    otherwise."""
    if frame.__class__ is not Frame:
        return False
    named = frame.named
    if named and frame.event not in types:
        return False
    p = frame.payload
    if p is None:
        p = parse_payload(frame.data)
    if type(p) is dict:  # exactly a dict, as ``take_frame`` judges it
        dialect = s.dialect
        assert dialect is not None  # called once the dialect is known
        typ = p.get("type", dialect.untyped)
        if type(typ) is str and typ in types and (not named or frame.event == typ):
            handler = dialect.direct.get(typ)
            if handler is not None:
                frame.payload = None
                s.take_direct(frame, p, typ, handler)
                return True
    frame.payload = p  # parsed once: the usual path takes it next
    return False


def _call(s: "Session", items: list, i: int, dialect: "Dialect") -> int:
    """Take ``items[i]``, an untimed start the dialect takes whole (``Dialect.open_call``), its deltas
    and, when the dialect takes it whole too (``Dialect.close_call``), its stop: all recorded in one
    ``EventSpan`` (the records made when asked). Returns how many items were taken (0: nothing
    changed, ``items[i]`` goes the usual way with its payload parsed on it)."""
    frame = items[i]
    if frame.__class__ is not Frame or frame.t is not None:
        return 0
    p = _typed(frame, dialect.group_starts, dialect.untyped)
    if p is None:
        return 0
    events = s.events
    at = events.size()
    typ: str = p.get("type", dialect.untyped)  # type: ignore[assignment]  # a string: ``_typed`` checked it
    block = dialect.open_call(p, at)
    if block is None:
        frame.payload = p  # parsed once: the usual path takes it next
        return 0
    j, n = i + 1, len(items)
    k = deltas.take(s, items, j, 1, block, (frame, typ)) if j < n else 0
    stops = dialect.group_stops  # none in a dialect whose calls close at a later event (Chat)
    if k > 0:  # recorded after the start, in its span
        j += k
        if j < n and stops:
            stop = items[j]
            if stop.__class__ is Frame and stop.t is None:
                p = _typed(stop, stops)
                if p is not None:
                    if dialect.close_call(p, block, events.size()):
                        events.add_stop(stop, p["type"])
                        return j + 1 - i
                    stop.payload = p
    else:
        s.record_deltas([], [], typ, block, None, (frame, typ))  # the start alone, in a span of its own
        if k < 0:  # looked at, to be taken one by one
            for m in range(j, j - k):
                s.take_frame(items[m])
            j -= k
    if j < n and stops and _one(s, items[j], stops):
        j += 1
    return j - i


def _typed(frame: Frame, types: frozenset, untyped: str | None = None) -> "dict | None":
    """``frame``'s parsed payload when it is a JSON object whose string ``type`` (``untyped`` when it has
    none: ``Dialect.untyped``) is one of ``types`` and agrees with its SSE name, if any (its ``payload``
    then None); None otherwise (``payload``: the parsed value, when it was parsed)."""
    named = frame.named
    if named and frame.event not in types:
        return None
    p = frame.payload
    if p is None:
        p = parse_payload(frame.data)
    if p.__class__ is dict:
        typ = p.get("type", untyped)  # type: ignore[union-attr]  # a dict: checked above
        if typ.__class__ is str and typ in types and (not named or frame.event == typ):
            frame.payload = None
            return p  # type: ignore[return-value]  # a dict: checked above
    frame.payload = p
    return None
