"""The declared tools of a Bedrock ConverseStream request.

Spelling (botocore ``bedrock-runtime`` service model, ``ToolConfiguration``; PROTOCOLS.md §6, §8):
``toolConfig.tools[]`` members ``toolSpec`` (``name``, ``inputSchema.json``: JSON Schema),
``cachePoint`` and ``systemTool`` (run by Bedrock); ``toolConfig.toolChoice``: ``{"auto": {}}``,
``{"any": {}}`` or ``{"tool": {"name": …}}``. No parallel switch and no strict promise: a schema
violation is a warning (RULES.md V002).
"""
from __future__ import annotations

from inspector.model.members import object_member
from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, add, name_of, spelled


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it has no ``toolConfig.tools`` list."""
    config = object_member(body, "toolConfig")
    listed = config.get("tools")
    if not isinstance(listed, list):
        return None
    tools: dict = {}
    server = False
    for i, t in enumerate(listed):
        spec = t.get("toolSpec") if isinstance(t, dict) else None
        if isinstance(spec, dict) and name_of(spec.get("name")):
            wrapper = spec.get("inputSchema")
            schema = wrapper.get("json") if isinstance(wrapper, dict) else None
            add(tools, DeclaredTool(spec["name"], schema if isinstance(schema, (dict, bool)) else None,
                                    where=f"toolConfig.tools[{i}].toolSpec.inputSchema.json"))
        elif isinstance(t, dict) and "systemTool" in t:
            server = True
    raw = config.get("toolChoice")
    choice = None
    if isinstance(raw, dict) and isinstance(raw.get("any"), dict):
        choice = ToolChoice(None, spelled("toolChoice", raw))
    elif isinstance(raw, dict) and isinstance(raw.get("tool"), dict) and name_of(raw["tool"].get("name")):
        choice = ToolChoice(frozenset({raw["tool"]["name"]}), spelled("toolChoice", raw))
    return DeclaredTools(tools, choice, declares_server_tools=server)
