"""The proxy's exchange list: one row per request that went through ``proxy``.

Why this module exists: an agent makes many requests; the person debugging it needs to see at a
glance which one failed, which is still streaming and which one raised findings, then pick one
to inspect. A ``DataTable`` (one row per exchange: time, method, status, duration, findings by
severity, model, path) synced from the ``ExchangeLog`` on a timer: rows are appended, and a
cell is rewritten only when its text changed, so a long session costs nothing per frame.
"""
from __future__ import annotations

import time

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable
from inspector.model.display import display_text
from inspector.model.severity import MARKS, WORST_FIRST
from inspector.tui.text import Text, cell, line

from inspector.model.capture import normal_end

COLUMNS = (("n", "#"), ("time", "time"), ("method", "method"), ("status", "status"), ("duration", "duration"),
           ("findings", "findings"), ("model", "model"), ("path", "path"))
"""Status, duration and findings before the model and the path: at 80 columns what is cut is the
end of the path (the table scrolls sideways to it)."""
PATH_WIDTH = 44


def _middle(text: str, width: int) -> str:
    """Shorten ``text`` to ``width`` characters by cutting its middle (paths differ at both ends)."""
    if len(text) <= width:
        return text
    keep = width - 1
    return text[: keep // 2] + "…" + text[-(keep - keep // 2):]


def _sig(cell) -> tuple:
    if isinstance(cell, Text):
        return (cell.plain, str(cell.style), tuple((sp.start, sp.end, str(sp.style)) for sp in cell.spans))
    return (str(cell),)


class ExchangeList(DataTable):
    """Rows keyed by exchange number. ``sync(exchanges, colors)`` brings them up to date."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Details", show=False, tooltip="Request and response details of this exchange"),
    ]

    class Picked(Message):
        """The user moved the cursor to another exchange (keys or click; not the app following new rows)."""

        def __init__(self, row: int, n: int | None) -> None:
            self.row = row
            self.n = n
            """The exchange number of that row."""
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._cells: dict[int, tuple] = {}
        self._final: set[int] = set()
        """Exchanges synced after they ended: their row never changes again."""
        self._force: set[int] = set()
        self.shown_ns: list[int] = []
        """The exchange number each row shows, top to bottom."""

    # DataTable also highlights rows by itself (the first row added, ``move_cursor``): only the
    # user's own moves say "show me that exchange".
    def _picked(self, before: int) -> None:
        if self.cursor_row != before:
            row = self.cursor_row
            self.post_message(self.Picked(row, self.shown_ns[row] if 0 <= row < len(self.shown_ns) else None))

    def action_cursor_up(self) -> None:
        before = self.cursor_row
        super().action_cursor_up()
        self._picked(before)

    def action_cursor_down(self) -> None:
        before = self.cursor_row
        super().action_cursor_down()
        self._picked(before)

    def action_page_up(self) -> None:
        before = self.cursor_row
        super().action_page_up()
        self._picked(before)

    def action_page_down(self) -> None:
        before = self.cursor_row
        super().action_page_down()
        self._picked(before)

    def action_scroll_top(self) -> None:
        before = self.cursor_row
        super().action_scroll_top()
        self._picked(before)

    def action_scroll_bottom(self) -> None:
        before = self.cursor_row
        super().action_scroll_bottom()
        self._picked(before)

    async def _on_click(self, event: events.Click) -> None:
        before = self.cursor_row
        await super()._on_click(event)
        self._picked(before)

    def on_mount(self) -> None:
        for key, label in COLUMNS:
            self.add_column(label, key=key)

    def restyle(self) -> None:
        """Recompute every row on the next ``sync`` (the theme, hence the colours, changed)."""
        self._final.clear()
        self._force = set(self._cells)

    def sync(self, exchanges, colors: dict[str, str], query=None, order=None) -> bool:
        """Show the exchanges ``query`` matches (``inspector.feeds.exchanges.query.Query``; None:
        all) in ``order`` (a sort key, None: arrival), adding new rows and rewriting changed cells;
        the rows are rebuilt only when more than new rows at the end changed. True when a row was
        added."""
        shown = [ex for ex in exchanges if query is None or query.matches(ex)]
        if order is not None:
            shown.sort(key=order)
        ns = [ex.n for ex in shown]
        if ns[:len(self.shown_ns)] != self.shown_ns:
            self.clear()
            self._cells.clear()
            self._final.clear()
            self.shown_ns = []
        added = False
        now = time.monotonic()
        for ex in shown:
            if ex.n in self._final:
                continue
            if ex.done:
                self._final.add(ex.n)
            cells = self._cells_for(ex, now, colors)
            old = self._cells.get(ex.n)
            if old is None:
                self.add_row(*(cell(c) for c in cells), key=str(ex.n))
                self.shown_ns.append(ex.n)
                added = True
            else:
                force = ex.n in self._force
                self._force.discard(ex.n)
                for (key, _), a, b in zip(COLUMNS, old, cells):
                    if force or _sig(a) != _sig(b):
                        self.update_cell(str(ex.n), key, cell(b))
            self._cells[ex.n] = cells
        return added

    def row_of(self, n: int) -> int | None:
        """The row showing exchange ``n`` (None: the filter hides it)."""
        try:
            return self.shown_ns.index(n)
        except ValueError:
            return None

    @staticmethod
    def _cells_for(ex, now: float, colors: dict[str, str]) -> tuple[Text, ...]:
        clock = time.strftime("%H:%M:%S", time.localtime(ex.started_wall))
        if ex.status is None:
            status = cell("…" if not ex.done else (ex.end.kind if ex.end else "?"),
                          colors.get("error", "red") if ex.done else "")
        else:
            style = colors.get("success", "green") if ex.status < 400 else colors.get("error", "red")
            label = str(ex.status)
            if ex.done and not ex.linted:
                label += " (json)" if "json" in ex.content_type else " (body)"
            elif ex.done and not normal_end(ex.end, ex.session is not None and ex.session.ended):
                label += f" {ex.end.kind}"
                style = colors.get("error", "red")
            status = cell(label, style)
        if ex.done:
            duration = f"{ex.duration_s:.2f} s" if ex.duration_s is not None else "—"
        else:
            duration = f"{now - ex.t0:.1f} s…"
        counts = ex.counts()
        findings = line([(f"{mark}{counts.get(sev, 0)} ", f"bold {colors.get(sev, '')}" if counts.get(sev, 0) else "dim")
                         for sev, mark in ((s, MARKS[s]) for s in WORST_FIRST)])
        return (cell(ex.n), cell(clock), cell(ex.method), status, cell(duration), findings, cell(ex.model or "—"),
                cell(_middle(display_text(ex.target, one_line=True), PATH_WIDTH)))
