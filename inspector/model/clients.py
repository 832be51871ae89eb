"""What the official SDKs do with a stream that breaks a rule: the one table every finding's claim about a
client comes from.

Why it exists: a finding that says "openai-python raises RuntimeError" is read as a fact, and a fact
about a client changes with the client's version. Every such sentence is made here, from a
:class:`ClientBehaviour` that names the client, the SDK entry point and what it does (the exception it
raises, or that it reads the stream without one); ``tests/unit/test_client_behaviours.py`` feeds each
row's reference capture (``tests/clients/reference/KEY.*``) to the SDK pinned in ``uv.lock`` and
fails on any row the SDK contradicts. Dialects never write a client's behaviour in their own words:
they ask a ``says`` made by :func:`sayer` (a test checks that no other module names an SDK's behaviour).

Each provider folder keeps the rows about its own SDK in its ``clients`` module (named by its record's
``clients`` fact); here are the class, the effects, and the rows shared by more than one provider
(AWS event-stream framing, read by botocore for both Bedrock APIs).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from inspector.model.record import FrozenRecord


class ClientBehaviour(FrozenRecord):
    """What one SDK entry point does on one kind of broken (or unusual) stream, as measured
    (a ``FrozenRecord``, not a frozen dataclass: ``check`` of an Anthropic stream imports it)."""

    __slots__ = ("client", "entry", "raises", "effect")

    client: str
    """The SDK as people name it: ``openai-python``, ``anthropic-python``."""
    entry: str
    """The entry point measured, e.g. ``chat.completions.stream()``."""
    raises: str | None
    """The exception class it raises on the stream (None: it reads the stream without an error)."""
    effect: str | None
    """What it does instead of raising, one of :data:`EFFECTS` (each is measured too)."""

    def __init__(self, client: str, entry: str, raises: str | None, effect: str | None = None) -> None:
        object.__setattr__(self, "client", client)
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "raises", raises)
        object.__setattr__(self, "effect", effect)

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


_EVENTSTREAM = ("botocore", "EventStreamBuffer")
_BEDROCK_EVENTS = ("botocore", "EventStream")

SHARED: dict[str, ClientBehaviour] = {
    "S015-corrupt-message": ClientBehaviour(*_EVENTSTREAM, "ParserError"),
    "S008-eventstream-unknown-event": ClientBehaviour(*_BEDROCK_EVENTS, None, DROPS_EVENT),
}
"""Key (``CODE-what``: the reference capture's file name, bar a ``-retrieve``-style suffix naming another
entry point on the same capture) -> the measured behaviour. ``raises`` may name a base class of what is
raised (botocore's ``ParserError`` covers each way a message can be corrupt). A provider's own rows
(its ``clients`` module's ``BEHAVIOURS``) have keys of the same form."""


def sayer(table: Mapping[str, ClientBehaviour]) -> Callable[..., str]:
    """``says(*keys) -> str``: the sentences of ``keys`` (rows of ``table``, else :data:`SHARED`) joined with
    ``; `` (``KeyError`` for a key in neither)."""
    def says(*keys: str) -> str:
        return "; ".join((table[k] if k in table else SHARED[k]).sentence for k in keys)
    return says


says = sayer({})
"""``says`` over the shared rows (the framing's and the Bedrock dialects')."""
