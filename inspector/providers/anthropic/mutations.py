"""Anthropic Messages fault injection (``serve --mutate``): the broken shapes reported for this API.

Each mutation edits the events of the first ``tool_use`` block (or the message around it) and
keeps everything else as recorded; ``codes`` are what ``check`` finds on the bundled capture
``1-anthropic-tool-call`` once mutated (``tests/unit/test_mutations.py`` checks them).
Wire facts: PROTOCOLS.md §1.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from typing import Any

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.anthropic import tools
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.model.members import object_member


@dataclass(slots=True)
class _Tool:
    """Where the first tool block's events sit in ``stream.items``."""

    index: int
    start: int
    deltas: list[int]
    stop: int | None


def _type(ev: Ev) -> str | None:
    p = ev.json()
    return p.get("type") if isinstance(p, dict) and isinstance(p.get("type"), str) else None


def _first_tool(stream: Stream) -> _Tool:
    tool: _Tool | None = None
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if not isinstance(p, dict):
            continue
        typ = p.get("type")
        if tool is None:
            block = object_member(p, "content_block")
            if typ == "content_block_start" and block.get("type") == "tool_use" and isinstance(p.get("index"), int):
                tool = _Tool(p["index"], i, [], None)
        elif p.get("index") == tool.index:
            if typ == "content_block_delta":
                tool.deltas.append(i)
            elif typ == "content_block_stop":
                tool.stop = i
                break
    if tool is None:
        raise NotApplicable("no tool_use block in this stream")
    return tool


def _with_args(stream: Stream) -> _Tool:
    tool = _first_tool(stream)
    if not tool.deltas:
        raise NotApplicable("the tool_use block streams no input_json_delta")
    return tool


def _find(stream: Stream, typ: str) -> int:
    for i, ev in enumerate(stream.items):
        if _type(ev) == typ:
            return i
    raise NotApplicable(f"no {typ} event in this stream")


# --------------------------------------------------------------------------------- event-level faults
def drop_index(stream: Stream, param: float | None) -> Mutated:
    tool = _with_args(stream)
    edits = {}
    for i in tool.deltas:
        p = stream.items[i].json()
        p.pop("index", None)
        edits[i] = stream.items[i].with_json(p)
    return m.edited(stream, edits, m.describe(stream, tool.deltas[0]))


def duplicate_start(stream: Stream, param: float | None) -> Mutated:
    tool = _first_tool(stream)
    again = stream.items[tool.start]
    return m.edited(stream, {}, m.describe(stream, tool.start), {tool.start: [replace(again)]})


def cumulative_arguments(stream: Stream, param: float | None) -> Mutated:
    tool = _with_args(stream)
    edits, so_far = {}, ""
    for i in tool.deltas:
        p = stream.items[i].json()
        delta = object_member(p, "delta")
        so_far += delta.get("partial_json") or ""
        delta["partial_json"] = so_far
        edits[i] = stream.items[i].with_json(p)
    return m.edited(stream, edits, m.describe(stream, tool.deltas[0]))


def close_early(stream: Stream, param: float | None) -> Mutated:
    tool = _with_args(stream)
    if tool.stop is None or len(tool.deltas) < 2:
        raise NotApplicable("the tool_use block needs two input_json_delta events and a content_block_stop")
    cut = tool.deltas[(len(tool.deltas) - 1) // 2]
    edits: dict[int, Ev | None] = {i: None for i in tool.deltas if i > cut}
    edits[tool.stop] = None
    stop = replace(stream.items[tool.stop], t=stream.items[cut].t)
    return m.edited(stream, edits, m.describe(stream, cut), {cut: [stop]})


def no_message_stop(stream: Stream, param: float | None) -> Mutated:
    i = _find(stream, "message_stop")
    return m.edited(stream, {i: None}, m.describe(stream, i - 1))


def end_turn(stream: Stream, param: float | None) -> Mutated:
    _first_tool(stream)
    i = _find(stream, "message_delta")
    p = stream.items[i].json()
    if not isinstance(p.get("delta"), dict) or p["delta"].get("stop_reason") != "tool_use":
        raise NotApplicable("the message does not stop with stop_reason tool_use")
    p["delta"]["stop_reason"] = "end_turn"
    return m.edited(stream, {i: stream.items[i].with_json(p)}, m.describe(stream, i))


OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
"""The error event Anthropic sends when it is overloaded mid-stream (PROTOCOLS.md §1, ``error``)."""


def error_event(stream: Stream, param: float | None) -> Mutated:
    tool = _with_args(stream)
    at = m.middle(tool.deltas)
    error = Ev(None, "error", stream.items[at].t).with_json(OVERLOADED)
    kept = stream.derive(stream.items[: at + 1] + [error])
    return m.unchanged(kept, m.describe(stream, at))


def _mid_arguments(stream: Stream) -> int:
    return m.middle(_with_args(stream).deltas)


def _inject_text(stream: Stream) -> Stream:
    """Put a multi-byte character in the content (for streams that carry none): append `` — ok`` to
    the first text delta, else put ``é`` in the first string value of the tool's arguments."""
    items = list(stream.items)
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if isinstance(p, dict) and p.get("type") == "content_block_delta" and \
                isinstance(p.get("delta"), dict) and p["delta"].get("type") == "text_delta":
            p["delta"]["text"] = (p["delta"].get("text") or "") + " \u2014 ok"
            items[i] = ev.with_json(p)
            return stream.derive(items)
    tool = _with_args(stream)
    payloads = [stream.items[i].json() for i in tool.deltas]
    found = m.accent_in_arguments([p["delta"].get("partial_json") or "" for p in payloads])
    if found is None:
        raise NotApplicable("no text or string argument to carry a multi-byte character")
    k, fragment = found
    payloads[k]["delta"]["partial_json"] = fragment
    items[tool.deltas[k]] = stream.items[tool.deltas[k]].with_json(payloads[k])
    return stream.derive(items)


# ------------------------------------------------------------------ faults against the declared tools
def _tools(stream: Stream) -> list[_Tool]:
    """Every ``tool_use`` block's events, in order."""
    found: dict[int, _Tool] = {}
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if not isinstance(p, dict) or not isinstance(p.get("index"), int):
            continue
        block = object_member(p, "content_block")
        if p.get("type") == "content_block_start" and block.get("type") == "tool_use":
            found[p["index"]] = _Tool(p["index"], i, [], None)
        elif p["index"] in found and p.get("type") == "content_block_delta":
            found[p["index"]].deltas.append(i)
        elif p["index"] in found and p.get("type") == "content_block_stop":
            found[p["index"]].stop = i
    if not found:
        raise NotApplicable("no tool_use block in this stream")
    return list(found.values())


def _call(stream: Stream, tool: _Tool) -> tuple[str | None, object]:
    """``(name, parsed input)`` of a tool block (its start's name; its deltas' JSON, else ``{}``)."""
    block = stream.items[tool.start].json()["content_block"]
    text = "".join(stream.items[i].json().get("delta", {}).get("partial_json", "") for i in tool.deltas)
    try:
        args = orjson.loads(text) if text.strip() else block.get("input") or {}
    except orjson.JSONDecodeError:
        args = None
    return block.get("name"), args


def _declaring(stream: Stream) -> dict:
    """The recorded request (or a minimal one) declaring the streamed tools when it declares none
    (schemas inferred from their inputs)."""
    body = dict(stream.request or {"model": "m", "max_tokens": 1024, "messages": [], "stream": True})
    if not isinstance(body.get("tools"), list):
        declared: dict = {}
        for tool in _tools(stream):
            name, args = _call(stream, tool)
            if name and isinstance(args, dict):
                declared.setdefault(name, tf.inferred_schema(args))
        body["tools"] = [{"name": n, "input_schema": s} for n, s in declared.items()]
    return body


def _stop_reason(stream: Stream, reason: str) -> dict:
    """The edit that sets ``message_delta``'s ``stop_reason``."""
    at = _find(stream, "message_delta")
    p = stream.items[at].json()
    p.setdefault("delta", {})["stop_reason"] = reason
    return {at: stream.items[at].with_json(p)}


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    tool = _tools(stream)[0]
    p = stream.items[tool.start].json()
    name = p["content_block"].get("name") or "tool"
    declared = tools.read(body)
    new = p["content_block"]["name"] = tf.renamed(name, set(declared.tools) if declared is not None else set())
    return m.well_formed(m.with_edits(stream, {tool.start: stream.items[tool.start].with_json(p)}), body,
                         f"{name} renamed {new}, {m.describe(stream, tool.start)}")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    tool = _with_args(stream)
    name, args = _call(stream, tool)
    recorded = tools.read(stream.request) if stream.request else None
    declared = recorded.tools.get(name) if recorded is not None and name else None
    broken, what = tf.violate(args, declared.schema if declared is not None else None)
    first = stream.items[tool.deltas[0]].json()
    first["delta"]["partial_json"] = orjson.dumps(broken).decode()
    edits: dict = {tool.deltas[0]: stream.items[tool.deltas[0]].with_json(first)}
    edits.update({i: None for i in tool.deltas[1:]})
    return m.well_formed(m.with_edits(stream, edits), _declaring(stream),
                         f"{name}: {what}, {m.describe(stream, tool.deltas[0])}")


def ignore_tool_choice(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    if m.choice_of(tools.read(body)) is None:
        body["tool_choice"] = {"type": "any"}
    edits = _stop_reason(stream, "end_turn")
    for tool in _tools(stream):  # each call becomes a text block at its index: indexes stay in order
        start = stream.items[tool.start]
        edits[tool.start] = start.with_json({"type": "content_block_start", "index": tool.index,
                                             "content_block": {"type": "text", "text": ""}})
        text = {"type": "content_block_delta", "index": tool.index,
                "delta": {"type": "text_delta", "text": "I can answer that without a tool."}}
        for k, i in enumerate(tool.deltas):
            edits[i] = stream.items[i].with_json(text) if k == 0 else None
        if not tool.deltas:
            edits[tool.start] = None
            if tool.stop is not None:
                edits[tool.stop] = None
    return m.well_formed(m.with_edits(stream, edits), body, f"no tool_use although tool_choice "
                         f"{orjson.dumps(body['tool_choice']).decode()}")


def extra_parallel_call(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    choice = dict(body.get("tool_choice") or {"type": "auto"})
    body["tool_choice"] = {**choice, "disable_parallel_tool_use": True}
    found = _tools(stream)
    if len(found) > 1:
        return m.well_formed(stream, body, f"{len(found)} tool_use blocks although disable_parallel_tool_use is true")
    tool = found[0]
    if tool.stop is None:
        raise NotApplicable("the tool_use block is never stopped")
    indexed = [(i, p) for i, ev in enumerate(stream.items) if isinstance(p := ev.json(), dict)
               and isinstance(p.get("index"), int)]
    last = max(p["index"] for _, p in indexed)
    after = max(i for i, p in indexed if p["index"] == last)  # after the last block: indexes stay in order
    copies = []
    for i in [tool.start, *tool.deltas, tool.stop]:  # the call again, as the next block with an id of its own
        p = stream.items[i].json()
        p["index"] = last + 1
        if isinstance(p.get("content_block"), dict) and p["content_block"].get("id"):
            p["content_block"]["id"] += "_2"
        copies.append(replace(stream.items[i].with_json(p), t=stream.items[after].t))  # record times never go back
    return m.well_formed(m.with_edits(stream, {}, {after: copies}),
                         body, f"the call again as a second tool_use block, {m.describe(stream, tool.stop)}")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("drop-index", "input_json_delta events of the tool block carry no index",
             frozenset({"A001"}), ("vercel/ai#18440",),
             drop_index),
    Mutation("duplicate-start", "the tool block's content_block_start is sent twice",
             frozenset({"A003"}), ("anthropics/anthropic-sdk-typescript#879",), duplicate_start),
    Mutation("cumulative-arguments", "each input_json_delta repeats all the arguments so far (snapshots, not deltas)",
             frozenset({"J006", "J001"}), ("decolua/9router#2869", "vllm-project/vllm#10395"), cumulative_arguments),
    Mutation("close-early", "content_block_stop arrives before the tool's JSON is complete (the rest is lost)",
             frozenset({"J002"}), ("anthropics/claude-code#19143",), close_early),
    Mutation("no-stop-event", "the stream ends without message_stop",
             frozenset({"S003"}), ("SamSaffron/term-llm#955",), no_message_stop),
    Mutation("finish-stop", "stop_reason end_turn instead of tool_use after a tool call",
             frozenset({"A007"}), ("quarkiverse/quarkus-langchain4j#1778", "BerriAI/litellm#21041"), end_turn),
    Mutation("error-event", "an overloaded_error event in the middle of the tool arguments, then the body ends",
             frozenset({"S006", "J005"}), ("TanStack/ai#1172",), error_event),
    m.stall({"T001"}, ("deepseek-ai/DeepSeek-V3#1608", "lbjlaq/Antigravity-Manager#1905"), _mid_arguments),
    m.reset({"S012", "S003", "J005"}, ("konveyor/kai#622", "bytedance/deer-flow#1923"), _mid_arguments),
    m.keepalive_only({"T002", "S003", "J005"}, ("openai/openai-go#227", "decolua/9router#3409"), _mid_arguments),
    m.bom({"S009"}, ("openai/openai-python#3819", "rossoctl/cortex#1034")),
    m.utf8_split(set(), ("api7/aisix#111", "librefang/librefang#3448"), _inject_text),
    Mutation("undeclared-tool", "the first tool_use names a tool the request did not declare (renamed on the way)",
             frozenset({"V001"}), ("OpenHands/OpenHands#5111", "langchain4j/langchain4j#1052"), undeclared_tool),
    Mutation("schema-violation", "the first tool_use's input breaks the declared input_schema (a required key "
             "dropped, else a value of another type)", frozenset({"V002"}),
             ("PrefectHQ/fastmcp#62", "Datus-ai/Datus-agent#1365"), schema_violation),
    Mutation("ignore-tool-choice", "text instead of the tool_use the request forces (tool_choice any)",
             frozenset({"V003"}), ("ollama/ollama#17921",), ignore_tool_choice),
    Mutation("extra-parallel-call", "two tool_use blocks although the request set disable_parallel_tool_use",
             frozenset({"V004"}), ("sgl-project/sglang#9696",), extra_parallel_call),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``end_turn``): what ``serve --expect-next`` sends the next request."""
    msg: dict[str, Any] = {"id": "msg_si_closing", "type": "message", "role": "assistant", "model": "stream-inspector",
           "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
    return sse([
        ("message_start", {"type": "message_start", "message": msg}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": CLOSING_TEXT}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                           "usage": {"output_tokens": 2}}),
        ("message_stop", {"type": "message_stop"}),
    ])
