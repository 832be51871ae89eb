"""The declared tools of an OpenAI Chat Completions request (and every compatible server).

Spelling (openai-python ``ChatCompletionToolParam``, ``ChatCompletionToolChoiceOptionParam``;
PROTOCOLS.md §8): ``tools[]`` of ``{"type": "function", "function": {"name", "parameters",
"strict"}}`` (``parameters`` omitted: a function without parameters, not judged); ``type:
"custom"`` tools take free text, so only their name is declared; the legacy ``functions[]``.
``tool_choice``: ``"required"``, ``{"type": "function", "function": {"name": …}}``, or
``{"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": […]}}``; the legacy
``function_call: {"name": …}``. ``parallel_tool_calls: false`` refuses parallel calls.
"""
from __future__ import annotations

from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, add, name_of, spelled


def functions(listed: list, *, strict_ok: bool = True, key: str = "tools") -> tuple[dict, set]:
    """``(tools by name, names of non-function tools)`` from a Chat-shaped ``tools`` list (Ollama
    uses the same shape, with no ``strict``: ``strict_ok`` False)."""
    tools: dict = {}
    exempt: set = set()
    for i, t in enumerate(listed):
        if not isinstance(t, dict):
            continue
        fn = t.get("function")
        if t.get("type", "function") == "function" and isinstance(fn, dict) and name_of(fn.get("name")):
            schema = fn.get("parameters")
            add(tools, DeclaredTool(fn["name"], schema if isinstance(schema, (dict, bool)) else None,
                                    strict=strict_ok and fn.get("strict") is True,
                                    where=f"{key}[{i}].function.parameters"))
            continue
        other = t.get(t.get("type")) if isinstance(t.get("type"), str) else None
        name = name_of(other.get("name")) if isinstance(other, dict) else None
        if name:  # a custom tool: free-text input, its name is declared
            exempt.add(name)
            add(tools, DeclaredTool(name, None, where=f"{key}[{i}] ({t['type']})"))
    return tools, exempt


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it declares none (neither ``tools`` nor ``functions``)."""
    tools: dict = {}
    exempt: set = set()
    if isinstance(body.get("tools"), list):
        tools, exempt = functions(body["tools"])
    elif isinstance(body.get("functions"), list):
        for i, fn in enumerate(body["functions"]):
            if isinstance(fn, dict) and name_of(fn.get("name")):
                schema = fn.get("parameters")
                add(tools, DeclaredTool(fn["name"], schema if isinstance(schema, (dict, bool)) else None,
                                        where=f"functions[{i}].parameters"))
    else:
        return None
    no_parallel = spelled("parallel_tool_calls", False) if body.get("parallel_tool_calls") is False else None
    return DeclaredTools(tools, choice(body), no_parallel, exempt_names=frozenset(exempt))


def choice(body: dict) -> ToolChoice | None:
    """The forced call of a Chat request, if any."""
    raw = body.get("tool_choice")
    if raw == "required":
        return ToolChoice(None, spelled("tool_choice", raw))
    if isinstance(raw, dict):
        fn = raw.get("function")
        if raw.get("type") == "function" and isinstance(fn, dict) and name_of(fn.get("name")):
            return ToolChoice(frozenset({fn["name"]}), spelled("tool_choice", raw))
        allowed = raw.get("allowed_tools")
        if raw.get("type") == "allowed_tools" and isinstance(allowed, dict) and allowed.get("mode") == "required":
            names = {t["function"]["name"] for t in allowed.get("tools") or ()
                     if isinstance(t, dict) and isinstance(t.get("function"), dict)
                     and name_of(t["function"].get("name"))}
            return ToolChoice(frozenset(names) or None, spelled("tool_choice", raw))
    legacy = body.get("function_call")
    if isinstance(legacy, dict) and name_of(legacy.get("name")):
        return ToolChoice(frozenset({legacy["name"]}), spelled("function_call", legacy))
    return None
