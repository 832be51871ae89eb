"""Gemini content-level faults (``serve --mutate``): answers the API legally sends that an agent must
still handle.

Wire facts (google-genai ``types.FinishReason``: ``STOP``, ``MAX_TOKENS``, ``SAFETY``,
``PROHIBITED_CONTENT``, ``MALFORMED_FUNCTION_CALL``…): a safety filter or the token limit ends the
candidate with that ``finishReason`` and no more content; Gemini has no refusal field (a refusal
is plain text), so there is no ``refusal`` fault here. ``codes`` are what ``check`` finds on
``wild-gemini-partial-args`` once mutated (``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.gemini import tools
from inspector.providers.gemini.mutations import _candidate0, _first_call, _found_candidate0
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


def _frame(like: dict, reason: str, t) -> Ev:
    """A last frame: candidate 0 with no content and ``finishReason`` (``like``'s other keys kept)."""
    cand = {k: v for k, v in like["candidates"][0].items() if k not in ("content", "finishReason")}
    frame = {k: v for k, v in like.items() if k != "candidates"}
    return Ev(None, None, t).with_json({**frame, "candidates": [{**cand, "finishReason": reason}]})


def _calls_from(stream: Stream) -> list[int]:
    """Positions of the frames from the first functionCall part on (a call streamed in partialArgs)."""
    first = _first_call(stream)
    return [i for i in range(first, len(stream.items)) if _candidate0(stream.items[i]) is not None]


def _cut(stream: Stream, reason: str) -> Mutated:
    """``finishReason`` ``reason`` after the middle frame of the first call (its arguments never finish).
    A correct client runs no call of a candidate cut short (``truth``: the stream before the call)."""
    frames = _calls_from(stream)
    if len(frames) < 2:
        raise NotApplicable("the first function call is not streamed over several frames")
    at = m.middle(frames[:-1])
    like, _ = _found_candidate0(stream.items[at])
    end = _frame(like, reason, stream.items[at].t)
    out = m.unchanged(stream.derive(stream.items[: at + 1] + [end]), m.describe(stream, at))
    out.truth = stream.derive(stream.items[: frames[0]] + [end])
    return out


def content_filter(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "SAFETY")


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "MAX_TOKENS")


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    first = next((i for i, ev in enumerate(stream.items) if _candidate0(ev) is not None), None)
    if first is None:
        raise NotApplicable("no candidate in this stream")
    like, _ = _found_candidate0(stream.items[first])
    sent = stream.derive(stream.items[:first] + [_frame(like, "STOP", stream.items[first].t)])
    out = m.unchanged(sent, "the whole answer")
    out.truth = sent  # a legal answer: what a correct client carries back
    return out


def _called(stream: Stream) -> list[tuple[int, str]]:
    """Each ``functionCall`` part that names its function: ``(position, name)`` (a call streamed over
    several frames names it once)."""
    out = []
    for i, ev in enumerate(stream.items):
        found = _candidate0(ev)
        content = found[1].get("content") if found is not None else None
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else ():
            fc = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(fc, dict) and isinstance(fc.get("name"), str) and fc["name"]:
                out.append((i, fc["name"]))
    return out


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("content-filter", "finishReason SAFETY in the middle of a streamed function call",
             frozenset({"G005", "J005"}), ("BerriAI/litellm#6104",), content_filter),
    Mutation("empty-answer", "one frame with no content, finishReason STOP", frozenset(),
             ("BerriAI/litellm#24462",), empty_answer),
    Mutation("max-tokens-mid-call", "finishReason MAX_TOKENS in the middle of a streamed function call",
             frozenset({"G005", "J005"}), ("lucasnevespereira/nevinho#57",), max_tokens_mid_call),
    m.wrong_tool_choice(("LostRuins/koboldcpp#1651", "crmne/ruby_llm#445"), _called, tools.read),
)
"""Content-level faults, listed after the wire-level ones."""
