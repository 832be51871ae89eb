"""Our Bedrock corpus (``tests/corpus/bedrock``): each case judged as ``shared/tools/corpus_check.py``
judges the shared corpus, the files are what ``build.py`` writes, and every rule of the B family
and the event-stream framing codes has a case."""
from __future__ import annotations

import json

import pytest

from inspector.model.catalog import RULES
from tests.corpus.judge import why_not
from tests.conftest import BEDROCK_CORPUS, corpus_cases
from tests.corpus.bedrock import build

CASES = corpus_cases(BEDROCK_CORPUS)



@pytest.mark.parametrize("stem,capture,expect", CASES, ids=[c[0] for c in CASES])
def test_bedrock_case(stem, capture, expect):
    why = why_not(capture, expect)
    assert not why, f"{stem}: " + "; ".join(why)


def test_the_files_are_what_build_writes():
    want = build.cases()
    have = {p.name for p in BEDROCK_CORPUS.iterdir() if p.suffix in (".jsonl", ".bin")}
    assert have == set(want)
    for name, (content, expect) in want.items():
        path = BEDROCK_CORPUS / name
        got = path.read_bytes() if isinstance(content, bytes) else path.read_text(encoding="utf-8")
        assert got == content, f"{name} differs from build.py: run uv run python -m tests.corpus.bedrock.build"
        stem = name.rsplit(".", 1)[0]
        assert json.loads((BEDROCK_CORPUS / f"{stem}.expect.json").read_text(encoding="utf-8")) == expect


def test_every_b_rule_and_framing_code_has_a_case_and_both_dialects_a_clean_stream():
    flagged = set()
    clean = set()
    for _, _, expect in CASES:
        exp = json.loads(expect.read_text(encoding="utf-8"))
        flagged |= {c for w in exp.get("flags", []) for c in (w if isinstance(w, list) else [w])}
        if exp.get("clean") and not exp.get("flags"):
            clean.add(exp["dialect"])
    b_rules = {code for code in RULES if code.startswith("B")}
    assert b_rules | {"S006", "S015", "S016"} <= flagged
    assert clean == {"bedrock-converse", "bedrock-anthropic"}
