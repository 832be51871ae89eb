"""Consecutive short tool calls of an untimed Anthropic stream taken whole, one pass per call.

A short call is a ``content_block_start`` of a tool block, a few ``input_json_delta`` deltas and a
``content_block_stop``: five events whose handling opens, fills and closes one block and reports
nothing. ``inspector.session.groups`` takes such a call through the dialect's general hooks
(``open_call``, ``deltas_after``, ``close_call``) and ``inspector.session.deltas``, some thirty
calls per call; here the same checks are written out for the wire shape of these events, for
every call in a row (the per-call cost of a stream of thousands of calls, issue 32).

A call is taken when it proves everything those hooks prove: each frame untimed, unparsed, named
as its ``type`` if named at all; the start of the next index, no block open, a tool block with no
``input``, an id and name A011 passes (``AnthropicMessages.open_call``); one to ``_MOST`` deltas,
every frame up to the stop an ``input_json_delta`` of that index with no ``error``
(``deltas_after``); the stop of that index right after them; and the J and V rules silent
(``Session.take_call``, the dialect's ``CallTaker``). At the first call that is not such, the pass
stops before it, nothing of it changed, and the session takes it the usual way.
``tests/unit/test_deltas.py`` holds both ways to the same report and event log.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from orjson import JSONDecodeError, loads

from inspector.model.events import SHALLOW_LEN
from inspector.model.frames import Frame

if TYPE_CHECKING:
    from inspector.providers.anthropic.stream import AnthropicMessages, _Slot
    from inspector.providers.base import CallTaker

START, DELTA, STOP = "content_block_start", "content_block_delta", "content_block_stop"
NAMES = (START, DELTA, STOP)

# The events of a call as Anthropic writes them, N standing for the index: the start
# ``{"type":"content_block_start","index":N,"content_block":{"type":"tool_use","id":"ID","name":"NAME","input":{}}}``,
# each delta ``{"type":"content_block_delta","index":N,"delta":{"type":"input_json_delta","partial_json":"…"}}``,
# the stop ``{"type":"content_block_stop","index":N}``. Such text is read from its pieces, without a parse:
# it is that object exactly when what lies between them is a JSON string's body (an ID that is an
# ASCII identifier, a printable NAME with no quote or backslash, a fragment that parses as a JSON
# string from its opening quote to its closing one), however long. Other spellings are parsed.
_START_HEAD = '{"type":"content_block_start","index":'
_START_ID = ',"content_block":{"type":"tool_use","id":"'
_START_NAME = '","name":"'
_START_TAIL = '","input":{}}}'
_DELTA_HEAD = '{"type":"content_block_delta","index":'
_DELTA_FRAGMENT = ',"delta":{"type":"input_json_delta","partial_json":"'
_STOP_HEAD = '{"type":"content_block_stop","index":'
_MOST = 128
"""Most deltas of a call taken here (a longer call goes the usual way: runs of deltas taken in one step)."""


def _payload(frame: object, name: str) -> dict | None:
    """``frame``'s data parsed, when it is an untimed, unparsed ``Frame`` named ``name`` or unnamed
    whose data is a JSON object of that ``type`` (short enough to be parsed at once: not too
    deep, ``parse_payload``); None otherwise (the frame left as it was)."""
    if frame.__class__ is not Frame or frame.t is not None or frame.payload is not None \
            or frame.named and frame.event != name:  # type: ignore[attr-defined]  # a Frame: checked first
        return None
    data = frame.data  # type: ignore[attr-defined]  # a Frame: checked above
    if len(data) >= SHALLOW_LEN:
        return None
    try:
        p = loads(data)
    except JSONDecodeError:
        return None
    return p if p.__class__ is dict and p.get("type") == name else None


def take(dialect: "AnthropicMessages", s: "CallTaker", items: list, i: int, tool_blocks: frozenset,
         slot: "type[_Slot]") -> int:
    """The short calls from ``items[i]`` on, taken whole (see the module docstring); returns how many
    items they were (0: none). ``tool_blocks`` and ``slot``: the dialect's tool block types and its
    bookkeeping per started block (passed in: the dialect's module imports this one)."""
    slots, order = dialect.slots, dialect.started_order
    take_call = s.take_call
    n = len(items)
    k = i
    while k + 2 < n and not dialect.open_slots:
        idx = len(order)  # the index a start must have (A004)
        if idx in slots:  # A003
            break
        number = str(idx)
        frame = items[k]
        if frame.__class__ is not Frame or frame.t is not None or frame.payload is not None \
                or frame.named and frame.event != START:
            break
        data = frame.data
        head = _START_HEAD + number + _START_ID  # up to the id's opening quote
        cut = data.find(_START_NAME, len(head)) if data.startswith(head) and data.endswith(_START_TAIL) else -1
        tid = data[len(head):cut]
        name = data[cut + len(_START_NAME):len(data) - len(_START_TAIL)]
        if cut > 0 and tid.isascii() and tid.isidentifier() and 0 < len(name) <= 200 and name.isprintable() \
                and '"' not in name and "\\" not in name:  # written as Anthropic writes it: the id and name are these
            kind = "tool_use"
            start_input: object = {}
        else:
            p = _payload(frame, START)
            if p is None:
                break
            at, cb = p.get("index"), p.get("content_block")
            if at.__class__ is not int or at != idx or cb.__class__ is not dict:
                break
            kind, tid, name, start_input = cb.get("type"), cb.get("id"), cb.get("name"), cb.get("input")  # type: ignore[union-attr, assignment]  # a dict: checked above; strings but the input: checked below
            if start_input or kind.__class__ is not str or kind not in tool_blocks \
                    or not (tid.__class__ is str and tid.isascii() and tid.isidentifier()
                            and name.__class__ is str and 0 < len(name) <= 200):
                break
        fragments: list[str] = []
        head = _DELTA_HEAD + number + _DELTA_FRAGMENT
        cut = len(head) - 1  # where a fragment's opening quote is
        j = k + 1
        last = n if n - j <= _MOST else j + _MOST  # a longer call goes the usual way (its deltas read once)
        while j < last:
            frame = items[j]
            if frame.__class__ is not Frame or frame.t is not None or frame.payload is not None \
                    or frame.named and frame.event != DELTA:
                break
            data = frame.data
            if data.startswith(head) and data.endswith('"}}'):
                try:  # a JSON text that opens with a quote: a string, or it raises
                    fragments.append(loads(data[cut:-2]))
                except JSONDecodeError:
                    break
            else:
                p = _payload(frame, DELTA)
                if p is None or "error" in p:
                    break
                at, delta = p.get("index"), p.get("delta")
                if at.__class__ is not int or at != idx or delta.__class__ is not dict \
                        or delta.get("type") != "input_json_delta":  # type: ignore[union-attr]  # a dict: checked
                    break
                value = delta.get("partial_json")  # type: ignore[union-attr]  # a dict: checked above
                fragments.append(value if value.__class__ is str else "")
            j += 1
        if not fragments or j == last:  # none, no stop among the items, or a long call
            break
        frame = items[j]
        if not (frame.__class__ is Frame and frame.t is None and frame.payload is None
                and frame.data == _STOP_HEAD + number + "}" and (not frame.named or frame.event == STOP)):
            p = _payload(frame, STOP)
            if p is None:
                break
            at = p.get("index")
            if at.__class__ is not int or at != idx:
                break
        block = take_call(kind, idx, tid, name, fragments, items[k:j + 1], NAMES)
        if block is None:
            break
        order.append(idx)
        slots[idx] = slot(block, start_input)
        if kind == "tool_use":
            dialect.tool_use_started = True
        k = j + 1
    return k - i
