"""Providers: one folder per provider, and the registry every other layer reads.

Each folder (``anthropic``, ``openai_chat``, ``openai_responses``, ``gemini``, ``ollama``,
``bedrock_anthropic``, ``bedrock_converse``, ``cohere``) holds its stream dialect and rules
(``stream``), how its events are recognised (``sniff``: cheap, imported for detection), its request
side (``request``: endpoint, ``prepare``; ``history``: the reader of the history its requests carry, for the Q rules;
``tools``: the tools a request declares, for the V rules), its event-log summaries, its advice, its
answer reader and conformance tools (``answer``, ``mutations``), and exports one ``PROVIDER`` record
(``inspector.providers.record``) holding every fact about it. A new provider is its folder plus one
line in :data:`FOLDERS` (README "How it is built"; ``tests/unit/test_provider_registry.py`` checks
that every record is complete).

Loading is on demand: importing this package imports each folder's ``__init__`` and ``sniff``
only; a dialect, a request module or the mutations load when a record's fact is first read.
Shared by all: ``base`` (``Dialect``, the ``StreamWriter`` protocol, ``Endpoint``), ``history``
(the history reader record and its helpers), ``tools`` (``DeclaredTools``, the shape every ``tools`` reader returns),
``tool_faults`` (what the V-rule mutations share), ``summary`` (generic event summaries),
``textcalls`` (tool calls written as text), ``conformance`` (what ``conform`` and ``serve --mutate``
get; ``conformers`` the table of them), ``variables`` (every base-URL variable, for ``run``),
``errors`` (request errors in each provider's shape); by the two Bedrock folders: ``bedrock``.
May import: ``inspector.capture`` (redaction) and ``inspector.model``; never the session (dialects
write through ``StreamWriter``), never a sink.
"""
from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from inspector.model.static import TYPE_CHECKING

from inspector.capture.redact import scrub_secrets
from inspector.providers.base import Dialect
from inspector.providers.record import Provider

if TYPE_CHECKING:
    from inspector.model.events import EventRecord
    from inspector.providers.history import HistoryShape

FOLDERS = (
    "anthropic",
    "openai_chat",
    "openai_responses",
    "gemini",
    "ollama",
    "bedrock_anthropic",
    "bedrock_converse",
    "cohere",
    "openai_realtime",
)
"""The registry: one line per provider folder, in the order help texts list them."""


def build(records: Iterable[Provider]) -> dict[str, Provider]:
    """The records by provider name, checked: names unique, detection priorities unique, and each dialect
    detected by exactly one provider (a provider reusing another's dialect, such as a Chat-compatible
    service, has no priority and no sniff: it cannot take over that dialect's streams). Raises
    ``ValueError`` naming the conflict."""
    out: dict[str, Provider] = {}
    owners: dict[str, str] = {}
    priorities: dict[int, str] = {}
    for p in records:
        if p.name in out:
            raise ValueError(f"two providers are named {p.name!r}")
        out[p.name] = p
        if p.priority is None:
            continue
        if p.dialect_name in owners:
            raise ValueError(f"{p.name} and {owners[p.dialect_name]} both detect {p.dialect_name!r}: a provider "
                             "reusing another's dialect declares priority=None and sniff=None")
        if p.priority in priorities:
            raise ValueError(f"{p.name} and {priorities[p.priority]} share detection priority {p.priority}")
        owners[p.dialect_name] = p.name
        priorities[p.priority] = p.name
    for p in out.values():
        if p.dialect_name not in owners:
            raise ValueError(f"{p.name} reuses dialect {p.dialect_name!r}, which no registered provider detects")
    return out


PROVIDERS: dict[str, Provider] = build(import_module(f"{__name__}.{folder}").PROVIDER for folder in FOLDERS)
"""By ``live --provider`` name, in the order help texts list them."""



def detectors(providers: dict[str, Provider]) -> tuple[Provider, ...]:
    """The providers of ``providers`` that detect their dialect, in detection order (``Provider.priority``)."""
    return tuple(sorted((p for p in providers.values() if p.priority is not None), key=lambda p: p.priority or 0))


DETECTORS = detectors(PROVIDERS)
"""The registered providers that detect their dialect, in detection order."""

_BY_DIALECT = {p.dialect_name: p for p in DETECTORS}


def dialect_names() -> list[str]:
    """Every dialect name (SPEC.md), in detection order, without ``unknown`` (no dialect loaded)."""
    return list(_BY_DIALECT)


def provider_for_dialect(dialect: str | None) -> Provider | None:
    """The provider that owns the stream dialect ``dialect`` (None for ``unknown`` or an unknown name)."""
    return _BY_DIALECT.get(dialect or "")


def dialect_class(name: str) -> "type[Dialect]":
    """The dialect class registered as ``name`` (``unknown``: the base class that judges nothing),
    imported on first use. Raises ``ValueError`` for a name no provider registers."""
    if name == "unknown":
        return Dialect
    provider = _BY_DIALECT.get(name)
    if provider is None:
        raise ValueError(f"unknown dialect {name!r}; known: {', '.join([*_BY_DIALECT, 'unknown'])}")
    return provider.dialect


_HISTORY: list[HistoryShape] = []


def history_shapes() -> "tuple[HistoryShape, ...]":
    """Where requests carry history, in claiming order (detection order: Anthropic's ``messages`` before
    Chat's), from every provider that declares a shape (loaded on first call)."""
    if not _HISTORY:
        _HISTORY.extend(s for p in DETECTORS if (s := p.history) is not None)
    return tuple(_HISTORY)


def summarize(ev: "EventRecord", dialect: str | None) -> str:
    """A one-line summary of ``ev`` for the event log, with anything key-shaped masked."""
    p = ev.payload
    if not isinstance(p, dict):
        return scrub_secrets(ev.data)
    provider = provider_for_dialect(dialect)
    try:
        line = provider.summarize(p, ev) if provider is not None else None
        if line is None:
            from inspector.providers.summary import generic  # the event log's only (check's start-up)
            line = generic(p, ev)
    except (TypeError, AttributeError):  # a value of the wrong JSON type (S018): the raw data
        line = ev.data
    return scrub_secrets(line)
