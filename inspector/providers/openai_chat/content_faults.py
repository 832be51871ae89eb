"""OpenAI Chat content-level faults (``serve --mutate``): answers a server legally sends that an agent
must still handle: a refusal, a content filter or the token limit cutting a tool call, an empty
answer, the wrong tool chosen.

Wire facts (openai SDK ``types/chat/chat_completion_chunk.py``): ``delta.refusal`` carries refusal
text; ``finish_reason`` is one of ``stop``, ``length``, ``tool_calls``, ``content_filter``,
``function_call``. ``codes`` are what ``check`` finds on ``3-openai-parallel-tool-calls`` once
mutated (``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.providers.openai_chat import tools
from inspector.providers.openai_chat.mutations import _args_fragments, _choice0, _choice_of, _entries, _scan
from inspector.model.members import object_member

REFUSAL_TEXT = "I'm sorry, but I can't help with that request."
_HEAD_KEYS = ("id", "object", "created", "model", "system_fingerprint", "service_tier")


def _chunk(like: dict, delta: dict, finish: str | None) -> dict:
    """A chunk with ``like``'s id, model… and choice 0 saying ``delta`` and ``finish``."""
    return {**{k: like[k] for k in _HEAD_KEYS if k in like},
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _first_choice(stream: Stream) -> tuple[int, dict]:
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if _choice0(p) is not None:
            return i, p
    raise NotApplicable("no chunk with choice 0")


def _tail(stream: Stream, after: int) -> list[Ev]:
    """What follows the answer: the usage chunk (no choices), ``[DONE]``, comments."""
    return [ev for ev in stream.items[after + 1:] if ev.data is None or ev.data == "[DONE]" or _choice0(ev.json()) is None]


def _answer(stream: Stream, deltas: list[dict], finish: str, where: str) -> Mutated:
    """Choice 0's whole answer replaced by ``deltas`` and ``finish`` (the first chunk, usage and ``[DONE]``
    kept); a legal answer, so it is also what a correct client carries back (``truth``)."""
    i, first = _first_choice(stream)
    t = stream.items[i].t
    items = stream.items[: i + 1] + [Ev(None, None, t).with_json(_chunk(first, d, None)) for d in deltas]
    items.append(Ev(None, None, t).with_json(_chunk(first, {}, finish)))
    sent = stream.derive(items + _tail(stream, i))
    out = m.unchanged(sent, where)
    out.truth = sent
    return out


def _cut(stream: Stream, finish: str) -> Mutated:
    """Everything of choice 0 after the middle argument fragment of the first call replaced by ``finish``.
    A correct client runs none of the calls of a turn cut short (``truth``: the stream without them)."""
    at = m.middle(_args_fragments(stream))
    _, first = _first_choice(stream)
    stop = Ev(None, None, stream.items[at].t).with_json(_chunk(first, {}, finish))
    sent = stream.derive(stream.items[: at + 1] + [stop] + _tail(stream, at))
    out = m.unchanged(sent, m.describe(stream, at))
    out.truth = sent.derive([_without_calls(ev) for ev in sent.items])
    return out


def _without_calls(ev: Ev) -> Ev:
    p = ev.json()
    choice = _choice0(p)
    if choice is None or not _entries(choice):
        return ev
    del choice["delta"]["tool_calls"]
    return ev.with_json(p)


def refusal(stream: Stream, param: float | None) -> Mutated:
    return _answer(stream, [{"refusal": REFUSAL_TEXT}], "stop", "the whole answer")


def content_filter(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "content_filter")


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    return _cut(stream, "length")


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    return _answer(stream, [], "stop", "the whole answer")


def wrong_tool_choice(stream: Stream, param: float | None) -> Mutated:
    """The first call names another tool than the one the model chose: another tool the request
    declares when it declares several, else the tool of another call in the answer (the first two
    differently named calls swap names). The arguments stay: they now fit the wrong tool."""
    calls = _scan(stream)
    opening: dict[int, tuple[int, str]] = {}
    for k, positions in calls.fragments.items():
        for e in _entries(_choice_of(stream.items[positions[0]].json())):
            fn = object_member(e, "function")
            if e.get("index") == k and isinstance(fn.get("name"), str) and fn["name"]:
                opening[k] = (positions[0], fn["name"])
    if not opening:
        raise NotApplicable("no named tool call")
    first = min(opening)
    declared = tools.read(stream.request) if stream.request else None
    others = [n for n in (declared.tools if declared is not None else ()) if n != opening[first][1]]
    names: dict[int, str] = {}
    if others:
        names[first] = others[0]
    else:
        pair = next((b for b in sorted(opening) if b > first and opening[b][1] != opening[first][1]), None)
        if pair is None:
            raise NotApplicable("one tool declared and called: no other tool to choose instead")
        names = {first: opening[pair][1], pair: opening[first][1]}
    edits: dict[int, Ev] = {}
    for k, name in names.items():
        i = opening[k][0]
        p = (edits[i] if i in edits else stream.items[i]).json()
        for e in _entries(_choice_of(p)):
            if e.get("index") == k:
                e["function"]["name"] = name
        edits[i] = stream.items[i].with_json(p)
    out = m.edited(stream, edits, f"{opening[first][1]} called as {names[first]}, "
                                  f"{m.describe(stream, opening[first][0])}")
    out.truth = stream.derive([edits.get(i, ev) for i, ev in enumerate(stream.items)])  # legal: run as sent
    return out


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("refusal", "the answer is a refusal (delta.refusal, finish_reason stop): no tool call",
             frozenset(), ("microsoft/agent-framework-go#556", "NousResearch/hermes-agent#91181"), refusal),
    Mutation("content-filter", "finish_reason content_filter in the middle of the tool arguments",
             frozenset({"C003", "J002"}), ("BerriAI/litellm#6104", "NousResearch/hermes-agent#55695"), content_filter),
    Mutation("empty-answer", "no content and no tool call, finish_reason stop", frozenset(),
             ("earendil-works/pi#8462", "Tencent/WeKnora#818"), empty_answer),
    Mutation("max-tokens-mid-call", "finish_reason length in the middle of the tool arguments",
             frozenset({"C009", "J002"}), ("vllm-project/vllm#53269", "experientiallabs/experiential#758"),
             max_tokens_mid_call),
    Mutation("wrong-tool-choice", "the first call names another declared tool (else swaps names with another call)",
             frozenset(), ("LostRuins/koboldcpp#1651",), wrong_tool_choice),
)
"""Content-level faults, listed after the wire-level ones."""
