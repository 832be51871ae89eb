"""The severity scale of findings, declared once: its names, their order, their marks.

RULES.md gives every rule a default severity (``error``, ``warning`` or ``info``; ``check
--severity CODE=LEVEL`` may change it). Everything that orders, counts, filters or marks
findings by severity reads it from here.
"""
from __future__ import annotations

from inspector.model.static import Literal

Severity = Literal["info", "warning", "error"]
"""A finding's severity (a plain string in findings, reports and JSON)."""

SEVERITIES: tuple[Severity, ...] = ("info", "warning", "error")
"""Mildest first: ``severity_rank`` is the position here."""

WORST_FIRST: tuple[Severity, ...] = ("error", "warning", "info")
"""The order reports and headers list severities and their counts in."""

MARKS: dict[str, str] = {"error": "✖", "warning": "▲", "info": "●"}
"""The one-character mark each severity is shown with."""


def severity_rank(severity: str) -> int:
    """0 for info, 1 for warning, 2 for error; ``ValueError`` for anything else."""
    return SEVERITIES.index(severity)
