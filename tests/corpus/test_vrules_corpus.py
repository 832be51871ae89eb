"""Our V-rule corpus (``tests/corpus/vrules``): public reports re-told as captures with their requests,
each judged as ``shared/tools/corpus_check.py`` judges the shared corpus; the files are what
``build.py`` writes, each V family code the reports show has a case, every dialect family has one."""
from __future__ import annotations


import pytest

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.report.json import report_dict
from tests.corpus.judge import why_not
from tests.conftest import ROOT, corpus_cases
from tests.corpus.vrules import build
from tests.dialect_answers import write_native

HERE = ROOT / "tests" / "corpus" / "vrules"
CASES = corpus_cases(HERE)



@pytest.mark.parametrize("stem,capture,expect", CASES, ids=[c[0] for c in CASES])
def test_vrules_case(stem, capture, expect):
    why = why_not(capture, expect)
    assert not why, f"{stem}: " + "; ".join(why)


def test_the_files_are_what_build_writes(tmp_path):
    """Same request, same report (dialect, findings, blocks): the Bedrock frames' ``p`` padding varies
    between builds, so the bytes are not compared."""
    for name, (cap, expect) in build.cases().items():
        write_native(cap, tmp_path / "c.jsonl")
        fresh, kept = load_path(tmp_path / "c.jsonl"), load_path(HERE / f"{name}.jsonl")
        assert kept.request == fresh.request, name
        assert report_dict("x", run_capture(kept)) == report_dict("x", run_capture(fresh)), name
        assert (HERE / f"{name}.expect.json").read_text(encoding="utf-8") == expect, name


def test_every_dialect_family_has_a_public_case_with_a_near_miss():
    dialects = {dialect for dialect, *_ in build.CASES.values()}
    assert dialects >= {"anthropic-messages", "openai-chat", "openai-responses", "gemini", "ollama", "bedrock-converse"}
    assert {c for *_, codes, _ in build.CASES.values() for c in codes} == {"V001", "V002", "V003", "V004"}
    assert all(f"{stem}-near-miss" in {c[0] for c in CASES} for stem in build.CASES)
