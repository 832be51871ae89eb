"""Shared fixtures: where the shared corpus lives, and helpers to run captures through a session."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from inspector.capture import redact

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "tests" / "corpus" / "shared"
SHARED_CORPUS = SHARED / "corpus"
"""The shared corpus, vendored: a copy of ``../shared/corpus`` (and its checker in ``tools/``) inside the
project, so the tests run it wherever the project is checked out."""
VENDORED = ("corpus", "tools/corpus_check.py", "tools/corpus_batch.py", "RULES.md")
"""What ``tests/corpus/shared`` copies from ``../shared`` (``uv run python -m tests.sync_shared``)."""
UPSTREAM_SHARED = ROOT.parent / "shared"
"""Where the shared material lives beside the project (``../shared``), when it does: the vendored copy
must equal it (``tests/corpus/test_vendored.py``)."""


BEDROCK_CORPUS = ROOT / "tests" / "corpus" / "bedrock"
"""Our Bedrock cases in the shared corpus's format (written by ``tests/corpus/bedrock/build.py``)."""


def corpus_cases(directory: Path = SHARED_CORPUS) -> list[tuple[str, Path, Path]]:
    """``(stem, capture path, expect path)`` for every case of a corpus (default: the shared one)."""
    if not directory.is_dir():
        return []
    out = []
    for exp in sorted(directory.glob("*.expect.json")):
        stem = exp.name[: -len(".expect.json")]
        caps = [p for p in directory.iterdir()
                if p.name.startswith(stem + ".") and not p.name.endswith(".expect.json")]
        if caps:
            out.append((stem, caps[0], exp))
    return out


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    return SHARED_CORPUS


@pytest.fixture(autouse=True)
def _unfreeze_after_each_test():
    """Give back to the collector what a test's in-process app or command froze (``gc.freeze``).

    The TUI and the CLI freeze what exists at points of their run (``InspectorApp._gc_checkpoint``,
    ``FeedControl``, ``cli._freeze_at_the_end``): right for a process that ends with them, but a test
    worker goes on. Left frozen, every finished app stayed in memory, and every later ``paused_gc``
    (each ``run_capture``) paid for them: CPython 3.11 counts the frozen objects by walking them
    (``gc.get_freeze_count``). After ``tests/ui/test_app.py`` (~0.5 M frozen objects), the 200 examples
    of ``test_chat_direct``'s property took 30 s of CPU instead of 2.5. ``unfreeze`` is one list splice."""
    yield
    gc.unfreeze()


@pytest.fixture(params=["c", "python"])
def both_cuts(request, monkeypatch):
    """The test once with the recording scrub's recurring cut in C (``inspector/capture/_runscan.c``,
    skipped when it was not built) and once in Python (``redact.recurring_cut``, what runs without a
    C compiler): both must write the same. The value: ``"c"`` or ``"python"``."""
    if request.param == "python":
        monkeypatch.setattr(redact, "_runscan", None)
    elif redact._runscan is None:
        pytest.skip("the C scanner was not built (no C compiler at install): the Python cut runs")
    return request.param


@pytest.fixture
def python_cut(monkeypatch):
    """The recurring cut in Python only (a test that breaks its proofs on purpose, to see them caught)."""
    monkeypatch.setattr(redact, "_runscan", None)
