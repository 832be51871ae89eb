"""The search box (raw event log) and the filter box (findings list) of the inspector.

A controller composed into ``InspectorApp`` (``app.boxes``): it owns the two boxes and nothing else; the widgets do the searching
and filtering (``EventLog.find``, ``FindingsList.set_filter``).

Esc is the same everywhere: in a box it closes the box and keeps what it set (the pane's border
says so: ``filter “C008” · 1/9 · esc clears``); Esc again, on the list or the log, clears it.
A search without a match says so on the box itself, never in a toast over it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widgets import Input

from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import one_line

if TYPE_CHECKING:
    from inspector.tui.app import InspectorApp


class SearchControl:
    """``/`` search events, ``x`` filter findings, ``v`` cycle the severity filter; Esc closes a box."""

    def __init__(self, app: InspectorApp) -> None:
        self.app = app

    def open_search(self) -> None:
        box = self.app.query_one("#search", Input)
        box.remove_class("-hidden")
        box.value = self.app.query_one(EventLog).search
        box.focus()

    def open_filter(self) -> None:
        box = self.app.query_one("#finding-filter", Input)
        box.remove_class("-hidden")
        box.value = self.app.query_one(FindingsList).text_filter
        box.focus()
        self.app.update_titles()  # the findings pane grows by the box: its column makes room

    def cycle_severity(self) -> None:
        self.app.query_one(FindingsList).action_cycle_severity()

    def _search_submitted(self, event: Input.Submitted) -> None:
        log = self.app.query_one(EventLog)
        if not event.value:
            log.clear_search()
            self._close_box(event.input)
            return
        found = log.find(event.value, 1, include_current=log.search != event.value) is not None
        event.input.border_subtitle = None if found else one_line(f"no event contains “{event.value}”")
        event.input.set_class(not found, "-nomatch")
        self.app.update_titles()

    def _filter_submitted(self, event: Input.Submitted) -> None:
        self._close_box(event.input)
        self.app.query_one(FindingsList).focus()

    def _close_box(self, box: Input) -> None:
        box.add_class("-hidden")
        self.app.update_titles()
        (self.app.query_one(EventLog) if box.id == "search" else self.app.query_one(FindingsList)).focus()

    def key(self, event: events.Key) -> None:
        """Esc in a box closes it (what it set stays)."""
        focused = self.app.focused
        if event.key == "escape" and isinstance(focused, Input) and focused.id in ("search", "finding-filter"):
            event.stop()
            self._close_box(focused)

    def submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            self._search_submitted(event)
        elif event.input.id == "finding-filter":
            self._filter_submitted(event)

    def changed(self, event: Input.Changed) -> None:
        if event.input.id == "finding-filter":
            self.app.query_one(FindingsList).set_filter(text=event.value)
        elif event.input.id == "search" and event.input.has_class("-nomatch"):
            event.input.border_subtitle = None
            event.input.remove_class("-nomatch")
            self.app.update_titles()
