"""Faults in what an answer does with the request's tools (``serve --mutate``; the V rules).

What every dialect's ``undeclared-tool``, ``schema-violation``, ``ignore-tool-choice`` and
``extra-parallel-call`` share: how a call's arguments are broken against a schema, and the schema a
request declares for a call when the recorded request declared none (inferred from the call's own
arguments: each key required, with the type it has), so that the mutated capture says what the fault
breaks. Served live, the client's own request is what the answer is judged against: the broken
arguments change a value's type, which any schema that types that property rejects.
Pure: no I/O.
"""
from __future__ import annotations

from inspector.providers.mutations import NotApplicable

_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
               (dict, "object"), (type(None), "null"))


def json_type(value: object) -> str:
    """The JSON Schema type name of a parsed JSON value (``True`` is ``boolean``, not ``integer``)."""
    return next(name for cls, name in _JSON_TYPES if isinstance(value, cls))


def inferred_schema(args: dict) -> dict:
    """A schema ``args`` validates against: every key required, typed as it is."""
    return {"type": "object", "properties": {k: {"type": json_type(v)} for k, v in args.items()},
            "required": list(args)}


def _other(value: object) -> object:
    """A value of another JSON type standing for ``value`` (``"ACME"`` → ``0``, ``3`` → ``"3"``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return "null"


def violate(args: object, schema: object = None) -> tuple[dict, str]:
    """``(arguments that break schema, what changed)``: the first required key present dropped when
    the request's ``schema`` lists one, else (no schema declared: the client's own is unknown) the first
    value given another type. Raises ``NotApplicable`` for arguments that are no object or hold nothing."""
    if not isinstance(args, dict) or not args:
        raise NotApplicable("the first tool call has no arguments to break")
    required = schema.get("required") if isinstance(schema, dict) else None
    present = [k for k in required if isinstance(k, str) and k in args] if isinstance(required, list) else []
    if present:
        key = present[0]
        return {k: v for k, v in args.items() if k != key}, f"dropped the required key {key!r}"
    key, value = next(iter(args.items()))
    new = _other(value)
    return {**args, key: new}, f"{key!r} changed from {json_type(value)} to {json_type(new)}"


def renamed(name: str, declared: set[str]) -> str:
    """A function name that is not declared, close to ``name`` (what a renaming gateway produces)."""
    new = f"{name}_v2"
    while new in declared:
        new += "_"
    return new
