"""Cohere v2 chat content-level faults (``serve --mutate``): answers a server legally sends that an
agent must still handle: an empty answer, the token limit cutting a tool call, the wrong tool chosen.

Wire facts (PROTOCOLS.md §8; cohere-python ``types/chat_finish_reason.py``): ``message-end`` carries
``finish_reason`` ``COMPLETE``, ``STOP_SEQUENCE``, ``MAX_TOKENS``, ``TOOL_CALL``, ``ERROR`` or
``TIMEOUT``. There is no refusal field and no content-filter reason. ``codes`` are what ``check`` finds
on ``tests/real_streams/cohere/docs-tool-use-streaming-tool-calls.sse`` once mutated
(``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.cohere import tools
from inspector.providers.cohere.mutations import _end, _mid_arguments, _typed
from inspector.providers.mutations import Ev, Mutated, Mutation, Stream

_CONTENT = {"tool-plan-delta", "tool-call-start", "tool-call-delta", "tool-call-end", "content-start",
            "content-delta", "content-end", "citation-start", "citation-end"}


def _with_finish(stream: Stream, i: int, reason: str) -> Ev:
    p = stream.items[i].json()
    p["delta"]["finish_reason"] = reason
    return stream.items[i].with_json(p)


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    """Every content, tool-plan and tool-call event dropped, ``finish_reason: COMPLETE``."""
    end = _end(stream)
    edits: dict[int, Ev | None] = {i: None for i, ev in enumerate(stream.items)
                                   if isinstance(p := ev.json(), dict) and p.get("type") in _CONTENT}
    edits[end] = _with_finish(stream, end, "COMPLETE")
    sent = m.with_edits(stream, edits)
    out = m.unchanged(sent, "the whole answer")
    out.truth = sent
    return out


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    """``message-end`` with ``finish_reason: MAX_TOKENS`` right after the first call's middle argument
    delta. A correct client runs none of the calls of a turn cut short (``truth``: without them)."""
    at, end = _mid_arguments(stream), _end(stream)
    sent = stream.derive(stream.items[: at + 1] + [_with_finish(stream, end, "MAX_TOKENS")])
    out = m.unchanged(sent, m.describe(stream, at))
    calls = {"tool-call-start", "tool-call-delta", "tool-call-end"}
    out.truth = sent.derive([ev for ev in sent.items if not (isinstance(p := ev.json(), dict) and p.get("type") in calls)])
    return out


def _called(stream: Stream) -> list[tuple[int, str]]:
    out = []
    for i, p in _typed(stream, "tool-call-start"):
        call = ((p.get("delta") or {}).get("message") or {}).get("tool_calls")
        fn = call.get("function") if isinstance(call, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            out.append((i, fn["name"]))
    return out


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("empty-answer", "no content, no tool plan and no tool call, finish_reason COMPLETE", frozenset(),
             ("coleam00/dark-factory-experiment#165",), empty_answer),
    Mutation("max-tokens-mid-call", "finish_reason MAX_TOKENS in the middle of the tool arguments",
             frozenset({"J005"}), ("mozilla-ai/any-llm#1301",), max_tokens_mid_call),
    m.wrong_tool_choice(("LostRuins/koboldcpp#1651", "crmne/ruby_llm#445"), _called, tools.read),
)
"""Content-level faults, listed after the wire-level ones (no ``refusal``: a Cohere refusal is plain
text; no ``content-filter``: Cohere has no such reason)."""
