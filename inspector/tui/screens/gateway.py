"""The gateway screen: one row per pair of exchanges (client ↔ gateway, gateway ↔ upstream), with
the hop each difference or finding belongs to.

Rows appear as pairs are decided (``inspector.compare.hops``): how the two sides were paired
(by time and request content, with the score; or why one side is alone), whether the answers are
equivalent, and per hop (upstream, gateway, client) the codes and difference kinds to its name.
The selected pair's report is shown below the table; ``enter`` opens its diff (:class:`DiffScreen`:
upstream on the left, what the gateway sent on the right). Inspection runs on this app's loop:
the taps' sinks are attached on mount, so sessions are fed and read on one thread.
"""
from __future__ import annotations

import asyncio

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from inspector.compare.hops import GatewayPair, pair_text
from inspector.compare.hops.pairs import streamed
from inspector.tui.screens.compare import CompareApp
from inspector.tui.screens.diff import DiffScreen
from inspector.tui.screens.help import HelpScreen, key_text
from inspector.tui.text import shown, one_line, cell, notice
from inspector.tui.layout import FittedFooter

COLUMNS = ("pair", "front (client)", "back (upstream)", "paired by", "answers", "upstream", "gateway", "client")


def _ex(ex) -> str:
    if ex is None:
        return "—"
    return f"#{ex.n} {ex.status if ex.status is not None else '…'}" + ("" if streamed(ex) else " plain")


def row_cells(p: GatewayPair) -> tuple[str, ...]:
    h = p.hop
    if h.status == "paired":
        how = "content" if h.score is not None else "time only"
        how += f" {h.score:.2f}" if h.score is not None else ""
        how += f" +{len(h.retries)} retr{'ies' if len(h.retries) != 1 else 'y'}" if h.retries else ""
    else:
        how = h.status
    answers = "—" if p.diff is None else ("equivalent" if p.diff.equivalent else f"{len(p.diff.differences)} diff")
    hops = p.hops
    return (str(p.n), _ex(h.front), _ex(h.back), how, answers,
            *(" ".join(hops[k]) or "·" for k in ("upstream", "gateway", "client")))


class GatewayScreen(Screen):
    """The pair list and the selected pair's report (module docstring). ``taps``: a running
    ``inspector.net.gateway.GatewayTaps`` (its ``pairs``, ``front.log``, ``back.log`` and ``attach(loop)``
    are read; the TUI does not import the network layer)."""

    DEFAULT_CSS = """
    GatewayScreen #gateway-banner { padding: 0 1; color: $accent; }
    GatewayScreen #gateway-status { padding: 0 1; color: $text-muted; }
    GatewayScreen DataTable { height: 1fr; }
    GatewayScreen #pair-detail { height: 1fr; border-top: solid $panel-lighten-2; padding: 0 1; }
    """

    BINDINGS = [
        Binding("enter", "open_diff", "Diff"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "quit_app", "Quit"),
    ]

    def __init__(self, taps, *, banner: str, record_dir: str | None = None) -> None:
        super().__init__()
        self.taps = taps
        self.banner = banner + (f"\n  recording pairs in {record_dir}" if record_dir else "")
        self.shown: list[GatewayPair] = []

    def compose(self) -> ComposeResult:
        yield Label(shown(self.banner), id="gateway-banner")
        yield Label("", id="gateway-status")
        yield DataTable(id="pairs", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="pair-detail"):
            yield Static("No pair yet: send a request through the front tap.", id="pair-report")
        yield FittedFooter()  # help and the way out docked on the right, as on the other screens

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for p in self.taps.pairs.pairs:
            self._add(p)
        self.taps.pairs.listeners.append(self._add)
        self.taps.attach(asyncio.get_running_loop())
        self.set_interval(0.5, self._status)
        self._status()

    def _status(self) -> None:
        fronts, backs = self.taps.pairs.undecided
        self.query_one("#gateway-status", Label).update(one_line(
            f"front tap: {len(self.taps.front.log.exchanges)} exchanges · back tap: "
            f"{len(self.taps.back.log.exchanges)} · pairs: {len(self.shown)} · waiting to be paired: "
            f"{len(fronts)} front, {len(backs)} back"))

    def _add(self, p: GatewayPair) -> None:
        self.shown.append(p)
        table = self.query_one(DataTable)
        table.add_row(*[cell(c) for c in row_cells(p)], key=str(p.n))
        if len(self.shown) == 1:
            self._show(p)
        self._status()

    def _show(self, p: GatewayPair) -> None:
        self.query_one("#pair-report", Static).update(shown(pair_text(p)))

    def selected(self) -> GatewayPair | None:
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row is None or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        p = self.selected()
        if p is not None:
            self._show(p)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_diff()

    def action_open_diff(self) -> None:
        p = self.selected()
        if p is None:
            return
        if p.diff is None:
            self.notify(notice(f"pair {p.n}: nothing to compare ({p.hop.reason or '; '.join(p.notes) or p.status})"))
            return
        back, front = p.hop.back, p.hop.front  # both there when a diff is
        self.app.push_screen(DiffScreen(p.diff, title=f"pair {p.n}: A upstream (back #{back.n if back else '?'}) · "
                                                      f"B gateway (front #{front.n if front else '?'})"))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen([("Gateway", [(key_text(b), b.description) for b in self.BINDINGS if isinstance(b, Binding)])]))

    def action_quit_app(self) -> None:
        self.app.exit(0)


class GatewayApp(CompareApp):
    """``gateway``'s TUI (themes and ``ctrl+t`` as ``compare``'s app). Start ``taps`` yourself."""

    TITLE = "stream-inspector gateway"

    def __init__(self, taps, *, banner: str, theme: str | None = None,
                 record_dir: str | None = None) -> None:
        super().__init__(GatewayScreen(taps, banner=banner, record_dir=record_dir), theme=theme)  # type: ignore[arg-type]  # CompareApp hosts any one screen (typed CompareScreen)
        self.taps = taps
