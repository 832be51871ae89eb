"""What cohere-python does with a v2 chat stream that breaks a rule, as measured
(``inspector.model.clients``; each row is checked against the pinned SDK by ``tests/unit/test_client_behaviours.py``).

Imports: ``inspector.model`` only.
"""
from __future__ import annotations

from inspector.model.clients import DROPS_EVENT, STOPS_AT_DONE, ClientBehaviour, sayer

_COHERE = ("cohere-python", "chat_stream()")

BEHAVIOURS: dict[str, ClientBehaviour] = {
    "K001-event-dropped": ClientBehaviour(*_COHERE, None, DROPS_EVENT),
    "K002-done-before-end": ClientBehaviour(*_COHERE, None, STOPS_AT_DONE),
    "S008-cohere-unknown-event": ClientBehaviour(*_COHERE, None, DROPS_EVENT),
}
says = sayer(BEHAVIOURS)
