"""The proxy list's filter expressions: ``code:J005 dur>2s status>=400``.

Why this module exists: a proxy in front of an agent sees hundreds of exchanges; the one that
matters is the 500, the slow one, the one with a J005. mitmproxy users type a filter expression
(``~c 500 ~u /v1``); this is the same idea in words people already use for these fields.

Syntax: terms separated by spaces, all of which must hold (AND); ``!`` before a term negates it.

=================  ==========================================================================
``status:429``     the HTTP status; ``status:4xx``, ``status>=400``, ``status!=200``
``path:/v1/chat``  the request path (substring, any case)
``model:sonnet``   the model (substring, any case)
``dialect:openai`` the stream's dialect (substring: ``anthropic-messages``, ``openai-chat``…)
``method:post``    the HTTP method
``code:J005``      a finding with that code (a prefix works: ``code:J`` any J rule)
``sev:error``      a finding of that severity (``error``, ``warning``, ``info``); ``sev>=warning``
``dur>2s``         the duration (``ms``, ``s``, ``m``; a bare number is seconds); running
                   exchanges have none yet and do not match
``word``           any other word: a substring of the path or the model
=================  ==========================================================================

Comparisons: ``:`` and ``=`` (equal, or substring for text), ``!=``, ``>``, ``>=``, ``<``, ``<=``.
An exchange released from memory (``proxy --keep``) keeps its counts by severity but not its
codes: ``code:`` does not match it.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.model.severity import SEVERITIES, severity_rank

FIELDS = ("status", "path", "model", "dialect", "method", "code", "sev", "dur")
ALIASES = {"severity": "sev", "duration": "dur", "s": "status", "c": "code", "m": "model"}
_TERM = re.compile(r"^(?P<field>[a-z]+)(?P<op>>=|<=|!=|:|=|>|<)(?P<value>.*)$", re.IGNORECASE)
_DURATION = re.compile(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>ms|s|m)?$", re.IGNORECASE)
_NUMERIC_OPS: dict[str, Callable[[float, float], bool]] = {
    ":": lambda a, b: a == b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}


class QueryError(ValueError):
    """A term that cannot be read; the message names it and says what was expected."""


@dataclass(frozen=True)
class Term:
    """One condition: ``test(exchange) -> bool``, negated when ``negate``."""

    text: str
    test: Callable[[Any], bool]
    negate: bool = False

    def matches(self, ex) -> bool:
        return self.test(ex) != self.negate


@dataclass(frozen=True)
class Query:
    """A parsed expression (:func:`parse`); the empty query matches everything."""

    text: str
    terms: tuple[Term, ...] = ()

    def matches(self, ex) -> bool:
        """Every term holds for exchange ``ex`` (an ``inspector.feeds.exchanges.record.Exchange``)."""
        return all(t.matches(ex) for t in self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms)


def parse(text: str) -> Query:
    """The query ``text`` (see the module docstring). Raises ``QueryError`` for a term it cannot read."""
    terms = []
    for word in text.split():
        negate = word.startswith("!")
        body = word[1:] if negate else word
        if not body:
            raise QueryError("'!' must stand before a term (e.g. !status:200)")
        terms.append(Term(word, _term(body), negate))
    return Query(text.strip(), tuple(terms))


def _term(body: str) -> Callable[[Any], bool]:
    m = _TERM.match(body)
    if m is None or m.group("field").lower() not in (*FIELDS, *ALIASES):
        needle = body.lower()
        return lambda ex: needle in ex.path.lower() or needle in (ex.model or "").lower()
    field = ALIASES.get(m.group("field").lower(), m.group("field").lower())
    op, value = m.group("op"), m.group("value")
    if not value:
        raise QueryError(f"{body!r}: no value after {field}{op}")
    if field == "status":
        return _status(body, op, value)
    if field == "dur":
        seconds = _seconds(body, value)
        compare = _NUMERIC_OPS[op]
        return lambda ex: ex.duration_s is not None and compare(ex.duration_s, seconds)
    if field == "sev":
        return _severity(body, op, value.lower())
    if op not in (":", "=", "!="):
        raise QueryError(f"{body!r}: {field} takes ':' or '!=', not {op!r}")
    needle = value.lower()
    read = _TEXT[field]
    if field == "code":
        found = lambda ex: any(c.lower().startswith(needle) for c in _codes(ex))  # noqa: E731
    elif field == "method":
        found = lambda ex: (read(ex) or "").lower() == needle  # noqa: E731
    else:
        found = lambda ex: needle in (read(ex) or "").lower()  # noqa: E731
    return (lambda ex: not found(ex)) if op == "!=" else found


_TEXT: dict[str, Callable[[Any], str | None]] = {
    "path": lambda ex: ex.path,
    "model": lambda ex: ex.model,
    "method": lambda ex: ex.method,
    "dialect": lambda ex: _dialect(ex),
    "code": lambda ex: None,
}


def _dialect(ex) -> str | None:
    if ex.summary is not None:
        return ex.summary.get("dialect")
    return getattr(ex.session, "dialect_name", None) if ex.session is not None else None


def _codes(ex) -> list[str]:
    return [f.code for f in ex.findings]


def _status(body: str, op: str, value: str) -> Callable[[Any], bool]:
    klass = re.fullmatch(r"([1-5])xx", value, re.IGNORECASE)
    if klass is not None:
        if op not in (":", "=", "!="):
            raise QueryError(f"{body!r}: a status class ({value}) takes ':' or '!='")
        hundred = int(klass.group(1))
        inside = lambda ex: ex.status is not None and ex.status // 100 == hundred  # noqa: E731
        return (lambda ex: not inside(ex)) if op == "!=" else inside
    if not value.isdigit():
        raise QueryError(f"{body!r}: a status is a number (429) or a class (4xx)")
    code, compare = int(value), _NUMERIC_OPS[op]
    return lambda ex: ex.status is not None and compare(ex.status, code)


def _seconds(body: str, value: str) -> float:
    m = _DURATION.match(value)
    if m is None:
        raise QueryError(f"{body!r}: a duration is a number with ms, s or m (2s, 500ms, 1.5m)")
    n = float(m.group("n"))
    return {"ms": n / 1000, "m": n * 60}.get((m.group("unit") or "s").lower(), n)


def _severity(body: str, op: str, value: str) -> Callable[[Any], bool]:
    if value not in SEVERITIES:
        raise QueryError(f"{body!r}: a severity is error, warning or info")
    rank = severity_rank(value)
    compare = _NUMERIC_OPS[op]

    def test(ex) -> bool:
        counts = ex.counts()
        return any(n and compare(severity_rank(sev) if sev in SEVERITIES else -1, rank) for sev, n in counts.items())

    return test
