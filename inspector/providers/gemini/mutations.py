"""Gemini native (``streamGenerateContent?alt=sse``) fault injection (``serve --mutate``).

Each frame is a whole ``GenerateContentResponse``; the mutations edit candidate 0's
``finishReason`` and the frames around its function call. ``codes`` are what ``check`` finds on
the shared corpus capture ``wild-gemini-partial-args`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §4.

Of the four faults against the declared tools, ``extra-parallel-call`` has no Gemini form: a
request cannot refuse parallel calls (``FunctionCallingConfig`` has ``mode`` and
``allowedFunctionNames`` only; ``providers/gemini/tools.py``), so two calls break nothing it said.
"""
from __future__ import annotations

from collections.abc import Iterator

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.gemini import tools
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.model.members import object_member


def _candidate0(ev: Ev) -> tuple[dict, dict] | None:
    p = ev.json()
    cands = p.get("candidates") if isinstance(p, dict) else None
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], dict):
        return None
    return p, cands[0]


def _found_candidate0(ev: Ev) -> tuple[dict, dict]:
    """``_candidate0`` of an item found to hold a candidate; ``NotApplicable`` if it holds none."""
    found = _candidate0(ev)
    if found is None:
        raise NotApplicable("the item holds no candidate")
    return found


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
    p, cand = _found_candidate0(stream.items[i])
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
            fc = object_member(part, "functionCall")
            for arg in fc.get("partialArgs") or []:
                if isinstance(arg, dict) and isinstance(arg.get("stringValue"), str) and arg["stringValue"]:
                    return m.with_accent(stream, arg["stringValue"])
            if isinstance(fc.get("args"), dict):
                value = m.first_string_value(orjson.dumps(fc["args"]).decode())
                if value:
                    return m.with_accent(stream, value)
    raise NotApplicable("no text or string argument to carry a multi-byte character")


# ------------------------------------------------------------------ faults against the declared tools
_VALUE_TYPES = {"stringValue": "string", "numberValue": "number", "boolValue": "boolean"}
"""``partialArgs`` value members (google-genai ``PartialArg``) and the JSON type each carries."""


def _function_calls(stream: Stream) -> Iterator[tuple[int, dict, dict]]:
    """``(item position, the payload, the functionCall dict)`` of every functionCall part, in order."""
    for i, ev in enumerate(stream.items):
        found = _candidate0(ev)
        if found is None:
            continue
        content = found[1].get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict) and isinstance(part.get("functionCall"), dict):
                yield i, found[0], part["functionCall"]


def _declaring(stream: Stream, schemas: dict | None = None) -> dict:
    """The recorded request (or a minimal one) declaring the streamed functions when it declares none
    (``schemas``: what to declare for some of them; the others are declared by name)."""
    body = dict(stream.request or {"contents": []})
    if not isinstance(body.get("tools"), list):
        names = list(dict.fromkeys(fc["name"] for _, _, fc in _function_calls(stream) if isinstance(fc.get("name"), str)))
        given = schemas or {}
        decls = [{"name": n, **({"parametersJsonSchema": given[n]} if n in given else {})} for n in names]
        body["tools"] = [{"functionDeclarations": decls}]
    return body


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    for i, payload, fc in _function_calls(stream):
        if isinstance(fc.get("name"), str):
            declared = tools.read(body)
            old, fc["name"] = fc["name"], tf.renamed(fc["name"], set(declared.tools) if declared is not None else set())
            return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(payload)}), body,
                                 f"{old} renamed {fc['name']}, {m.describe(stream, i)}")
    raise NotApplicable("no functionCall names a function")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    """A whole call's ``args`` broken (``tool_faults.violate``), or, in a streamed call, the first
    argument that arrives in one piece given another type (``numberValue`` 3 → ``stringValue`` "3")."""
    name = None
    recorded = tools.read(stream.request) if stream.request else None
    for i, payload, fc in _function_calls(stream):
        name = fc.get("name") if isinstance(fc.get("name"), str) else name
        if isinstance(fc.get("args"), dict) and name:
            declared = recorded.tools.get(name) if recorded is not None else None
            original = fc["args"]
            fc["args"], what = tf.violate(original, declared.schema if declared is not None else None)
            return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(payload)}),
                                 _declaring(stream, {name: tf.inferred_schema(original)}),
                                 f"{name}: {what}, {m.describe(stream, i)}")
        for arg in fc.get("partialArgs") or ():
            member = next((k for k in _VALUE_TYPES if k in arg), None) if isinstance(arg, dict) else None
            path = arg.get("jsonPath") if member else None
            if member and not arg.get("willContinue") and isinstance(path, str) and path.count(".") == 1 and name:
                value = arg.pop(member)
                arg["stringValue" if member != "stringValue" else "numberValue"] = (
                    str(value) if member != "stringValue" else len(value))
                key = path[2:]
                schema = {"type": "object", "properties": {key: {"type": _VALUE_TYPES[member]}}}
                return m.well_formed(m.with_edits(stream, {i: stream.items[i].with_json(payload)}),
                                     _declaring(stream, {name: schema}),
                                     f"{name}: {key!r} sent as another type, {m.describe(stream, i)}")
    raise NotApplicable("no function call argument to break")


NO_TOOL_TEXT = "I can answer that without a tool."
"""What the mutated answer says instead of calling the forced function."""


def ignore_tool_choice(stream: Stream, param: float | None) -> Mutated:
    """Every functionCall part removed (the first one's frame says ``NO_TOOL_TEXT`` instead; a frame
    left with nothing to say is dropped unless it carries the finishReason or usage), the finishReason
    ``STOP``; the request forces a call (``functionCallingConfig.mode: ANY``) when it did not."""
    body = _declaring(stream)
    if m.choice_of(tools.read(body)) is None:
        body["toolConfig"] = {"functionCallingConfig": {"mode": "ANY"}}
    edits: dict = {}
    said = False
    for i, payload, _ in _function_calls(stream):
        if i in edits:
            continue
        cand = payload["candidates"][0]
        parts = [x for x in cand["content"]["parts"] if not (isinstance(x, dict) and "functionCall" in x)]
        if not said:
            parts, said = [{"text": NO_TOOL_TEXT}, *parts], True
        cand["content"]["parts"] = parts
        keep = parts or cand.get("finishReason") or payload.get("usageMetadata")
        edits[i] = stream.items[i].with_json(payload) if keep else None
    if not edits:
        raise NotApplicable("no functionCall part in this stream")
    end = _finish(stream)
    p = edits[end].json() if edits.get(end) is not None else stream.items[end].json()
    cand = p["candidates"][0]
    cand["finishReason"] = "STOP"
    if isinstance(cand.get("content"), dict) and not cand["content"].get("parts"):
        del cand["content"]  # a finishReason-only frame, as Gemini sends them
    edits[end] = stream.items[end].with_json(p)
    return m.well_formed(m.with_edits(stream, edits), body,
                         f"no functionCall although {m.forcing(m.choice_of(tools.read(body)))}")


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
    Mutation("undeclared-tool", "the first functionCall names a function the request did not declare",
             frozenset({"V001"}), ("QwenLM/Qwen3.8#15",), undeclared_tool),
    Mutation("schema-violation", "a functionCall argument breaks the declared schema (a required key dropped, "
             "else a value of another type; in a streamed call, an argument sent whole with another type)",
             frozenset({"V002"}), ("Datus-ai/Datus-agent#1365",), schema_violation),
    Mutation("ignore-tool-choice", "a text part instead of the functionCall although the request forces one "
             "(functionCallingConfig mode ANY)", frozenset({"V003"}), ("maximhq/bifrost#3290",), ignore_tool_choice),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``STOP``): what ``serve --expect-next`` sends the next request."""
    return sse([(None, {"candidates": [{"content": {"role": "model", "parts": [{"text": CLOSING_TEXT}]},
                                        "finishReason": "STOP", "index": 0}],
                        "modelVersion": "stream-inspector"})])
