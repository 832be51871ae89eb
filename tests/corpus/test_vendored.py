"""The vendored shared material (``tests/corpus/shared``) is an exact copy of ``../shared`` when that is
beside the project: a case added or changed there and not copied here fails this test, naming the files.

A clone without ``../shared`` has nothing to compare with: the comparison is then not collected at all
(it is not a skip: nothing is missing for the tests, which read only the vendored copy).
"""
from __future__ import annotations

import pytest

from tests.conftest import SHARED, UPSTREAM_SHARED, VENDORED


def _files(root, part: str) -> dict[str, bytes]:
    base = root / part
    if base.is_file():
        return {part: base.read_bytes()}
    return {f"{part}/{p.relative_to(base).as_posix()}": p.read_bytes()
            for p in sorted(base.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def test_the_vendored_copy_holds_cases():
    assert len(list((SHARED / "corpus").glob("*.expect.json"))) >= 71
    assert all((SHARED / part).exists() for part in VENDORED)


if UPSTREAM_SHARED.is_dir():
    @pytest.mark.parametrize("part", VENDORED)
    def test_vendored_copy_equals_the_shared_one(part):
        mine, theirs = _files(SHARED, part), _files(UPSTREAM_SHARED, part)
        missing = sorted(set(theirs) - set(mine))
        extra = sorted(set(mine) - set(theirs))
        changed = sorted(k for k in set(mine) & set(theirs) if mine[k] != theirs[k])
        assert not (missing or extra or changed), (
            f"tests/corpus/shared differs from ../shared: missing {missing}, extra {extra}, changed {changed} "
            "(uv run python -m tests.sync_shared copies them)")
