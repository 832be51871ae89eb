"""OpenAI Responses content-level faults (``serve --mutate``): answers the API legally sends that an
agent must still handle.

Wire facts (openai SDK ``types/responses/``: ``response_refusal_delta_event.py``,
``response_output_refusal.py``, ``response.py`` ``incomplete_details.reason``: ``max_output_tokens``
or ``content_filter``; ``response_incomplete_event.py``): a refusal is a message item whose content
part is ``{"type": "refusal"}``, streamed as ``response.refusal.delta``/``.done``; a filter or the
token limit ends the response with ``response.incomplete``. ``codes`` are what ``check`` finds on
``openclaude-1262-responses-args-only-in-done`` once mutated (``tests/unit/test_mutations.py``).
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.openai_responses import tools
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream
from inspector.providers.openai_responses.mutations import _call_item, _terminal

REFUSAL_TEXT = "I'm sorry, but I can't help with that request."


def _response(stream: Stream) -> tuple[int, dict]:
    """Position and ``response`` object of ``response.created``."""
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if isinstance(p, dict) and p.get("type") == "response.created" and isinstance(p.get("response"), dict):
            return i, p["response"]
    raise NotApplicable("no response.created event")


def _ev(kind: str, t, seq: int, **fields) -> Ev:
    return Ev(None, kind, t).with_json({"type": kind, **fields, "sequence_number": seq})


def _legal(sent: Stream, where: str) -> Mutated:
    out = m.unchanged(sent, where)
    out.truth = sent  # a legal answer: what a correct client carries back
    return out


def refusal(stream: Stream, param: float | None) -> Mutated:
    _call_item(stream)
    i, resp = _response(stream)
    t, iid = stream.items[i].t, "msg_refusal"
    part = {"type": "refusal", "refusal": REFUSAL_TEXT}
    item = {"id": iid, "type": "message", "role": "assistant", "status": "completed", "content": [part]}
    at = {"item_id": iid, "output_index": 0, "content_index": 0}
    events = [
        _ev("response.output_item.added", t, 1, output_index=0, item={**item, "status": "in_progress", "content": []}),
        _ev("response.content_part.added", t, 2, **at, part={"type": "refusal", "refusal": ""}),
        _ev("response.refusal.delta", t, 3, **at, delta=REFUSAL_TEXT),
        _ev("response.refusal.done", t, 4, **at, refusal=REFUSAL_TEXT),
        _ev("response.content_part.done", t, 5, **at, part=part),
        _ev("response.output_item.done", t, 6, output_index=0, item=item),
        _ev("response.completed", t, 7, response={**resp, "status": "completed", "output": [item]})]
    return _legal(stream.derive(stream.items[: i + 1] + events), "the whole answer")


def empty_answer(stream: Stream, param: float | None) -> Mutated:
    i, resp = _response(stream)
    done = _ev("response.completed", stream.items[i].t, 1, response={**resp, "status": "completed", "output": []})
    return _legal(stream.derive(stream.items[: i + 1] + [done]), "the whole answer")


def _incomplete(stream: Stream, reason: str) -> Mutated:
    """``response.incomplete`` (``reason``) right after the function call is announced: its arguments
    never arrive. A correct client runs no call of an incomplete response (``truth``: no call)."""
    at, _ = _call_item(stream)
    _terminal(stream)
    _, resp = _response(stream)
    t = stream.items[at].t
    end = _ev("response.incomplete", t, at + 1,
              response={**resp, "status": "incomplete", "incomplete_details": {"reason": reason}, "output": []})
    sent = stream.derive(stream.items[: at + 1] + [end])
    out = m.unchanged(sent, m.describe(stream, at))
    out.truth = stream.derive(stream.items[:at] + [end])
    return out


def content_filter(stream: Stream, param: float | None) -> Mutated:
    return _incomplete(stream, "content_filter")


def max_tokens_mid_call(stream: Stream, param: float | None) -> Mutated:
    return _incomplete(stream, "max_output_tokens")


def _called(stream: Stream) -> list[tuple[int, str]]:
    """Each ``function_call`` item as announced (``response.output_item.added``): ``(position, name)``."""
    out = []
    for i, ev in enumerate(stream.items):
        p = ev.json()
        item = p.get("item") if isinstance(p, dict) and p.get("type") == "response.output_item.added" else None
        if isinstance(item, dict) and item.get("type") == "function_call" and isinstance(item.get("name"), str):
            out.append((i, item["name"]))
    return out


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("refusal", "the answer is a refusal (a message item with a refusal content part): no tool call",
             frozenset(), ("BerriAI/litellm#39203", "NousResearch/hermes-agent#91181"), refusal),
    Mutation("content-filter", "response.incomplete (reason content_filter) right after the function call is "
             "announced", frozenset({"J005", "R004", "R005"}), ("NousResearch/hermes-agent#55695",), content_filter),
    Mutation("empty-answer", "response.completed with no output item", frozenset(),
             ("wicm84266964/Buddy2api#23",), empty_answer),
    Mutation("max-tokens-mid-call", "response.incomplete (reason max_output_tokens) right after the function "
             "call is announced", frozenset({"J005", "R004", "R005"}), ("BerriAI/litellm#34352",), max_tokens_mid_call),
    m.wrong_tool_choice(("LostRuins/koboldcpp#1651", "crmne/ruby_llm#445"), _called, tools.read),
)
"""Content-level faults, listed after the wire-level ones."""
