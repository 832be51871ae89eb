"""One answer in dialect-free terms: what a client assembles from a stream, and when.

:class:`Answer` is read from a closed ``Session`` (:func:`answer_from_session`) or from a
non-streamed answer body (:func:`answer_from_body`, through the providers' conformance readers).
Only the first response of a body is read (a second one is noted: S004 already says so).

Block kinds are reduced to classes: ``text`` (Anthropic/Chat/Gemini ``text``, Responses
``message``), ``reasoning`` (``thinking``, ``redacted_thinking``, ``reasoning``, Gemini
``thought``) and tool calls (any block whose content is JSON arguments). Text and reasoning are
compared joined, because Chat carries a choice's whole text in one channel where Anthropic may
open several text blocks around its tool calls.

Stop reasons are reduced to classes (``tool``, ``end``, ``length``, ``refusal``, ``error``; None
when the stream never said): Anthropic and Bedrock ``stop_reason``, Chat ``finish_reason``,
Responses terminal ``status`` (``completed`` → end, ``incomplete`` → length), Gemini
``finishReason`` (``STOP`` → end, ``MAX_TOKENS`` → length), Ollama ``done_reason``, Cohere
``finish_reason`` (``TOOL_CALL`` → tool, ``COMPLETE`` → end, ``ERROR``/``TIMEOUT`` → error)
(PROTOCOLS.md per dialect; the tables are the providers' ``stop_class``). Every per-dialect fact
here (stop classes, id families, which field a result quotes, the answer readers) is read from the
provider records (``inspector.providers.record``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from inspector.model.jsondepth import loads
from inspector.providers import PROVIDERS, provider_for_dialect
from inspector.providers.tools import DeclaredTools
from inspector.session.session import Session

TEXT_KINDS = frozenset({"text", "message", "output_text", "content"})
REASONING_KINDS = frozenset({"thinking", "redacted_thinking", "reasoning", "thought", "reasoning_content",
                             "tool_plan"})
"""Cohere's ``tool_plan`` (the plan stated before the calls) is reasoning: never the answer's text."""


def tool_stop(dialect: str | None) -> bool:
    """``dialect`` has a stop reason of its own for tool calls (``Provider.tool_stop``); the others end a
    tool turn like any turn (Gemini ``STOP``, Responses ``completed``, Ollama ``stop``)."""
    p = provider_for_dialect(dialect)
    return p is not None and p.tool_stop


def id_family(dialect: str | None) -> str | None:
    """Dialects that mint tool-call ids the same way share a family (``Provider.id_family``): a gateway
    translating between two families may rewrite ids; within one it must keep them. None: unknown."""
    p = provider_for_dialect(dialect)
    return p.id_family if p is not None else None


def ids_optional(dialect: str | None) -> bool:
    """``dialect``'s tool calls often carry no id at all (``Provider.ids_optional``: Gemini, Ollama)."""
    p = provider_for_dialect(dialect)
    return p is not None and p.ids_optional


def stop_class(dialect: str | None, reason: str | None) -> str | None:
    """``reason`` of ``dialect`` as ``tool``/``end``/``length``/``refusal``/``error``; None when unknown or absent
    (an unknown dialect: the first provider table, in registry order, that knows the reason)."""
    if reason is None:
        return None
    provider = provider_for_dialect(dialect)
    if provider is None:
        return next((cls for p in PROVIDERS.values() if (cls := p.stop_class(reason)) is not None), None)
    return provider.stop_class(reason)


@dataclass
class Call:
    """One tool call as a client assembles it."""

    position: int
    """0-based among the answer's tool calls, in stream order."""
    name: str | None
    id: str | None
    """The id a tool result must quote (Responses ``call_id``; else the block id)."""
    arguments: str
    """The argument text as accumulated (JSON text; an object that arrived whole is serialised)."""
    parsed: object = None
    parses: bool = False
    """``arguments`` is one complete JSON value (``parsed`` holds it); empty text counts as ``{}``
    only where the dialect says so (Anthropic, Gemini, Ollama, Bedrock)."""
    status: str | None = None
    """The session's parse status: ``empty``/``partial``/``complete``/``invalid`` (None: non-streamed)."""
    first_arg_t: float | None = None
    """Arrival of the first fragment carrying argument bytes, seconds from the request."""
    last_arg_t: float | None = None
    block_index: int | None = None
    kind: str = "tool"

    def to_json(self) -> dict:
        return {"position": self.position, "name": self.name, "id": self.id, "kind": self.kind,
                "block_index": self.block_index, "arguments": self.arguments,
                "parsed": self.parsed if self.parses else None, "status": self.status,
                "first_arg_byte_s": _r(self.first_arg_t), "last_arg_byte_s": _r(self.last_arg_t)}


@dataclass
class Answer:
    """One side of a diff. Times are seconds from that side's request (None when untimed)."""

    label: str
    dialect: str | None
    streamed: bool = True
    """False for a non-streamed answer body (no timing, no stream findings)."""
    http_status: int | None = None
    text: str = ""
    text_blocks: int = 0
    reasoning: str = ""
    reasoning_blocks: int = 0
    calls: list[Call] = field(default_factory=list)
    other_kinds: list[str] = field(default_factory=list)
    """Blocks that are neither text, reasoning nor tool calls (images, audio, citations…), by kind."""
    stop_reason: str | None = None
    stop_class: str | None = None
    ended: bool = False
    """The dialect's end marker arrived (``message_stop``, ``[DONE]``, a terminal Responses event…)."""
    end_kind: str | None = None
    """How the transport ended: ``eof``, ``reset``, ``timeout``, ``cancelled``."""
    findings: list[dict] = field(default_factory=list)
    """``{"code", "name", "severity", "message", "index"}`` per finding, in order (Q findings judge the
    request that carried history, not this answer: left out)."""
    responses: int = 1
    first_byte_t: float | None = None
    notes: list[str] = field(default_factory=list)
    declared: DeclaredTools | None = None
    """What this side's request declared about tools (V rules), when it is known."""

    @property
    def has_ids(self) -> bool:
        return any(c.id for c in self.calls)

    def to_json(self) -> dict:
        return {"label": self.label, "dialect": self.dialect, "streamed": self.streamed,
                "http_status": self.http_status, "stop_reason": self.stop_reason, "stop_class": self.stop_class,
                "ended": self.ended, "end": self.end_kind, "text": self.text, "text_blocks": self.text_blocks,
                "reasoning": self.reasoning, "reasoning_blocks": self.reasoning_blocks,
                "calls": [c.to_json() for c in self.calls], "other_blocks": self.other_kinds,
                "findings": self.findings, "responses": self.responses, "first_byte_s": _r(self.first_byte_t),
                "notes": self.notes}


def _r(t: float | None) -> float | None:
    return None if t is None else round(t, 6)


def _parse(text: str, empty_is_object: bool) -> tuple[bool, object]:
    if not text.strip():
        return (True, {}) if empty_is_object else (False, None)
    try:
        return True, loads(text)  # bounded depth: deeper arguments compare as text
    except orjson.JSONDecodeError:
        return False, None


def answer_from_session(session: Session, label: str) -> Answer:
    """The first response of a closed ``session``."""
    dialect = session.dialect_name if session.dialect_name not in (None, "unknown") else None
    status = (session.response or {}).get("status") if isinstance(session.response, dict) else None
    first = session.responses[0] if session.responses else None
    a = Answer(label=label, dialect=dialect, http_status=status if isinstance(status, int) else None,
               first_byte_t=session.first_byte_t, responses=max(1, len(session.responses)),
               end_kind=session.end.kind if session.end is not None else None)
    if first is not None:
        a.stop_reason, a.ended = first.stop_reason, first.ended
    a.stop_class = stop_class(dialect, a.stop_reason)
    if len(session.responses) > 1:
        a.notes.append(f"{len(session.responses)} responses in the body: the first one is compared (S004)")
    record = provider_for_dialect(dialect)
    result_id = record.result_id if record is not None else "id"
    texts, reasoning = [], []
    for b in session.blocks:
        if b.response != 0 or b.replaced:
            continue
        if b.tool:
            times = [t for t, n in b.fragment_times if n and t is not None]
            text = b.content
            parses, parsed = _parse(text, b.empty_is_object)
            if not parses and b.whole_input is not None and not text:
                parses, parsed = True, b.whole_input
            a.calls.append(Call(position=len(a.calls), name=b.name, id=getattr(b, result_id), arguments=text,
                                parsed=parsed, parses=parses and b.status in ("complete", None),
                                status=b.status, first_arg_t=times[0] if times else None,
                                last_arg_t=times[-1] if times else None, block_index=b.index, kind=b.kind))
        elif b.kind in TEXT_KINDS:
            if b.content:
                texts.append(b.content)
        elif b.kind in REASONING_KINDS:
            reasoning.append(b.content)
        else:
            a.other_kinds.append(b.kind)
    a.text, a.text_blocks = "".join(texts), len(texts)
    a.reasoning, a.reasoning_blocks = "".join(reasoning), len(reasoning)
    if a.ended and a.end_kind == "cancelled":  # the session does not count it as S012 either
        a.notes.append("the client closed the connection after the end marker (as the openai SDK does after "
                       "[DONE])")
    a.findings = [{"code": f.code, "name": f.name, "severity": f.severity, "message": f.message, "index": f.index}
                  for f in session.findings if f.response == 0 and not f.code.startswith("Q")]
    a.declared = session.declared.declared
    return a


def answer_from_body(body: object, label: str, *, dialect: str | None = None,
                     http_status: int | None = None) -> Answer | None:
    """A non-streamed answer (one JSON object: a Message, a chat.completion, a Response, a
    GenerateContentResponse, an Ollama chat answer) as an :class:`Answer`; None when ``body`` is
    none of them. ``dialect`` tries that shape first."""
    if isinstance(body, (bytes, str)):
        try:
            body = loads(body)
        except orjson.JSONDecodeError:
            return None
    if not isinstance(body, dict):
        return None
    readers = [(p.dialect_name, read) for p in PROVIDERS.values() if (read := p.read_answer) is not None]
    for name, read in sorted(readers, key=lambda r: r[0] != dialect):
        try:
            turn = read(body)
        except (ValueError, AttributeError, TypeError):
            continue
        a = Answer(label=label, dialect=name, streamed=False, http_status=http_status, text=turn.text,
                   text_blocks=1 if turn.text else 0, stop_reason=turn.stop_reason, ended=True, end_kind="eof")
        a.stop_class = stop_class(name, turn.stop_reason)
        for call in turn.calls:
            raw = call.raw if call.raw is not None else orjson.dumps(call.arguments).decode() \
                if call.arguments is not None else ""
            a.calls.append(Call(position=len(a.calls), name=call.name, id=call.id, arguments=raw,
                                parsed=call.arguments, parses=call.arguments is not None))
        a.reasoning_blocks = sum(1 for k in turn.kinds if k in REASONING_KINDS)
        a.notes.append(f"a non-streamed answer (read as {name}): no timing, no stream findings")
        return a
    return None
