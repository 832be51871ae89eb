"""Where the theme files live and their short names, without loading Textual.

Why this module exists: ``--help`` lists the theme names and must start fast (no Textual, no
Rich: ``tests/unit/test_layers.py``); ``inspector.tui.themes`` loads the same files into Textual
themes. The wheel force-includes the checkout's ``themes/`` as ``inspector/_themes``
(pyproject ``[tool.hatch.build.targets.wheel.force-include]``), so a pip install has them too.
"""
from __future__ import annotations

from pathlib import Path

SUFFIXES = (".toml", ".json")


def theme_dir() -> Path | None:
    """Where theme files live: the installed package's ``_themes``, else the checkout's ``themes/``.

    (A path beside this file rather than ``importlib.resources``: that import alone costs ~35 ms
    of every ``--help``.)"""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "_themes", package.parent / "themes"):
        if candidate.is_dir():
            return candidate
    return None


def theme_files(directory: Path | None = None) -> list[Path]:
    """The theme files in ``directory`` (default :func:`theme_dir`), sorted by file name."""
    directory = directory or theme_dir()
    if directory is None:
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES)


def short_theme_names() -> list[str]:
    """``["dark", "high-contrast", "light"]``: what ``--theme`` accepts for the bundled themes
    (the file stems; each file's theme is named ``inspector-<stem>``)."""
    return [p.stem for p in theme_files()]
