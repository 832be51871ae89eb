"""Exports of one capture, as a format name picks them: what ``export`` and the TUI call.

``export_text(to, name, cap, session)`` returns the file's text; ``write_export`` writes it (the
TUI's save key calls this with the stream it shows). Formats: ``html`` (``inspector.report.html``,
one self-contained page, streamed to its file piece by piece) and ``har``
(``inspector.report.har``, HAR 1.2 with ``_chunks``).

Nothing is written half: ``written_whole`` writes next to the target and renames over it only
once every piece is written, so a failure (a full disk, Ctrl+C) leaves any earlier file as it was.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TextIO

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


def _mode(target: Path) -> int:
    """The permission bits ``target`` has, or a new file gets (``0o666`` less the umask)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def written_whole(path: str | os.PathLike) -> Iterator[TextIO]:
    """A text file (UTF-8, LF) that becomes ``path`` only when the ``with`` block ends without an
    exception: it is written to a temporary file in the same folder, then renamed over ``path``
    (atomic on one file system). Raises ``OSError`` when the folder cannot be written."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        os.chmod(tmp, _mode(target))  # mkstemp makes it 0600: give it what the file had, or would have had
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def export_pieces(to: str, name: str, cap: Capture, session: Session,
                  *, started: datetime | None = None) -> Iterable[str]:
    """The ``to`` export as pieces of text, in order (the HTML page is made as it is written)."""
    if to == "html":
        return html.chunks(name, session, cap)
    return (export_text(to, name, cap, session, started=started),)


def write_export(path: str | os.PathLike, to: str, name: str, cap: Capture, session: Session) -> None:
    """Write the export to ``path`` (UTF-8), whole or not at all. Raises ``OSError`` when it cannot
    be written, ``ValueError`` for an unknown format."""
    if to not in FORMATS:
        raise ValueError(f"unknown export format {to!r} (expected one of {', '.join(FORMATS)})")
    with written_whole(path) as f:
        for piece in export_pieces(to, name, cap, session):
            f.write(piece)
