"""A rule explained to the person looking at one of its findings (the TUI's explain screen, ``--explain``).

Each folder's ``advice`` module declares its :class:`RuleText` records (the record's ``explain`` fact).
Imports: nothing of the project.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleText:
    """A rule explained to the person looking at one of its findings (the TUI's explain screen).

    Written for users, apart from the implementer's definition in ``inspector.model.catalog``:
    what happened in their stream, why it breaks clients (the SDKs, agents, proxies they use),
    and what to do about it. Markdown (backticks for wire names)."""

    happened: str
    breaks: str
    todo: str
