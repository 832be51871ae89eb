"""Ollama native (``/api/chat``, NDJSON) fault injection (``serve --mutate``).

Each line is a whole message object and ``done: true`` ends the stream; the mutations edit the
tool call and the final line. ``codes`` are what ``check`` finds on the shared corpus capture
``ollama-newapi-7252-toolcall-in-final-done-line`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §5.
"""
from __future__ import annotations

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.conformance import CLOSING_TEXT
from inspector.providers.ollama import tools
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.model.members import object_member


def _lines(stream: Stream) -> list[tuple[int, dict]]:
    return [(i, p) for i, ev in enumerate(stream.items) if isinstance(p := ev.json(), dict)]


def _done_line(stream: Stream) -> tuple[int, dict]:
    for i, p in reversed(_lines(stream)):
        if p.get("done") is True:
            return i, p
    raise NotApplicable("no line with done: true")


def _calls(p: dict) -> list:
    msg = object_member(p, "message")
    calls = msg.get("tool_calls")
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def _first_call_line(stream: Stream) -> int:
    for i, p in _lines(stream):
        if _calls(p):
            return i
    raise NotApplicable("no tool_calls in this stream")


def _replaced(stream: Stream, i: int, p: dict, where: str) -> Mutated:
    items = list(stream.items)
    items[i] = stream.items[i].with_json(p)
    return m.unchanged(stream.derive(items), where)


def no_done(stream: Stream, param: float | None) -> Mutated:
    i, p = _done_line(stream)
    p["done"] = False
    for key in ("done_reason", "total_duration", "load_duration", "prompt_eval_count", "prompt_eval_duration",
                "eval_count", "eval_duration"):
        p.pop(key, None)
    return _replaced(stream, i, p, m.describe(stream, i))


def arguments_as_string(stream: Stream, param: float | None) -> Mutated:
    i = _first_call_line(stream)
    p = stream.items[i].json()
    for call in _calls(p):
        fn = object_member(call, "function")
        if isinstance(fn.get("arguments"), dict):
            fn["arguments"] = orjson.dumps(fn["arguments"]).decode()
    return _replaced(stream, i, p, m.describe(stream, i))


def error_line(stream: Stream, param: float | None) -> Mutated:
    i, _ = _done_line(stream)
    if i == 0:
        raise NotApplicable("the done line is the only line")
    error = Ev(None, None, stream.items[i - 1].t).with_json({"error": "an error was encountered while running the model"})
    return m.unchanged(stream.derive(stream.items[:i] + [error]), m.describe(stream, i - 1))


def _before_done(stream: Stream) -> int:
    i, _ = _done_line(stream)
    if i == 0:
        raise NotApplicable("the done line is the only line")
    return i - 1


def _inject(stream: Stream) -> Stream:
    for _, p in _lines(stream):
        msg = object_member(p, "message")
        if isinstance(msg.get("content"), str) and msg["content"]:
            return m.with_accent(stream, msg["content"])
        for call in _calls(p):
            fn = object_member(call, "function")
            if isinstance(fn.get("arguments"), dict):
                value = m.first_string_value(orjson.dumps(fn["arguments"]).decode())
                if value:
                    return m.with_accent(stream, value)
    raise NotApplicable("no content or string argument to carry a multi-byte character")


# ------------------------------------------------------------------ faults against the declared tools
def _declaring(stream: Stream) -> dict:
    """The recorded request (or a minimal one) declaring the streamed calls' functions when it declares
    none (schemas inferred from their arguments)."""
    body = dict(stream.request or {"model": "m", "messages": [], "stream": True})
    if not isinstance(body.get("tools"), list):
        declared: dict = {}
        for _, p in _lines(stream):
            for c in _calls(p):
                fn = object_member(c, "function")
                if isinstance(fn.get("name"), str) and isinstance(fn.get("arguments"), dict):
                    declared.setdefault(fn["name"], tf.inferred_schema(fn["arguments"]))
        body["tools"] = [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in declared.items()]
    return body


def _first_function(stream: Stream) -> tuple[int, dict, dict]:
    """``(line position, the line, its first call's function)``."""
    i = _first_call_line(stream)
    p = stream.items[i].json()
    fn = _calls(p)[0].get("function")
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
        raise NotApplicable("the first tool call has no function name")
    return i, p, fn


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    i, p, fn = _first_function(stream)
    declared = tools.read(body)
    old, fn["name"] = fn["name"], tf.renamed(fn["name"], set(declared.tools) if declared is not None else set())
    return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(p)}), body,
                         f"{old} renamed {fn['name']}, {m.describe(stream, i)}")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    i, p, fn = _first_function(stream)
    recorded = tools.read(stream.request) if stream.request else None
    declared = recorded.tools.get(fn["name"]) if recorded is not None else None
    fn["arguments"], what = tf.violate(fn.get("arguments"), declared.schema if declared is not None else None)
    return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(p)}), _declaring(stream),
                         f"{fn['name']}: {what}, {m.describe(stream, i)}")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("no-stop-event", "the last line says done: false (the stream just ends)",
             frozenset({"S003"}), ("ollama/ollama#4357",), no_done),
    Mutation("arguments-as-string", "tool call arguments sent as a JSON string instead of an object",
             frozenset({"N001"}), ("ollama/ollama-python#279",), arguments_as_string),
    Mutation("error-event", "an {\"error\": …} line instead of the done line",
             frozenset({"S006"}), ("docs.ollama.com api/errors: an error line mid-stream",), error_line),
    m.stall({"T001"}, ("QuantumNous/new-api#7252",), _before_done),
    m.reset({"S012", "S003"}, ("konveyor/kai#622",), _before_done),
    m.bom({"S009"}, ("vm0-ai/vm0#24687",)),
    m.utf8_split(set(), ("librefang/librefang#3448",), _inject),
    Mutation("undeclared-tool", "the first tool call names a function the request did not declare",
             frozenset({"V001"}), ("langchain4j/langchain4j#1052",), undeclared_tool),
    Mutation("schema-violation", "the first tool call's arguments break the declared parameters (a required key "
             "dropped, else a value of another type)", frozenset({"V002"}), ("PrefectHQ/fastmcp#62",), schema_violation),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``done: true``): what ``serve --expect-next`` sends the next request."""
    line = {"model": "stream-inspector", "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": CLOSING_TEXT}, "done": True, "done_reason": "stop"}
    return orjson.dumps(line) + b"\n"
