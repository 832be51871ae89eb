"""Shared fixtures: where the shared corpus lives, and helpers to run captures through a session."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_CORPUS = SHARED / "corpus"
"""The shared corpus (``../shared/corpus`` from the project root), as the brief lays it out."""


def corpus_cases() -> list[tuple[str, Path, Path]]:
    """``(stem, capture path, expect path)`` for every case of the shared corpus."""
    if not SHARED_CORPUS.is_dir():
        return []
    out = []
    for exp in sorted(SHARED_CORPUS.glob("*.expect.json")):
        stem = exp.name[: -len(".expect.json")]
        caps = [p for p in SHARED_CORPUS.iterdir()
                if p.name.startswith(stem + ".") and not p.name.endswith(".expect.json")]
        if caps:
            out.append((stem, caps[0], exp))
    return out


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    if not SHARED_CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the project")
    return SHARED_CORPUS
