"""What anthropic-python does with a Messages stream that breaks a rule, as measured
(``inspector.model.clients``; each row is checked against the pinned SDK by ``tests/unit/test_client_behaviours.py``).

Imports: ``inspector.model`` only.
"""
from __future__ import annotations

from inspector.model.clients import ClientBehaviour, sayer

_MESSAGES = ("anthropic-python", "messages.stream()")

BEHAVIOURS: dict[str, ClientBehaviour] = {
    "A004-index-out-of-order": ClientBehaviour(*_MESSAGES, "IndexError"),
    "A012-missing-message-start": ClientBehaviour(*_MESSAGES, "AssertionError"),
}
says = sayer(BEHAVIOURS)
