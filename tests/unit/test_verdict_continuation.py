"""``verdict.starts_anew``: which next request continues the conversation a mutated stream answered.

A client may leave an empty answer out of the history (an empty assistant turn is refused by the
APIs) and say the next thing: pydantic-ai sends another user turn after the first, the Vercel AI SDK
merges the two user turns into one with two text parts (measured with ``bench/clients``). Both go on
from the first request; a history that shares nothing with it begins a new conversation."""
from __future__ import annotations

import orjson

from inspector.net.conform.verdict import starts_anew

FIRST = {"model": "m", "messages": [{"role": "user", "content": "Use the tools."}]}


def _b(body: dict) -> bytes:
    return orjson.dumps(body)


def test_another_user_turn_after_the_first_goes_on():
    nxt = {"model": "m", "messages": FIRST["messages"] + [{"role": "user", "content": "Thanks."}]}
    assert not starts_anew(_b(FIRST), _b(nxt))


def test_the_first_user_turn_with_more_parts_goes_on():
    first = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Use the tools."}]}]}
    nxt = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Use the tools."},
                                                     {"type": "text", "text": "Thanks."}]}]}
    assert not starts_anew(_b(first), _b(nxt))
    as_string = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Use the tools."},
                                                           {"type": "text", "text": "Thanks."}]}]}
    assert not starts_anew(_b(FIRST), _b(as_string))  # "content": "…" is one text part


def test_a_retry_goes_on_and_another_conversation_starts_anew():
    assert not starts_anew(_b(FIRST), _b(FIRST))
    other = {"messages": [{"role": "user", "content": "Something else."}]}
    assert starts_anew(_b(FIRST), _b(other))
    shorter = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Use"}]}]}
    assert starts_anew(_b(FIRST), _b(shorter))
    other_role = {"messages": [{"role": "system", "content": [{"type": "text", "text": "Use the tools."},
                                                              {"type": "text", "text": "x"}]}]}
    assert starts_anew(_b(FIRST), _b(other_role))
