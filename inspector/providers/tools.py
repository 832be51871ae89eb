"""What a request declared about tools, in one shape for every provider (the V rules read it).

Each provider folder's ``tools`` module reads its own request spelling into :class:`DeclaredTools`
(``Provider.declared_tools``); ``inspector.session.rules.declared`` judges the streamed calls
against it. Where each spelling comes from: PROTOCOLS.md §8 "Declared tools, as providers spell
them", and each reader's docstring. Pure: no I/O, no schema library (schemas are kept as dicts).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import orjson


@dataclass(frozen=True, slots=True)
class DeclaredTool:
    """One function the request lets the model call."""

    name: str
    schema: dict | bool | None
    """The JSON Schema its arguments must validate against (already mapped from a provider's own
    dialect, e.g. Gemini's OpenAPI subset); None when the request gives none (Anthropic's
    ``bash``/``text_editor`` tools, a declaration without ``parameters``): the name alone is judged."""
    strict: bool = False
    """The provider promises arguments that conform (OpenAI ``strict: true``, Anthropic ``strict``,
    Gemini ``VALIDATED`` mode): a violation is an error, otherwise a warning (RULES.md V002)."""
    where: str = ""
    """Where the request declares it (``tools[2].function.parameters``), for messages."""
    raw: dict | bool | None = None
    """The schema exactly as the request spelled it (shown beside the call; ``schema`` is what is
    validated), or None when it is the same as ``schema``."""

    @property
    def shown(self) -> dict | bool | None:
        return self.raw if self.raw is not None else self.schema


@dataclass(frozen=True, slots=True)
class ToolChoice:
    """A request that forces a tool call (RULES.md V003)."""

    names: frozenset[str] | None
    """The functions that satisfy it; None: any declared tool (``"required"``, ``any``, ``ANY``)."""
    spelled: str
    """How the request said it (``tool_choice {"type": "any"}``), compact JSON, for messages."""


@dataclass(frozen=True)
class DeclaredTools:
    """The request's declared tools, forced choice and parallel-call setting."""

    tools: dict[str, DeclaredTool] = field(default_factory=dict)
    """By name, first declaration wins."""
    choice: ToolChoice | None = None
    """None: the request forces no call (``auto``, ``none``, absent)."""
    no_parallel: str | None = None
    """How the request refused parallel calls (``parallel_tool_calls: false``), or None (RULES.md V004)."""
    server_kinds: frozenset[str] = frozenset()
    """Block kinds of calls the provider runs itself (Anthropic ``server_tool_use``): never V001/V002,
    yet they satisfy a choice that forces any tool."""
    declares_server_tools: bool = False
    """The request also declared tools the provider runs itself (web search, code execution, MCP)."""
    notes: tuple[tuple[str, str], ...] = ()
    """``(tool name, what)``: parts of the declaration the reader could not use (RULES.md V005)."""
    exempt_names: frozenset[str] = frozenset()
    """Names of tools that are declared but not functions (hosted tools whose calls may carry their
    name): never V001."""


Reader = Callable[[dict], "DeclaredTools | None"]
"""``read(body) -> DeclaredTools | None``: None when the body declares no tools at all (no V rule
is judged then: a call may come from tools the client did not send, e.g. a stored prompt)."""


def spelled(key: str, value: object) -> str:
    """``key <compact JSON of value>`` for messages (at most 120 characters)."""
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    return f"{key} {text[:100]}"


def add(tools: dict, tool: DeclaredTool) -> None:
    """Keep the first declaration of a name (providers reject duplicates; the first is what a lenient
    server would use)."""
    tools.setdefault(tool.name, tool)


def name_of(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
