"""Themes are data: TOML files in the project's top-level ``themes/`` loaded into Textual ``Theme``s.

Why this module exists: colours belong to files a person can copy and edit, not to code
(DESIGN.md, "The TUI"). The wheel force-includes ``themes/`` as ``inspector/_themes``
(pyproject ``[tool.hatch.build.targets.wheel.force-include]``), so an installed package reads
them from there and a source checkout reads the repository's ``themes/``.

A theme file holds the ``textual.theme.Theme`` fields (``name``, ``primary``, ``secondary``,
``accent``, ``warning``, ``error``, ``success``, ``foreground``, ``background``, ``surface``,
``panel``, ``boost``, ``dark``, ``luminosity_spread``, ``text_alpha``) and an optional
``[variables]`` table of extra CSS variables. ``.json`` files with the same keys work too.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import fields
from importlib import resources
from pathlib import Path

from textual.theme import BUILTIN_THEMES, Theme

DEFAULT_THEME = "inspector-dark"
"""The theme used when ``--theme`` is not given."""

_FIELDS = {f.name for f in fields(Theme)}


class ThemeError(Exception):
    """A theme file is unreadable or names no primary colour; the message is one line."""


def theme_dir() -> Path | None:
    """Where theme files live: the installed package's ``_themes``, else the checkout's ``themes/``."""
    try:
        packaged = resources.files("inspector") / "_themes"
        if packaged.is_dir():
            return Path(str(packaged))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - namespace oddities
        pass
    repo = Path(__file__).resolve().parents[2] / "themes"
    return repo if repo.is_dir() else None


def load_theme_file(path: Path) -> Theme:
    """Parse one ``.toml`` or ``.json`` theme file. Raises ``ThemeError``."""
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8")) if path.suffix == ".toml" else json.loads(raw)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise ThemeError(f"{path.name}: cannot read theme: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("primary"), str):
        raise ThemeError(f"{path.name}: a theme needs at least a 'primary' colour")
    data.setdefault("name", path.stem)
    unknown = set(data) - _FIELDS
    if unknown:
        raise ThemeError(f"{path.name}: unknown theme keys: {', '.join(sorted(unknown))}")
    try:
        return Theme(**data)
    except TypeError as e:  # pragma: no cover - wrong value types
        raise ThemeError(f"{path.name}: {e}") from None


def load_themes(directory: Path | None = None) -> dict[str, Theme]:
    """Every theme in ``directory`` (default :func:`theme_dir`), by name, sorted by file name."""
    directory = directory or theme_dir()
    if directory is None:
        return {}
    out: dict[str, Theme] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix in (".toml", ".json"):
            theme = load_theme_file(path)
            out[theme.name] = theme
    return out


def resolve_theme_name(name: str, known: list[str]) -> str | None:
    """``dark`` -> ``inspector-dark``: accept a full theme name or the part after ``inspector-``."""
    if name in known:
        return name
    full = f"inspector-{name}"
    return full if full in known else None


def check_theme(name: str | None) -> str | None:
    """None when ``name`` (or no name) is a usable theme, else the one-line problem."""
    if name is None:
        return None
    try:
        themes = load_themes()
    except ThemeError as e:
        return str(e)
    if resolve_theme_name(name, list(themes) + list(BUILTIN_THEMES)) is None:
        return f"unknown theme {name!r}; known: {', '.join(sorted(themes))} (or a Textual theme name)"
    return None
