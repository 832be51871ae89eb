"""The conformance table: what each provider gives ``conform`` and ``serve --mutate`` (its mutations and
its answer readers, ``inspector.providers.conformance``), by provider name, from the registry.

Each record names its modules (``Provider.conform``); building the table imports them, so only the
commands that mutate or conform load this module (``check``, ``replay`` and the TUI never do).
May import: ``inspector.providers`` (the registry) and ``inspector.providers.conformance``.
"""
from __future__ import annotations

from inspector.providers import PROVIDERS
from inspector.providers.conformance import Conformance

CONFORMANCE: dict[str, Conformance] = {name: c for name, p in PROVIDERS.items() if (c := p.conformance) is not None}
"""By provider name: each provider's mutations (``serve --mutate``) and how ``conform`` reads its answers."""
