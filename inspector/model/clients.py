"""What the official SDKs do with a stream that breaks a rule: the one table every finding's claim about a
client comes from.

Why it exists: a finding that says "openai-python raises RuntimeError" is read as a fact, and a fact
about a client changes with the client's version. Every such sentence is made here, from a
:class:`ClientBehaviour` that names the client, the SDK entry point and what it does (the exception it
raises, or that it reads the stream without one); ``tests/unit/test_client_behaviours.py`` feeds each
row's reference capture (``tests/clients/reference/KEY.*``) to the SDK pinned in ``uv.lock`` and
fails on any row the SDK contradicts. Dialects never write a client's behaviour in their own words:
they ask :func:`says` (a test checks that no other module names an SDK's behaviour).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClientBehaviour:
    """What one SDK entry point does on one kind of broken (or unusual) stream, as measured."""

    client: str
    """The SDK as people name it: ``openai-python``, ``anthropic-python``."""
    entry: str
    """The entry point measured, e.g. ``chat.completions.stream()``."""
    raises: str | None
    """The exception class it raises on the stream (None: it reads the stream without an error)."""
    effect: str | None = None
    """What it does instead of raising, one of :data:`EFFECTS` (each is measured too)."""

    @property
    def sentence(self) -> str:
        """The claim as findings print it, e.g. ``openai-python's chat.completions.stream() raises TypeError``."""
        did = f"raises {self.raises}" if self.raises else self.effect or "reads it without an error"
        return f"{self.client}'s {self.entry} {did}"


DROPS_EVENT = "drops the event"
"""It skips the one event and hands over every other (cohere-python logs a warning)."""
STOPS_AT_DONE = "stops reading at data: [DONE]"
"""It hands over the events before ``[DONE]`` and none after."""
EFFECTS = (DROPS_EVENT, STOPS_AT_DONE)


_CHAT = ("openai-python", "chat.completions.stream()")
_RESPONSES = ("openai-python", "responses.stream()")
_MESSAGES = ("anthropic-python", "messages.stream()")
_EVENTSTREAM = ("botocore", "EventStreamBuffer")
_BEDROCK_EVENTS = ("botocore", "EventStream")
_COHERE = ("cohere-python", "chat_stream()")

BEHAVIOURS: dict[str, ClientBehaviour] = {
    "C001-missing-index": ClientBehaviour(*_CHAT, "TypeError"),
    "C001-negative-index": ClientBehaviour(*_CHAT, None),
    "C007-missing-done": ClientBehaviour(*_CHAT, None),
    "C018-tool-calls-not-list": ClientBehaviour(*_CHAT, "KeyError"),
    "A004-index-out-of-order": ClientBehaviour(*_MESSAGES, "IndexError"),
    "A012-missing-message-start": ClientBehaviour(*_MESSAGES, "AssertionError"),
    "R008-missing-created": ClientBehaviour(*_RESPONSES, "RuntimeError"),
    "R011-content-index-gap": ClientBehaviour(*_RESPONSES, "IndexError"),
    "R010-item-id-changed": ClientBehaviour(*_RESPONSES, None),
    "R012-resumed-stream": ClientBehaviour(*_RESPONSES, "RuntimeError"),
    "R012-resumed-stream-retrieve": ClientBehaviour("openai-python", "responses.retrieve(stream=True)", None),
    "S015-corrupt-message": ClientBehaviour(*_EVENTSTREAM, "ParserError"),
    "K001-event-dropped": ClientBehaviour(*_COHERE, None, DROPS_EVENT),
    "K002-done-before-end": ClientBehaviour(*_COHERE, None, STOPS_AT_DONE),
    "S008-cohere-unknown-event": ClientBehaviour(*_COHERE, None, DROPS_EVENT),
    "S008-eventstream-unknown-event": ClientBehaviour(*_BEDROCK_EVENTS, None, DROPS_EVENT),
}
"""Key (``CODE-what``: the reference capture's file name, bar a ``-retrieve``-style suffix naming another
entry point on the same capture) -> the measured behaviour. ``raises`` may name a base class of what is
raised (botocore's ``ParserError`` covers each way a message can be corrupt)."""


def says(*keys: str) -> str:
    """The sentences of ``keys`` joined with ``; `` (``KeyError`` for a key not in the table)."""
    return "; ".join(BEHAVIOURS[k].sentence for k in keys)
