"""The event shapes the ``cohere`` SDK accepts, for K001 (an event the SDK drops).

Why it exists: cohere-python (``ClientV2.chat_stream``) validates every SSE event against its
``V2ChatStreamResponse`` union (``cohere/v2/types/v2chat_stream_response.py``, pydantic in lax
mode) and, when an event of a known ``type`` does not fit its model, logs "Skipping SSE event due
to model construction error" and drops it (``cohere/v2/raw_client.py``, ``_iter``). A tool call
whose ``tool_calls`` is a list, or whose start has no string ``id``, never reaches the
application, and nothing is raised. This module mirrors those models field by field so that
``problem(payload)`` says what the SDK would reject; ``tests/unit/test_cohere_shapes.py`` holds
it to the SDK's own validation.

A spec is ``"str"``, ``"int"``, ``"float"``, ``"any"``, ``"object"`` (any JSON object, a
``Dict[str, Any]``), ``Lit(values)``, ``Lst(spec)``, ``Obj(fields, required, nonnull)`` or
``OneOf(specs)``. Every field may be absent; ``null`` is accepted unless the field is in
``nonnull`` (the SDK's non-``Optional`` fields); extra keys are accepted (``extra="allow"``).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lit:
    values: tuple


@dataclass(frozen=True, slots=True)
class Lst:
    item: object


@dataclass(frozen=True, slots=True)
class Obj:
    fields: dict
    required: tuple = ()
    nonnull: tuple = ()


@dataclass(frozen=True, slots=True)
class OneOf:
    specs: tuple


def _message(**fields) -> Obj:
    """``delta.message`` holding ``fields`` (every event's payload sits there)."""
    return Obj({"message": Obj(fields)})


_CONTENT = Obj({"thinking": "str", "text": "str"})  # ``type`` is Union[Literal, Any]: anything
_SOURCE = OneOf((Obj({"type": Lit(("tool",)), "id": "str", "tool_output": "object"}, nonnull=("type",)),
                 Obj({"type": Lit(("document",)), "id": "str", "document": "object"}, nonnull=("type",))))
_CITATION = Obj({"start": "int", "end": "int", "text": "str", "sources": Lst(_SOURCE), "content_index": "int"})
_USAGE = Obj({"billed_units": Obj({k: "float" for k in ("input_tokens", "output_tokens", "search_units",
                                                         "classifications")}),
              "tokens": Obj({"input_tokens": "float", "output_tokens": "float"}), "cached_tokens": "float"})
_LOGPROBS = Obj({"text": "str", "token_ids": Lst("int"), "logprobs": Lst("float")},
                required=("token_ids",), nonnull=("token_ids",))

EVENTS: dict[str, Obj] = {
    "message-start": Obj({"id": "str", "delta": _message(role=Lit(("assistant",)))}),
    "content-start": Obj({"index": "int", "delta": _message(content=_CONTENT)}),
    "content-delta": Obj({"index": "int", "delta": _message(content=_CONTENT), "logprobs": _LOGPROBS}),
    "content-end": Obj({"index": "int"}),
    "tool-plan-delta": Obj({"delta": _message(tool_plan="str")}),
    "tool-call-start": Obj({"index": "int", "delta": _message(tool_calls=Obj(
        {"id": "str", "type": Lit(("function",)), "function": Obj({"name": "str", "arguments": "str"})},
        required=("id",), nonnull=("id", "type")))}),
    "tool-call-delta": Obj({"index": "int", "delta": _message(
        tool_calls=Obj({"function": Obj({"arguments": "str"})}))}),
    "tool-call-end": Obj({"index": "int"}),
    "citation-start": Obj({"index": "int", "delta": _message(citations=_CITATION)}),
    "citation-end": Obj({"index": "int"}),
    "message-end": Obj({"id": "str", "delta": Obj({"error": "str", "finish_reason": "any", "usage": _USAGE})}),
    "debug": Obj({"prompt": "str"}),
}
"""By event ``type``: the SDK model's fields (``cohere/types/chat_*_event_delta*.py``, ``tool_call_v2.py``,
``citation.py``, ``source.py``, ``usage*.py``, ``logprob_item.py``)."""


_KINDS: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}


def _kind(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    return _KINDS.get(type(v), type(v).__name__)


def _int_like(v) -> bool:
    """pydantic's lax ``int``: an int (a bool too), an integral float, or a string of one."""
    if isinstance(v, int):
        return True
    if isinstance(v, float):
        return v.is_integer()
    if isinstance(v, str):
        try:
            return float(v.strip()).is_integer() if "." in v else (int(v.strip()) is not None)
        except ValueError:
            return False
    return False


def _float_like(v) -> bool:
    """pydantic's lax ``float``: a number (a bool too) or a string of one."""
    if isinstance(v, (int, float)):
        return True
    if isinstance(v, str):
        try:
            float(v.strip())
        except ValueError:
            return False
        return True
    return False


_SCALARS = {"str": (lambda v: v.__class__ is str, "a string"), "int": (_int_like, "an integer"),
            "float": (_float_like, "a number"), "object": (lambda v: isinstance(v, dict), "an object")}


def _check(spec, v) -> tuple[list, str] | None:
    """Why ``v`` fails ``spec``: ``(path from v, what is wrong)``, the path built only on failure (every
    event is checked: the common case must cost little); None when it fits."""
    if spec.__class__ is str:
        if spec == "any":
            return None
        ok, want = _SCALARS[spec]
        return None if ok(v) else ([], f"is {_kind(v)}, not {want}")
    if spec.__class__ is Obj:
        if v.__class__ is not dict:
            return [], f"is {_kind(v)}, not an object"
        for key in spec.required:
            if key not in v:
                return [key], "is missing"
        for key, sub in spec.fields.items():
            value = v.get(key)
            if value is None:
                if key in spec.nonnull and key in v:
                    return [key], "is null"
                continue
            found = _check(sub, value)
            if found is not None:
                found[0].insert(0, key)
                return found
        return None
    if spec.__class__ is Lit:
        return None if v.__class__ is str and v in spec.values else \
            ([], f"is {v!r}, not {' or '.join(repr(x) for x in spec.values)}")
    if spec.__class__ is Lst:
        if v.__class__ is not list:
            return [], f"is {_kind(v)}, not a list"
        for i, item in enumerate(v):
            found = _check(spec.item, item)
            if found is not None:
                found[0].insert(0, f"[{i}]")
                return found
        return None
    problems = [_check(s, v) for s in spec.specs]  # OneOf
    return None if None in problems else problems[0]


def _fits(spec):
    """A function ``v -> bool``: ``v`` fits ``spec`` (``_check(spec, v) is None``), built once per
    spec so that the common case, an event that fits, costs a few calls (every event is checked);
    None for a spec anything fits."""
    if spec.__class__ is str:
        return None if spec == "any" else _SCALARS[spec][0]
    if spec.__class__ is Obj:
        required = spec.required
        fields = tuple((key, _fits(sub), key in spec.nonnull) for key, sub in spec.fields.items())

        def fits_object(v) -> bool:
            if v.__class__ is not dict:
                return False
            for key in required:
                if key not in v:
                    return False
            for key, sub, nonnull in fields:
                value = v.get(key)
                if value is None:
                    if nonnull and key in v:
                        return False
                elif sub is not None and not sub(value):
                    return False
            return True
        return fits_object
    if spec.__class__ is Lit:
        values = spec.values
        return lambda v: v.__class__ is str and v in values
    if spec.__class__ is Lst:
        item = _fits(spec.item)
        return lambda v: v.__class__ is list and (item is None or all(map(item, v)))
    alternatives = [_fits(sub) for sub in spec.specs]  # OneOf
    if None in alternatives:
        return None
    return lambda v: any(f(v) for f in alternatives)


def _inline(spec, v: str, depth: int, consts: dict, out: list[str]) -> None:
    """Lines (at indent ``depth``) that return False when the value in variable ``v`` does not fit
    ``spec`` and fall through when it does: objects nested in objects written out as one function,
    so a fitting event costs one call, not one per level (others call ``_fits``'s functions)."""
    pad = "    " * depth
    if spec.__class__ is Obj:
        out.append(f"{pad}if {v}.__class__ is not dict: return False")
        for key in spec.required:
            out.append(f"{pad}if {key!r} not in {v}: return False")
        w = f"v{depth + 1}"
        for key, sub in spec.fields.items():
            out.append(f"{pad}{w} = {v}.get({key!r})")
            if key in spec.nonnull:
                out.append(f"{pad}if {w} is None and {key!r} in {v}: return False")
            if _fits(sub) is None:  # anything fits
                continue
            out.append(f"{pad}if {w} is not None:")
            _inline(sub, w, depth + 1, consts, out)
        return
    if spec == "str":
        out.append(f"{pad}if {v}.__class__ is not str: return False")
        return
    name = f"f{len(consts)}"
    consts[name] = _fits(spec)
    out.append(f"{pad}if not {name}({v}): return False")


def _compiled(spec):
    """``_fits(spec)`` for an object spec, as one generated function (see ``_inline``)."""
    consts: dict = {}
    lines = ["def fits(v0):"]
    _inline(spec, "v0", 1, consts, lines)
    lines.append("    return True")
    exec("\n".join(lines), consts)  # noqa: S102 - source built above from the specs of this module only
    return consts["fits"]


_FITS = {typ: _compiled(spec) for typ, spec in EVENTS.items()}


def problem(payload: dict) -> str | None:
    """Why cohere-python's stream types reject ``payload`` (an event of a known ``type``), or None:
    ``delta.message.tool_calls is a list, not an object``."""
    typ = payload.get("type")
    if not isinstance(typ, str):
        return None
    fits = _FITS.get(typ)
    if fits is None or fits(payload):
        return None
    spec = EVENTS.get(typ)
    found = _check(spec, payload) if spec is not None else None
    if found is None:
        return None
    path, what = found
    return "".join(p if p.startswith("[") else f".{p}" for p in path).lstrip(".") + f" {what}"
