"""``--otlp`` for the commands that take it (``check``, ``live``, ``proxy``, ``run``): the sender, and
where its one warning goes (stderr, or a notification while a TUI holds the terminal)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from inspector.net.otlp import OtlpSender, OtlpUnavailable, open_sender

if TYPE_CHECKING:  # the TUI is imported only by the commands that start one
    from textual.app import App


class Warn:
    """Where a failed export is reported: a TUI's notifications once ``app`` is set and running,
    else a line on stderr."""

    def __init__(self) -> None:
        self.app: App | None = None

    def __call__(self, line: str) -> None:
        app = self.app
        if app is not None:
            try:
                app.call_from_thread(app.notify, line.removeprefix("stream-inspector: "), severity="warning",
                                     timeout=15)
                return
            except RuntimeError:  # not running (yet, or any more), or called on its own thread
                pass
        print(line, file=sys.stderr, flush=True)


def sender_for(args, warn: Warn | None = None) -> tuple[OtlpSender | None, str | None]:
    """``(sender, None)``, ``(None, None)`` without ``--otlp``, or ``(None, one-line problem)``."""
    try:
        return open_sender(bool(getattr(args, "otlp", False)), warn=warn), None
    except OtlpUnavailable as e:
        return None, str(e)
