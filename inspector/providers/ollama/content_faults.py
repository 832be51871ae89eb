"""Ollama native (``/api/chat``) content-level faults (``serve --mutate``): answers a server legally
sends that an agent must still handle: an empty answer, the token limit ending a turn before its tool
call, the wrong tool chosen.

Wire facts (PROTOCOLS.md §5; ollama ``api/types.go`` ``ChatResponse``): the final line has
``done: true`` and ``done_reason`` ``stop`` or ``length``; tool calls come whole, so the token limit
cannot cut one in the middle: it ends the answer before the call arrives. There is no refusal field
and no content filter (a local model refuses in plain text). ``codes`` are what ``check`` finds on
``ollama-newapi-7252-toolcall-in-final-done-line`` once mutated (``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.mutations import Ev, Mutated, Mutation, Stream
from inspector.providers.ollama import tools
from inspector.providers.ollama.mutations import _calls, _done_line, _first_call_line, _lines

def _closing(stream: Stream, reason: str) -> Ev:
    """The stream's done line with no text and no tool call, ``done_reason`` = ``reason``."""
    i, p = _done_line(stream)
    p["message"] = {"role": "assistant", "content": ""}
    p["done_reason"] = reason
    return stream.items[i].with_json(p)


def _answer(stream: Stream, reason: str, keep: int = 0) -> Mutated:
    """The first ``keep`` items, then the done line; a legal answer, so it is also what a correct client
    carries back (``truth``)."""
    done = _closing(stream, reason)
    items = list(stream.items[:keep])
    sent = stream.derive(items + [done])
    out = m.unchanged(sent, m.describe(stream, max(keep - 1, 0)) if keep else "the whole answer")
    out.truth = sent
    return out


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    return _answer(stream, "stop")


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    """``done_reason: length`` where the first tool call was to come: the answer ends without it."""
    return _answer(stream, "length", keep=_first_call_line(stream))


def _called(stream: Stream) -> list[tuple[int, str]]:
    return [(i, c["function"]["name"]) for i, p in _lines(stream) for c in _calls(p)
            if isinstance(c.get("function"), dict) and isinstance(c["function"].get("name"), str)]


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("empty-answer", "no text and no tool call, done_reason stop", frozenset(),
             ("zeroclaw-labs/zeroclaw#1442", "ollama/ollama#10899"), empty_answer),
    Mutation("max-tokens-mid-call", "done_reason length where the tool call was to come (calls arrive whole)",
             frozenset(), ("BerriAI/litellm#25825", "tetsuo-ai/agenc-core#2105"), max_tokens_mid_call),
    m.wrong_tool_choice(("LostRuins/koboldcpp#1651", "crmne/ruby_llm#445"), _called, tools.read),
)
"""Content-level faults, listed after the wire-level ones. No ``content-filter`` (Ollama has none) and no
``refusal`` (no refusal field: a refusal is a plain text answer)."""
