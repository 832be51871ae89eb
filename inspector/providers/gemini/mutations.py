"""Gemini native (``streamGenerateContent?alt=sse``) fault injection (``serve --mutate``).

Each frame is a whole ``GenerateContentResponse``; the mutations edit candidate 0's
``finishReason`` and the frames around its function call. ``codes`` are what ``check`` finds on
the shared corpus capture ``wild-gemini-partial-args`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §4.
"""
from __future__ import annotations

import orjson

from inspector.providers import mutations as m
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


def _candidate0(ev: Ev) -> tuple[dict, dict] | None:
    p = ev.json()
    cands = p.get("candidates") if isinstance(p, dict) else None
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], dict):
        return None
    return p, cands[0]


def _finish(stream: Stream) -> int:
    for i in range(len(stream.items) - 1, -1, -1):
        found = _candidate0(stream.items[i])
        if found and found[1].get("finishReason"):
            return i
    raise NotApplicable("no frame carries a finishReason")


def _first_call(stream: Stream) -> int:
    for i, ev in enumerate(stream.items):
        found = _candidate0(ev)
        content = found[1].get("content") if found else None
        parts = content.get("parts") if isinstance(content, dict) else None
        if isinstance(parts, list) and any(isinstance(x, dict) and "functionCall" in x for x in parts):
            return i
    raise NotApplicable("no functionCall part in this stream")


def _set_finish(stream: Stream, reason: str | None, where: str) -> Mutated:
    i = _finish(stream)
    p, cand = _candidate0(stream.items[i])
    if reason is None:
        del cand["finishReason"]
    else:
        cand["finishReason"] = reason
    items = list(stream.items)
    items[i] = stream.items[i].with_json(p)
    return m.unchanged(stream.derive(items), where or m.describe(stream, i))


def no_finish(stream: Stream, param: float | None) -> Mutated:
    return _set_finish(stream, None, "")


def malformed_call(stream: Stream, param: float | None) -> Mutated:
    _first_call(stream)
    return _set_finish(stream, "MALFORMED_FUNCTION_CALL", "")


UNAVAILABLE = {"error": {"code": 503, "message": "The model is overloaded. Please try again later.",
                         "status": "UNAVAILABLE"}}
"""Google's error object (PROTOCOLS.md §4: a chunk starting ``{"error":`` raises in google-genai)."""


def error_event(stream: Stream, param: float | None) -> Mutated:
    at = _first_call(stream)
    error = Ev(None, None, stream.items[at].t).with_json(UNAVAILABLE)
    return m.unchanged(stream.derive(stream.items[: at + 1] + [error]), m.describe(stream, at))


def _after_first_call(stream: Stream) -> int:
    return _first_call(stream)


def _inject(stream: Stream) -> Stream:
    for ev in stream.items:
        found = _candidate0(ev)
        content = found[1].get("content") if found else None
        for part in (content or {}).get("parts") or []:
            if not isinstance(part, dict):
                continue
            if isinstance(part.get("text"), str) and part["text"]:
                return m.with_accent(stream, part["text"])
            fc = part.get("functionCall") if isinstance(part.get("functionCall"), dict) else {}
            for arg in fc.get("partialArgs") or []:
                if isinstance(arg, dict) and isinstance(arg.get("stringValue"), str) and arg["stringValue"]:
                    return m.with_accent(stream, arg["stringValue"])
            if isinstance(fc.get("args"), dict):
                value = m.first_string_value(orjson.dumps(fc["args"]).decode())
                if value:
                    return m.with_accent(stream, value)
    raise NotApplicable("no text or string argument to carry a multi-byte character")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("no-stop-event", "the last frame carries no finishReason (the stream just ends)",
             frozenset({"S003"}), ("router-for-me/CLIProxyAPI#5651",), no_finish),
    Mutation("malformed-call", "finishReason MALFORMED_FUNCTION_CALL after the function call",
             frozenset({"G001"}), ("googleapis/python-genai#1836", "BerriAI/litellm#21744", "google-gemini/gemini-cli#12674"), malformed_call),
    Mutation("error-event", "an {\"error\": …} frame right after the function call, then the body ends",
             frozenset({"S006", "G005", "J005"}), ("vercel/ai#8186",), error_event),
    m.stall({"T001", "T003"}, ("lbjlaq/Antigravity-Manager#1905",), _after_first_call),
    m.reset({"S012", "S003", "G005", "J005"}, ("lbjlaq/Antigravity-Manager#1905",), _after_first_call),
    m.bom({"S009"}, ("openai/openai-python#3819",)),
    m.utf8_split(set(), ("librefang/librefang#3448",), _inject),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``STOP``): what ``serve --expect-next`` sends the next request."""
    return sse([(None, {"candidates": [{"content": {"role": "model", "parts": [{"text": CLOSING_TEXT}]},
                                        "finishReason": "STOP", "index": 0}],
                        "modelVersion": "stream-inspector"})])
