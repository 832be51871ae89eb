"""Rule codes of different dialects that say the same thing about an answer.

A gateway that passes an upstream defect on in another dialect changes its code, not its
meaning: Anthropic's ``end_turn`` after a tool call (A007) comes out of an Anthropic→Chat gateway
as ``finish_reason: stop`` (C003). Such a pair is one finding present on both sides, the
upstream's, not a finding the gateway introduced. The groups follow the catalog's names
(``shared/RULES.md``); S, T and J codes are the same in every dialect and mean themselves.
"""
from __future__ import annotations

GROUPS: dict[str, tuple[str, ...]] = {
    "stop-reason-mismatch": ("A007", "B008", "C003"),
    "truncated-tool-call": ("A008", "B009", "C009"),
    "delta-without-start": ("A001", "B002", "C002"),
    "delta-type-mismatch": ("A002", "B003"),
    "duplicate-start": ("A003", "B005", "C008", "C012"),
    "index-out-of-order": ("A004", "B006", "C013"),
    "delta-after-stop": ("A005", "B004", "C016"),
    "invalid-tool-identity": ("A011", "B012"),
    "missing-message-start": ("A012", "B001"),
    "missing-stop-reason": ("A013", "B010", "C017"),
    "block-never-stopped": ("A014", "B007", "R004"),
    "missing-end-marker": ("S003", "C007"),
    "missing-index": ("A001", "C001"),
    "incomplete-response": ("R005", "C009", "A008"),
}
"""Meaning → the codes that state it. A code may belong to several meanings."""

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
