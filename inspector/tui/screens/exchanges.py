"""The proxy's TUI: the exchange list above the usual inspector, and an exchange's details.

Why this module exists: ``proxy`` sees many exchanges, each one a stream like any other. Rather
than a second inspector, :class:`ProxyApp` *is* the inspector (``InspectorApp``) with one feed
per exchange: a list of exchanges on top (``ExchangeList``: time, method, path, model, status,
duration, findings) picks which feed the panels below show, live while it streams. ``[`` / ``]``
step through exchanges as they step through sources elsewhere.

Threads: the proxy forwards bytes on its own thread (``inspector.net.proxy.ProxyThread``) and
hands each chunk to the ``ExchangeLog`` on *this* app's event loop (its ``LoopSink`` is
attached in ``on_mount``), so sessions are fed and read on one thread; an
:class:`ExchangeFeed` only waits for "something changed" and tells the app to redraw.

Keys added to the inspector's: ``0`` focus the exchange list, ``enter`` (in the list) or ``d``
the details of the exchange shown (request headers redacted, body, response head, a
non-streamed body, the Q findings and which exchange the request continues), ``a`` follow the
newest exchange (on by default; picking an older one turns it off).
"""
from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static

from inspector.model.jsondepth import loads
from inspector.tui.app import InspectorApp
from inspector.feeds.base import Feed
from inspector.feeds.exchanges.feed import ExchangeFeed
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import end_word
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.feeds.exchanges.query import Query, QueryError, parse
from inspector.feeds.exchanges.curl import curl_command, key_variable
from inspector.tui.text import notice, one_line, shown
from inspector.tui.themes import FALLBACK_COLOR, SEVERITY_STYLE
from inspector.model.severity import WORST_FIRST

SORTS = (("arrival", None),
         ("status", lambda ex: (-(ex.status or 0), ex.n)),
         ("duration", lambda ex: (-(ex.duration_s or 0.0), ex.n)),
         ("findings", lambda ex: (tuple(-ex.counts().get(k, 0) for k in WORST_FIRST), ex.n)))
"""The exchange list's orders (``O``): a name and a sort key (None: as they arrived); worst first."""
LIST_FPS = 4
"""Exchange list refreshes per second (durations of running exchanges tick; rows appear)."""
MAX_BODY_LINES = 200


def _pretty(value) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        try:
            value = loads(value)  # bounded depth (jsondepth): deeper text is shown as it is
        except ValueError:
            return value
    text = json.dumps(value, indent=2, ensure_ascii=False)
    lines = text.splitlines()
    if len(lines) > MAX_BODY_LINES:
        lines = lines[:MAX_BODY_LINES] + [f"… {len(lines) - MAX_BODY_LINES} more lines"]
    return "\n".join(line if len(line) <= 400 else line[:400] + "…" for line in lines)


def _headers_text(headers: dict) -> str:
    if not headers:
        return "(none)"
    out = []
    for k, v in headers.items():
        for one in v if isinstance(v, list) else [v]:
            out.append(f"{k}: {one}")
    return "\n".join(out)


def _exchange(feed: Feed) -> Exchange | None:
    """The exchange ``feed`` shows, None for the feed waiting for the first one
    or a capture opened with ``o``."""
    return feed.ex if isinstance(feed, ExchangeFeed) else None


class ExchangeDetailScreen(ModalScreen[None]):
    """Request and response of one exchange (secrets already redacted by the proxy)."""

    DEFAULT_CSS = """
    ExchangeDetailScreen { align: center middle; background: $background 60%; }
    ExchangeDetailScreen #exchange-detail {
        width: 110; max-width: 95%; height: 90%;
        border: round $primary; border-title-color: $primary; border-subtitle-color: $text-muted;
        background: $surface; padding: 0 2;
    }
    ExchangeDetailScreen .xd-heading { margin: 1 0 0 0; text-style: bold; color: $primary; }
    ExchangeDetailScreen .xd-text { color: $foreground; }
    ExchangeDetailScreen .xd-muted { color: $text-muted; }
    """
    BINDINGS = [Binding("escape,q,d", "close", "Close")]

    def __init__(self, ex) -> None:
        super().__init__()
        self.ex = ex

    def compose(self) -> ComposeResult:
        ex = self.ex
        with VerticalScroll(id="exchange-detail") as body:
            body.border_title = one_line(f"exchange #{ex.n}: {ex.method} {ex.target}")
            body.border_subtitle = "esc: close"
            yield Label("Request", classes="xd-heading")
            yield Static(shown(f"{ex.method} {ex.url}"), classes="xd-text")
            if ex.continues is not None:
                yield Static(shown(f"continues the answer of exchange #{ex.continues} ({ex.continues_how})"),
                             classes="xd-muted")
            yield Static(shown(_headers_text(ex.request.get("headers") or {})), classes="xd-muted")
            yield Label("Request body", classes="xd-heading")
            yield Static(shown(_pretty(ex.request.get("body"))), classes="xd-text")
            yield Label("Response", classes="xd-heading")
            if ex.status is None:
                what = f"no response: {ex.end.error}" if ex.done and ex.end and ex.end.error else "waiting…"
                yield Static(shown(what), classes="xd-text")
            else:
                word = end_word(ex.end, ex.session is not None and ex.session.ended)
                state = "streaming" if not ex.done else f"ended {word}" + (
                    f": {ex.end.error}" if ex.end.error and word == ex.end.kind else "")
                dur = f", {ex.duration_s:.3f} s" if ex.duration_s is not None else ""
                yield Static(shown(f"{ex.status} · {ex.bytes_received} bytes · {state}{dur}"), classes="xd-text")
                yield Static(shown(_headers_text(ex.response_headers)), classes="xd-muted")
                if not ex.linted:
                    yield Label("Response body (not a stream: shown, not linted)", classes="xd-heading")
                    yield Static(shown(_pretty(ex.body_text) if ex.body_excerpt else "(empty)"), classes="xd-text")
                elif ex.released:
                    sm = ex.summary
                    where = f"; read back from {ex.record_path}" if ex.record_path else "; not recorded"
                    yield Static(shown(f"inspected as a stream: {sm['dialect'] or 'unknown'}, {sm['events']} events, "
                                         f"{sm['blocks']} blocks, {sm['findings']} findings (released from memory: "
                                         f"--keep{where})"), classes="xd-muted")
                else:
                    s = ex.session
                    yield Static(shown(f"inspected as a stream: {s.dialect_name or 'detecting'}, "
                                         f"{len(s.events)} events, {len(s.blocks)} blocks"), classes="xd-muted")
            if ex.note:
                yield Static(shown(f"note: {ex.note}"), classes="xd-muted")
            if ex.q_findings:
                yield Label("Request history (Q rules)", classes="xd-heading")
                for f in ex.q_findings:
                    yield Static(shown(f"{f.code} {f.name} ({f.severity}): {f.message}"), classes="xd-text")
            if ex.record_path:
                yield Label("Recording", classes="xd-heading")
                yield Static(shown(ex.record_path), classes="xd-muted")

    def action_close(self) -> None:
        self.dismiss(None)


class ProxyApp(InspectorApp):
    """The inspector over a running proxy: one feed per exchange, the exchange list on top.

    ``proxy`` is a started-or-about-to-start ``inspector.net.proxy.ProxyThread`` built with
    ``external=True``; the app attaches its sink to its own loop on mount.
    """

    CSS_PATH = str(Path(__file__).resolve().parents[1] / "app.tcss")
    CSS = """
    #exchanges {
        height: 9;
        border: round $panel-lighten-2;
        border-title-color: $primary;
        border-subtitle-color: $text-muted;
        background: $background;
        scrollbar-size-vertical: 1;
        &:focus { border: round $primary; }
    }
    Screen.-short #exchanges {
        height: 7;
    }
    /* stacked and short, the list leaves 14 rows at 80x24: the blocks keep 7 (the tool and its
       arguments), the findings show 2 rows (scrolling) and the log at least 3 */
    Screen.-narrow.-short #side, Screen.-narrow.-short #side.-listing {
        min-height: 7;
    }
    Screen.-narrow.-short #side.-filtering {
        min-height: 8;  /* the filter box's row besides */
    }
    Screen.-narrow.-short #findings {
        max-height: 2;  /* rows, not vh: the pane's auto height then counts the list's whole length */
    }
    Screen.-narrow.-short #log-pane {
        min-height: 3;
    }
    #exchange-filter {
        height: 3;
        border: tall $accent;
        &.-hidden { display: none; }
    }
    Screen.-short #exchange-filter { height: 1; border: none; }
    """
    BINDINGS = [
        Binding("0", "focus_exchanges", "Exchanges", show=False, tooltip="Move the focus to the exchange list"),
        Binding("d", "details", "Details", tooltip="Request and response details of the exchange shown"),
        Binding("a", "toggle_auto", "Newest", show=False,
                tooltip="Follow the newest exchange as requests arrive (on at start)"),
        Binding("F", "filter_exchanges", "Filter list", key_display="F",
                tooltip="Filter the exchanges: code:J005 dur>2s status>=400 path: model: dialect: sev: (README)"),
        Binding("O", "sort_exchanges", "Sort", show=False, key_display="O",
                tooltip="Sort the exchanges: arrival, status, duration, findings (worst first)"),
        Binding("c", "copy_curl", "curl", show=False,
                tooltip="Copy the exchange's request as a curl command (the key as $VARIABLE, never its value)"),
        Binding("R", "resend", "Re-send", show=False, key_display="R",
                tooltip="Send the exchange's request again through the proxy to the upstream (a new exchange)"),
    ]

    def __init__(self, proxy, *, listen_url: str = "", upstream: str = "", theme: str | None = None,
                 warning: str | None = None, record_dir: str | None = None, notes: tuple[str, ...] = (),
                 resend: Callable[[object, str], str] | None = None) -> None:
        self.proxy = proxy
        self.resender = resend
        """Sends an exchange's request again through the proxy (``inspector.net.proxy.resend``; the
        CLI hands it in: the TUI does not import the network layer); None: ``R`` says it cannot."""
        proxy.log.keep_tapes = True  # each exchange's stream as relayed, so ``s`` can save it
        self.listen_url = listen_url
        self.upstream = upstream
        self.warning = warning
        self.record_dir = record_dir
        self.notes = notes
        """Known traffic that ``run`` cannot redirect (said once at start, as the headless banner does)."""
        waiting = f"waiting for requests on {listen_url or proxy.url} → {upstream or proxy.endpoint.upstream}"
        super().__init__([ExchangeFeed(None, waiting=waiting)], title="stream-inspector proxy", theme=theme)
        self.auto_follow = True
        self.list_query: Query = parse("")
        """The exchange list's filter (``F``)."""
        self.sort_index = 0
        """Which of ``SORTS`` orders the list (``O``)."""
        self._by_n: dict[int, ExchangeFeed] = {}
        self._list_dirty = True

    def quit_question(self) -> str | None:
        """Leaving stops the proxy: ask first while an exchange is still streaming through it."""
        n = self.proxy.log.running
        return f"{n} exchange{'s are' if n != 1 else ' is'} still in flight through the proxy." if n else None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield ExchangeList(id="exchanges")
        yield Input(placeholder="filter exchanges: code:J005 dur>2s status>=400 (enter: apply, esc: close)",
                    id="exchange-filter", classes="-hidden")
        yield from super().compose()

    def on_mount(self) -> None:
        table = self.query_one(ExchangeList)
        table.border_title = one_line(f"Exchanges · proxy {self.listen_url or self.proxy.url} → {self.upstream}")
        sub = "enter: details · a: follow newest · [ ]: previous / next"
        if self.record_dir:
            sub = f"recording to {self.record_dir} · " + sub
        table.border_subtitle = one_line(sub)
        self.proxy.log.listeners.append(self._on_exchange)
        self.proxy.sink.attach(asyncio.get_running_loop(), threading.get_ident())
        self.set_interval(1 / LIST_FPS, self._sync_list, name="exchanges")
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.call_after_refresh(table.focus)  # after InspectorApp.on_mount (it focuses the findings)
        if self.notes:
            self.notify("\n".join(self.notes), title="not redirected", severity="information", timeout=15)
        if self.warning:
            self.notify(notice(self.warning), severity="error", timeout=30)
            table.border_subtitle = one_line("⚠ NOT LOOPBACK · " + sub)

    @property
    def exchanges(self):
        return self.proxy.log.exchanges

    # ------------------------------------------------------------------ exchanges arriving
    def _on_exchange(self, event: str, ex) -> None:
        """ExchangeLog listener (runs on this app's loop)."""
        self._list_dirty = True
        if event == "begin":
            feed = ExchangeFeed(ex)
            self._by_n[ex.n] = feed
            if len(self.feeds) == 1 and _exchange(self.feeds[0]) is None:
                self.feeds[0] = feed
                self._select(0, force=True)
            else:
                self.feeds.append(feed)
                if self.auto_follow:
                    self._select(len(self.feeds) - 1)
            return
        shown = self._by_n.get(ex.n)
        if shown is not None:
            shown.poke()

    def _theme_changed(self, _theme) -> None:
        self.query_one(ExchangeList).restyle()
        self._list_dirty = True

    def _colors(self) -> dict[str, str]:
        """The theme's colours: each severity's (``SEVERITY_STYLE``) and ``success``'s."""
        v = self.get_css_variables()
        named = {sev: var.removeprefix("$") for sev, var in SEVERITY_STYLE.items()} | {"success": "success"}
        return {key: v.get(var, FALLBACK_COLOR[var]) for key, var in named.items()}

    def _sync_list(self) -> None:
        running = any(not ex.done for ex in self.exchanges)
        if not (self._list_dirty or running):
            return
        self._list_dirty = False
        table = self.query_one(ExchangeList)
        table.sync(self.exchanges, self._colors(), self.list_query or None, SORTS[self.sort_index][1])
        if self.list_query or self.sort_index:
            self._update_list_title()
        self._keep_shown(table)
        if self.auto_follow and self.feeds and _exchange(self.feeds[0]) is not None:
            self._show_row(self.feed_index)

    def _keep_shown(self, table: ExchangeList) -> None:
        """The inspector shows an exchange the list shows: when the filter hides the one shown,
        the newest shown one (or the first, when not following the newest) takes its place."""
        ex = _exchange(self.feed)
        if not self.list_query or ex is None or not table.shown_ns or ex.n in table.shown_ns:
            return
        index = self._index_of(table.shown_ns[-1 if self.auto_follow else 0])
        if index is not None:
            self._select(index)
            self._show_row(index)

    def refresh_now(self) -> None:
        self._list_dirty = True
        self._sync_list()
        super().refresh_now()

    # ------------------------------------------------------------------ choosing an exchange
    def _index_of(self, n: int | None) -> int | None:
        """The feed index of exchange ``n``."""
        feed = self._by_n.get(n) if n is not None else None
        return next((i for i, f in enumerate(self.feeds) if f is feed), None) if feed is not None else None

    def _show_row(self, index: int) -> None:
        """Put the list's cursor on the row of feed ``index`` (when the filter shows it)."""
        ex = _exchange(self.feeds[index]) if 0 <= index < len(self.feeds) else None
        table = self.query_one(ExchangeList)
        row = table.row_of(ex.n) if ex is not None else None
        if row is not None and row != table.cursor_row:
            table.move_cursor(row=row, animate=False)

    def _select(self, index: int, *, force: bool = False) -> None:
        if not (0 <= index < len(self.feeds)):
            return
        if index == self.feed_index and not force:
            return
        self.select_feed(index)

    def switch_source(self, step: int) -> None:
        if len(self.feeds) < 2:
            return
        index = (self.feed_index + step) % len(self.feeds)
        self.auto_follow = index == len(self.feeds) - 1
        self._select(index)
        self._show_row(index)

    @on(ExchangeList.Picked)
    def _row_picked(self, event: ExchangeList.Picked) -> None:
        index = self._index_of(event.n)
        if index is None:
            return
        if _exchange(self.feeds[0]) is None or index == self.feed_index:
            return
        self.auto_follow = index == len(self.feeds) - 1
        self._select(index)

    @on(DataTable.RowSelected, "#exchanges")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        rows = self.query_one(ExchangeList).shown_ns
        index = self._index_of(rows[event.cursor_row]) if 0 <= event.cursor_row < len(rows) else None
        if index is not None and index != self.feed_index:
            self._select(index)
        self.action_details()

    # ------------------------------------------------------------------ actions
    def action_focus_exchanges(self) -> None:
        self.query_one(ExchangeList).focus()

    def action_details(self) -> None:
        ex = _exchange(self.feed)
        if ex is None:
            self.notify(notice("no exchange yet: point a client at " + (self.listen_url or self.proxy.url)), timeout=3)
            return
        self.push_screen(ExchangeDetailScreen(ex))

    def action_toggle_auto(self) -> None:
        self.auto_follow = not self.auto_follow
        if self.auto_follow and _exchange(self.feeds[0]) is not None:
            self._select(len(self.feeds) - 1)
            self._show_row(len(self.feeds) - 1)
        self.notify("following the newest exchange" if self.auto_follow else "staying on this exchange", timeout=1.5)

    # ------------------------------------------------------------------ filter, sort, curl, re-send
    def action_filter_exchanges(self) -> None:
        box = self.query_one("#exchange-filter", Input)
        box.remove_class("-hidden")
        box.value = self.list_query.text
        box.focus()

    @on(Input.Submitted, "#exchange-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        try:
            self.list_query = parse(event.value)
        except QueryError as e:
            self.notify(notice(str(e)), title="filter", severity="error", timeout=5)
            return
        self._close_filter()

    def _close_filter(self) -> None:
        self.query_one("#exchange-filter", Input).add_class("-hidden")
        self._list_dirty = True
        self._sync_list()
        self._update_list_title()
        self.query_one(ExchangeList).focus()

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self.focused is self.query_one("#exchange-filter", Input):
            event.stop()
            self._close_filter()
            return
        super().on_key(event)  # the search and filter boxes of the inspector below

    def action_sort_exchanges(self) -> None:
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self._list_dirty = True
        self._sync_list()
        self._update_list_title()

    def _update_list_title(self) -> None:
        table = self.query_one(ExchangeList)
        parts = ["Exchanges"]  # what the list hides and how it is ordered first: a narrow title is cut at its end
        if self.list_query:
            parts.append(f"filter “{self.list_query.text}”: {len(table.shown_ns)}/{len(self.exchanges)}")
        if self.sort_index:
            parts.append(f"sorted by {SORTS[self.sort_index][0]}")
        parts.append(f"proxy {self.listen_url or self.proxy.url} → {self.upstream}")
        table.border_title = one_line(" · ".join(parts))

    def action_copy_curl(self) -> None:
        ex = _exchange(self.feed)
        if ex is None:
            self.notify("No exchange yet: nothing to copy.", title="curl", timeout=3)
            return
        text = curl_command(ex)
        self.copy_to_clipboard(text)
        self.notify(notice(f"Copied exchange #{ex.n} as curl ({len(text):,} characters; the key as "
                           f"${key_variable(ex)})."), title="curl", timeout=4)

    def action_resend(self) -> None:
        ex = _exchange(self.feed)
        if ex is None or self.resender is None:
            self.notify("No exchange to re-send here." if ex is None else "Re-sending is not wired here.",
                        title="re-send", timeout=3)
            return
        self.resend(ex)

    @work(thread=True, group="resend")
    def resend(self, ex) -> None:
        """Send ``ex``'s request again through this proxy (so it is a new exchange in the list),
        its credential from the provider's key variable when set (the recording has none)."""
        resender = self.resender
        if resender is None:
            return
        try:
            status = resender(ex, self.listen_url or self.proxy.url)
        except Exception as e:  # noqa: BLE001 - whatever failed is said, the proxy goes on
            self.call_from_thread(self.notify, notice(f"re-sending exchange #{ex.n} failed: {e}"), title="re-send",
                                  severity="error", timeout=6)
            return
        self.call_from_thread(self.notify, notice(f"re-sent exchange #{ex.n}: {status}"), title="re-send", timeout=3)

    def help_groups(self):
        groups = super().help_groups()
        groups.insert(1, ("Proxy", [("0", "Focus the exchange list"),
                                    ("up / down (list)", "Show another exchange in the inspector"),
                                    ("enter (list) / d", "Request and response details of the exchange"),
                                    ("a", "Follow the newest exchange as requests arrive"),
                                    ("F", "Filter the list: code:J005 dur>2s status>=400 path:… model:… "
                                          "dialect:… sev:… method:…; !term negates (README: proxy filters)"),
                                    ("O", "Sort the list: arrival, status, duration, findings"),
                                    ("c", "Copy the request as a curl command (the key as $VARIABLE)"),
                                    ("R", "Re-send the request through the proxy (a new exchange)"),
                                    ("[ / ]", "Previous / next exchange")]))
        return groups
