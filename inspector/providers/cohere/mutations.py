"""Cohere v2 chat (``/v2/chat``, SSE) fault injection (``serve --mutate``).

Of the four faults against the declared tools, ``extra-parallel-call`` has no Cohere form: the
request has no switch refusing parallel calls (cohere-python ``ClientV2.chat_stream`` takes none;
``providers/cohere/tools.py``), so two calls break nothing the request said.

The mutations edit the first tool call (its ``tool-call-*`` events) and ``message-end``. ``codes``
are what ``check`` finds on ``tests/real_streams/cohere/docs-tool-use-streaming-tool-calls.sse`` (the
tool-calling step of docs.cohere.com/v2/docs/tool-use-streaming) once mutated
(``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §8; what cohere-python does with each:
``inspector.providers.cohere.shapes`` and ``tests/e2e/test_cohere_sdk.py``.
"""
from __future__ import annotations

from dataclasses import replace

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.cohere import tools
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


def _typed(stream: Stream, typ: str) -> list[tuple[int, dict]]:
    return [(i, p) for i, ev in enumerate(stream.items) if isinstance(p := ev.json(), dict) and p.get("type") == typ]


def _first_call_index(stream: Stream) -> int:
    starts = _typed(stream, "tool-call-start")
    if not starts:
        raise NotApplicable("no tool-call-start in this stream")
    index = starts[0][1].get("index")
    if not isinstance(index, int):
        raise NotApplicable("the first tool-call-start has no integer index")
    return index


def _call_events(stream: Stream, typ: str) -> list[tuple[int, dict]]:
    idx = _first_call_index(stream)
    return [(i, p) for i, p in _typed(stream, typ) if p.get("index") == idx]


def _mid_arguments(stream: Stream) -> int:
    """The middle ``tool-call-delta`` of the first tool call."""
    return m.middle([i for i, _ in _call_events(stream, "tool-call-delta")])


def _end(stream: Stream) -> int:
    ends = _typed(stream, "message-end")
    if not ends:
        raise NotApplicable("no message-end in this stream")
    return ends[-1][0]


def tool_calls_as_list(stream: Stream, param: float | None) -> Mutated:
    edits = {}
    for typ in ("tool-call-start", "tool-call-delta"):
        for i, p in _call_events(stream, typ):
            msg = p["delta"]["message"]
            msg["tool_calls"] = [msg["tool_calls"]]
            edits[i] = stream.items[i].with_json(p)
    return m.edited(stream, edits, m.describe(stream, min(edits)))


def done_before_end(stream: Stream, param: float | None) -> Mutated:
    at = _mid_arguments(stream)
    done = Ev("[DONE]", None, stream.items[at].t)
    return m.edited(stream, {}, m.describe(stream, at), after={at: [done]})


def no_stop_event(stream: Stream, param: float | None) -> Mutated:
    at = _end(stream)
    return m.edited(stream, {at: None}, m.describe(stream, at - 1))


def drop_call_end(stream: Stream, param: float | None) -> Mutated:
    ends = _call_events(stream, "tool-call-end")
    if not ends:
        raise NotApplicable("the first tool call has no tool-call-end")
    return m.edited(stream, {ends[0][0]: None}, m.describe(stream, ends[0][0] - 1))


ERROR_END = {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "internal server error"}}
"""``message-end`` of a failed generation (``ChatMessageEndEventDelta.error``; PROTOCOLS.md §8)."""


def error_event(stream: Stream, param: float | None) -> Mutated:
    at = _mid_arguments(stream)
    end = Ev(None, "message-end", stream.items[at].t).with_json(ERROR_END)
    return m.unchanged(stream.derive(stream.items[: at + 1] + [end]), m.describe(stream, at))


def _inject(stream: Stream) -> Stream:
    fragments = [(i, p["delta"]["message"]["tool_calls"]["function"]["arguments"])
                 for i, p in _call_events(stream, "tool-call-delta")]
    found = m.accent_in_arguments([f for _, f in fragments])
    if found is None:
        raise NotApplicable("no string argument to carry a multi-byte character")
    k, text = found
    i = fragments[k][0]
    p = stream.items[i].json()
    p["delta"]["message"]["tool_calls"]["function"]["arguments"] = text
    items = list(stream.items)
    items[i] = replace(stream.items[i], data=orjson.dumps(p).decode())
    return stream.derive(items)


# ------------------------------------------------------------------ faults against the declared tools
def _calls(stream: Stream) -> dict[int, tuple[str | None, str]]:
    """``{index: (name, argument text)}`` of every tool call, in order."""
    found: dict = {}
    for _, p in _typed(stream, "tool-call-start"):
        fn = p["delta"]["message"]["tool_calls"].get("function") or {}
        found[p.get("index")] = (fn.get("name"), fn.get("arguments") or "")
    for _, p in _typed(stream, "tool-call-delta"):
        if p.get("index") in found:
            name, text = found[p["index"]]
            found[p["index"]] = (name, text + (p["delta"]["message"]["tool_calls"]["function"].get("arguments") or ""))
    return found


def _args(text: str) -> object:
    try:
        return orjson.loads(text) if text.strip() else {}
    except orjson.JSONDecodeError:
        raise NotApplicable("the first tool call's arguments are not JSON") from None


def _declaring(stream: Stream) -> dict:
    """The recorded request body (or a minimal one) declaring the streamed calls' functions in the
    Chat shape cohere-python sends (``ToolV2``) when it declares none (schemas inferred from the calls)."""
    body = dict(stream.request or {"model": "command-a-03-2025", "messages": [], "stream": True})
    if not isinstance(body.get("tools"), list):
        declared: dict = {}
        for name, text in _calls(stream).values():
            try:
                args = orjson.loads(text) if text.strip() else {}
            except orjson.JSONDecodeError:
                args = None
            if name and isinstance(args, dict):
                declared.setdefault(name, tf.inferred_schema(args))
        body["tools"] = [{"type": "function", "function": {"name": n, "parameters": sc}} for n, sc in declared.items()]
    return body


def _edit_start(stream: Stream, change) -> tuple[int, dict]:
    """The first ``tool-call-start`` with ``change(its tool_calls object)`` applied."""
    [(i, p), *_] = _call_events(stream, "tool-call-start")
    change(p["delta"]["message"]["tool_calls"])
    return i, p


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    name, _ = _calls(stream)[_first_call_index(stream)]
    if not name:
        raise NotApplicable("the first tool call has no name")
    declared = tools.read(body)
    new = tf.renamed(name, set(declared.tools) if declared is not None else set())
    i, p = _edit_start(stream, lambda call: call["function"].__setitem__("name", new))
    return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(p)}), body,
                         f"{name} renamed {new}, {m.describe(stream, i)}")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    """The first call's arguments broken (``tool_faults.violate``), sent whole in its first
    ``tool-call-delta``; its other deltas are not sent."""
    name, text = _calls(stream)[_first_call_index(stream)]
    recorded = tools.read(stream.request) if stream.request else None
    tool = recorded.tools.get(name) if recorded is not None and name else None
    broken, what = tf.violate(_args(text), tool.schema if tool is not None else None)
    deltas = _call_events(stream, "tool-call-delta")
    if not deltas:
        raise NotApplicable("the first tool call streams no tool-call-delta")
    (first, p), rest = deltas[0], deltas[1:]
    p["delta"]["message"]["tool_calls"]["function"]["arguments"] = orjson.dumps(broken).decode()
    edits: dict = {first: stream.items[first].with_json(p), **{i: None for i, _ in rest}}
    return m.well_formed(m.with_edits(stream, edits), _declaring(stream),
                         f"{name}: {what}, {m.describe(stream, first)}")


NO_TOOL_TEXT = "I can answer that without a tool."
"""What the mutated answer says instead of the call the request forced."""


def ignore_tool_choice(stream: Stream, param: float | None) -> Mutated:
    """The tool plan and every tool call replaced by one text content block saying ``NO_TOOL_TEXT``,
    ``finish_reason: COMPLETE``; the request forces a call (``tool_choice: REQUIRED``) when it did not."""
    first = _first_call_index(stream)
    body = _declaring(stream)
    if m.choice_of(tools.read(body)) is None:
        body["tool_choice"] = "REQUIRED"
    gone = {"tool-plan-delta", "tool-call-start", "tool-call-delta", "tool-call-end"}
    edits: dict = {i: None for i, ev in enumerate(stream.items) if isinstance(p := ev.json(), dict) and p.get("type") in gone}
    start = next(i for i, p in _typed(stream, "tool-call-start") if p.get("index") == first)
    t = stream.items[start].t
    text = [Ev(None, "content-start", t).with_json({"type": "content-start", "index": 0, "delta": {"message": {
                "content": {"type": "text", "text": ""}}}}),
            Ev(None, "content-delta", t).with_json({"type": "content-delta", "index": 0, "delta": {"message": {
                "content": {"text": NO_TOOL_TEXT}}}}),
            Ev(None, "content-end", t).with_json({"type": "content-end", "index": 0})]
    end = _end(stream)
    p = stream.items[end].json()
    p["delta"]["finish_reason"] = "COMPLETE"
    edits[end] = stream.items[end].with_json(p)
    return m.well_formed(m.with_edits(stream, edits, {start: text}), body,
                         f"a text answer although {m.forcing(m.choice_of(tools.read(body)))}, {m.describe(stream, start)}")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("tool-calls-as-list", "the first tool call's tool-call-start/-delta carry tool_calls as a "
             "one-element list (the OpenAI shape) instead of one object", frozenset({"K001"}),
             ("cohere-python ToolCallV2 is one object: the SDK drops these events (measured)",), tool_calls_as_list),
    Mutation("done-before-end", "a data: [DONE] in the middle of the tool arguments, then the rest as recorded",
             frozenset({"K002"}), ("cohere-python v2 chat_stream stops iterating at [DONE]",), done_before_end),
    Mutation("no-stop-event", "no message-end (the stream just ends)", frozenset({"S003"}),
             ("a cut stream (generic; no Cohere-specific report found)",), no_stop_event),
    Mutation("drop-call-end", "the first tool call's tool-call-end is missing", frozenset({"J005"}),
             ("a gateway dropping events (generic; no Cohere-specific report found)",), drop_call_end),
    Mutation("error-event", "message-end with finish_reason ERROR in the middle of the tool arguments",
             frozenset({"S006", "J005"}), ("ankit373/hydra#976",), error_event),
    m.stall({"T001"}, ("a stalled upstream (generic; no Cohere-specific report found)",), _mid_arguments),
    m.reset({"S012", "S003", "J005"}, ("a reset connection (generic; no Cohere-specific report found)",),
            _mid_arguments),
    m.bom({"S009"}, ("vm0-ai/vm0#24687",)),
    m.utf8_split(set(), ("librefang/librefang#3448",), _inject),
    Mutation("undeclared-tool", "the first tool call names a function the request did not declare (renamed on "
             "the way)", frozenset({"V001"}), ("QwenLM/Qwen3.8#15 (another dialect; no Cohere-specific report found)",), undeclared_tool),
    Mutation("schema-violation", "the first tool call's arguments break the declared parameters (a required key "
             "dropped, else a value of another type)", frozenset({"V002"}), ("Datus-ai/Datus-agent#1365 (another dialect; no Cohere-specific report found)",),
             schema_violation),
    Mutation("ignore-tool-choice", "a text answer (finish_reason COMPLETE) instead of the tool calls although the "
             "request forces one (tool_choice REQUIRED)", frozenset({"V003"}),
             ("maximhq/bifrost#2049 (a gateway dropping tool_choice; no Cohere-specific report found)",), ignore_tool_choice),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer: what ``serve --expect-next`` sends the next request."""
    return sse([("message-start", {"type": "message-start", "id": "closing",
                                   "delta": {"message": {"role": "assistant"}}}),
                ("content-start", {"type": "content-start", "index": 0,
                                   "delta": {"message": {"content": {"type": "text", "text": ""}}}}),
                ("content-delta", {"type": "content-delta", "index": 0,
                                   "delta": {"message": {"content": {"text": CLOSING_TEXT}}}}),
                ("content-end", {"type": "content-end", "index": 0}),
                ("message-end", {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}})])
