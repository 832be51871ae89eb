"""Themes are data: TOML files in the project's top-level ``themes/`` loaded into Textual ``Theme``s.

Why this module exists: colours belong to files a person can copy and edit, not to code
(DESIGN.md, "The TUI"). Where the files are (the checkout's ``themes/`` or an installed
package's ``_themes``) is ``inspector.tui.theme_files``'s job.

A theme file holds the ``textual.theme.Theme`` fields (``name``, ``primary``, ``secondary``,
``accent``, ``warning``, ``error``, ``success``, ``foreground``, ``background``, ``surface``,
``panel``, ``boost``, ``dark``, ``luminosity_spread``, ``text_alpha``) and an optional
``[variables]`` table of extra CSS variables. ``.json`` files with the same keys work too.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from textual.theme import BUILTIN_THEMES, Theme

from inspector.tui.theme_files import short_theme_names, theme_files

if TYPE_CHECKING:
    from typing import Any

    from textual.app import App

    _AppBase = App[Any]
    """What the class is mixed into (an ``App``, after it in the bases): mypy checks it against that."""
else:
    _AppBase = object

DEFAULT_THEME = "inspector-dark"
"""The theme used when ``--theme`` is not given."""

SEVERITY_STYLE = {"error": "$error", "warning": "$warning", "info": "$primary"}
"""The theme variable each finding severity is drawn in (the scale: ``inspector.model.severity``)."""
FALLBACK_COLOR = {"error": "red", "warning": "yellow", "primary": "blue", "success": "green"}
"""A colour for the theme variables read as plain colours (the exchange list), when a theme lacks one."""

_FIELDS = {f.name for f in fields(Theme)}


class StartTheme(_AppBase):
    """Mixin of the apps (before ``App`` in the bases): a theme set while the app is built costs no
    second stylesheet parse.

    Textual makes the stylesheet (in ``App.__init__``) with its default theme's variables, and
    setting ``theme`` queues a ``refresh_css`` that parses every source again and restyles every
    widget once the app runs (~35 ms of the inspector's start). :meth:`start_theme` gives
    the stylesheet the theme's variables before its first parse instead, and the queued refresh
    is skipped when the variables are still those."""

    _start_css_variables: dict[str, str] | None = None

    def start_theme(self, name: str) -> None:
        """Set ``theme`` to ``name`` before the app runs."""
        self.theme = name
        self._start_css_variables = self.get_css_variables()
        self.stylesheet.set_variables(self._start_css_variables)

    def refresh_css(self, animate: bool = True) -> None:
        start, self._start_css_variables = self._start_css_variables, None
        if start is not None and start == self.get_css_variables():
            return  # the refresh queued by start_theme: the first parse had these variables
        super().refresh_css(animate)


class ThemeError(Exception):
    """A theme file is unreadable or names no primary colour; the message is one line."""


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
    """Every theme in ``directory`` (default: the bundled theme folder), by name, sorted by file name."""
    out: dict[str, Theme] = {}
    for path in theme_files(directory):
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
        return f"unknown theme {name!r}; known: {', '.join(short_theme_names())} (or a Textual theme such as nord)"
    return None
