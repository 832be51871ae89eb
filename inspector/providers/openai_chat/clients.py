"""What openai-python does with a Chat Completions stream that breaks a rule, as measured
(``inspector.model.clients``; each row is checked against the pinned SDK by ``tests/unit/test_client_behaviours.py``).

Imports: ``inspector.model`` only.
"""
from __future__ import annotations

from inspector.model.clients import ClientBehaviour, sayer

_CHAT = ("openai-python", "chat.completions.stream()")

BEHAVIOURS: dict[str, ClientBehaviour] = {
    "C001-missing-index": ClientBehaviour(*_CHAT, "TypeError"),
    "C001-negative-index": ClientBehaviour(*_CHAT, None),
    "C007-missing-done": ClientBehaviour(*_CHAT, None),
    "C018-tool-calls-not-list": ClientBehaviour(*_CHAT, "KeyError"),
}
says = sayer(BEHAVIOURS)
