"""The request matrix of ``conform``: one declarative TOML file per provider shape.

The bundled files live beside this module (``matrix/<provider>.toml``); ``--matrix FILE`` reads a
user's own. A file holds ``provider``, a default ``model``, named definitions under ``[tools]`` and
``[[case]]`` tables (``name``, ``about``, ``body``, ``expect``, ``compare``, ``optional``); the
header comment of each bundled file documents the keys. A string ``"@NAME"`` anywhere in a body is
replaced by ``[tools.NAME]``. Errors are one line (``MatrixError``) naming the file and the case.
"""
from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

EXPECT_KEYS = frozenset({"calls", "min_calls", "tools", "stop", "arguments", "min_argument_chars",
                         "argument_features", "kinds", "allow", "strict"})
STOPS = ("tool", "end", "length")
FEATURES = ("non-ascii", "escapes", "nested-arrays")


class MatrixError(Exception):
    """A matrix file that cannot be used (one line)."""


@dataclass(frozen=True)
class Case:
    """One request of the matrix."""

    name: str
    about: str
    body: dict
    """The request body with ``@NAME`` references resolved (``model`` not set yet)."""
    expect: dict = field(default_factory=dict)
    compare: bool = False
    optional: bool = False

    def request(self, model: str) -> dict:
        """The body to send, with ``model``."""
        return {**copy.deepcopy(self.body), "model": model}


@dataclass(frozen=True)
class Matrix:
    provider: str
    model: str
    cases: tuple[Case, ...]
    source: str

    def only(self, names: list[str]) -> "Matrix":
        """The cases named (in the matrix's order); raises ``MatrixError`` for an unknown name."""
        known = {c.name for c in self.cases}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise MatrixError(f"--only: no case named {', '.join(map(repr, unknown))} in {self.source} "
                              f"(cases: {', '.join(c.name for c in self.cases)})")
        return Matrix(self.provider, self.model, tuple(c for c in self.cases if c.name in names), self.source)


def bundled_path(provider: str) -> Path:
    return Path(str(resources.files("inspector.net.conform") / "matrix" / f"{provider}.toml"))


def load(provider: str, path: str | Path | None = None) -> Matrix:
    """The bundled matrix for ``provider``, or the file at ``path``. Raises ``MatrixError``."""
    p = Path(path) if path is not None else bundled_path(provider)
    if path is None and not p.is_file():
        raise MatrixError(f"no bundled matrix for {provider}: write one (see README, 'For server authors') "
                          "and pass it with --matrix FILE")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MatrixError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise MatrixError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise MatrixError(f"{p}: not TOML: {e}") from None
    return parse(data, str(p), provider)


def parse(data: dict, source: str, provider: str) -> Matrix:
    """Validate a decoded matrix. Raises ``MatrixError``."""
    if data.get("provider", provider) != provider:
        raise MatrixError(f"{source}: written for provider {data.get('provider')!r}, not {provider!r}")
    model = data.get("model", "")
    tools = data.get("tools", {})
    if not isinstance(model, str) or not isinstance(tools, dict):
        raise MatrixError(f"{source}: 'model' must be a string and [tools] a table")
    cases = data.get("case")
    if not isinstance(cases, list) or not cases:
        raise MatrixError(f"{source}: no [[case]] tables")
    out, names = [], set()
    for n, raw in enumerate(cases):
        where = f"{source}: case {n + 1}"
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
            raise MatrixError(f"{where}: needs a name")
        name = raw["name"]
        where = f"{source}: case {name!r}"
        if name in names:
            raise MatrixError(f"{where}: the name is used twice")
        names.add(name)
        body = raw.get("body")
        if not isinstance(body, dict):
            raise MatrixError(f"{where}: needs a body table (the request body)")
        expect = raw.get("expect", {})
        if not isinstance(expect, dict):
            raise MatrixError(f"{where}: expect must be a table")
        _check_expect(where, expect)
        out.append(Case(name, str(raw.get("about", "")), _resolve(body, tools, where), expect,
                        bool(raw.get("compare", False)), bool(raw.get("optional", False))))
    return Matrix(provider, model, tuple(out), source)


def _check_expect(where: str, expect: dict) -> None:
    unknown = sorted(set(expect) - EXPECT_KEYS)
    if unknown:
        raise MatrixError(f"{where}: unknown expect key {unknown[0]!r} (known: {', '.join(sorted(EXPECT_KEYS))})")
    if "stop" in expect and expect["stop"] not in STOPS:
        raise MatrixError(f"{where}: expect.stop must be one of {', '.join(STOPS)}")
    for key in ("calls", "min_calls", "min_argument_chars"):
        if key in expect and (not isinstance(expect[key], int) or expect[key] < 0):
            raise MatrixError(f"{where}: expect.{key} must be a whole number")
    bad = [f for f in expect.get("argument_features", []) if f not in FEATURES]
    if bad:
        raise MatrixError(f"{where}: unknown argument feature {bad[0]!r} (known: {', '.join(FEATURES)})")


def _resolve(value, tools: dict, where: str):
    if isinstance(value, str) and value.startswith("@"):
        if value[1:] not in tools:
            raise MatrixError(f"{where}: {value} names no [tools] definition")
        return copy.deepcopy(tools[value[1:]])
    if isinstance(value, dict):
        return {k: _resolve(v, tools, where) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, tools, where) for v in value]
    return value
