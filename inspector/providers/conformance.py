"""What each provider folder gives the two conformance tools (``conform`` for servers, ``serve --mutate``
for clients): its mutations, a closing answer, and how to read a whole answer or a sent-back turn.

- :class:`Turn`: an assistant turn reduced to what both sides must agree on: its text, its tool
  calls (:class:`Call`: id, name, parsed arguments), its stop reason and the kinds of its blocks.
  Read from a non-streamed answer (``conform`` compares it with the streamed one) and from the
  history a client sends next (``--expect-next`` compares it with what was streamed).
- :class:`Conformance`: one per provider (``inspector.providers.conformers.CONFORMANCE``):
  ``mutations`` (``serve --mutate``); ``closing()`` the bytes of a short clean text answer
  ``serve --expect-next`` gives the client's next request, so an agent loop ends;
  ``plain(body) -> (body, path)`` the same request with streaming off; ``read(answer) -> Turn``
  a non-streamed answer body (raises ``ValueError`` with one line when it is not one);
  ``sent_back(request) -> Turn | None`` the last assistant turn of a request's history;
  ``stop_class(reason)`` the provider's stop reason as ``tool``, ``end``, ``length``,
  ``refusal`` or ``error`` (None when unknown); ``tool_stop``: True when the provider has a stop
  reason of its own for tool calls (Anthropic ``tool_use``, Chat ``tool_calls``).
Pure: no I/O.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field

import orjson

from inspector.model.jsondepth import loads as json_loads
from inspector.providers.mutations import Mutation


@dataclass(slots=True)
class Call:
    """One tool call: ``arguments`` parsed (an object, usually), ``raw`` the text as sent when it was text."""

    id: str | None
    name: str | None
    arguments: object = None
    raw: str | None = None

    @property
    def valid(self) -> bool:
        """The arguments are a JSON object."""
        return isinstance(self.arguments, dict)


@dataclass(slots=True)
class Turn:
    text: str = ""
    calls: list[Call] = field(default_factory=list)
    stop_reason: str | None = None
    kinds: list[str] = field(default_factory=list)
    """Block kinds in order (``text``, ``thinking``, ``tool_use``…), as the provider names them."""
    results: list[str] = field(default_factory=list)
    """Sent-back turns: the call ids (or names, where results carry no id) of the tool results that
    follow the turn in the request."""

    def __post_init__(self) -> None:
        # A stop reason of the wrong JSON type (``"finish_reason": ["stop"]``, ``{}``) is kept as its
        # text, as the stream dialects keep it: every stop-class table is looked up by a string.
        if self.stop_reason is not None and not isinstance(self.stop_reason, str):
            self.stop_reason = str(self.stop_reason)


@dataclass(frozen=True)
class Conformance:
    """See the module docstring."""

    mutations: tuple[Mutation, ...]
    closing: Callable[[], bytes]
    plain: Callable[[dict], tuple[dict, str]]
    read: Callable[[object], Turn]
    sent_back: Callable[[dict], "Turn | None"]
    stop_class: Callable[["str | None"], "str | None"]
    tool_stop: bool = False

    def mutation(self, name: str) -> Mutation | None:
        return next((mu for mu in self.mutations if mu.name == name), None)


def of(mutations: Any, answer: Any, content: Any = None, *, tool_stop: bool = False) -> Conformance:
    """A provider's :class:`Conformance` from its ``mutations`` module (``MUTATIONS``, ``closing``), its
    ``answer`` module (``plain``, ``read``, ``sent_back``, ``stop_class``) and its content-level faults
    module (``MUTATIONS``, listed after the wire-level ones; None: it has none)."""
    return Conformance(mutations.MUTATIONS + (content.MUTATIONS if content else ()), mutations.closing, answer.plain,
                       answer.read, answer.sent_back, answer.stop_class, tool_stop=tool_stop)


def parse_arguments(value) -> tuple[object, str | None]:
    """``(parsed, raw text)`` for arguments sent as JSON text (Chat, Responses) or as an object."""
    if isinstance(value, str):
        try:
            return json_loads(value), value
        except orjson.JSONDecodeError:
            return None, value
    return value, None


def last_by_role(items: list, role: str) -> dict | None:
    """The last dict in ``items`` whose ``role`` is ``role``."""
    k = last_index_of(items, role)
    return items[k] if k is not None else None


def last_index_of(items: list, role: str) -> int | None:
    """Position of the last dict in ``items`` whose ``role`` is ``role``."""
    for k in range(len(items) - 1, -1, -1):
        if isinstance(items[k], dict) and items[k].get("role") == role:
            return k
    return None


def sse(events: list[tuple[str | None, dict | str]]) -> bytes:
    """SSE bytes for ``(event name or None, payload)`` pairs (a str payload goes as is)."""
    out = []
    for name, payload in events:
        data = payload if isinstance(payload, str) else orjson.dumps(payload).decode()
        out.append((f"event: {name}\n" if name else "") + f"data: {data}\n\n")
    return "".join(out).encode()


CLOSING_TEXT = "Done."
"""What every closing answer says."""
