"""The declared tools of an OpenAI Responses request.

Spelling (openai-python ``FunctionToolParam``, ``ToolChoiceFunctionParam``,
``ToolChoiceAllowedParam``; PROTOCOLS.md §8): ``tools[]`` of ``{"type": "function", "name",
"parameters", "strict"}``, where ``strict`` "Default `true`" (the SDK's docstring): an absent or null
``strict`` is strict. ``type: "custom"`` tools take free text (only the name is declared); every other
type is hosted (``web_search``, ``file_search``, ``code_interpreter``, ``mcp``…): its calls are
output items of their own type, never ``function_call``. ``tool_choice``: ``"required"``,
``{"type": "function", "name": …}``, ``{"type": "custom", "name": …}`` or ``{"type":
"allowed_tools", "mode": "required", "tools": […]}``. ``parallel_tool_calls: false`` refuses
parallel calls. A request that names a stored ``prompt`` and no ``tools`` gets its tools from the
prompt: None (nothing to judge against).
"""
from __future__ import annotations

from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, add, name_of, spelled

HOSTED_CALLS = frozenset({
    "web_search_call", "file_search_call", "code_interpreter_call", "mcp_call", "image_generation_call",
    "computer_call", "local_shell_call", "shell_call", "apply_patch_call", "custom_tool_call",
})
"""Output items of calls that are not function calls (PROTOCOLS.md §3): never V001/V002."""


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it has no ``tools`` list."""
    listed = body.get("tools")
    if not isinstance(listed, list):
        return None
    tools: dict = {}
    exempt: set = set()
    hosted = False
    for i, t in enumerate(listed):
        if not isinstance(t, dict):
            continue
        name = name_of(t.get("name"))
        if t.get("type") == "function" and name:
            schema = t.get("parameters")
            add(tools, DeclaredTool(name, schema if isinstance(schema, (dict, bool)) else None,
                                    strict=t.get("strict") is not False, where=f"tools[{i}].parameters"))
        elif name:
            exempt.add(name)
            add(tools, DeclaredTool(name, None, where=f"tools[{i}] ({t.get('type')})"))
        else:
            hosted = True
    no_parallel = spelled("parallel_tool_calls", False) if body.get("parallel_tool_calls") is False else None
    return DeclaredTools(tools, choice(body), no_parallel, HOSTED_CALLS, hosted, exempt_names=frozenset(exempt))


def choice(body: dict) -> ToolChoice | None:
    raw = body.get("tool_choice")
    if raw == "required":
        return ToolChoice(None, spelled("tool_choice", raw))
    if not isinstance(raw, dict):
        return None
    if raw.get("type") in ("function", "custom") and name_of(raw.get("name")):
        return ToolChoice(frozenset({raw["name"]}), spelled("tool_choice", raw))
    if raw.get("type") == "allowed_tools" and raw.get("mode") == "required":
        names = {t["name"] for t in raw.get("tools") or () if isinstance(t, dict) and name_of(t.get("name"))}
        return ToolChoice(frozenset(names) or None, spelled("tool_choice", raw))
    return None  # a hosted tool forced (``{"type": "web_search"}``): its item is no function call
