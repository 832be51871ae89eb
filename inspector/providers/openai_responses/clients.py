"""What openai-python does with a Responses stream that breaks a rule, as measured
(``inspector.model.clients``; each row is checked against the pinned SDK by ``tests/unit/test_client_behaviours.py``).

Imports: ``inspector.model`` only.
"""
from __future__ import annotations

from inspector.model.clients import ClientBehaviour, sayer

_RESPONSES = ("openai-python", "responses.stream()")

BEHAVIOURS: dict[str, ClientBehaviour] = {
    "R008-missing-created": ClientBehaviour(*_RESPONSES, "RuntimeError"),
    "R011-content-index-gap": ClientBehaviour(*_RESPONSES, "IndexError"),
    "R010-item-id-changed": ClientBehaviour(*_RESPONSES, None),
    "R012-resumed-stream": ClientBehaviour(*_RESPONSES, "RuntimeError"),
    "R012-resumed-stream-retrieve": ClientBehaviour("openai-python", "responses.retrieve(stream=True)", None),
}
says = sayer(BEHAVIOURS)
