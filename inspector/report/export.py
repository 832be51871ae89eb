"""Exports of one capture, as a format name picks them: what ``export`` and the TUI call.

``export_text(to, name, cap, session)`` returns the file's text; ``write_export`` writes it (the
TUI's save key calls this with the stream it shows). Formats: ``html`` (``inspector.report.html``,
one self-contained page) and ``har`` (``inspector.report.har``, HAR 1.2 with ``_chunks``).
"""
from __future__ import annotations

import os
from datetime import datetime

from inspector.model.capture import Capture
from inspector.report import har, html
from inspector.session.session import Session

FORMATS = ("html", "har")
SUFFIX = {"html": ".html", "har": ".har"}


def export_text(to: str, name: str, cap: Capture, session: Session, *, started: datetime | None = None) -> str:
    """The ``to`` export (``html`` or ``har``) of ``cap`` (``session``: the capture run through a
    session, for the page's findings and blocks). Raises ``ValueError`` for another format."""
    if to == "html":
        return html.render(name, session, cap)
    if to == "har":
        return har.render([(cap, started, name)])
    raise ValueError(f"unknown export format {to!r} (expected one of {', '.join(FORMATS)})")


def write_export(path: str | os.PathLike, to: str, name: str, cap: Capture, session: Session) -> None:
    """Write the export to ``path`` (UTF-8). Raises ``OSError`` when it cannot be written."""
    text = export_text(to, name, cap, session)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
