"""The captures shipped in the package (``inspector/data/captures``): the demo's streams and the
eager/buffered comparison pair, found with ``importlib.resources`` so installs find them too."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

BUNDLED_PAIR = ("eager-off-buffered.jsonl", "eager-on-streamed.jsonl")
"""The bundled comparison (A: buffered, B: eager)."""


def captures_dir() -> Path:
    return Path(str(resources.files("inspector") / "data" / "captures"))


def bundled_captures() -> list[Path]:
    """Every bundled capture, sorted by file name."""
    return sorted(p for p in captures_dir().iterdir() if p.name.endswith(".jsonl"))


def bundled_pair() -> tuple[Path, Path]:
    """Paths of the bundled comparison (A: ``eager-off-buffered``, B: ``eager-on-streamed``)."""
    root = captures_dir()
    return root / BUNDLED_PAIR[0], root / BUNDLED_PAIR[1]
