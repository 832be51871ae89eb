"""Ctrl+C quits every viewer at once (issue 27 item 4).

Why this module exists: Textual binds Ctrl+C to a notice ("press ctrl+q to quit") and, with a
selection, to copy; people press Ctrl+C to leave a terminal program, and every viewer of the
inspector is read-only (nothing is lost by leaving). :data:`INTERRUPT` is a priority binding
(it wins over a focused search box) that every app adds to its ``BINDINGS``; :class:`QuitNow`
answers it. An app with something to lose says so in :meth:`QuitNow.quit_question` (the proxy:
exchanges still in flight); then the first Ctrl+C asks and a second one within
``CONFIRM_S`` seconds quits.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.binding import Binding

from inspector.tui.text import notice

if TYPE_CHECKING:
    from typing import Any

    from textual.app import App

    _AppBase = App[Any]
    """What the class is mixed into (an ``App``, after it in the bases): mypy checks it against that."""
else:
    _AppBase = object

CONFIRM_S = 5.0
"""Seconds within which a second Ctrl+C confirms a quit that was asked about."""
INTERRUPT = Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True, system=True,
                    tooltip="Leave at once (the proxy asks first while exchanges are in flight)")


class QuitNow(_AppBase):
    """Mixed into an ``App``: ``ctrl+c`` leaves as ``q`` does, at once unless :meth:`quit_question` objects."""

    _asked_at: float | None = None

    def quit_question(self) -> str | None:
        """Why leaving now would lose something (one sentence), or None to leave at once."""
        return None

    def action_interrupt(self) -> None:
        question = self.quit_question()
        now = time.monotonic()
        if question is None or (self._asked_at is not None and now - self._asked_at <= CONFIRM_S):
            self.exit()
            return
        self._asked_at = now
        self.notify(notice(f"{question} ctrl+c again to quit."), title="quit?",
                    severity="warning", timeout=CONFIRM_S)

    def action_help_quit(self) -> None:
        """Textual's Ctrl+C notice, should any path still reach it: quit instead."""
        self.action_interrupt()
