"""Rule codes of different dialects that say the same thing about an answer.

A gateway that passes an upstream defect on in another dialect changes its code, not its
meaning: Anthropic's ``end_turn`` after a tool call (A007) comes out of an Anthropic→Chat gateway
as ``finish_reason: stop`` (C003). Such a pair is one finding present on both sides, the
upstream's, not a finding the gateway introduced. The groups follow the catalog's names
(``shared/RULES.md``); each provider record lists which of its codes state which meaning
(``Provider.meanings``); S, T and J codes are the same in every dialect and mean themselves, bar the
shared codes below.
"""
from __future__ import annotations

from inspector.providers import PROVIDERS

SHARED: dict[str, tuple[str, ...]] = {"missing-end-marker": ("S003",)}
"""Meanings a shared (S) code states beside dialect codes: S003 says what Chat's C007 says."""

GROUPS: dict[str, tuple[str, ...]] = {}
"""Meaning → the codes that state it (shared first, then each provider's, in registry order). A code
may belong to several meanings."""
for _table in (SHARED, *(p.meanings for p in PROVIDERS.values())):
    for _meaning, _codes in _table.items():
        GROUPS[_meaning] = tuple(dict.fromkeys((*GROUPS.get(_meaning, ()), *_codes)))

_BY_CODE: dict[str, frozenset[str]] = {}
for _meaning, _codes in GROUPS.items():
    for _code in _codes:
        _BY_CODE[_code] = _BY_CODE.get(_code, frozenset()) | {_meaning}


def meanings(code: str) -> frozenset[str]:
    """What ``code`` says, as meaning names (a code no group lists means itself)."""
    return _BY_CODE.get(code, frozenset({code}))


def same_meaning(a: str, b: str) -> bool:
    """``a`` and ``b`` state the same thing (equal codes, or codes sharing a group)."""
    return a == b or bool(meanings(a) & meanings(b))
