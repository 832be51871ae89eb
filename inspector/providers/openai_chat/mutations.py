"""OpenAI Chat (and compatible servers) fault injection (``serve --mutate``).

Each mutation edits the ``tool_calls`` fragments of choice 0 (the first call, or every call where
the reported server does so for all) and keeps everything else as recorded; ``codes`` are what
``check`` finds on the bundled capture ``3-openai-parallel-tool-calls`` (two interleaved calls)
once mutated (``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §2, §4, §5.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from typing import Any

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.providers.openai_chat import tools
from inspector.model.members import object_member, string_member


@dataclass(slots=True)
class _Calls:
    """Where choice 0's tool-call fragments sit: ``{wire index: [item positions]}``, in order."""

    fragments: dict[int, list[int]] = field(default_factory=dict)
    finish: int | None = None
    """The item carrying choice 0's ``finish_reason``."""
    done: int | None = None


def _choice0(p) -> dict | None:
    if not isinstance(p, dict) or not isinstance(p.get("choices"), list):
        return None
    return next((c for c in p["choices"] if isinstance(c, dict) and c.get("index", 0) == 0), None)


def _choice_of(p: object) -> dict:
    """Choice 0 of an event ``_scan`` found it in; ``NotApplicable`` if it is not there after all."""
    choice = _choice0(p)
    if choice is None:
        raise NotApplicable("the event has no choice 0")
    return choice


def _entries(choice: dict) -> list:
    delta = object_member(choice, "delta")
    calls = delta.get("tool_calls")
    return [e for e in calls if isinstance(e, dict)] if isinstance(calls, list) else []


def _scan(stream: Stream) -> _Calls:
    found = _Calls()
    for i, ev in enumerate(stream.items):
        if ev.data == "[DONE]":
            found.done = i
            continue
        choice = _choice0(ev.json())
        if choice is None:
            continue
        for e in _entries(choice):
            if isinstance(e.get("index"), int):
                found.fragments.setdefault(e["index"], []).append(i)
        if choice.get("finish_reason") and found.finish is None:
            found.finish = i
    if not found.fragments:
        raise NotApplicable("no indexed tool_calls fragments in choice 0")
    return found


def _first_call(stream: Stream) -> list[int]:
    calls = _scan(stream)
    return calls.fragments[min(calls.fragments)]


def _args_fragments(stream: Stream) -> list[int]:
    """Positions of the first call's fragments that carry argument text (not the opening one)."""
    out = []
    for i in _first_call(stream)[1:]:
        for e in _entries(_choice_of(stream.items[i].json())):
            fn = object_member(e, "function")
            if fn.get("arguments"):
                out.append(i)
                break
    if not out:
        raise NotApplicable("the first tool call streams no argument fragments")
    return out


def _rewrite(stream: Stream, positions, change) -> dict[int, Ev]:
    """``change(entry, wire_index, position)`` applied to choice 0's entries at ``positions``."""
    edits = {}
    for i in positions:
        p = stream.items[i].json()
        for e in _entries(_choice_of(p)):
            change(e, e.get("index"), i)
        edits[i] = stream.items[i].with_json(p)
    return edits


# --------------------------------------------------------------------------------- event-level faults
def drop_index(stream: Stream, param: float | None) -> Mutated:
    calls = _scan(stream)
    positions = sorted({i for ps in calls.fragments.values() for i in ps})
    edits = _rewrite(stream, positions, lambda e, k, i: e.pop("index", None))
    return m.edited(stream, edits, m.describe(stream, positions[0]))


def duplicate_start(stream: Stream, param: float | None) -> Mutated:
    first = _first_call(stream)[0]
    return m.edited(stream, {}, m.describe(stream, first), {first: [stream.items[first]]})


def repeat_identity(stream: Stream, param: float | None) -> Mutated:
    positions = _first_call(stream)
    opening = next(e for e in _entries(_choice_of(stream.items[positions[0]].json())) if e.get("index") is not None)
    fn0 = object_member(opening, "function")
    if not fn0.get("name") or not opening.get("id"):
        raise NotApplicable("the first fragment carries no id and name to repeat")
    first_index = opening["index"]

    def change(e: dict, k, i) -> None:
        if k != first_index:
            return
        e["id"], e["type"] = opening["id"], opening.get("type", "function")
        fn = e.get("function")
        if not isinstance(fn, dict):
            fn = e["function"] = {}
        fn["name"] = fn0["name"]

    edits = _rewrite(stream, positions[1:], change)
    return m.edited(stream, edits, m.describe(stream, positions[1] if len(positions) > 1 else positions[0]))


def cumulative_arguments(stream: Stream, param: float | None) -> Mutated:
    positions = _args_fragments(stream)
    first_index = _first_index(stream)
    so_far = [""]

    def change(e: dict, k, i) -> None:
        fn = e.get("function") if isinstance(e.get("function"), dict) else None
        if k == first_index and fn is not None and isinstance(fn.get("arguments"), str):
            so_far[0] += fn["arguments"]
            fn["arguments"] = so_far[0]

    return m.edited(stream, _rewrite(stream, positions, change), m.describe(stream, positions[0]))


def _first_index(stream: Stream) -> int:
    return min(_scan(stream).fragments)


def close_early(stream: Stream, param: float | None) -> Mutated:
    calls = _scan(stream)
    positions = _args_fragments(stream)
    if len(positions) < 2 or calls.finish is None:
        raise NotApplicable("the first tool call needs two argument fragments and a finish_reason")
    cut = positions[(len(positions) - 1) // 2]
    first_index = min(calls.fragments)
    edits: dict[int, Ev | None] = {}
    for i in calls.fragments[first_index]:
        if i <= cut:
            continue
        p = stream.items[i].json()
        choice = _choice_of(p)
        rest = [e for e in _entries(choice) if e.get("index") != first_index]
        if rest:
            choice["delta"]["tool_calls"] = rest
            edits[i] = stream.items[i].with_json(p)
        else:
            edits[i] = None
    return m.edited(stream, edits, m.describe(stream, cut))


def no_done(stream: Stream, param: float | None) -> Mutated:
    done = _scan(stream).done
    if done is None:
        raise NotApplicable("the stream has no data: [DONE]")
    return m.edited(stream, {done: None}, m.describe(stream, done - 1))


def finish_stop(stream: Stream, param: float | None) -> Mutated:
    calls = _scan(stream)
    if calls.finish is None:
        raise NotApplicable("choice 0 has no finish_reason")
    p = stream.items[calls.finish].json()
    choice = _choice_of(p)
    if choice.get("finish_reason") != "tool_calls":
        raise NotApplicable("choice 0 does not finish with tool_calls")
    choice["finish_reason"] = "stop"
    return m.edited(stream, {calls.finish: stream.items[calls.finish].with_json(p)}, m.describe(stream, calls.finish))


MIDSTREAM_ERROR = {"error": {"message": "Provider returned error", "code": 502,
                             "metadata": {"raw": "upstream connection closed"}}}
"""OpenRouter's documented mid-stream error chunk shape (damianvtran/local-operator#223)."""


def error_event(stream: Stream, param: float | None) -> Mutated:
    at = m.middle(_args_fragments(stream))
    error = Ev(None, None, stream.items[at].t).with_json(MIDSTREAM_ERROR)
    return m.unchanged(stream.derive(stream.items[: at + 1] + [error]), m.describe(stream, at))


def _mid_arguments(stream: Stream) -> int:
    return m.middle(_args_fragments(stream))


def _inject_text(stream: Stream) -> Stream:
    """Put a multi-byte character in the content (for streams that carry none): append `` — ok`` to
    the first content delta, else put ``é`` in the first string value of the first call's arguments."""
    items = list(stream.items)
    for i, ev in enumerate(stream.items):
        p = ev.json()
        choice = _choice0(p)
        delta = object_member(choice, "delta") if choice is not None else {}
        if isinstance(delta.get("content"), str) and delta["content"]:
            delta["content"] += " \u2014 ok"
            items[i] = ev.with_json(p)
            return stream.derive(items)
    first_index = _first_index(stream)
    positions = _args_fragments(stream)
    payloads = [stream.items[i].json() for i in positions]
    entries = [next(e for e in _entries(_choice_of(p)) if e.get("index") == first_index) for p in payloads]
    found = m.accent_in_arguments([e["function"]["arguments"] for e in entries])
    if found is None:
        raise NotApplicable("no content or string argument to carry a multi-byte character")
    k, fragment = found
    entries[k]["function"]["arguments"] = fragment
    items[positions[k]] = stream.items[positions[k]].with_json(payloads[k])
    return stream.derive(items)


# ------------------------------------------------------------------ faults against the declared tools
def _call(stream: Stream, index: int) -> tuple[str | None, str]:
    """``(name, argument text)`` of choice 0's call at wire ``index``."""
    name, text = None, ""
    for i in _scan(stream).fragments[index]:
        for e in _entries(_choice_of(stream.items[i].json())):
            fn = object_member(e, "function")
            if e.get("index") == index:
                name = name or (string_member(fn, "name"))
                text += string_member(fn, "arguments", "")
    return name, text


def _declaring(stream: Stream, **extra) -> dict:
    """The recorded request body (or a minimal one) declaring the streamed calls' functions when it
    declares none (schemas inferred from their arguments), with ``extra`` keys set."""
    body = dict(stream.request or {"model": "m", "messages": [], "stream": True})
    if not isinstance(body.get("tools"), list):
        declared: dict[str, Any] = {}
        for index in _scan(stream).fragments:
            name, text = _call(stream, index)
            try:
                args = orjson.loads(text) if text.strip() else {}
            except orjson.JSONDecodeError:
                args = {}
            if name and isinstance(args, dict):
                declared.setdefault(name, tf.inferred_schema(args))
        body["tools"] = [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in declared.items()]
    return body | extra


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    first = _first_index(stream)
    name, _ = _call(stream, first)
    if not name:
        raise NotApplicable("the first tool call has no name")
    declared = tools.read(body)
    new = tf.renamed(name, set(declared.tools) if declared is not None else set())

    def change(e: dict, k, i) -> None:
        fn = e.get("function")
        if k == first and isinstance(fn, dict) and fn.get("name"):
            fn["name"] = new

    positions = _scan(stream).fragments[first]
    return m.well_formed(m.with_edits(stream, _rewrite(stream, positions, change)), body,
                         f"{name} renamed {new}, {m.describe(stream, positions[0])}")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    recorded = tools.read(stream.request) if stream.request else None
    first = _first_index(stream)
    name, text = _call(stream, first)
    try:
        args = orjson.loads(text) if text.strip() else {}
    except orjson.JSONDecodeError:
        raise NotApplicable("the first tool call's arguments are not JSON") from None
    tool = recorded.tools.get(name) if recorded is not None and name else None
    broken, what = tf.violate(args, tool.schema if tool is not None else None)
    positions = _args_fragments(stream)
    whole = orjson.dumps(broken).decode()
    sent = [whole]

    def change(e: dict, k, i) -> None:
        fn = e.get("function") if isinstance(e.get("function"), dict) else None
        if k == first and fn is not None and isinstance(fn.get("arguments"), str):
            fn["arguments"] = sent.pop() if sent else ""

    edits: dict = _rewrite(stream, positions[:1], change)
    for i in positions[1:]:  # the rest of the first call's arguments: its entries leave their chunks
        p = stream.items[i].json()
        choice = _choice_of(p)
        rest = [e for e in _entries(choice) if e.get("index") != first]
        if rest:
            choice["delta"]["tool_calls"] = rest
            edits[i] = stream.items[i].with_json(p)
        else:
            edits[i] = None
    return m.well_formed(m.with_edits(stream, edits), _declaring(stream),
                         f"{name}: {what}, {m.describe(stream, positions[0])}")


def ignore_tool_choice(stream: Stream, param: float | None) -> Mutated:
    calls = _scan(stream)
    if calls.finish is None:
        raise NotApplicable("choice 0 has no finish_reason")
    body = _declaring(stream)
    if tools.choice(body) is None:
        body["tool_choice"] = "required"
    first = min(i for ps in calls.fragments.values() for i in ps)
    edits: dict = {}
    for i in sorted({i for ps in calls.fragments.values() for i in ps}):
        p = stream.items[i].json()
        choice = _choice_of(p)
        choice["delta"].pop("tool_calls", None)
        if i == first:
            choice["delta"]["content"] = "I can answer that without a tool."
        edits[i] = stream.items[i].with_json(p) if choice["delta"] or i == first or choice.get("finish_reason") else None
    p = stream.items[calls.finish].json() if calls.finish not in edits else orjson.loads(edits[calls.finish].data)
    _choice_of(p)["finish_reason"] = "stop"
    edits[calls.finish] = stream.items[calls.finish].with_json(p)
    return m.well_formed(m.with_edits(stream, edits), body, f"no tool call although {m.forcing(tools.choice(body))}")


def extra_parallel_call(stream: Stream, param: float | None) -> Mutated:
    calls = _scan(stream)
    body = _declaring(stream, parallel_tool_calls=False)
    if len(calls.fragments) > 1:
        return m.well_formed(stream, body, f"{len(calls.fragments)} calls although parallel_tool_calls is false")
    first = min(calls.fragments)
    positions = calls.fragments[first]
    copies = []
    for i in positions:  # the call again, as the next index with an id of its own
        p = stream.items[i].json()
        for e in _entries(_choice_of(p)):
            e["index"] = first + 1
            if e.get("id"):
                e["id"] = f"{e['id']}_2"
        copies.append(replace(stream.items[i].with_json(p), t=stream.items[positions[-1]].t))  # times never go back
    return m.well_formed(m.with_edits(stream, {}, {positions[-1]: copies}), body,
                         f"the call again as a second one, {m.describe(stream, positions[-1])}")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("drop-index", "tool_calls entries carry no index (parallel calls told apart by nothing but order)",
             frozenset({"C001", "J001", "J007"}), ("openai/openai-python#2806", "THU-MAIC/OpenMAIC#1556"), drop_index),
    Mutation("duplicate-start", "the first call's opening fragment (id, type, name) is sent twice",
             frozenset({"C008", "C012"}), ("brainlid/langchain#174", "mudler/LocalAI#9722"), duplicate_start),
    Mutation("repeat-identity", "every continuation fragment repeats the call's id, type and function.name",
             frozenset({"C008", "C012"}), ("ggml-org/llama.cpp#13774", "BerriAI/litellm#20480", "langchain4j/langchain4j#4544"), repeat_identity),
    Mutation("cumulative-arguments", "each arguments fragment repeats all the arguments so far",
             frozenset({"J006", "J001"}), ("decolua/9router#2869", "vllm-project/vllm#10395"), cumulative_arguments),
    Mutation("close-early", "the call's remaining argument fragments never arrive before finish_reason",
             frozenset({"J002"}), ("earendil-works/pi#8501",), close_early),
    Mutation("no-stop-event", "the stream ends without data: [DONE]",
             frozenset({"C007"}), ("djinnos/djinn#1697",), no_done),
    Mutation("finish-stop", "finish_reason stop instead of tool_calls after tool calls",
             frozenset({"C003"}), ("BerriAI/litellm#21041", "googleapis/python-genai#2868", "vllm-project/vllm#48201"),
             finish_stop),
    Mutation("error-event", "an {\"error\": …} chunk in the middle of the tool arguments, then the body ends",
             frozenset({"S006", "J005"}),
             ("damianvtran/local-operator#223", "TanStack/ai#1172"), error_event),
    m.stall({"T001"}, ("deepseek-ai/DeepSeek-V3#1608", "BerriAI/litellm#38926"), _mid_arguments),
    m.reset({"S012", "S003", "J005", "C007"}, ("konveyor/kai#622", "npuichigo/openai_trtllm#31"), _mid_arguments),
    m.keepalive_only({"T002", "S003", "J005", "C007"}, ("openai/openai-go#227", "theopenco/llmgateway#1541"), _mid_arguments),
    m.bom({"S009"}, ("openai/openai-python#3819",)),
    m.utf8_split(set(), ("api7/aisix#111", "danielmiessler/Fabric#2203"), _inject_text),
    Mutation("undeclared-tool", "the first call names a function the request did not declare (renamed on the way)",
             frozenset({"V001"}), ("OpenHands/OpenHands#5111", "QwenLM/Qwen3.8#15", "aliasrobotics/cai#405"), undeclared_tool),
    Mutation("schema-violation", "the first call's arguments break the declared schema (a required key dropped, "
             "else a value of another type)", frozenset({"V002"}),
             ("PrefectHQ/fastmcp#62", "Datus-ai/Datus-agent#1365", "mozilla/bugbug#6576"), schema_violation),
    Mutation("ignore-tool-choice", "no tool call although the request forces one (tool_choice required)",
             frozenset({"V003"}), ("ollama/ollama#17921", "vercel/ai#8992", "vllm-project/vllm#54808"), ignore_tool_choice),
    Mutation("extra-parallel-call", "two tool calls although the request set parallel_tool_calls false",
             frozenset({"V004"}), ("sgl-project/sglang#9696",), extra_parallel_call),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``stop``, ``[DONE]``): what ``serve --expect-next`` sends the next request."""
    head = {"id": "chatcmpl-si-closing", "object": "chat.completion.chunk", "created": 0, "model": "stream-inspector"}
    return sse([
        (None, {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}),
        (None, {**head, "choices": [{"index": 0, "delta": {"content": CLOSING_TEXT}, "finish_reason": None}]}),
        (None, {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        (None, "[DONE]"),
    ])
