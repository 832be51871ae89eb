"""The comparison screen: two streams of the same request on one time axis, scrubbable.

Why this module exists: issue 7 — users want to *see* why a tool call "hangs" and what
``eager_input_streaming`` changes. The top of the screen is :class:`CompareChart` (both streams'
tool blocks on one shared time axis, a cursor column through both); below it, the differences in
words (``inspector.compare.summarize``); at the bottom, one pane per stream showing the selected
tool block *as it was at the cursor*: its parse status and accumulated argument text, rebuilt from
the captures' chunks that had arrived by then (``inspector.compare.StreamAt``). Scrubbing with
left/right therefore shows the eager run's partial JSON growing while the buffered run still
shows an open block with no argument bytes.

:func:`make_compare_app` is the factory the CLI (``compare``, ``live --compare-eager``) and the
tests use; :func:`compare_screen` builds the screen alone so another app (``demo``, the T003
finding detail) can push it; :func:`bundled_compare_screen` does so for the bundled pair.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from textual.css.query import NoMatches
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static

from inspector.capture.load import load_path
from inspector.model.capture import Capture
from inspector.tui.screens.help import HelpScreen, key_text
from inspector.tui.quitting import INTERRUPT, QuitNow
from inspector.tui.terminal import TerminalApp
from inspector.tui.themes import DEFAULT_THEME, StartTheme, load_themes, resolve_theme_name
from inspector.capture.bundled import bundled_pair
from inspector.compare import (Comparison, StreamAt, block_at, chart_series, compare_captures,
                               initial_cursor)
from inspector.tui.widgets.argument_view import ArgumentView
from inspector.model.jsonprogress import INVALID, TRAILING
from inspector.tui.widgets.compare_chart import EAGER_WORDS, CompareChart
from inspector.tui.layout import HORIZONTAL_BREAKPOINTS, VERTICAL_BREAKPOINTS, FittedFooter
from inspector.tui.widgets.hanging import bulleted
from inspector.tui.text import assemble, one_line, shown

STEP = 0.01
"""Left/right move the cursor by this share of the axis (shift: ten times as far)."""


BADGE_STYLE = {
    "empty": "bold $foreground on $panel-lighten-1",
    "partial": "bold $background on $warning",
    "complete": "bold $background on $success",
    "invalid": "bold $background on $error",
}


def badge(block) -> tuple[str, str]:
    """``(text, style)`` of a tool block's parse status: ``partial``, ``invalid at 812``..."""
    prog = block.progress
    if prog is not None and prog.state == INVALID:
        return f"invalid at {prog.error_offset}", BADGE_STYLE["invalid"]
    if prog is not None and prog.state == TRAILING:
        return f"trailing data at {prog.trailing_offset}", BADGE_STYLE["invalid"]
    status = block.status or "empty"
    if status == "complete" and (prog is None or not prog.length):
        # Anthropic: no input text means {}, but only once the block is closed.
        return ("complete {}", BADGE_STYLE["complete"]) if block.closed else ("empty", BADGE_STYLE["empty"])
    return status, BADGE_STYLE.get(status, "")


def _load(source: Capture | str | Path) -> tuple[Capture, str]:
    if isinstance(source, Capture):
        return source, "capture"
    return load_path(source), str(source)


class QuietScroll(VerticalScroll, can_focus=False, inherit_bindings=False):
    """Scrolls with the mouse only: the arrow keys belong to the scrubber."""


class StatePane(Vertical):
    """One stream at the cursor: the stream line, the tool block's status, its argument text."""

    DEFAULT_CSS = """
    StatePane {
        width: 1fr;
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $primary;
        border-subtitle-color: $text-muted;
        padding: 0 1;
    }
    StatePane .state-stream { color: $text-muted; height: 1; }
    StatePane .state-head { height: 1; }
    StatePane .state-block { width: 1fr; text-style: bold; }
    StatePane .state-badge { width: auto; }
    StatePane .state-note { color: $text-muted; height: auto; }
    StatePane ArgumentView { height: 1fr; max-height: 100%; }
    """

    def __init__(self, name: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.side = name
        self.stream_text = ""
        """Plain text of the stream line (tests read it)."""
        self.block_text = ""
        """Plain text of the block line: name, status and sizes, or why there is no block yet."""
        self.status: str | None = None
        """The block's badge text at the cursor (``partial``, ``complete``...), None without a block."""
        self.arguments = ""
        """The accumulated argument text at the cursor."""

    def compose(self) -> ComposeResult:
        yield Label("", classes="state-stream")
        with Horizontal(classes="state-head"):
            yield Label("", classes="state-block")
            yield Label("", classes="state-badge")
        yield Label("", classes="state-note")
        yield ArgumentView(classes="state-args")

    def show(self, *, t: float, side, session, tool, block, pretty: bool, missing: str | None = None) -> None:
        """Show ``session`` (the stream at ``t``) and ``block`` (``tool``'s block then, or None).

        ``missing``: what to say when ``tool`` is None (default: no counterpart in this stream).
        """
        ev = len(session.events)
        if not session.bytes_received:
            stream = "waiting for the first byte"
        elif session.closed:
            stream = f"ended · {ev} events · {session.bytes_received:,} body bytes"
        else:
            stream = f"streaming · {ev} events · {session.bytes_received:,} body bytes"
        self.stream_text = stream
        self.query_one(".state-stream", Label).update(one_line(stream))
        note = self.query_one(".state-note", Label)
        view = self.query_one(ArgumentView)
        if tool is None:
            self._no_block(missing or f"{self.side} has no counterpart to this tool block", "")
            return
        name = f"{tool.name or 'tool'} #{tool.index}"
        if block is None:
            opens = f": it opens at {tool.started_s:.2f} s" if tool.started_s is not None else ""
            self._no_block(f"{name} · not started", f"the tool block has not started yet{opens}")
            return
        text, style = badge(block)
        self.status = text
        size = len(block.content.encode("utf-8"))
        line = f"{name} · {size:,} B in {block.deltas} delta" + ("" if block.deltas == 1 else "s")
        opened = block.opened_t - side.origin if block.opened_t is not None else None
        if block.closed:
            line += " · closed"
        elif opened is not None:
            line += f" · open {max(0.0, t - opened):.2f} s"
        self.block_text = f"{line} · {text}"
        self.query_one(".state-block", Label).update(one_line(line))
        mark = self.query_one(".state-badge", Label)
        mark.update(shown(f" {text} ", style))
        mark.display = True
        if size == 0 and not block.closed and opened is not None:
            note.update(assemble((f"no argument bytes yet: {max(0.0, t - opened):.2f} s since the block "
                                          "opened", "$warning")))
        elif block.status == "partial" and not block.closed:
            note.update("partial JSON so far: a valid prefix")
        elif block.status == "partial":
            note.update(assemble(("closed before its JSON was complete: do not execute", "$error")))
        elif block.status == "invalid":
            note.update(assemble(("the arguments are not valid JSON here: do not execute", "$error")))
        else:
            note.update("")
        self.arguments = block.content
        view.display = True
        view.show(block, pretty)

    def _no_block(self, line: str, note: str) -> None:
        self.status = None
        self.arguments = ""
        self.block_text = line
        self.query_one(".state-block", Label).update(one_line(line))
        mark = self.query_one(".state-badge", Label)
        mark.update("")
        mark.display = False
        self.query_one(".state-note", Label).update(one_line(note))
        view = self.query_one(ArgumentView)
        view.reset()
        view.display = False


class CompareScreen(Screen[None]):
    """Both streams on one time axis with a scrubber. Build it with :func:`compare_screen`."""

    DEFAULT_CSS = """
    CompareScreen {
        layout: vertical;
        background: $background;
    }
    #compare-title {
        height: 1;
        width: 1fr;
        background: $panel;
        color: $primary;
        text-style: bold;
        padding: 0 1;
        text-wrap: nowrap;  /* one row: cut at the edge, not wrapped onto a row that is not shown */
        text-overflow: ellipsis;
    }
    #compare-chart-pane {
        height: auto;
        max-height: 60%;
        border: round $panel-lighten-2;
        border-title-color: $primary;
        border-subtitle-color: $text-muted;
        padding: 0 1 0 0;
    }
    #compare-summary-pane {
        height: auto;
        max-height: 8;
    }
    #compare-summary {
        height: auto;
        padding: 0 1;
        color: $foreground;
    }
    #compare-states {
        height: 1fr;
        min-height: 8;
    }
    /* a short terminal (24 rows): the panes at the cursor keep room for their arguments */
    CompareScreen.-short #compare-chart-pane {
        max-height: 40%;
    }
    CompareScreen.-short #compare-summary-pane {
        max-height: 4;
    }
    """

    BINDINGS = [
        Binding("left", "scrub(-1)", "Back", key_display="←"),
        Binding("right", "scrub(1)", "Forward", key_display="→"),
        Binding("shift+left", "scrub(-10)", "Back ×10", show=False),
        Binding("shift+right", "scrub(10)", "Forward ×10", show=False),
        Binding("comma", "arrival(-1)", "Prev chunk", key_display=","),
        Binding("full_stop", "arrival(1)", "Next chunk", key_display="."),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(1)", "End", show=False),
        Binding("up", "select(-1)", "Prev tool", show=False),
        Binding("down", "select(1)", "Next tool", show=False),
        Binding("j", "toggle_json", "JSON"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self, comparison: Comparison, a_capture: Capture, b_capture: Capture, *,
                 dialect: str | None = None, stall_s: float = 10.0, cursor: float | None = None,
                 pretty: bool = False) -> None:
        super().__init__()
        self.cmp = comparison
        self.caps = {"A": a_capture, "B": b_capture}
        self.sides = {"A": comparison.a, "B": comparison.b}
        self.at = {name: StreamAt(cap, dialect=dialect, stall_s=stall_s, origin=self.sides[name].origin)
                   for name, cap in self.caps.items()}
        self.end = comparison.axis_end
        self.cursor = initial_cursor(comparison) if cursor is None else cursor
        """The scrubber's time on the shared axis, in seconds."""
        self.selected = 0
        """Which pair the state panes show (up/down)."""
        self.pretty = pretty
        self._arrivals = sorted(set(self.at["A"].times()) | set(self.at["B"].times()))

    def compose(self) -> ComposeResult:
        yield Label("", id="compare-title")
        streams, fragments = chart_series(self.cmp, self.caps["A"], self.caps["B"])
        with QuietScroll(id="compare-chart-pane"):
            yield CompareChart(self.cmp, streams, fragments, id="compare-chart")
        with QuietScroll(id="compare-summary-pane"):
            yield Static("", id="compare-summary")
        with Horizontal(id="compare-states"):
            yield StatePane("A", id="state-a")
            yield StatePane("B", id="state-b")
        yield FittedFooter()

    def on_mount(self) -> None:
        try:
            pane = self.query_one("#compare-chart-pane")
            summary = self.query_one("#compare-summary", Static)
        except NoMatches:  # Ctrl+C or q tore the screen down while it was being mounted
            return
        pane.border_title = "Tool blocks on one time axis"
        pane.border_subtitle = "░▒▓█ argument bytes · first byte in green · ├ opened ┤ closed · │ cursor"
        summary.update(bulleted([shown(s) for s in self.cmp.summary], shown("• ", "$primary")))
        self.call_after_refresh(self.refresh_state)

    # ------------------------------------------------------------ state
    def refresh_state(self) -> None:
        """Redraw the cursor and both panes for :attr:`cursor` (tests call it directly too)."""
        try:
            self._refresh_state()
        except NoMatches:  # torn down (Ctrl+C, q) while this refresh ran
            return

    def _refresh_state(self) -> None:
        t = self.cursor
        chart = self.query_one(CompareChart)
        chart.set_cursor(t)
        chart.select(self.selected)
        pair = self.cmp.pairs[self.selected] if self.cmp.pairs else None
        for name, pane_id in (("A", "#state-a"), ("B", "#state-b")):
            side = self.sides[name]
            session = self.at[name].at(t)
            tool = None if pair is None else (pair.a if name == "A" else pair.b)
            pane = self.query_one(pane_id, StatePane)
            words = EAGER_WORDS.get(side.eager or "", "")
            pane.border_title = one_line(f"{name} · {Path(side.path).name}" + (f" · {words}" if words else ""))
            pane.border_subtitle = one_line(f"at {t:.2f} s")
            pane.show(t=t, side=side, session=session, tool=tool, block=block_at(session, tool),
                      pretty=self.pretty, missing="no tool blocks in either stream" if pair is None else None)
        # the cursor first: a narrow terminal cuts the file names, not the time
        title = (f" Compare · cursor {t:.2f} s of {self.end:.2f} s · A {Path(self.cmp.a.path).name} "
                 f"vs B {Path(self.cmp.b.path).name}")
        self.query_one("#compare-title", Label).update(one_line(title))

    def set_cursor(self, t: float) -> None:
        self.cursor = round(min(self.end, max(0.0, t)), 6)
        self.refresh_state()

    # ------------------------------------------------------------ actions
    def action_scrub(self, steps: int) -> None:
        self.set_cursor(self.cursor + steps * STEP * self.end)

    def action_arrival(self, direction: int) -> None:
        """Jump to the previous / next moment bytes arrived in either stream."""
        t = self.cursor
        if direction > 0:
            nxt = next((x for x in self._arrivals if x > t + 1e-9), None)
        else:
            nxt = next((x for x in reversed(self._arrivals) if x < t - 1e-9), None)
        if nxt is not None:
            self.set_cursor(nxt)

    def action_jump(self, where: int) -> None:
        self.set_cursor(0.0 if where == 0 else self.end)

    def action_select(self, step: int) -> None:
        if self.cmp.pairs:
            self.selected = (self.selected + step) % len(self.cmp.pairs)
            self.refresh_state()

    def action_toggle_json(self) -> None:
        self.pretty = not self.pretty
        self.refresh_state()

    def action_help(self) -> None:
        rows = [(key_text(b), b.description) for b in self.BINDINGS if isinstance(b, Binding)]
        self.app.push_screen(HelpScreen([("Comparison (one shared time axis)", rows)]))

    def action_close(self) -> None:
        if self.app.screen_stack and self.app.screen_stack[0] is self:
            self.app.exit(0)
        else:
            self.dismiss(None)


def compare_screen(a: Capture | str | Path, b: Capture | str | Path, *, comparison: Comparison | None = None,
                   dialect: str | None = None, stall_s: float = 10.0, cursor: float | None = None,
                   pretty: bool = False) -> CompareScreen:
    """A :class:`CompareScreen` for two captures (or capture paths; ``CaptureError`` if unreadable)."""
    a_cap, a_label = _load(a)
    b_cap, b_label = _load(b)
    if comparison is None:
        comparison = compare_captures(a_cap, b_cap, a_label=a_label if a_label != "capture" else "A",
                                      b_label=b_label if b_label != "capture" else "B", dialect=dialect,
                                      stall_s=stall_s)
    return CompareScreen(comparison, a_cap, b_cap, dialect=dialect, stall_s=stall_s, cursor=cursor, pretty=pretty)


@lru_cache(maxsize=1)
def _bundled() -> tuple[Capture, Capture, Comparison]:
    """The bundled pair read and compared once per process (``e`` may open it many times)."""
    a, b = bundled_pair()
    a_cap, b_cap = load_path(a), load_path(b)
    return a_cap, b_cap, compare_captures(a_cap, b_cap, a_label=str(a), b_label=str(b))


def bundled_compare_screen(**kw) -> CompareScreen:
    """The bundled pair (A: buffered, B: eager) as a screen, for ``demo`` and the T003 detail."""
    if kw.get("dialect") is not None or kw.get("stall_s", 10.0) != 10.0:
        a, b = bundled_pair()
        return compare_screen(a, b, **kw)
    a_cap, b_cap, comparison = _bundled()
    return compare_screen(a_cap, b_cap, comparison=comparison, **kw)


class CompareApp(TerminalApp, QuitNow, StartTheme, App[int]):
    """A standalone app showing one :class:`CompareScreen` (``compare``, ``live --compare-eager``)."""

    CSS_PATH = str(Path(__file__).resolve().parents[1] / "app.tcss")
    TITLE = "stream-inspector compare"
    BINDINGS = [Binding("ctrl+t", "cycle_theme", "Theme", show=False), INTERRUPT]
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    def __init__(self, screen: CompareScreen, *, theme: str | None = None) -> None:
        super().__init__()
        self._compare = screen
        self.inspector_themes = load_themes()
        for th in self.inspector_themes.values():
            self.register_theme(th)
        name = theme or DEFAULT_THEME
        resolved = resolve_theme_name(name, list(self.available_themes))
        if resolved is None:
            raise ValueError(f"unknown theme {name!r}; known: {', '.join(sorted(self.inspector_themes))}")
        self.start_theme(resolved)

    def get_default_screen(self) -> Screen:
        return self._compare

    def action_cycle_theme(self) -> None:
        names = list(self.inspector_themes)
        if names:
            i = names.index(self.theme) if self.theme in names else -1
            self.theme = names[(i + 1) % len(names)]


def make_compare_app(a_capture: Capture | str | Path, b_capture: Capture | str | Path, *,
                     comparison: Comparison | None = None, theme: str | None = None, dialect: str | None = None,
                     stall_s: float = 10.0, cursor: float | None = None, pretty: bool = False) -> CompareApp:
    """The comparison app over two captures or capture paths.

    ``comparison``: reuse one already computed by ``inspector.compare.compare_captures`` (the CLI
    prints nothing twice); ``cursor``: the scrubber's start time (default: between the first
    pair's two first argument bytes). Raises ``ValueError`` for an unknown theme or dialect and
    ``CaptureError`` for an unreadable path.
    """
    screen = compare_screen(a_capture, b_capture, comparison=comparison, dialect=dialect, stall_s=stall_s,
                            cursor=cursor, pretty=pretty)
    return CompareApp(screen, theme=theme)
