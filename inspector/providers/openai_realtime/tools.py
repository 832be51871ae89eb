"""The tools a Realtime response may call: the response's own (``response.create``'s
``response.tools``) or else the session's (``session.update``'s ``session.tools``).

A Realtime exchange's request body is the ``response.create`` payload, with the last
``session.update``'s ``session`` beside it (``inspector.capture.websocket``). Tools are
``{"type": "function", "name", "description", "parameters"}`` (openai-python
``types/realtime/realtime_function_tool.py``; no ``strict``); ``tool_choice`` is ``"required"`` or
``{"type": "function", "name": …}``, as in the Responses API.
"""
from __future__ import annotations

from inspector.providers.openai_responses import tools as responses_tools
from inspector.providers.tools import DeclaredTools


def config(body: dict) -> dict | None:
    """Where the tools are declared: ``body["response"]`` when it lists tools, else ``body["session"]``."""
    for key in ("response", "session"):
        part = body.get(key)
        if isinstance(part, dict) and isinstance(part.get("tools"), list):
            return part
    return None


def read(body: dict) -> DeclaredTools | None:
    """The declared tools (None when neither the response nor the session lists any). A Realtime
    function tool has no ``strict``: its arguments are not guaranteed to match (non-strict)."""
    part = config(body)
    if part is None:
        return None
    listed = [{**t, "strict": False} if isinstance(t, dict) and "strict" not in t else t for t in part["tools"]]
    return responses_tools.read({**part, "tools": listed})
