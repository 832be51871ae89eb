"""Anthropic Messages content-level faults (``serve --mutate``): answers the API legally sends that
an agent must still handle.

Wire facts (anthropic SDK ``types/stop_reason.py``: ``end_turn``, ``max_tokens``, ``stop_sequence``,
``tool_use``, ``pause_turn``, ``refusal``): Anthropic has no separate content-filter stop; its
streaming classifiers end a message with ``stop_reason: "refusal"``, also in the middle of a block
already streaming (PROTOCOLS.md §1). On ``max_tokens`` the open block is closed by its
``content_block_stop`` and the message ends. ``codes`` are what ``check`` finds on
``1-anthropic-tool-call`` once mutated (``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from dataclasses import replace

from inspector.providers import mutations as m
from inspector.providers.anthropic import tools
from inspector.providers.anthropic.mutations import _find, _first_tool, _with_args
from inspector.providers.mutations import Ev, Mutated, Mutation, Stream
from inspector.model.members import object_member

REFUSAL_TEXT = "I can't help with that request."


def _ending(stream: Stream, stop_reason: str, t) -> list[Ev]:
    """``message_delta`` saying ``stop_reason`` (the recorded one's usage kept) and ``message_stop``."""
    i = _find(stream, "message_delta")
    p = stream.items[i].json()
    p["delta"] = {**(object_member(p, "delta")), "stop_reason": stop_reason}
    end = stream.items[_find(stream, "message_stop")]
    return [replace(stream.items[i].with_json(p), t=t), replace(end, t=t)]


def _answer(stream: Stream, text: str, stop_reason: str) -> Mutated:
    """Every content block replaced by one text block saying ``text`` (none when empty)."""
    start = _find(stream, "message_start")
    t = stream.items[start].t
    blocks: list[Ev] = []
    if text:
        blocks = [Ev(None, "content_block_start", t).with_json(
                      {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                  Ev(None, "content_block_delta", t).with_json(
                      {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
                  Ev(None, "content_block_stop", t).with_json({"type": "content_block_stop", "index": 0})]
    sent = stream.derive(stream.items[: start + 1] + blocks + _ending(stream, stop_reason, t))
    out = m.unchanged(sent, "the whole answer")
    out.truth = sent  # a legal answer: what a correct client carries back
    return out


def _cut(stream: Stream, stop_reason: str, close_block: bool) -> Mutated:
    """The message ends with ``stop_reason`` after the middle ``input_json_delta`` of the first tool block."""
    tool = _with_args(stream)
    at = m.middle(tool.deltas)
    t = stream.items[at].t
    stop = [Ev(None, "content_block_stop", t).with_json({"type": "content_block_stop", "index": tool.index})]
    sent = stream.derive(stream.items[: at + 1] + (stop if close_block else []) + _ending(stream, stop_reason, t))
    out = m.unchanged(sent, m.describe(stream, at))
    # A correct client runs no tool of a message cut short: the truth is the stream without tool blocks.
    tools = {p["index"] for ev in sent.items if isinstance(p := ev.json(), dict) and p.get("type") == "content_block_start"
             and isinstance(p.get("content_block"), dict) and p["content_block"].get("type") == "tool_use"}
    out.truth = sent.derive([ev for ev in sent.items if not (isinstance(p := ev.json(), dict)
                                                             and p.get("index") in tools)])
    return out


def refusal(stream: Stream, param: float | None) -> Mutated:
    _first_tool(stream)
    return _answer(stream, REFUSAL_TEXT, "refusal")


def content_filter(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "refusal", close_block=False)


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    return _answer(stream, "", "end_turn")


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "max_tokens", close_block=True)


def _called(stream: Stream) -> list[tuple[int, str]]:
    """Each ``tool_use`` block's ``content_block_start``: ``(position, name)``."""
    out = []
    for i, ev in enumerate(stream.items):
        p = ev.json()
        block = p.get("content_block") if isinstance(p, dict) and p.get("type") == "content_block_start" else None
        if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("name"), str):
            out.append((i, block["name"]))
    return out


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("refusal", "the answer is a refusal: one text block, stop_reason refusal, no tool call",
             frozenset(), ("Oaklight/llm-rosetta#429",), refusal),
    Mutation("content-filter", "stop_reason refusal in the middle of the tool arguments (a streaming classifier "
             "stopping the message)", frozenset({"A007", "J005"}), ("damianvtran/local-operator#187",), content_filter),
    Mutation("empty-answer", "no content block at all, stop_reason end_turn", frozenset({"A016"}),
             ("spacedriveapp/spacebot#171", "LiveBench/LiveBench#425"), empty_answer),
    Mutation("max-tokens-mid-call", "stop_reason max_tokens in the middle of the tool arguments",
             frozenset({"A008", "J002"}), ("14790897/MiqroForge-Desktop#1100",), max_tokens_mid_call),
    m.wrong_tool_choice(("LostRuins/koboldcpp#1651", "crmne/ruby_llm#445"), _called, tools.read),
)
"""Content-level faults, listed after the wire-level ones."""
