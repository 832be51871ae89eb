"""The inspector TUI: the blocks list and its detail, findings, the raw event log, playback controls, themes.

Why this module exists: it is the one place where a session (owned by a feed:
``inspector.feeds``) meets the screen. The app holds one controller per concern, each a plain
object with its own typed methods, given the app (``app.feeding``: ``FeedControl``, playback keys
and feed workers; ``app.opening``: ``CaptureOpening``, captures read in the background, ``o``, a
HAR's stream picker; ``app.copying``: ``CopySave``, ``y`` copy, ``s`` save; ``app.routing``:
``PanelRouting``, what points at a block or a finding; ``app.boxes``: ``SearchControl``, the search
and filter boxes). Textual looks actions and message handlers up on the app, so the app's
``action_*`` and ``on_*`` methods are one line each, handing the key to its controller. This
module keeps the layout, the registered panels (:attr:`InspectorApp.PANELS`) and the frame that
feeds them (``inspector.tui.frame``), which keys work on which screen, help and themes, the
titles. ``TerminalApp`` (needs a terminal, SIGINT), ``QuitNow`` (Ctrl+C) and ``StartTheme`` are
shared by every app of the inspector.
The flow follows DESIGN.md, "The TUI":

- the session is fed in a worker (``@work(exclusive=True, group="feed")``) in time-budgeted
  batches; after each batch the worker posts :class:`InspectorApp.ChunksReceived`, a message
  that replaces any queued copy of itself (``can_replace``), so a burst never floods the queue;
- on a timer (``FPS`` frames per second) one frozen view state is built from the session and
  each registered panel receives its part, skipping work when it equals the last one; nothing
  is updated per delta and nothing is recomposed;
- long content (event log, argument text) is rendered virtually (``render_line``).

:func:`make_app` is the single factory used by the CLI (``replay``, ``demo``, ``live``) and the
tests. Every command is a binding (listed in the footer and the help screen) and an entry in
the command palette (ctrl+p); one table, :data:`COMMANDS`, defines all three.
"""
from __future__ import annotations

import gc
import time
from collections.abc import AsyncIterator, Callable, Iterable
from functools import partial
from pathlib import Path

from textual.app import App, ComposeResult, SystemCommand
from textual import events
from textual.command import CommandPalette
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input

from inspector.capture.load import load_path
from inspector.feeds.base import Feed
from inspector.feeds.live import LiveFeed
from inspector.feeds.replay import ReplayFeed
from inspector.model.capture import Capture
from inspector.tui.borders import set_border
from inspector.tui.commands import COMMANDS, main_help_groups, screen_help_groups
from inspector.tui.copy_save import CopySave
from inspector.tui.feed_control import FeedControl
from inspector.tui.layout import (HORIZONTAL_BREAKPOINTS, VERTICAL_BREAKPOINTS, FittedFooter, Pane,
                                  breakpoint_classes)
from inspector.tui.panel_routing import PanelRouting
from inspector.tui.screens.compare import CompareScreen, bundled_compare_screen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.timeline import TimelineScreen
from inspector.tui.opening import CaptureOpening
from inspector.tui.search_control import SearchControl
from inspector.tui.quitting import INTERRUPT, QuitNow
from inspector.tui.terminal import TerminalApp
from inspector.tui.themes import DEFAULT_THEME, StartTheme, load_themes, resolve_theme_name
from inspector.tui.frame import (FrameBuilder, FrameState, Part, Registration, StatePanel, ViewFlags,
                                 silence, transport_state)
from inspector.tui.view_state import BlocksState
from inspector.tui.widgets.blocks_pane import BlocksPane
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.model.severity import MARKS, WORST_FIRST
from inspector.tui.widgets.playback_bar import PlaybackBar
from inspector.tui.widgets.stream_header import StreamHeader
from inspector.tui.text import notice, words

FPS = 30
"""Widget refreshes per second while the stream moves."""
EVERYWHERE = frozenset({"quit", "interrupt", "help", "cycle_theme"})
"""App actions that work on every screen; every other app binding belongs to the main screen."""
READING_FPS = 5
"""Refreshes per second of the playback bar's count while ``--instant`` reads (nothing else moves)."""
GC_FREEZE_EVERY = 2_000
"""Events between two ``gc.freeze()`` calls while a stream grows (see ``InspectorApp._gc_checkpoint``)."""


class InspectorApp(TerminalApp, QuitNow, StartTheme, App[int]):
    """The stream inspector. Build it with :func:`make_app`."""

    CSS_PATH = str(Path(__file__).with_name("app.tcss"))  # absolute: a subclass elsewhere finds it too
    TITLE = "stream-inspector"
    BINDINGS = [*(c.binding() for c in COMMANDS), INTERRUPT]
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS
    ALLOW_IN_MAXIMIZED_VIEW = "FittedFooter"  # ``z`` keeps the key bar (help, quit): Textual's default names its own Footer
    PANELS: tuple[Registration, ...] = (
        Registration(BlockList, "blocks", focus="blocks"),
        Registration(BlocksPane, "detail"),
        Registration(FindingsList, "findings", focus="findings"),
        Registration(EventLog, "log", focus="log"),
        Registration(StreamHeader, "header", slot="top", id="header"),
        Registration(PlaybackBar, "playback", slot="top", id="playback"),
    )
    """The panels of the main screen, in the order each frame reaches them (``inspector.tui.frame``):
    a panel added here with ``slot="top"`` is composed in the top band and receives its part."""

    class ChunksReceived(Message):
        """The worker fed more of the stream into the session (replaces any queued copy)."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, InspectorApp.ChunksReceived)

    class StreamClosed(Message):
        """The worker reached the end of the stream (or stopped at a seek target)."""

    def __init__(self, feeds: list[Feed], *, title: str | None = None, theme: str | None = None,
                 paused: bool = False, pretty: bool = False, open_options: dict | None = None) -> None:
        super().__init__()
        if not feeds:
            raise ValueError("make_app needs at least one source")
        self.feeds = feeds
        self.open_options = dict(open_options or {})
        """``ReplayFeed`` options for captures opened from inside the app (dialect, stall_s, speed)."""
        self.feed_index = 0
        self.start_paused = paused
        self.pretty = pretty
        """Show tool arguments as pretty partial JSON (``j``)."""
        self.show_schema = False
        """Show each tool call's declared schema and the paths it breaks (``d``)."""
        if title:
            self.title = words(title)
        self.inspector_themes = load_themes()
        for t in self.inspector_themes.values():
            self.register_theme(t)
        self.start_theme(self._theme_name(theme or DEFAULT_THEME))
        self._dirty = True
        self._frames = FrameBuilder()
        self.frame: FrameState | None = None
        """The view state the last frame handed to the panels."""
        self._state_panels: list[tuple[StatePanel, Part]] = []
        """Widgets that receive their part of each frame's view state (``register_panel``)."""
        self._generation: tuple[int, int] | None = None
        self._frozen_at = 0
        self.failure: str | None = None
        """Why the app ended without showing the capture it was started with (one line), if it did."""
        self.feeding = FeedControl(self)
        self.opening = CaptureOpening(self)
        self.copying = CopySave(self)
        self.routing = PanelRouting(self)
        self.boxes = SearchControl(self)
        self._reading_drawn = 0.0
        """When the count was last shown while ``--instant`` reads (monotonic seconds)."""
        self.pending_pointer: int | None = None
        """Event to select in the log once the running seek finished (``g``)."""

    def _theme_name(self, name: str) -> str:
        known = list(self.available_themes)
        resolved = resolve_theme_name(name, known)
        if resolved is None:
            raise ValueError(f"unknown theme {name!r}; known: {', '.join(sorted(self.inspector_themes))}")
        return resolved


    @property
    def feed(self) -> Feed:
        return self.feeds[self.feed_index]

    # ------------------------------------------------------------------ keys per screen
    @property
    def on_main_screen(self) -> bool:
        """No other screen (help, explain, timeline, compare...) is over the inspector; the
        command palette does not count (it runs the main screen's commands)."""
        return all(isinstance(s, CommandPalette) for s in self.screen_stack[1:])

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Each screen owns its keys: the inspector's bindings are off (and out of the footer)
        while another screen is shown, except :data:`EVERYWHERE`."""
        if action not in EVERYWHERE and not self.on_main_screen and action in self._main_actions():
            return False
        return self.feeding.check_action(action)

    def _main_actions(self) -> set[str]:
        """Actions bound by this class and its inspector bases (not Textual's own app bindings)."""
        return {b.action.split("(")[0] for cls in type(self).__mro__ if issubclass(cls, InspectorApp)
                for b in cls.__dict__.get("BINDINGS", ())}

    # ------------------------------------------------------------------ layout
    def get_default_screen(self) -> Screen:
        screen = super().get_default_screen()
        screen.update_classes(breakpoint_classes(self.size), update=False)  # styled once, not again at the first resize
        return screen

    def compose(self) -> ComposeResult:
        for r in self.PANELS:
            if r.slot == "top":
                yield r.widget(id=r.id)
        with Horizontal(id="main"):
            yield BlocksPane(id="blocks")
            with Vertical(id="side"):
                with Pane(id="findings-pane"):
                    yield Input(placeholder="filter findings: code, name or text (esc closes)", id="finding-filter",
                                classes="-hidden")
                    yield FindingsList(id="findings")
                with Pane(id="log-pane"):
                    yield EventLog(id="log")
                    yield Input(placeholder="search events (enter: next, esc: close)", id="search", classes="-hidden")
        yield FittedFooter()

    def on_mount(self) -> None:
        if self._exit:
            return  # Ctrl+C while starting: the widgets may be gone already
        self.query_one("#findings-pane").border_title = "Findings"
        self.query_one("#log-pane").border_title = "Events"
        for r in self.PANELS:
            for widget in self.query(r.widget):
                if not isinstance(widget, StatePanel):
                    raise TypeError(f"{type(widget).__name__} is registered as a panel but has no receive()")
                self.register_panel(widget, r.part)
        self.set_interval(1 / FPS, self._tick, name="frame")
        self.query_one(FindingsList).focus()
        self.feeding.start()

    # ------------------------------------------------------------------ feeding




    def on_inspector_app_chunks_received(self, _: ChunksReceived) -> None:
        self._dirty = True

    def on_inspector_app_stream_closed(self, _: StreamClosed) -> None:
        try:
            self._stream_closed()
        except NoMatches:
            pass  # the stream ended while the app was tearing its widgets down (q, Ctrl+C)

    def _stream_closed(self) -> None:
        self._dirty = True
        self._render_frame()
        if self.pending_pointer is not None:
            n, self.pending_pointer = self.pending_pointer, None
            self.query_one(EventLog).center_on(n)

    def _tick(self) -> None:
        try:
            self._tick_frame()
        except NoMatches:
            pass  # the frame timer fired while the app was tearing its widgets down

    def _tick_frame(self) -> None:
        feed = self.feed
        if self.feeding.seeking:
            # Rebuilding a session: repainting every half-built state would only slow it down.
            self._hand("playback", transport_state(feed, self._view_flags(), "⟳ seeking", feed.event_count))
            return
        if feed.paused and not feed.seekable:
            return
        moving = not feed.paused and not feed.finished
        if self._reading_instant():
            # --instant: the final state is drawn once, when the stream has ended (StreamClosed);
            # meanwhile only the count moves, a few times a second, so the reading is not slowed
            # by frames nobody reads.
            now = time.monotonic()
            if now - self._reading_drawn < 1 / READING_FPS:
                return
            self._reading_drawn = now
            events = len(feed.session.events) if feed.reading is None else feed.reading
            self._hand("playback", transport_state(feed, self._view_flags(), "⟳ reading", events))
            return
        if self._dirty or moving:
            self._render_frame()

    # ------------------------------------------------------------------ frame
    def refresh_now(self) -> None:
        """Bring every widget up to date with the session right away (tests and seeks)."""
        self._render_frame()

    def render_frame(self) -> None:
        """Draw a frame now (after a key changed what is shown)."""
        self._render_frame()

    def mark_dirty(self) -> None:
        """Draw a frame at the next tick even if the stream does not move."""
        self._dirty = True

    def forget_frame(self) -> None:
        """Build the next frame afresh (another feed is shown)."""
        self._generation = (-1, -1)

    def _reading_instant(self) -> bool:
        """``--instant`` is feeding the stream: the final state is drawn once, when it has ended."""
        feed = self.feed
        return feed.instant and not feed.paused and not feed.finished and not feed.loading

    def _render_frame(self) -> None:
        if self._reading_instant():
            self._dirty = True  # a key meanwhile (follow, json...) shows in the final frame
            return
        self._dirty = False
        feed = self.feed
        s = feed.session
        gen = (self.feed_index, feed.generation)
        if gen != self._generation:
            if self._generation is not None:
                gc.unfreeze()  # the replaced session may be cyclic garbage now: let the collector see it
            self._generation = gen
            self._frozen_at = 0
            self._frames.reset(hash(gen))
        self._gc_checkpoint(len(s.events))
        self._sync_panels(s)
        self._update_titles()
        if isinstance(self.screen, TimelineScreen):
            self._update_timeline(self.screen)

    def _view_flags(self) -> ViewFlags:
        return ViewFlags(self.feed_index, len(self.feeds), self.pretty, self.show_schema,
                         self.query_one(EventLog).follow)

    def _sync_panels(self, s) -> None:
        """Build this frame's view state from the feed's session ``s`` and hand every registered
        panel its part, in registration order."""
        frame = self._frames.build(self.feed, s, self._view_flags())
        self.frame = frame
        for panel, part in self._state_panels:
            panel.receive(getattr(frame, part))

    def _hand(self, part: Part, state: object) -> None:
        """Hand ``state`` to the panels that receive ``part`` (a frame that draws only that part)."""
        for panel, p in self._state_panels:
            if p == part:
                panel.receive(state)

    def register_panel(self, panel: StatePanel, part: Part = "blocks") -> None:
        """Hand ``panel`` its ``part`` of each frame's view state from now on (the app registers
        :attr:`PANELS` when it mounts)."""
        if all(panel is not p for p, _ in self._state_panels):
            self._state_panels.append((panel, part))

    @property
    def blocks_state(self) -> BlocksState | None:
        """The blocks' view state the last frame handed to the panels."""
        return None if self.frame is None else self.frame.blocks

    @staticmethod
    def _silence(feed, s) -> float | None:
        return silence(feed, s)

    def _gc_checkpoint(self, events: int) -> None:
        """Keep full garbage collections short while a big stream accumulates.

        A session of tens of thousands of events is millions of long-lived objects; every
        generation-2 collection scans them all (300 ms and more at 50 000 deltas), freezing the UI
        and delaying key presses. Freezing what exists every ``GC_FREEZE_EVERY`` events takes it
        out of those scans; objects that die later are still freed by reference counting, and
        ``gc.unfreeze()`` on a new session hands cyclic leftovers back to the collector.
        """
        if events - self._frozen_at >= GC_FREEZE_EVERY:
            self._frozen_at = events
            gc.freeze()

    def update_titles(self) -> None:
        """The findings and events panes' borders (counts, filter, search)."""
        self._update_titles()

    def _update_titles(self) -> None:
        try:
            self._set_titles()
        except NoMatches:
            pass  # a message handled while the app tears its widgets down (q, Ctrl+C)

    def _set_titles(self) -> None:
        fl = self.query_one(FindingsList)
        c = dict(self.frame.header.counts) if self.frame is not None else {}
        title = "Findings  " + "  ".join(f"{MARKS[s]} {c.get(s, 0)}" for s in WORST_FIRST)
        filt = []
        if fl.min_severity != "info":
            filt.append(f"{fl.min_severity}+")
        if fl.text_filter:
            filt.append(f"“{fl.text_filter}”")
        total = sum(c.values())  # with a stall still open: it is listed, so it is counted
        sub = f"filter {' '.join(filt)} · {fl.shown}/{total} · esc clears" if filt else (
            "i: explain · v: severity" if total else "no findings")
        pane = self.query_one("#findings-pane")
        set_border(pane, title, sub)
        # stacked and short, the column holds what the findings pane shows and the log's rows
        side = self.query_one("#side")
        side.set_class(fl.shown > 0, "-listing")
        side.set_class(not self.query_one("#finding-filter").has_class("-hidden"), "-filtering")
        log = self.query_one(EventLog)
        box = self.query_one("#search", Input)
        if box.has_class("-nomatch") and not box.has_class("-hidden"):
            # also here: a short terminal draws the box without the border that says it
            search = f"no event contains “{box.value}” · esc closes"
        else:
            search = f"search “{log.search}” · n/N · esc clears" if log.search else ""
        set_border(self.query_one("#log-pane"), "Events", search)

    def _update_timeline(self, screen: TimelineScreen) -> None:
        feed, s = self.feed, self.feed.session
        start = 0.0 if s.request_relative or s.first_byte_t is None else s.first_byte_t
        end = feed.duration if feed.duration is not None else (s.last_byte_t or start + 1.0)
        now = feed.now() if not feed.finished else None
        screen.update_from(s, label=feed.label, start=start, end=end or start + 1.0, now=now)

    # ------------------------------------------------------------------ actions: playback












    # ------------------------------------------------------------------ what tests and callers use
    @property
    def seek_target(self) -> int | None:
        """The newest event asked for by a seek still running (None: no seek pending)."""
        return self.feeding.seek_target

    def select_feed(self, index: int, *, restart: bool = False, play: bool = True) -> None:
        """Show feed ``index`` (its panels rebuilt); ``restart`` plays a replay from its start;
        ``play`` False leaves a replay paused at its start (its total is still scanned).

        The public way to change streams (``[``/``]``, the proxy's exchange list, a file opened)."""
        self.feeding.select_feed(index, restart=restart, play=play)

    def jump_to_event(self, n: int) -> None:
        """Pause and show events 0..n, with event n selected in the log."""
        self.feeding.jump_to_event(n)

    def switch_source(self, step: int) -> None:
        """``]`` / ``[``: the next (``step`` 1) or previous (-1) stream, played from its start."""
        if len(self.feeds) >= 2:
            self.select_feed((self.feed_index + step) % len(self.feeds), restart=True)

    def open_capture(self, path: str | Path, *, entry: int | None = None) -> None:
        """Open ``path`` as one more stream and show it (read in the background)."""
        self.opening.open_path(Path(path), entry=entry)

    def save_capture(self, capture: Capture, path: Path) -> bool:
        """Write ``capture`` to ``path``; tell the user either way. True when written."""
        return self.copying.save_capture(capture, path)

    @property
    def _loading_timer(self) -> Timer | None:
        return self.opening.loading_timer

    @property
    def shown_blocks(self) -> list:
        """The session's blocks the list shows, in its order (tests compare it with ``session.blocks``)."""
        s = self.feed.session
        state = self.blocks_state
        return [] if state is None else [s.blocks[r.pos] for r in state.rows if r.pos < len(s.blocks)]

    @property
    def detail(self) -> BlockPanel:
        """The panel showing the highlighted block in full."""
        return self.query_one(BlockPanel)

    # ------------------------------------------------------------------ actions: playback (FeedControl)
    def action_toggle_pause(self) -> None:
        self.feeding.toggle_pause()

    def action_step_forward(self) -> None:
        self.feeding.step(1)

    def action_step_back(self) -> None:
        self.feeding.step(-1)

    def action_speed_up(self) -> None:
        self.feeding.change_speed(1)

    def action_speed_down(self) -> None:
        self.feeding.change_speed(-1)

    def action_restart(self) -> None:
        self.feeding.restart()

    def action_jump(self) -> None:
        self.feeding.ask_jump()

    def action_next_source(self) -> None:
        self.switch_source(1)

    def action_prev_source(self) -> None:
        self.switch_source(-1)

    def on_playback_bar_seek_requested(self, event: PlaybackBar.SeekRequested) -> None:
        self.feeding.seek_fraction(event.fraction)

    # ------------------------------------------------------------------ actions: blocks and findings (PanelRouting)
    def action_collapse_all(self) -> None:
        self.routing.collapse_all()

    def action_focus_pane(self, name: str) -> None:
        self.routing.focus_pane(name)

    def action_explain(self) -> None:
        self.routing.explain()

    def on_event_log_event_chosen(self, event: EventLog.EventChosen) -> None:
        self.routing.show_event(event.index)

    def on_findings_list_chosen(self, event: FindingsList.Chosen) -> None:
        self.routing.jump_to_finding(event.finding)

    def on_findings_list_explain_requested(self, event: FindingsList.ExplainRequested) -> None:
        self.routing.explain_finding(event.finding)

    # ------------------------------------------------------------------ actions: boxes (SearchControl)
    def action_search(self) -> None:
        self.boxes.open_search()

    def action_filter(self) -> None:
        self.boxes.open_filter()

    def action_cycle_severity(self) -> None:
        self.boxes.cycle_severity()

    def on_key(self, event: events.Key) -> None:
        self.boxes.key(event)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.boxes.submitted(event)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.boxes.changed(event)

    def on_findings_list_filter_changed(self) -> None:
        self._update_titles()

    def on_event_log_search_cleared(self) -> None:
        self._update_titles()

    # ------------------------------------------------------------------ actions: files (CaptureOpening, CopySave)
    def action_open(self) -> None:
        self.opening.ask_open()

    def action_copy(self) -> None:
        self.copying.copy()

    def action_save(self) -> None:
        self.copying.ask_save()

    # ------------------------------------------------------------------ actions: views
    def action_toggle_json(self) -> None:
        self.pretty = not self.pretty
        self._render_frame()

    def action_toggle_schema(self) -> None:
        self.show_schema = not self.show_schema
        self._render_frame()

    def action_toggle_follow(self) -> None:
        log = self.query_one(EventLog)
        log.set_follow(not log.follow)
        self._render_frame()

    def action_maximize_pane(self) -> None:
        """Give the focused pane the whole screen, or put it back."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif self.focused is None or not screen.maximize(self.focused):
            self.notify("Focus a pane first (1 blocks, 2 findings, 3 events), then z.", timeout=3)

    def action_compare_eager(self) -> None:
        if isinstance(self.screen, CompareScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(bundled_compare_screen())

    def action_timeline(self) -> None:
        if isinstance(self.screen, TimelineScreen):
            self.screen.dismiss(None)
            return
        screen = TimelineScreen()
        self.push_screen(screen)
        self.call_after_refresh(self._update_timeline, screen)

    # ------------------------------------------------------------------ help, palette, themes
    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(self.help_groups() if self.on_main_screen else screen_help_groups(self.screen)))

    def help_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Every binding, grouped by where it works (built from the binding tables)."""
        return main_help_groups()

    def action_cycle_theme(self) -> None:
        names = list(self.inspector_themes)
        if not names:
            return
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.notify(notice(f"theme: {self.theme}"), timeout=1.5)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for c in COMMANDS:
            if c.action in ("quit", "help"):
                if c.action == "help":
                    yield SystemCommand(c.title, c.help, partial(self.run_action, c.action))
                continue
            if self.check_action(c.action.split("(")[0], ()) is False:
                continue
            yield SystemCommand(c.title, c.help, partial(self.run_action, c.action))

    # ------------------------------------------------------------------ messages from widgets
    def on_event_log_follow_changed(self) -> None:
        self._dirty = True

    def on_blocks_pane_needs_frame(self) -> None:
        self._dirty = True


def _as_feed(source, *, dialect: str | None, stall_s: float) -> Feed:
    if isinstance(source, Capture):
        return ReplayFeed(source, dialect=dialect, stall_s=stall_s)
    if isinstance(source, (str, Path)):
        return ReplayFeed(load_path(source), dialect=dialect, stall_s=stall_s, label=Path(source).name)
    if callable(source) or isinstance(source, AsyncIterator):
        return LiveFeed(source, dialect=dialect, stall_s=stall_s)
    if hasattr(source, "session") and hasattr(source, "play"):
        return source  # already a feed
    raise TypeError(f"not a stream source: {source!r}")


def make_app(*sources: Feed | Capture | str | Path | Callable[[], AsyncIterator] | AsyncIterator,
             title: str | None = None, theme: str | None = None, paused: bool = False, pretty: bool = False,
             dialect: str | None = None, stall_s: float = 10.0) -> InspectorApp:
    """The inspector app over one or more streams (``[`` / ``]`` switch between them).

    ``sources``: a feed (``inspector.feeds``: a seekable ``ReplayFeed``, a ``LiveFeed``...), a
    ``Capture`` or a capture path (wrapped in a ``ReplayFeed``), or a live source: an async iterator of ``Head``/``Chunk``/``End``
    or a callable returning one (restartable). ``theme``: a theme name or its short form
    (``dark``, ``light``, ``high-contrast``); raises ``ValueError`` for an unknown one.
    ``paused``: replays start paused at event 0 (tests seek from there deterministically).
    """
    feeds = [_as_feed(s, dialect=dialect, stall_s=stall_s) for s in sources]
    return InspectorApp(feeds, title=title, theme=theme, paused=paused, pretty=pretty,
                        open_options={"dialect": dialect, "stall_s": stall_s})
