"""Typed reads of one member of a parsed JSON object.

Provider payloads are untrusted JSON: any member may be missing or of another type than the
protocol says. These read a member as the type the caller expects, or give a default, so that
the reading code (and mypy) knows what it holds. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any, overload


def object_member(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """``obj[key]`` when it is a JSON object (a ``dict``), else a new empty ``{}``."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


@overload
def string_member(obj: dict[str, Any], key: str) -> str | None: ...
@overload
def string_member(obj: dict[str, Any], key: str, default: str) -> str: ...
def string_member(obj: dict[str, Any], key: str, default: str | None = None) -> str | None:
    """``obj[key]`` when it is a string, else ``default`` (``None`` unless given)."""
    value = obj.get(key)
    return value if isinstance(value, str) else default
