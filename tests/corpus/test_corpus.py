"""The shared corpus: every case judged exactly as ``shared/tools/corpus_check.py`` judges it.

In-process per case (fast, one failure per case), plus one run of the real checker script against
the real console command, so the contract is tested the way CI and users run it.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from inspector.capture.load import load_path
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from tests.conftest import ROOT, SHARED_CORPUS, corpus_cases

CASES = corpus_cases()


def _checker():
    spec = importlib.util.spec_from_file_location("corpus_check", SHARED_CORPUS.parent / "tools" / "corpus_check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("stem,capture,expect", CASES, ids=[c[0] for c in CASES])
def test_corpus_case(stem, capture, expect):
    exp = json.loads(expect.read_text(encoding="utf-8"))
    report = report_dict(str(capture), run_capture(load_path(capture)))
    why = _checker().judge(exp, report)
    assert not why, f"{stem}: " + "; ".join(why)


def test_corpus_check_script_passes_with_the_console_command():
    cmd = f"{sys.executable} -m inspector"
    p = subprocess.run([sys.executable, str(SHARED_CORPUS.parent / "tools" / "corpus_check.py"), "--cmd", cmd,
                        str(SHARED_CORPUS)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    last = p.stdout.strip().splitlines()[-1]
    assert last == f"{len(CASES)} passed, 0 failed", p.stdout[-3000:]
