"""The core never imports Textual or Rich (harlequin's lesson: enforce it, don't hope)."""
from __future__ import annotations

import shutil
import subprocess
import sys

from tests.conftest import ROOT

CORE = ["inspector.cli", "inspector.cli.check", "inspector.cli.rules", "inspector.framing.sse",
        "inspector.framing.ndjson", "inspector.session.session", "inspector.feeds.run", "inspector.feeds.replay",
        "inspector.providers", "inspector.capture.load", "inspector.report.json", "inspector.report.text",
        "inspector.report.github", "inspector.compare", "inspector.net.eager", "inspector.net.serve",
        "inspector.capture.recorder"]


def test_core_modules_do_not_load_textual_or_rich():
    # httpx's own CLI module (httpx._main) imports rich whenever rich is installed; blocking it
    # shows that nothing in *our* core needs rich (httpx falls back when it is unavailable).
    code = ("import importlib, sys\n"
            "sys.modules['httpx._main'] = None\n"
            f"for m in {CORE!r}: importlib.import_module(m)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
            "print(','.join(bad))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""


def test_import_linter_contract_holds():
    exe = shutil.which("lint-imports", path=str(ROOT / ".venv" / "bin")) or shutil.which("lint-imports")
    assert exe, "import-linter is a dev dependency"
    p = subprocess.run([exe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:]
