"""The ``inspector.net.proxy`` package: every module documented, none imports the TUI."""
from __future__ import annotations

import ast
import subprocess
import sys

from tests.conftest import ROOT

PACKAGE = ROOT / "inspector" / "net" / "proxy"
UI = ("inspector.tui", "textual", "rich")


def _imports(tree: ast.AST):
    """``(module name, node)`` for every import statement under ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((a.name, node) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, node


def _is_ui(name: str) -> bool:
    return any(name == u or name.startswith(u + ".") for u in UI)


def test_every_module_opens_with_a_docstring_and_imports_no_ui():
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) > 5
    for path in modules:
        tree = ast.parse(path.read_text(), str(path))
        assert ast.get_docstring(tree), f"{path.name} has no module docstring"
        for name, node in _imports(tree):
            assert not _is_ui(name), f"{path.name}:{node.lineno} imports {name}"


def test_importing_the_package_loads_no_ui():
    code = ("import sys\n"
            "sys.modules['httpx._main'] = None\n"  # httpx's CLI imports rich when installed (see test_core_is_headless)
            "import inspector.net.proxy\n"
            f"print(','.join(sorted(m for m in sys.modules if m.startswith({UI!r}))))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""
