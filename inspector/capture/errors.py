"""What every capture reader shares: the error it raises and the native format's name."""
from __future__ import annotations

NATIVE_FORMAT = "stream-inspector-capture"
"""The ``format`` field of a native capture's header line (SPEC.md "Capture files")."""


class CaptureError(Exception):
    """The input cannot be read as any capture; the message is one line for the user."""


class EmptyCapture(CaptureError):
    """The input holds no byte at all (a folder walk skips such a file; named, it is an error)."""


class SeveralStreams(CaptureError):
    """A file holds several streamed responses (a HAR) and none was chosen.

    ``choices`` lists them as ``(entry, description)``, e.g. ``(3, "entry 3: POST https://… 200
    text/event-stream, 12 kB")``; the TUI offers them in a picker, ``check`` asks for ``--entry N``.
    """

    def __init__(self, message: str, choices: list[tuple[int, str]]) -> None:
        super().__init__(message)
        self.choices = choices


LISTED = 20
"""Streams named in a "several streams" error before "and N more": a HAR of 5 000 requests must not
print 5 000 lines to say "pick one" (``SeveralStreams.choices`` keeps them all, for the TUI's picker)."""


def listing(descriptions: list[str], *, sep: str = "\n  ", start: str = "\n  ") -> str:
    """The first ``LISTED`` of ``descriptions``, each after ``sep`` (the first after ``start``), then
    ``and N more`` when there are more."""
    shown = descriptions[:LISTED]
    more = [f"and {len(descriptions) - LISTED} more"] if len(descriptions) > LISTED else []
    return start + sep.join(shown + more) if shown else ""
