"""The declared tools of an Anthropic Messages request (also Claude on Bedrock: same body).

Spelling (anthropic-python ``ToolParam``, ``ToolChoiceParam``; PROTOCOLS.md §8): ``tools[]`` with
``name`` + ``input_schema`` (JSON Schema; ``strict: true`` asks for conforming input) are client
tools, ``type`` absent or ``custom``. A tool with another ``type`` is Anthropic-defined: a server
tool (``web_search_*``, ``code_execution_*``, ``web_fetch_*``, ``tool_search_tool_*``) whose calls
stream as ``server_tool_use`` blocks, or a client tool with a built-in schema (``bash_*``,
``text_editor_*``, ``computer_*``, ``memory_*``) whose calls are ``tool_use`` blocks: its name is
declared, its input is not judged. MCP connector calls (``mcp_servers``) stream as ``mcp_tool_use``.
``tool_choice``: ``{"type": "any"}`` or ``{"type": "tool", "name": …}`` force a call;
``disable_parallel_tool_use: true`` on any choice refuses parallel calls.
"""
from __future__ import annotations

from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, add, name_of, spelled

SERVER_KINDS = frozenset({"server_tool_use", "mcp_tool_use"})
"""Blocks of calls Anthropic runs itself (PROTOCOLS.md §1)."""


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it declares none (no ``tools`` list and no ``mcp_servers``)."""
    listed = body.get("tools")
    if not isinstance(listed, list):
        return None
    tools: dict = {}
    server = isinstance(body.get("mcp_servers"), list) and bool(body["mcp_servers"])
    exempt = set()
    for i, t in enumerate(listed):
        if not isinstance(t, dict) or name_of(t.get("name")) is None:
            continue
        name, typ = t["name"], t.get("type")
        if typ in (None, "custom"):
            schema = t.get("input_schema")
            add(tools, DeclaredTool(name, schema if isinstance(schema, (dict, bool)) else None,
                                    strict=t.get("strict") is True, where=f"tools[{i}].input_schema"))
        else:
            server = True
            exempt.add(name)
            add(tools, DeclaredTool(name, None, where=f"tools[{i}] ({typ})"))
    raw = body.get("tool_choice")
    choice = no_parallel = None
    if isinstance(raw, dict):
        if raw.get("type") == "any":
            choice = ToolChoice(None, spelled("tool_choice", raw))
        elif raw.get("type") == "tool" and name_of(raw.get("name")):
            choice = ToolChoice(frozenset({raw["name"]}), spelled("tool_choice", raw))
        if raw.get("disable_parallel_tool_use") is True:
            no_parallel = spelled("tool_choice", raw)
    return DeclaredTools(tools, choice, no_parallel, SERVER_KINDS, server, exempt_names=frozenset(exempt))
