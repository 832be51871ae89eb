"""A request's conversation history, provider-neutral: what the Q rules judge (RULES.md section Q).

Each provider folder's ``history`` module reads its request shape (Anthropic ``messages[].content[]``,
Chat ``messages[].tool_calls[]``, Gemini ``contents[].parts[]``, Responses ``input[]``, Realtime
``sent[]``) into one :class:`History`; ``inspector.session.rules.history`` fires every Q rule on it.
Every record keeps ``where``: its place in the request, in the request's own terms
(``messages[1].content[2]``), for the finding's message. Pure data: no I/O, no project imports.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Misplaced:
    """A stream delta or event (``input_json_delta``, ``response.output_text.delta``) written where a
    content block or item belongs (Q001)."""

    where: str
    type: str
    """Its ``type`` as written."""


@dataclass(frozen=True, slots=True)
class Text:
    """A text or thinking part as written."""

    where: str
    role: str | None
    """The role of the message that carries it (``assistant``, ``user``...); None when it has none."""
    text: str
    thinking: bool = False
    """A thinking (Anthropic ``thinking``, Gemini ``thought``) part rather than visible text."""
    signature: object = None
    """The signature written with it (as written: a string, or anything else a client put there)."""
    prefill: bool = False
    """The bare string content of a final assistant message: the start of the answer the client asks
    the model to continue (may be empty)."""


@dataclass(frozen=True, slots=True)
class Call:
    """A tool call as written in the history."""

    where: str
    """The call (``messages[1].content[2] tool_use``, ``input[1] function_call``)."""
    arguments_at: str
    """Its arguments' field (``messages[2].tool_calls[0].function.arguments``)."""
    id: str | None
    """The id it carries (Responses ``call_id``, falling back to the item ``id``); None when it has none."""
    name: str | None
    arguments: object
    """The arguments, parsed: an object when well formed; None when missing or not JSON."""
    text: str | None = None
    """The arguments as written when written as JSON text (Chat, Responses); None for an object."""
    parsed: bool = True
    """False when ``text`` is not JSON."""
    signature: object = None
    """The signature written with the call (Gemini ``thoughtSignature``, Chat-compat
    ``extra_content.google.thought_signature``)."""


@dataclass(frozen=True, slots=True)
class Result:
    """A tool result naming the call it answers (``tool_result.tool_use_id``, ``tool_call_id``, ``call_id``)."""

    where: str
    id: str


@dataclass(frozen=True, slots=True)
class Answer:
    """The stretch of history that repeats the streamed answer being continued, and the tool results
    that answer it: the last assistant turn (Responses: the items of the last round; Realtime:
    every item the client created)."""

    where: str
    calls: tuple[Call, ...] = ()
    texts: tuple[Text, ...] = ()
    signatures: tuple[object, ...] = ()
    """Every signature written in it, as written (the rules compare them as bytes)."""
    results: tuple[Result, ...] = ()


@dataclass(frozen=True, slots=True)
class Wording:
    """The request shape's own words, for the findings' messages."""

    slot: str
    """What belongs where a delta was written (``a content block``, ``an item``)."""
    signature: str = "signature"
    """The signature's field (``thoughtSignature``)."""
    unsigned: str = ""
    """What the provider does with a turn whose signature was dropped (its documentation's words)."""


@dataclass(frozen=True, slots=True)
class History:
    """Everything the Q rules read from one request's history (one history key of the body)."""

    wording: Wording
    written: tuple[Misplaced | Text | Call, ...] = ()
    """Every delta, text part and tool call of every message, in the order written (Q001, Q002, Q005)."""
    answer: Answer | None = None
    """None when the history repeats no answer (no assistant turn, or one the shape cannot compare)."""
    rejects_empty_text: bool = False
    """The provider rejects an empty text part (Anthropic: 400 "text content blocks must be non-empty")."""
    by_id_only: bool = False
    """Calls and results are judged only by an id the response produced (Realtime: the client adds items
    to a conversation the server holds, and may add calls of its own when the response made none)."""
