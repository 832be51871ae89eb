"""The declared tools of an Ollama ``/api/chat`` request.

Spelling (ollama-python ``Tool``; PROTOCOLS.md §5): ``tools[]`` in the Chat shape
(``{"type": "function", "function": {"name", "parameters"}}``); no ``tool_choice``, no parallel
switch and no strict mode: a schema violation is a warning (RULES.md V002).
"""
from __future__ import annotations

from inspector.providers.openai_chat.tools import functions
from inspector.providers.tools import DeclaredTools


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it has no ``tools`` list."""
    if not isinstance(body.get("tools"), list):
        return None
    tools, exempt = functions(body["tools"], strict_ok=False)
    return DeclaredTools(tools, exempt_names=frozenset(exempt))
