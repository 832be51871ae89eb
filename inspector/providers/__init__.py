"""Providers: one folder per provider, and the registry every other layer reads.

Each folder (``anthropic``, ``openai_chat``, ``openai_responses``, ``gemini``, ``ollama``,
``bedrock_anthropic``, ``bedrock_converse``, ``cohere``, ``openai_realtime``) holds
its stream dialect and rules (``stream``), its request side (``request``: endpoint, ``prepare``;
``history``: where requests carry history for the Q rules; ``tools``: the tools a request
declares, for the V rules), its event-log summaries and its advice, and exports one ``PROVIDER``
record. A new provider is one folder plus its entries below and in ``conformers`` (and, today, rows
in ``inspector.model.catalog`` and the dialect-keyed tables of ``inspector.compare.diff.answer`` and
``inspector.report.spans``: README "How it is built").
``conformers.CONFORMANCE`` holds what each gives the conformance tools (``conformance``,
``mutations``), in a module of its own so that ``check`` never loads them; ``variables`` gathers
every provider's base-URL variables (``Endpoint.base_env``) into the one table ``run`` works from.
Shared by all: ``base`` (``Dialect``, the ``StreamWriter`` protocol, ``Provider``), ``history``
(the Q-rule helpers), ``tools`` (``DeclaredTools``, the shape every ``tools`` reader returns),
``tool_faults`` (what the V-rule mutations share), ``summary`` (generic event summaries),
``textcalls`` (tool calls written as text); by the two Bedrock folders: ``bedrock`` (endpoint, model path, exceptions).
May import: ``inspector.capture`` (redaction) and ``inspector.model``; never the session (dialects
write through ``StreamWriter``), never a sink.
"""
from __future__ import annotations

from inspector.capture.redact import scrub_secrets
from inspector.model.events import EventRecord
from inspector.providers import (anthropic, bedrock_anthropic, bedrock_converse, cohere, gemini, ollama,
                                 openai_chat, openai_realtime, openai_responses)
from inspector.providers.base import Dialect, Provider
from inspector.providers.history import HistoryShape
from inspector.providers.summary import generic

PROVIDERS: dict[str, Provider] = {
    p.name: p for p in (anthropic.PROVIDER, openai_chat.PROVIDER, openai_responses.PROVIDER,
                        gemini.PROVIDER, ollama.PROVIDER, bedrock_anthropic.PROVIDER, bedrock_converse.PROVIDER,
                        cohere.PROVIDER, openai_realtime.PROVIDER)
}
"""By ``live --provider`` name, in the order help texts list them."""

DIALECTS: dict[str, type[Dialect]] = {
    p.dialect.name: p.dialect for p in (anthropic.PROVIDER, bedrock_anthropic.PROVIDER, bedrock_converse.PROVIDER,
                                        openai_realtime.PROVIDER, openai_responses.PROVIDER, cohere.PROVIDER, openai_chat.PROVIDER,
                                        gemini.PROVIDER, ollama.PROVIDER)
}
"""By dialect name (SPEC.md), in detection order: typed-event dialects before the shapes that
only a key identifies (a Responses event also has fields a Chat sniff could accept)."""
DIALECTS["unknown"] = Dialect

HISTORY_SHAPES: tuple[HistoryShape, ...] = tuple(
    p.history for p in (anthropic.PROVIDER, openai_chat.PROVIDER, gemini.PROVIDER, openai_responses.PROVIDER,
                        openai_realtime.PROVIDER)
    if p.history is not None)
"""Where requests carry history, in claiming order (Anthropic's ``messages`` before Chat's)."""

_BY_DIALECT = {p.dialect.name: p for p in PROVIDERS.values()}


def provider_for_dialect(dialect: str | None) -> Provider | None:
    """The provider whose stream dialect is ``dialect`` (None for ``unknown``)."""
    return _BY_DIALECT.get(dialect or "")


def summarize(ev: EventRecord, dialect: str | None) -> str:
    """A one-line summary of ``ev`` for the event log, with anything key-shaped masked."""
    p = ev.payload
    if not isinstance(p, dict):
        return scrub_secrets(ev.data)
    provider = provider_for_dialect(dialect)
    try:
        line = provider.summarize(p, ev) if provider is not None else None
        if line is None:
            line = generic(p, ev)
    except (TypeError, AttributeError):  # a value of the wrong JSON type (S018): the raw data
        line = ev.data
    return scrub_secrets(line)
