"""The declared tools of a Gemini ``generateContent`` / ``streamGenerateContent`` request.

Spelling (google-genai ``types.Tool``, ``FunctionDeclaration``, ``Schema``, ``ToolConfig``;
PROTOCOLS.md §8; REST accepts camelCase and snake_case alike): ``tools[].functionDeclarations[]``
with ``name`` and either ``parameters`` (Gemini's ``Schema``: an OpenAPI 3.0 subset, mapped to JSON
Schema by :func:`json_schema`) or ``parametersJsonSchema`` (JSON Schema, taken as it is). Other
``tools[]`` members (``googleSearch``, ``codeExecution``, ``urlContext``…) run on Google's side.
``toolConfig.functionCallingConfig``: ``mode: "ANY"`` forces a call (of ``allowedFunctionNames``
when given); ``ANY`` and ``VALIDATED`` promise "function schema adherence" (the ``FunctionCallingConfigMode``
docstrings), so a violation there is an error. Gemini has no parallel switch.
"""
from __future__ import annotations

from typing import Any, overload

from inspector.model.digits import digits_int
from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice, add, name_of, spelled

SERVER_KINDS = frozenset({"executableCode", "codeExecutionResult"})
"""Parts of code Gemini runs itself (its blocks are named after the part)."""

_TYPES = {"STRING": "string", "NUMBER": "number", "INTEGER": "integer", "BOOLEAN": "boolean",
          "ARRAY": "array", "OBJECT": "object", "NULL": "null"}
_COUNTS = frozenset({"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"})
"""``int64`` fields: proto JSON may spell them as strings (``"1"``)."""
_ANNOTATIONS = frozenset({"propertyOrdering", "property_ordering", "example"})
"""Gemini-only keys that constrain nothing a call's arguments carry."""
_OPENAPI_FORMATS = frozenset({"enum", "int32", "int64", "float", "double"})
"""OpenAPI formats that restate the type (or mark an enum): nothing for JSON Schema to check."""
_SNAKE = {"any_of": "anyOf", "min_items": "minItems", "max_items": "maxItems", "min_length": "minLength",
          "max_length": "maxLength", "min_properties": "minProperties", "max_properties": "maxProperties"}


def _get(d: dict, camel: str, snake: str) -> Any:
    return d.get(camel, d.get(snake))


@overload
def json_schema(schema: dict) -> dict: ...
@overload
def json_schema(schema: object) -> object: ...
def json_schema(schema: object) -> object:
    """Gemini's ``Schema`` (OpenAPI subset) as JSON Schema: type names lower-cased (``"OBJECT"`` →
    ``"object"``), ``nullable: true`` → a union with ``"null"``, snake_case keys camelCased, count
    fields read as integers, OpenAPI-only formats and ordering hints dropped. Anything else is kept as
    it is (an unknown key then reaches the validator's keyword check, RULES.md V005)."""
    if isinstance(schema, list):
        return [json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict = {}
    for key, value in schema.items():
        key = _SNAKE.get(key, key)
        if key in _ANNOTATIONS or key == "nullable":
            continue
        if key == "type" and isinstance(value, str):
            if value.upper() == "TYPE_UNSPECIFIED":
                continue
            value = _TYPES.get(value.upper(), value)
        elif key == "format" and value in _OPENAPI_FORMATS:
            continue
        elif key in _COUNTS and isinstance(value, str) and digits_int(value) is not None:
            value = digits_int(value)
        elif key == "properties" and isinstance(value, dict):
            value = {k: json_schema(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            value = json_schema(value)
        out[key] = value
    if schema.get("nullable") is True:
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def read(body: dict) -> DeclaredTools | None:
    """``body``'s tools, or None when it has no ``tools`` list."""
    listed = body.get("tools")
    if not isinstance(listed, list):
        return None
    config = _get(body, "toolConfig", "tool_config")
    fcc = _get(config, "functionCallingConfig", "function_calling_config") if isinstance(config, dict) else None
    if not isinstance(fcc, dict):
        fcc = {}
    mode = str(fcc.get("mode") or "").upper()
    strict = mode in ("ANY", "VALIDATED")
    tools: dict = {}
    server = False
    for i, t in enumerate(listed):
        if not isinstance(t, dict):
            continue
        decls = _get(t, "functionDeclarations", "function_declarations")
        if not isinstance(decls, list):
            server = server or bool(t)
            continue
        for k, d in enumerate(decls):
            if not isinstance(d, dict) or name_of(d.get("name")) is None:
                continue
            where = f"tools[{i}].functionDeclarations[{k}]"
            as_json = _get(d, "parametersJsonSchema", "parameters_json_schema")
            params = d.get("parameters")
            if isinstance(as_json, (dict, bool)):
                tool = DeclaredTool(d["name"], as_json, strict, f"{where}.parametersJsonSchema")
            elif isinstance(params, dict):
                tool = DeclaredTool(d["name"], json_schema(params), strict, f"{where}.parameters", raw=params)
            else:
                tool = DeclaredTool(d["name"], None, where=where)
            add(tools, tool)
    choice = None
    if mode == "ANY":
        allowed = _get(fcc, "allowedFunctionNames", "allowed_function_names")
        names = frozenset(n for n in allowed if name_of(n)) if isinstance(allowed, list) else frozenset()
        choice = ToolChoice(names or None, spelled("toolConfig.functionCallingConfig", fcc))
    return DeclaredTools(tools, choice, server_kinds=SERVER_KINDS, declares_server_tools=server)
