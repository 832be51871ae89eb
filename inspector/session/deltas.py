"""Consecutive deltas of one block taken in one step, with the outcome of taking each event alone.

Where runs of deltas cannot form (``inspector.session.runs``: events that differ in one string
only), the framing still hands the session many events at once: every event a chunk completed.
A short tool call is a start, a few deltas and a stop; its deltas usually sit side by side in one
such list. Here the session takes consecutive events that the dialect says would each only add a
delta to the same open block (``Dialect.delta_of``) in one step, when it can prove that taking
them one by one would report nothing but what it reports here:

- each is a JSON object with a string ``type`` (none at all in a dialect whose deltas have none,
  ``Dialect.untyped``: OpenAI Chat) that agrees with its SSE event name, not a
  keep-alive, of a response under way (not ended, no new one starting), all arrived at one time
  and no stall awaiting its first event (T001 would be reported there);
- argument deltas: the J rules would judge nothing along the way (``ArgumentRules.quiet``);
  text deltas: the dialect judges none of them (``Dialect.judges_text``).

The timing rules still see every event (T002 is reported at the event as before); nothing else
can report on the way, so the findings, their order and the event log are those of the exact
path. Otherwise every event looked at goes through the exact path, one by one.
``tests/unit/test_deltas.py`` holds both ways to the same report and event log on generated
streams.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from orjson import JSONDecodeError, loads

from inspector.model.events import NOT_JSON, parse_payload
from inspector.model.jsondepth import MAX_DEPTH
from inspector.model.frames import Frame

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.session.session import Session

MIN = 2
"""Fewest events taken in one step (one alone costs no more through the exact path)."""


def take(s: "Session", items: list, i: int, least: int = MIN, lead: "Block | None" = None,
         head: "tuple[Frame, str] | None" = None) -> int:
    """Take ``items[i]`` and the frames after it that add deltas to the same block, in one step
    (``least`` of them at the fewest: ``inspector.session.groups`` takes one alone too). Returns
    how many items were taken (0: ``items[i]`` goes alone); a negative ``-k``: the ``k`` frames
    from ``i`` were looked at and must go one by one (the caller takes them so).

    ``lead``: the block an untimed start just opened and not yet recorded (``head``: its frame and
    name): only untimed deltas of that block are taken, recorded in one ``EventSpan`` after the
    start; 0 or ``-k``: nothing recorded (the caller records the start first)."""
    dialect, response = s.dialect, s.current_response
    assert dialect is not None and response is not None  # called once the dialect is known
    if lead is None and (response.ended or s.stall_pending):  # with a lead: neither (``groups``)
        return 0
    n = len(items)
    kinds = dialect.delta_types
    untyped, typed = dialect.untyped, dialect.typed_deltas
    delta_of = dialect.delta_of if lead is None else dialect.deltas_after(lead)
    first = items[i]
    t = None if lead is not None else first.t
    block = None
    how = name = ""
    fragments: list[str] = []
    payloads: list = []
    frames: list = []
    j = i
    while j < n:
        frame = items[j]
        if frame.__class__ is not Frame or frame.t != t:
            break
        named = frame.named
        if named and frame.event not in kinds:
            break
        p = frame.payload
        if p is None:  # ``parse_payload`` written out: short data is parsed at once (hot: once per delta)
            data = frame.data
            if len(data) <= MAX_DEPTH and data != "[DONE]":
                try:
                    p = loads(data)
                except JSONDecodeError:
                    p = NOT_JSON
            else:
                p = parse_payload(data)
        if p.__class__ is not dict:
            frame.payload = p  # parsed once: the exact path takes it next
            break
        typ = p.get("type", untyped)  # type: ignore[union-attr]  # a dict: checked above
        target = delta_of(p) if typ.__class__ is str and typ in typed and (not named or frame.event == typ) \
            else None  # type: ignore[arg-type]  # a dict: checked above
        if target is None or (block is not None and (target[0] is not block or target[1] != how or typ != name)):
            frame.payload = p
            break
        block, how, name = target[0], target[1], typ  # type: ignore[assignment]  # a string: checked above
        fragments.append(target[2])
        payloads.append(p)
        frames.append(frame)
        j += 1
    count = j - i
    if count < least or block is None or lead is not None and block is not lead:
        for k in range(count):  # parsed once: the exact path takes them next
            items[i + k].payload = payloads[k]
        return 0
    text = "".join(fragments)
    if not (s.argument_rules.quiet(block, fragments, text) if how == "arguments"
            else not dialect.judges_text(block, fragments)):
        for k in range(count):  # parsed once: the exact path takes them next
            items[i + k].payload = payloads[k]
        return -count
    s.record_deltas(frames, payloads, name, block, t, head)
    s.add_deltas(block, fragments, len(text), t, text)
    return count
