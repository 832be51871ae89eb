"""Ollama native (``/api/chat``, NDJSON) fault injection (``serve --mutate``).

Each line is a whole message object and ``done: true`` ends the stream; the mutations edit the
tool call and the final line. ``codes`` are what ``check`` finds on the shared corpus capture
``ollama-newapi-7252-toolcall-in-final-done-line`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §5.
"""
from __future__ import annotations

import orjson

from inspector.providers import mutations as m
from inspector.providers.conformance import CLOSING_TEXT
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


def _lines(stream: Stream) -> list[tuple[int, dict]]:
    return [(i, p) for i, ev in enumerate(stream.items) if isinstance(p := ev.json(), dict)]


def _done_line(stream: Stream) -> tuple[int, dict]:
    for i, p in reversed(_lines(stream)):
        if p.get("done") is True:
            return i, p
    raise NotApplicable("no line with done: true")


def _calls(p: dict) -> list:
    msg = p.get("message") if isinstance(p.get("message"), dict) else {}
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
        fn = call.get("function") if isinstance(call.get("function"), dict) else {}
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
        msg = p.get("message") if isinstance(p.get("message"), dict) else {}
        if isinstance(msg.get("content"), str) and msg["content"]:
            return m.with_accent(stream, msg["content"])
        for call in _calls(p):
            fn = call.get("function") if isinstance(call.get("function"), dict) else {}
            if isinstance(fn.get("arguments"), dict):
                value = m.first_string_value(orjson.dumps(fn["arguments"]).decode())
                if value:
                    return m.with_accent(stream, value)
    raise NotApplicable("no content or string argument to carry a multi-byte character")


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
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``done: true``): what ``serve --expect-next`` sends the next request."""
    line = {"model": "stream-inspector", "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": CLOSING_TEXT}, "done": True, "done_reason": "stop"}
    return orjson.dumps(line) + b"\n"
