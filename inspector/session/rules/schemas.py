"""Declared tool schemas compiled once and used to validate complete call arguments (V002, V005).

The judge is ``jsonschema`` (its ``validator_for``: the draft the schema's ``$schema`` names,
Draft 2020-12 when it names none, which is what OpenAI, Anthropic and Gemini's
``parametersJsonSchema`` take): it checks the schema itself, knows which keywords and formats it
judges, and words each violation. Whether a call is valid at all is first asked of
``jsonschema_rs`` (the same drafts, compiled to Rust: ~15 µs for a 20-property object where
``jsonschema`` takes ~1 ms, ``bench/bench_declared_tools.py``); only a call it rejects is judged
again by ``jsonschema`` for the words, so a finding always says what ``jsonschema`` says, and a
disagreement can only silence a finding, never invent one. A schema is compiled once per distinct
schema (a bounded cache keyed by its canonical JSON, shared by every request of a process: a proxy
sees the same tools on every turn), never per delta. Both libraries are imported on first use, so
that ``check`` on a capture whose request declares no schema never loads them (start-up,
``tests/unit/test_layers.py``).
"""
from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

import orjson

from inspector.capture.redact import clipped, scrub_secrets

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


class Checks(Protocol):
    """What a compiled schema answers (``jsonschema_rs`` validators: only this)."""

    def is_valid(self, instance: object) -> bool: ...


class Explains(Checks, Protocol):
    """A ``jsonschema`` validator: also says how an instance breaks the schema."""

    def iter_errors(self, instance: object) -> Iterable[ValidationError]: ...

ANNOTATIONS = frozenset({
    "$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment", "$defs", "definitions",
    "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
    "then", "else", "contentMediaType", "contentEncoding", "contentSchema", "dependencies",
    "additionalItems", "id",
})
"""Keywords that validate nothing themselves or that ``if``/an older draft's validators read: never V005."""

KNOWN_FORMATS = frozenset({
    # JSON Schema 2020-12 Validation §7.3 (Draft 2020-12 makes ``format`` an annotation by default:
    # a validator that does not assert one of these still "knows" it, RULES.md V005).
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
    # OpenAPI 3.x data-type formats (Specification §4.4 "Data Types"), used in providers' schemas
    # (Gemini's ``Schema.format`` documents ``int32``/``int64``/``float``/``double``/``enum``).
    "int32", "int64", "float", "double", "byte", "binary", "password", "enum",
})
"""Formats named by the JSON Schema or OpenAPI specs: an annotation the validator may not assert,
never V005. Only a format outside these (``city-name``) is one nobody judges."""

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = ("items", "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains",
               "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
MAX_ERRORS = 3
"""Violations named in one V002 message (the count says how many more)."""
_CACHE_SIZE = 512


@dataclass(slots=True)
class Compiled:
    """One schema, ready: ``validator`` (None when the schema itself is invalid) and ``notes``, the
    parts the validator does not judge (RULES.md V005), each ``"at PATH: what"``."""

    validator: Explains | None
    notes: list[str] = field(default_factory=list)
    fast: Checks | None = None
    """The same schema compiled by ``jsonschema_rs`` (None when it would not take it)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One way the arguments break the schema: ``path`` (JSONPath, ``$.days``), ``keyword``
    (``minimum``) and the validator's ``message`` (``0 is less than the minimum of 1``)."""

    path: str
    keyword: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message} ({self.keyword})"


_cache: dict[bytes, Compiled] = {}


def compile_schema(schema: dict | bool) -> Compiled:
    """``schema`` compiled (cached by its canonical JSON). Never raises: a schema that is not one is a
    ``Compiled`` with no validator and a note saying why."""
    try:
        key = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return Compiled(None, ["at $: the schema is not JSON"])
    hit = _cache.get(key)
    if hit is None:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        hit = _cache[key] = _compile(schema)
    return hit


class LinearRe:
    """Stands for the ``re`` module in jsonschema's keyword modules (``pattern``, ``patternProperties``,
    ``additionalProperties``, ``unevaluatedProperties``...): ``search`` runs the pattern in
    jsonschema_rs's engine, the one the fast check uses (linear time; lookaround and backreferences
    with a backtracking limit), where Python's backtracking ``re`` took 2^n steps for ``^(a+)+$``
    on n a's and a ``!``. Both the schema and the arguments come from outside (the request, the
    model). A pattern that engine does not take is not judged (a note says so, ``_audit``): it
    counts as matching. Every other name is ``re``'s. Only the searches made while this module
    judges arguments (:data:`_JUDGING`) take that engine: another user of jsonschema in the same
    process (a test of the pytest plugin's user, say) gets ``re`` as before."""

    def __init__(self, re_module) -> None:
        self.re = re_module

    def search(self, pattern, string, flags=0):
        if not _JUDGING.get() or flags or not isinstance(pattern, str) or not isinstance(string, str):
            return self.re.search(pattern, string, flags)
        matcher = _matcher(pattern)
        return True if matcher is None or matcher.is_valid(string) else None

    def __getattr__(self, name: str):
        return getattr(self.re, name)


_JUDGING: ContextVar[bool] = ContextVar("_JUDGING", default=False)
"""True while :func:`violations` runs jsonschema: its pattern searches then go to ``LinearRe``'s engine."""


@lru_cache(maxsize=_CACHE_SIZE)
def _matcher(pattern: str) -> Checks | None:
    """``pattern`` compiled by jsonschema_rs (a schema of that one keyword); None when it does not take it."""
    import jsonschema_rs  # deferred with jsonschema (see ``_compile``)
    try:
        return jsonschema_rs.validator_for({"pattern": pattern})
    except (ValueError, TypeError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        return None


def _linear_searches() -> None:
    """jsonschema's keyword modules search with ``LinearRe`` (once per process)."""
    from jsonschema import _keywords, _legacy_keywords, _utils  # deferred (see ``_compile``)
    for module in (_keywords, _legacy_keywords, _utils):
        if not isinstance(module.re, LinearRe):
            module.re = LinearRe(module.re)


def _compile(schema: dict | bool) -> Compiled:
    # Deferred: jsonschema (with attrs, referencing, rpds) costs start-up that only a request
    # declaring a schema needs (DEFERRED in tests/unit/test_layers.py).
    import jsonschema_rs
    from jsonschema import exceptions, validators

    _linear_searches()

    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    notes = []
    if isinstance(schema, dict) and "$schema" in schema and cls is not validators.validator_for(
            {"$schema": schema["$schema"]}, default=None):
        notes.append(f"at $: $schema {str(schema['$schema'])[:80]!r} is not a draft the validator knows "
                     "(judged as Draft 2020-12)")
    try:
        cls.check_schema(schema)
    except exceptions.SchemaError as e:
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.path)
        return Compiled(None, [f"at {where}: not a valid schema: {e.message[:160]} ({e.validator}): "
                               "the arguments are not judged"])
    known = frozenset(cls.VALIDATORS) | ANNOTATIONS
    formats = frozenset(cls.FORMAT_CHECKER.checkers) | KNOWN_FORMATS
    _audit(schema, "$", known, formats, notes)
    try:
        fast = jsonschema_rs.validator_for(schema, validate_formats=True)
    except (ValueError, TypeError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        fast = None  # a pattern or reference only the Python library takes: judged by it alone
    return Compiled(cls(_judged_only(schema), format_checker=cls.FORMAT_CHECKER), notes, fast)


def _judged_only(schema: object) -> object:
    """``schema`` less the patterns the linear-time engine does not take (a ``pattern``, a
    ``patternProperties`` name; ``_audit`` notes them as not judged): such a pattern must constrain
    nothing, and a ``patternProperties`` name counted as matching would put its subschema on every
    member (a false V002). The same object when there is none, the common case."""
    if not isinstance(schema, dict):
        return schema
    out = schema

    def put(key: str, value: object) -> None:
        nonlocal out
        if out is schema:
            out = dict(schema)
        out[key] = value

    if isinstance(schema.get("pattern"), str) and _matcher(schema["pattern"]) is None:
        out = {k: v for k, v in schema.items() if k != "pattern"}
    for key in _SCHEMA_MAPS:
        sub = schema.get(key)
        if isinstance(sub, dict):
            kept = {name: _judged_only(s) for name, s in sub.items()
                    if key != "patternProperties" or _matcher(name) is not None}
            if len(kept) != len(sub) or any(kept[name] is not sub[name] for name in kept):
                put(key, kept)
    for key in _SCHEMA_LISTS + _SCHEMA_ONE:
        sub = schema.get(key)
        if isinstance(sub, list):
            items = [_judged_only(s) for s in sub]
            if any(new is not old for new, old in zip(items, sub)):
                put(key, items)
        elif isinstance(sub, dict):
            one = _judged_only(sub)
            if one is not sub:
                put(key, one)
    return out


def _audit(schema: object, path: str, known: frozenset, formats: frozenset, notes: list) -> None:
    """Notes for keywords and formats ``schema`` (and every subschema) uses that the validator ignores."""
    if not isinstance(schema, dict):
        return
    for key in schema:
        if key not in known and not key.startswith("x-"):
            notes.append(f"at {path}: {key!r} is not a keyword the validator knows: not judged")
    patterns = [schema["pattern"]] if isinstance(schema.get("pattern"), str) else []
    if isinstance(schema.get("patternProperties"), dict):
        patterns += schema["patternProperties"]
    for p in patterns:
        if _matcher(p) is None:
            notes.append(f"at {path}: pattern {p[:80]!r} is not judged (not a pattern the linear-time engine takes)")
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt not in formats:
        notes.append(f"at {path}: format {fmt!r} is not checked (neither JSON Schema nor OpenAPI defines it)")
    for key in _SCHEMA_MAPS:
        sub = schema.get(key)
        if isinstance(sub, dict):
            for name, s in sub.items():
                _audit(s, f"{path}.{key}.{name}", known, formats, notes)
    for key in _SCHEMA_LISTS + _SCHEMA_ONE:
        sub = schema.get(key)
        if isinstance(sub, list):
            for i, s in enumerate(sub):
                _audit(s, f"{path}.{key}[{i}]", known, formats, notes)
        elif isinstance(sub, dict):
            _audit(sub, f"{path}.{key}", known, formats, notes)


def violations(compiled: Compiled, instance: object) -> tuple[list[Violation], int]:
    """``(the first MAX_ERRORS violations, how many there are)`` of ``instance`` against ``compiled``
    (nothing when it has no validator). Ordered by path, so the message is the same on every run."""
    from referencing.exceptions import Unresolvable  # with jsonschema, on first use (module docstring)
    validator = compiled.validator
    judging = _JUDGING.set(True)
    try:
        if validator is None or (compiled.fast if compiled.fast is not None else validator).is_valid(instance):
            return [], 0
        errors = sorted(validator.iter_errors(instance), key=lambda e: (e.json_path, e.validator))
    except (RecursionError, Unresolvable) as e:
        # A ``$ref`` that loops (``{"$ref": "#"}``: the Python validator recurses for ever) or points
        # nowhere: the schema cannot judge anything, as one that is no schema (RULES.md V005).
        why = "a $ref recurses deeper than the validator can follow (it loops)" if isinstance(e, RecursionError) else f"$ref {_short(str(e))}"
        compiled.validator = compiled.fast = None
        compiled.notes.append(f"at $: {why}: the arguments are not judged")
        return [], 0
    finally:
        _JUDGING.reset(judging)
    shown = [Violation(e.json_path, str(e.validator), _short(e.message)) for e in errors[:MAX_ERRORS]]
    return shown, len(errors)


def _short(message: str) -> str:
    return clipped(message, 157) if len(message) > 160 else scrub_secrets(message)
