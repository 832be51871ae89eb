"""The vendored shared corpus (``tests/corpus/shared``) is an exact copy of ``../shared`` when that is beside
the project: a case added or changed there and not copied here fails this test, naming the files."""
from __future__ import annotations

import pytest

from tests.conftest import SHARED, UPSTREAM_SHARED

PARTS = ("corpus", "tools/corpus_check.py", "tools/corpus_batch.py")


def _files(root, part: str) -> dict[str, bytes]:
    base = root / part
    if base.is_file():
        return {part: base.read_bytes()}
    return {f"{part}/{p.relative_to(base).as_posix()}": p.read_bytes()
            for p in sorted(base.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def test_the_vendored_copy_holds_cases():
    assert len(list((SHARED / "corpus").glob("*.expect.json"))) >= 71


@pytest.mark.skipif(not (UPSTREAM_SHARED / "corpus").is_dir(), reason="../shared/corpus is not beside the project")
@pytest.mark.parametrize("part", PARTS)
def test_vendored_copy_equals_the_shared_one(part):
    mine, theirs = _files(SHARED, part), _files(UPSTREAM_SHARED, part)
    missing = sorted(set(theirs) - set(mine))
    extra = sorted(set(mine) - set(theirs))
    changed = sorted(k for k in set(mine) & set(theirs) if mine[k] != theirs[k])
    assert not (missing or extra or changed), (
        f"tests/corpus/shared differs from ../shared: missing {missing}, extra {extra}, changed {changed} "
        "(copy ../shared/corpus and its tools here)")
