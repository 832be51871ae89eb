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

from inspector.model.static import TYPE_CHECKING

from orjson import JSONDecodeError, loads

from inspector.model.events import NOT_JSON, RELEASED, SHALLOW_LEN, parse_payload
from inspector.model.frames import Frame
from inspector.model.lazyre import lazy

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.session.session import Session

_BODY_END = lazy(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"')
"""A JSON string's body and its closing quote (no raw quote; each backslash keeps the character after it)."""

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
    start; 0 or ``-k``: nothing recorded (the caller records the start first). When the dialect reads
    the lead's deltas from their text (``Dialect.lead_template``), those are taken and nothing after them."""
    dialect, response = s.dialect, s.current_response
    assert dialect is not None and response is not None  # called once the dialect is known
    if lead is None and (response.ended or s.stall_pending):  # with a lead: neither (``groups``)
        return 0
    first = items[i]
    if lead is not None and first.__class__ is Frame:  # a call's deltas the dialect reads from their text at once
        known = dialect.lead_template(lead, first.data)
        if known is not None:
            taken = _known(s, items, i, lead, head, known)
            if taken:
                return taken
    n = len(items)
    kinds = dialect.delta_types
    untyped, typed = dialect.untyped, dialect.typed_deltas
    delta_of = dialect.delta_of if lead is None else dialect.deltas_after(lead)
    t = None if lead is not None else first.t
    block = None
    how = name = ""
    fragments: list[str] = []
    payloads: list = []
    frames: list = []
    keys = dialect.run_keys if dialect.delta_template else None
    template: tuple[str, str] | None = None
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
            if len(data) < SHALLOW_LEN and data != "[DONE]":
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
        if keys and block is None and j + 2 < n and items[j + 1].__class__ is Frame:  # two or more to read so
            markers = keys.get(frame.event if named else "")
            if markers:
                template = _template(frame.data, markers, target, typ, untyped, delta_of, items[j + 1].data)
        block, how, name = target[0], target[1], typ  # type: ignore[assignment]  # a string: checked above
        fragments.append(target[2])
        payloads.append(p)
        frames.append(frame)
        j += 1
        if template is not None:  # the deltas after it that repeat it but for their strings: the same target
            j = _read_like(items, j, t, name, template, fragments, payloads, frames)
    count = j - i
    if count < least or block is None or lead is not None and block is not lead:
        _give_back(items, i, payloads)
        return 0
    text = "".join(fragments)
    if not (s.argument_rules.quiet(block, fragments, text) if how == "arguments"
            else not dialect.judges_text(block, fragments)):
        _give_back(items, i, payloads)
        return -count
    s.record_deltas(frames, payloads, name, block, t, head)
    s.add_deltas(block, fragments, len(text), t, text)
    return count


def _known(s: "Session", items: list, i: int, lead: "Block", head: "tuple[Frame, str] | None",
           known: "tuple[str, str, str, str | None]") -> int:
    """``take`` for ``lead``'s deltas as the dialect reads them from their text (``known``:
    ``Dialect.lead_template``'s ``(name, head, tail, noise_tail)``): the frames from ``items[i]`` of that
    text, and none after them (what follows goes the usual way). Returns what ``take`` returns."""
    fragments: list[str] = []
    payloads: list = []
    frames: list = []
    name, noise_tail = known[0], known[3]
    if noise_tail is None:
        j = _read_like(items, i, None, name, (known[1], known[2]), fragments, payloads, frames)
    else:
        j = _read_noisy(items, i, name, (known[1], known[2], noise_tail), fragments, frames)
        payloads += [RELEASED] * (j - i)
    if j == i:
        return 0
    text = "".join(fragments)
    if not s.argument_rules.quiet(lead, fragments, text):
        _give_back(items, i, payloads)
        return i - j
    s.record_deltas(frames, payloads, name, lead, None, head)
    s.add_deltas(lead, fragments, len(text), None, text)
    return j - i


def _read_noisy(items: list, j: int, name: str, template: tuple[str, str, str], fragments: list, frames: list) -> int:
    """``_read_like`` for untimed frames whose data is ``head``, the string's body, ``tail``, a second JSON
    string body (padding no rule reads: it varies from one event to the next) and ``noise_tail``
    (``template``): each one's string and the frame appended; returns the index of the first item that is
    not one of them."""
    head, tail, noise_tail = template
    lh, lt = len(head), len(tail)
    n = len(items)
    match = _BODY_END.match
    while j < n:
        frame = items[j]
        if frame.__class__ is not Frame or frame.t is not None or frame.payload is not None or (
                frame.named and frame.event != name):
            break
        data = frame.data
        if data[:lh] != head:
            break
        m = match(data, lh)
        if m is None:
            break
        q = m.end() - 1  # the string's closing quote: ``tail`` starts with it
        b = q + lt  # where the padding's body starts
        if data[q:b] != tail:
            break
        m = match(data, b)
        if m is None or data[m.end() - 1:] != noise_tail:
            break
        try:  # each body with its quotes: strings, or it raises (padding that is no JSON string: no JSON event)
            fragment = loads(data[lh - 1:q + 1])
            loads(data[b - 1:m.end()])
        except JSONDecodeError:
            break
        fragments.append(fragment)
        frames.append(frame)
        j += 1
    return j


def _give_back(items: list, i: int, payloads: list) -> None:
    """The frames from ``items[i]`` on, looked at and not taken, keep what was parsed of them (the exact
    path takes them next); one read from a template's text (``RELEASED``) is parsed there again."""
    for k, p in enumerate(payloads):
        items[i + k].payload = None if p is RELEASED else p


def _template(data: str, markers: tuple[str, ...], target: tuple, typ: object, untyped: str | None, delta_of,
              following: str) -> tuple[str, str] | None:
    """``(head, tail)``: ``data`` (a delta's event that ``delta_of`` answered ``target`` for) around the
    string it adds, when the next deltas may be read from it (``_read_like``); None otherwise, and when the
    ``following`` event's text does not start with the same head (no delta to read so).

    The string is the value after the first ``"key":"`` of ``markers`` (``Dialect.run_keys``). That it
    is the one ``delta_of`` reads is proven, not assumed: the same text with that string replaced by
    one longer than the whole text (so equal to no other string in it) must be answered with the same
    block and kind and that string. Any text that is the head, a valid JSON string body and the tail is
    then that payload but for that one string, and ``delta_of``, which asks of the string only that it
    is one (``Dialect.delta_of``), answers it the same way with its string."""
    for key in markers:
        marker = f'"{key}":"'
        k = data.find(marker)
        if k < 0:
            continue
        b0 = k + len(marker)
        head = data[:b0]
        m = _BODY_END.match(data, b0)
        if m is None or not following.startswith(head):
            return None
        tail = data[m.end() - 1:]
        probe = "p" * (len(data) + 1)
        try:
            p = loads(head + probe + tail)  # nested as ``data`` (parsed already): no depth check
        except JSONDecodeError:
            return None
        if p.__class__ is not dict or p.get("type", untyped) != typ:  # type: ignore[union-attr]  # a dict
            return None
        got = delta_of(p)
        ok = got is not None and got[0] is target[0] and got[1] == target[1] and got[2] == probe
        return (head, tail) if ok else None
    return None


def _read_like(items: list, j: int, t: float | None, name: str, template: tuple[str, str], fragments: list,
               payloads: list, frames: list) -> int:
    """From ``items[j]`` on, the frames (unparsed, arrived at ``t``, unnamed or named ``name``) that are
    ``template``'s event but for its string (a valid JSON string body between the same head and tail):
    each one's string, ``RELEASED`` (parsed from its text if ever asked for) and the frame appended;
    returns the index of the first item that is not one of them."""
    head, tail = template
    lh, lt = len(head), len(tail)
    n = len(items)
    while j < n:
        frame = items[j]
        if frame.__class__ is not Frame or frame.t != t or frame.payload is not None or (
                frame.named and frame.event != name):
            break
        data = frame.data
        end = len(data) - lt  # head and tail compared as slices: cheaper than ``startswith``'s argument parsing
        if end < lh or data[:lh] != head or data[end:] != tail:
            break
        try:  # the body with its quotes (the head ends with one, the tail starts with one): a string, or it raises
            fragments.append(loads(data[lh - 1:end + 1]))
        except JSONDecodeError:
            break
        payloads.append(RELEASED)
        frames.append(frame)
        j += 1
    return j
