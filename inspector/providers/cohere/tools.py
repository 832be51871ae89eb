"""The declared tools of a Cohere v2 chat request (``POST /v2/chat``).

Spelling (cohere-python ``ClientV2.chat_stream``: ``tools`` of ``ToolV2``, ``tool_choice``,
``strict_tools``; PROTOCOLS.md §8): ``tools[]`` in the Chat shape (``{"type": "function", "function":
{"name", "parameters"}}``); ``tool_choice: "REQUIRED"`` forces a call (``"NONE"`` forbids one);
``strict_tools: true`` makes every call "follow the tool definition strictly" (cohere's docs), so a
violation there is an error. Cohere has no parallel switch.
"""
from __future__ import annotations

from inspector.providers.openai_chat.tools import functions
from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, spelled


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it has no ``tools`` list."""
    if not isinstance(body.get("tools"), list):
        return None
    tools, exempt = functions(body["tools"], strict_ok=False)
    if body.get("strict_tools") is True:
        tools = {n: DeclaredTool(t.name, t.schema, True, t.where, t.raw) for n, t in tools.items()}
    raw = body.get("tool_choice")
    choice = ToolChoice(None, spelled("tool_choice", raw)) if isinstance(raw, str) and raw.upper() == "REQUIRED" \
        else None
    return DeclaredTools(tools, choice, exempt_names=frozenset(exempt))
