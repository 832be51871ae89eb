"""Where an event payload holds a JSON value of the wrong type (S018), for the finding's message.

Why this module exists: dialects read untyped JSON; a list or an object where a provider always
sends a string or a number (``"index": {}``, ``"type": []``) makes a dialect's read fail, and the
session reports S018 at that event instead of crashing. The finding is more useful when it names
the field, so this walks the payload (iteratively, bounded in depth and size) for container
values under keys that every dialect reads as scalars. Free-form subtrees (tool arguments,
schemas) are not entered: any shape is legal there.
"""
from __future__ import annotations

SCALAR_KEYS = frozenset({"type", "index", "output_index", "content_index", "summary_index", "item_id", "id",
                         "call_id", "name", "role", "model", "modelVersion", "stop_reason", "finish_reason",
                         "finishReason", "done_reason", "status", "sequence_number", "partial_json",
                         "contentBlockIndex", "toolUseId", "stopReason"})
"""Keys whose values are strings or numbers (or null) in every dialect that uses them (SDK types)."""
FREE_FORM = frozenset({"input", "args", "arguments", "parameters", "properties", "schema", "input_schema",
                       "tools", "metadata", "partialArgs", "json", "output"})
"""Keys under which any JSON shape is legal (tool arguments and schemas)."""
OBJECT_KEYS = frozenset({"delta", "content_block", "function", "item", "response", "usage"})
"""Keys whose values are never lists in any dialect (an object mostly; Responses' text ``delta`` is a
string): judged with ``objects=True`` (``serve --mutate`` rewrites what is under them)."""
MAX_DEPTH = 6
MAX_NODES = 2_000


def wrong_type_fields(payload: object, limit: int = 3, *, objects: bool = False) -> list[str]:
    """Up to ``limit`` JSON paths (``delta.type``, ``choices[0].index``) in ``payload`` where a key
    of ``SCALAR_KEYS`` holds a list or an object (with ``objects``: also where a key of ``OBJECT_KEYS``
    holds a list); visits at most ``MAX_NODES`` values."""
    out: list[str] = []
    stack: list[tuple[object, str, int]] = [(payload, "", 0)]
    seen = 0
    while stack and len(out) < limit and seen < MAX_NODES:
        value, path, depth = stack.pop()
        seen += 1
        if depth >= MAX_DEPTH:
            continue
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    continue
                here = f"{path}.{k}" if path else k
                if k in SCALAR_KEYS and isinstance(v, (dict, list)):
                    out.append(f"{here} is {'an object' if isinstance(v, dict) else 'a list'}")
                elif objects and k in OBJECT_KEYS and isinstance(v, list):
                    out.append(f"{here} is a list")
                elif k not in FREE_FORM and not (objects and k == "usage") and isinstance(v, (dict, list)):
                    stack.append((v, here, depth + 1))  # usage grows new members (fallback_credit.status: {})
        elif isinstance(value, list):
            for i, v in enumerate(value[:50]):
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{path}[{i}]", depth + 1))
    return out
