"""Anthropic Messages fault injection (``serve --mutate``): the broken shapes reported for this API.

Each mutation edits the events of the first ``tool_use`` block (or the message around it) and
keeps everything else as recorded; ``codes`` are what ``check`` finds on the bundled capture
``1-anthropic-tool-call`` once mutated (``tests/unit/test_mutations.py`` checks them).
Wire facts: PROTOCOLS.md §1.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from inspector.providers import mutations as m
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


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
            block = p.get("content_block") if isinstance(p.get("content_block"), dict) else {}
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
        delta = p.get("delta") if isinstance(p.get("delta"), dict) else {}
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
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer (``end_turn``): what ``serve --expect-next`` sends the next request."""
    msg = {"id": "msg_si_closing", "type": "message", "role": "assistant", "model": "stream-inspector",
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
