"""The shared corpus: every case judged exactly as ``shared/tools/corpus_check.py`` judges it.

In-process per case (fast, one failure per case), plus one run of the shared batch checker
(``tools/corpus_batch.py``) against the real console command, so the contract is tested the way CI
and users run it.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.corpus.judge import why_not
from tests.conftest import ROOT, SHARED_CORPUS, corpus_cases

CASES = corpus_cases()


@pytest.mark.parametrize("stem,capture,expect", CASES, ids=[c[0] for c in CASES])
def test_corpus_case(stem, capture, expect):
    why = why_not(capture, expect)
    assert not why, f"{stem}: " + "; ".join(why)


def test_corpus_batch_script_passes_with_the_console_command():
    """The shared batch checker: one ``check --format json`` process for all the cases (JSON Lines,
    matched to cases by ``path``), judged by ``corpus_check.judge``; the per-case checker starts one
    process per case for the same verdicts (~60 s on the CI machine against ~3 s)."""
    cmd = f"{sys.executable} -m inspector"
    p = subprocess.run([sys.executable, str(SHARED_CORPUS.parent / "tools" / "corpus_batch.py"), "--cmd", cmd,
                        str(SHARED_CORPUS)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    last = p.stdout.strip().splitlines()[-1]
    assert last == f"{len(CASES)} passed, 0 failed", p.stdout[-3000:]
