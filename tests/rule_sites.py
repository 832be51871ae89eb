"""Where each rule of the catalog is fired: ``uv run python -m tests.rule_sites`` prints the map.

A rule is fired where its code is written as an argument of a firing call (``FIRING``:
``w.report("A003", …)``, ``FramingIssue("S015", …)``, ``Verdict("V002", …)``): this reads every module of ``inspector``
(its syntax tree, not its text: docstrings and comments do not count) and gives, for each catalog
code, the modules and functions that fire it. ``tests/unit/test_rule_sites.py`` holds the
convention to it: every code fires somewhere, and from one module unless the table of shared
codes there says why it is several.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict

from inspector.model.catalog import RULES
from tests.conftest import ROOT

CATALOG = "inspector/model/catalog.py"
FIRING = frozenset({"report", "report_at", "FramingIssue", "Verdict", "_response_finding", "make"})
"""The calls that fire a finding: the writer's ``report``/``report_at``, a decoder's ``FramingIssue``,
the V rules' ``Verdict``/``_response_finding`` and ``Finding.make``."""


def sites() -> dict[str, set[tuple[str, str]]]:
    """``{code: {(module path, function qualname)}}`` for every code fired somewhere."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module == CATALOG:
            continue
        _walk(ast.parse(path.read_text(encoding="utf-8")), [], module, found)
    return dict(found)


def _walk(node: ast.AST, scope: list[str], module: str, found: dict[str, set[tuple[str, str]]]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _walk(child, [*scope, child.name], module, found)
            continue
        if isinstance(child, ast.Call) and _name(child.func) in FIRING:
            for arg in [*child.args, *(k.value for k in child.keywords)]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value in RULES:
                    found[arg.value].add((module, ".".join(scope) or "<module>"))
        _walk(child, scope, module, found)


def _name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def modules(code_sites: set[tuple[str, str]]) -> set[str]:
    """The modules among ``(module, function)`` sites."""
    return {m for m, _ in code_sites}


def main() -> int:
    found = sites()
    for code in RULES:
        where = sorted(found.get(code, ()))
        print(f"{code} {RULES[code].name}: " + ("; ".join(f"{m}:{f}" for m, f in where) or "FIRED NOWHERE"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
