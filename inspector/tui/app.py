"""The inspector TUI: block panels, findings, the raw event log, playback controls, themes.

Why this module exists: it is the one place where a session (owned by a feed:
``inspector.feeds``) meets the screen. The flow follows DESIGN.md, "The TUI":

- the session is fed in a worker (``@work(exclusive=True, group="feed")``) in time-budgeted
  batches; after each batch the worker posts :class:`InspectorApp.ChunksReceived`, a message
  that replaces any queued copy of itself (``can_replace``), so a burst never floods the queue;
- widgets are refreshed from the session on a timer (``FPS`` frames per second), each widget
  skipping work when its part of the session did not change; nothing is updated per delta and
  nothing is recomposed;
- long content (event log, argument text) is rendered virtually (``render_line``).

:func:`make_app` is the single factory used by the CLI (``replay``, ``demo``, ``live``) and the
tests. Every command is a binding (listed in the footer and the help screen) and an entry in
the command palette (ctrl+p); one table, :data:`COMMANDS`, defines all three.
"""
from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input

from inspector.capture.load import load_path
from inspector.feeds.base import Feed
from inspector.feeds.live import LiveFeed
from inspector.feeds.replay import ReplayFeed
from inspector.model.capture import Capture
from inspector.tui.screens.compare import CompareScreen, bundled_compare_screen
from inspector.tui.screens.finding_detail import FindingDetailScreen
from inspector.tui.screens.help import HelpScreen, key_text
from inspector.tui.screens.jump import JumpScreen
from inspector.tui.screens.timeline import TimelineScreen
from inspector.tui.themes import DEFAULT_THEME, load_themes, resolve_theme_name
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.widgets.playback_bar import PlaybackBar
from inspector.tui.widgets.stream_header import StreamHeader

FPS = 30
"""Widget refreshes per second while the stream moves."""
GC_FREEZE_EVERY = 2_000
"""Events between two ``gc.freeze()`` calls while a stream grows (see ``InspectorApp._gc_checkpoint``)."""
SPEEDS = (0.125, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
"""Speed steps for ``+`` / ``-``."""


@dataclass(frozen=True, slots=True)
class Command:
    """One user command: its keys, action, footer label and palette/help text."""

    keys: str
    action: str
    label: str
    title: str
    help: str
    show: bool = True
    key_display: str | None = None

    def binding(self) -> Binding:
        return Binding(self.keys, self.action, self.label, show=self.show, key_display=self.key_display,
                       tooltip=self.help)


COMMANDS: tuple[Command, ...] = (
    Command("space", "toggle_pause", "Pause", "Pause / resume", "Stop or continue playback (at the end: play again)"),
    Command("full_stop,right", "step_forward", "Step", "Step forward", "Show one more event (pauses; replay only)", key_display="."),
    Command("comma,left", "step_back", "Back", "Step back",
            "Show one event fewer: the session is rebuilt from the capture (pauses; replay only)", key_display=","),
    Command("plus,equals_sign", "speed_up", "Faster", "Speed up", "Next faster playback speed", show=False,
            key_display="+"),
    Command("minus", "speed_down", "Slower", "Slow down", "Next slower playback speed", show=False, key_display="-"),
    Command("r", "restart", "Restart", "Restart", "Play the stream again from the start (replay only)", show=False),
    Command("g", "jump", "Go to", "Go to event…", "Jump to event N, forward or back (replay only)"),
    Command("f", "toggle_follow", "Follow", "Follow tail", "Keep the newest event in view in the event log",
            show=False),
    Command("t", "timeline", "Timeline", "Timeline", "When each block's bytes arrived, on one time axis"),
    Command("e", "compare_eager", "Eager", "Compare eager vs buffered (bundled example)",
            "A bundled example: one tool call with and without eager_input_streaming, on one time axis "
            "(your own pair: stream-inspector compare A B)", show=False),
    Command("j", "toggle_json", "JSON", "Pretty JSON / raw", "Show tool arguments as pretty partial JSON or raw text"),
    Command("slash", "search", "Search", "Search events…", "Search the raw event log (n / N: next / previous match)",
            key_display="/"),
    Command("x", "filter", "Filter", "Filter findings…", "Show only findings whose code, name or message contains text",
            show=False),
    Command("v", "cycle_severity", "Severity", "Cycle severity filter",
            "Show findings of every severity / warnings and errors / errors only", show=False),
    Command("i", "explain", "Explain", "Explain finding", "The highlighted finding's rule and what to do", show=False),
    Command("C", "collapse_all", "Collapse all", "Collapse / expand all blocks", "Fold every block panel or open them all",
            show=False),
    Command("1", "focus_pane('blocks')", "Blocks", "Focus blocks", "Move the focus to the block panels", show=False),
    Command("2", "focus_pane('findings')", "Findings", "Focus findings", "Move the focus to the findings list",
            show=False),
    Command("3", "focus_pane('log')", "Events", "Focus event log", "Move the focus to the raw event log", show=False),
    Command("right_square_bracket", "next_source", "Next", "Next stream", "Switch to the next bundled stream",
            show=False, key_display="]"),
    Command("left_square_bracket", "prev_source", "Previous", "Previous stream",
            "Switch to the previous bundled stream", show=False, key_display="["),
    Command("question_mark,f1", "help", "Help", "Help", "List every key binding", key_display="?"),
    Command("ctrl+t", "cycle_theme", "Theme", "Next theme", "Cycle through the inspector's themes", show=False),
    Command("q", "quit", "Quit", "Quit", "Leave stream-inspector"),
)


class BlocksPane(VerticalScroll, inherit_bindings=False):
    """The scrolling column of block panels (no left/right bindings: those step the playback)."""

    BINDINGS = [
        Binding("up", "scroll_up", "Scroll up", show=False),
        Binding("down", "scroll_down", "Scroll down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
    ]


class InspectorApp(App[int]):
    """The stream inspector. Build it with :func:`make_app`."""

    CSS_PATH = "app.tcss"
    TITLE = "stream-inspector"
    BINDINGS = [c.binding() for c in COMMANDS]

    class ChunksReceived(Message):
        """The worker fed more of the stream into the session (replaces any queued copy)."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, InspectorApp.ChunksReceived)

    class StreamClosed(Message):
        """The worker reached the end of the stream (or stopped at a seek target)."""

    def __init__(self, feeds: list[Feed], *, title: str | None = None, theme: str | None = None,
                 paused: bool = False, pretty: bool = False) -> None:
        super().__init__()
        if not feeds:
            raise ValueError("make_app needs at least one source")
        self.feeds = feeds
        self.feed_index = 0
        self.start_paused = paused
        self.pretty = pretty
        """Show tool arguments as pretty partial JSON (``j``)."""
        if title:
            self.title = title
        self.inspector_themes = load_themes()
        for t in self.inspector_themes.values():
            self.register_theme(t)
        self.theme = self._theme_name(theme or DEFAULT_THEME)
        self._dirty = True
        self._panels: list[BlockPanel] = []
        self._generation: tuple | None = None
        self._findings_routed = 0
        self._counts: dict[str, int] = {}
        self._counted = 0
        self._all_collapsed = False
        self._frozen_at = 0
        self._seeking = False
        """A seek worker is rebuilding the session (frames show only the transport line)."""
        self._pending_pointer: int | None = None
        """Event to select in the log once the running seek finished (``g``)."""

    def _theme_name(self, name: str) -> str:
        known = list(self.available_themes)
        resolved = resolve_theme_name(name, known)
        if resolved is None:
            raise ValueError(f"unknown theme {name!r}; known: {', '.join(sorted(self.inspector_themes))}")
        return resolved

    @property
    def panels(self) -> list[BlockPanel]:
        """The block panels in ``session.blocks`` order (removed ones excluded even before unmounting)."""
        return list(self._panels)

    @property
    def feed(self) -> Feed:
        return self.feeds[self.feed_index]

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield StreamHeader(id="header")
        yield PlaybackBar(id="playback")
        with Horizontal(id="main"):
            yield BlocksPane(id="blocks")
            with Vertical(id="side"):
                with Vertical(id="findings-pane"):
                    yield Input(placeholder="filter findings: code, name or text (esc closes)", id="finding-filter",
                                classes="-hidden")
                    yield FindingsList(id="findings")
                with Vertical(id="log-pane"):
                    yield EventLog(id="log")
                    yield Input(placeholder="search events (enter: next, esc: close)", id="search", classes="-hidden")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#findings-pane").border_title = "Findings"
        self.query_one("#log-pane").border_title = "Events"
        self.set_interval(1 / FPS, self._tick, name="frame")
        self.query_one(FindingsList).focus()
        self._start_feed()

    # ------------------------------------------------------------------ feeding
    def _start_feed(self) -> None:
        gc.freeze()  # what exists now (a replay's pre-run session included) lives as long as the app
        feed = self.feed
        if self.start_paused and feed.seekable:
            feed.pause()
            self._render_frame()
            return
        self._play()

    def _posted(self) -> None:
        self.post_message(self.ChunksReceived())

    @work(exclusive=True, group="feed")
    async def _play(self) -> None:
        feed = self.feed
        feed.resume()
        await feed.play(self._posted)
        self.post_message(self.StreamClosed())

    @work(exclusive=True, group="feed")
    async def _seek(self, n: int) -> None:
        feed = self.feed
        if not feed.seekable:
            return
        feed.pause()
        self._seeking = True
        try:
            await feed.aseek_event(n)
        finally:
            self._seeking = False
        self.post_message(self.StreamClosed())

    def on_inspector_app_chunks_received(self, _: ChunksReceived) -> None:
        self._dirty = True

    def on_inspector_app_stream_closed(self, _: StreamClosed) -> None:
        self._dirty = True
        self._render_frame()
        if self._pending_pointer is not None:
            n, self._pending_pointer = self._pending_pointer, None
            self.query_one(EventLog).center_on(n)

    def _tick(self) -> None:
        try:
            self._tick_frame()
        except NoMatches:
            pass  # the frame timer fired while the app was tearing its widgets down

    def _tick_frame(self) -> None:
        feed = self.feed
        if self._seeking:
            # Rebuilding a session: repainting every half-built state would only slow it down.
            self.query_one(PlaybackBar).show(
                play="⟳ seeking", speed=feed.speed, instant=feed.instant, events=feed.event_count,
                total=feed.total_events, now=None, duration=None, follow=False,
                sources=len(self.feeds), source_index=self.feed_index, live=False)
            return
        if feed.paused and not feed.seekable:
            return
        moving = not feed.paused and not feed.finished
        if self._dirty or moving:
            self._render_frame()

    # ------------------------------------------------------------------ frame
    def refresh_now(self) -> None:
        """Bring every widget up to date with the session right away (tests and seeks)."""
        self._render_frame()

    def _render_frame(self) -> None:
        self._dirty = False
        feed = self.feed
        s = feed.session
        gen = (self.feed_index, feed.generation)
        if gen != self._generation:
            if self._generation is not None:
                gc.unfreeze()  # the replaced session may be cyclic garbage now: let the collector see it
            self._generation = gen
            self._frozen_at = 0
            self._findings_routed = 0
            self._counts = {}
            self._counted = 0
        self._gc_checkpoint(len(s.events))
        for f in s.findings[self._counted:]:
            self._counts[f.severity] = self._counts.get(f.severity, 0) + 1
        self._counted = len(s.findings)
        self._sync_panels(s)
        findings = self.query_one(FindingsList)
        findings.sync(s.findings, hash(gen))
        self.query_one(EventLog).sync(s.events, s.findings, hash(gen), s.dialect_name if s.dialect else None)
        self._update_titles()
        self.query_one(StreamHeader).show(
            label=feed.label, dialect=None if s.dialect is None else s.dialect_name, model=s.model,
            stop_reason=s.stop_reason, elapsed=feed.now(), counts=self._counts, state=self._state_word())
        self.query_one(PlaybackBar).show(
            play=self._play_word(), speed=feed.speed, instant=feed.instant, events=len(s.events),
            total=feed.total_events, now=feed.now(), duration=feed.duration, follow=self.query_one(EventLog).follow,
            sources=len(self.feeds), source_index=self.feed_index, live=not feed.seekable,
            silence=self._silence(feed, s), stall=s.stall_s)
        if isinstance(self.screen, TimelineScreen):
            self._update_timeline(self.screen)

    @staticmethod
    def _silence(feed, s) -> float | None:
        """Seconds without a byte up to now, while the stream is open (a stall in progress)."""
        now = feed.now()
        if now is None or s.closed:
            return None
        last = s.last_byte_t if s.last_byte_t is not None else (0.0 if s.request_relative else None)
        return None if last is None else max(0.0, now - last)

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

    def _state_word(self) -> str:
        feed, s = self.feed, self.feed.session
        if feed.error:
            return "source failed"
        if s.closed:
            return "ended" if s.end is None or s.end.kind == "eof" else f"ended ({s.end.kind})"
        return "streaming" if s.events or s.bytes_received else "waiting"

    def _play_word(self) -> str:
        feed = self.feed
        if feed.finished:
            return "■ ended"
        return "‖ paused" if feed.paused else "▶ playing"

    def _sync_panels(self, s) -> None:
        pane = self.query_one("#blocks", BlocksPane)
        blocks = s.blocks
        if len(self._panels) > len(blocks):
            for p in self._panels[len(blocks):]:
                p.remove()
            del self._panels[len(blocks):]
        if len(blocks) > len(self._panels):
            new = [BlockPanel(i) for i in range(len(self._panels), len(blocks))]
            for p in new:
                if self._all_collapsed:
                    p.add_class("-collapsed")
            self._panels.extend(new)
            pane.mount_all(new)
        for p, b in zip(self._panels, blocks):
            p.bind(b)
        if len(s.findings) > self._findings_routed:
            for f in s.findings[self._findings_routed:]:
                pos = self._block_position(s, f)
                if pos is not None:
                    self._panels[pos].add_finding(f)
            self._findings_routed = len(s.findings)
        moving = not self.feed.paused and not self.feed.finished
        for p in self._panels:
            if p.is_mounted:
                p.sync(self.pretty, throttle=moving)
            else:
                self._dirty = True  # not composed yet: fill it on the next frame
        _set_border(pane, "Blocks · " + ("pretty JSON" if self.pretty else "raw"), "no content blocks yet" if not blocks
                    else f"{len(blocks)} block{'s' if len(blocks) != 1 else ''}")

    def _block_position(self, s, f) -> int | None:
        """Which panel a finding belongs on: the block its event touched, else the last block with its index."""
        if f.index is None:
            return None
        target = None
        if f.event is not None and 0 <= f.event < len(s.events):
            b = s.block_of(s.events[f.event])
            if b is not None and b.index == f.index:
                target = b
        if target is None:
            for b in reversed(s.blocks):
                if b.index == f.index:
                    target = b
                    break
        return None if target is None else target.pos

    def _update_titles(self) -> None:
        fl = self.query_one(FindingsList)
        c = self._counts
        title = f"Findings  ✖ {c.get('error', 0)}  ▲ {c.get('warning', 0)}  ● {c.get('info', 0)}"
        filt = []
        if fl.min_severity != "info":
            filt.append(f"{fl.min_severity}+")
        if fl.text_filter:
            filt.append(f"“{fl.text_filter}”")
        total = self._counted
        sub = f"filter {' '.join(filt)} · {fl.shown}/{total}" if filt else ("i: explain · v: severity" if total
                                                                             else "no findings")
        pane = self.query_one("#findings-pane")
        _set_border(pane, title, sub)
        log = self.query_one(EventLog)
        _set_border(self.query_one("#log-pane"), "Events", f"search “{log.search}” n/N" if log.search else "")

    def _update_timeline(self, screen: TimelineScreen) -> None:
        feed, s = self.feed, self.feed.session
        start = 0.0 if s.request_relative or s.first_byte_t is None else s.first_byte_t
        end = feed.duration if feed.duration is not None else (s.last_byte_t or start + 1.0)
        now = feed.now() if not feed.finished else None
        screen.update_from(s, label=feed.label, start=start, end=end or start + 1.0, now=now)

    # ------------------------------------------------------------------ actions: playback
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("next_source", "prev_source"):
            return len(self.feeds) > 1
        if action in ("speed_up", "speed_down"):
            return True if self.feed.seekable else None
        return True

    def _replay_only(self) -> bool:
        """True when the feed can seek; otherwise say why the key does nothing here."""
        if self.feed.seekable:
            return True
        self.notify("Stepping and seeking work in replay: record this stream with --record, then "
                    "`stream-inspector replay FILE`.", title="live stream", timeout=4)
        return False

    def action_toggle_pause(self) -> None:
        feed = self.feed
        if not feed.seekable:
            feed.resume() if feed.paused else feed.pause()
            self._dirty = True
            self._render_frame()
            return
        if feed.finished:
            self.action_restart()
        elif feed.paused:
            self._play()
        else:
            feed.pause()
        self._render_frame()

    def _seek_to(self, n: int) -> None:
        """Pause and show events 0..n (a worker: a rebuild of a huge capture keeps the app responsive)."""
        self.feed.pause()
        self._seek(n)

    def action_step_forward(self) -> None:
        feed = self.feed
        if self._replay_only():
            self._seek_to(feed.event_count)

    def action_step_back(self) -> None:
        feed = self.feed
        if self._replay_only():
            self._seek_to(feed.event_count - 2)

    def action_speed_up(self) -> None:
        self._change_speed(1)

    def action_speed_down(self) -> None:
        self._change_speed(-1)

    def _change_speed(self, direction: int) -> None:
        feed = self.feed
        if not feed.seekable:
            return
        cur = feed.speed
        if direction > 0:
            nxt = next((s for s in SPEEDS if s > cur + 1e-9), SPEEDS[-1])
        else:
            nxt = next((s for s in reversed(SPEEDS) if s < cur - 1e-9), SPEEDS[0])
        feed.set_speed(nxt)
        self._dirty = True

    def action_restart(self) -> None:
        feed = self.feed
        if not feed.restartable:
            return
        feed.pause()
        feed.restart()
        self._render_frame()
        self._play()

    def action_jump(self) -> None:
        feed = self.feed
        if not self._replay_only():
            return

        def done(n: int | None) -> None:
            if n is not None:
                self.jump_to_event(n)

        self.push_screen(JumpScreen(feed.total_events - 1, feed.event_count), done)

    def jump_to_event(self, n: int) -> None:
        """Pause and show events 0..n, with event n selected in the log."""
        if not self.feed.seekable:
            return
        self._pending_pointer = n
        self._seek_to(n)

    # ------------------------------------------------------------------ actions: views
    def action_toggle_follow(self) -> None:
        log = self.query_one(EventLog)
        log.set_follow(not log.follow)
        self._render_frame()

    def action_toggle_json(self) -> None:
        self.pretty = not self.pretty
        self._render_frame()

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

    def action_search(self) -> None:
        box = self.query_one("#search", Input)
        box.remove_class("-hidden")
        box.value = self.query_one(EventLog).search
        box.focus()

    def action_filter(self) -> None:
        box = self.query_one("#finding-filter", Input)
        box.remove_class("-hidden")
        box.value = self.query_one(FindingsList).text_filter
        box.focus()

    def action_cycle_severity(self) -> None:
        self.query_one(FindingsList).action_cycle_severity()

    def action_explain(self) -> None:
        cur = self.query_one(FindingsList).current()
        if cur is not None:
            self._explain(*cur)

    def action_collapse_all(self) -> None:
        self._all_collapsed = not self._all_collapsed
        for p in self._panels:
            p.set_collapsed(self._all_collapsed)
        self._render_frame()

    def action_focus_pane(self, name: str) -> None:
        target = {"blocks": "#blocks", "findings": "#findings", "log": "#log"}[name]
        if name == "blocks" and self._panels:
            self._panels[0].focus()
        else:
            self.query_one(target).focus()

    def action_next_source(self) -> None:
        self._switch_source(1)

    def action_prev_source(self) -> None:
        self._switch_source(-1)

    def _switch_source(self, step: int) -> None:
        if len(self.feeds) < 2:
            return
        self.select_feed((self.feed_index + step) % len(self.feeds), restart=True)

    def select_feed(self, index: int, *, restart: bool = False) -> None:
        """Show feed ``index`` (its panels rebuilt); ``restart`` plays a Playback from its start.

        The public way to change streams (``[``/``]``, the proxy's exchange list).
        """
        if not 0 <= index < len(self.feeds):
            return
        self.feed.pause()
        self.feed_index = index
        if restart and self.feed.seekable:
            self.feed.restart()
        for p in self._panels:
            p.remove()
        self._panels = []
        self._generation = (-1, -1)  # whatever was shown before, start this frame afresh
        self._render_frame()
        self._play()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(self.help_groups()))

    def action_cycle_theme(self) -> None:
        names = list(self.inspector_themes)
        if not names:
            return
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.notify(f"theme: {self.theme}", timeout=1.5)

    # ------------------------------------------------------------------ help & palette
    def help_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Every binding, grouped by where it works (built from the binding tables)."""
        groups = [("Everywhere", [(key_text(c.binding()), c.help) for c in COMMANDS])]
        groups[0][1].append(("ctrl+p", "Command palette: every command by name"))
        groups[0][1].append(("tab / shift+tab", "Move the focus between panes"))
        for title, bindings in (("Findings list", FindingsList.BINDINGS), ("Event log", EventLog.BINDINGS),
                                ("Block panel", BlockPanel.BINDINGS)):
            rows = [(key_text(b), b.tooltip or b.description) for b in bindings]
            if title == "Findings list":
                rows = [("up / down", "Move the highlight"), ("enter / click", "Jump to the event and the block")] + rows
            groups.append((title, rows))
        groups.append(("Search box / filter box", [("enter", "Next match"), ("esc", "Close the box")]))
        return groups

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
    @on(FindingsList.Chosen)
    def _finding_chosen(self, event: FindingsList.Chosen) -> None:
        self.jump_to_finding(event.finding)

    @on(FindingsList.ExplainRequested)
    def _finding_explain(self, event: FindingsList.ExplainRequested) -> None:
        self._explain(event.finding, event.position)

    @on(FindingsList.FilterChanged)
    def _filter_changed(self) -> None:
        self._update_titles()

    def _explain(self, finding, position: int) -> None:
        s = self.feed.session
        ev = s.events[finding.event] if finding.event is not None and 0 <= finding.event < len(s.events) else None

        def done(jump: bool | None) -> None:
            if jump:
                self.jump_to_finding(finding)

        self.push_screen(FindingDetailScreen(finding, ev), done)

    def jump_to_finding(self, finding) -> None:
        """Select the finding's event in the log and bring its block panel into view, highlighted."""
        s = self.feed.session
        log = self.query_one(EventLog)
        if finding.event is not None:
            log.center_on(finding.event)
        pos = self._block_position(s, finding)
        if pos is None and finding.event is not None and 0 <= finding.event < len(s.events):
            b = s.block_of(s.events[finding.event])
            pos = b.pos if b is not None else None
        self._target_panel(pos)
        self._render_frame()

    def _target_panel(self, pos: int | None) -> None:
        for i, p in enumerate(self._panels):
            p.set_class(i == pos, "-target")
        if pos is not None and pos < len(self._panels):
            panel = self._panels[pos]
            if panel.collapsed:
                panel.set_collapsed(False)
            self.query_one("#blocks", BlocksPane).scroll_to_widget(panel, animate=False, top=True)

    @on(EventLog.EventChosen)
    def _event_chosen(self, event: EventLog.EventChosen) -> None:
        s = self.feed.session
        if 0 <= event.index < len(s.events):
            b = s.block_of(s.events[event.index])
            pos = b.pos if b is not None else None
            self._target_panel(pos)
            if pos is not None:
                self._panels[pos].focus()

    @on(EventLog.FollowChanged)
    def _follow_changed(self) -> None:
        self._dirty = True

    @on(PlaybackBar.SeekRequested)
    def _bar_seek(self, event: PlaybackBar.SeekRequested) -> None:
        feed = self.feed
        if feed.seekable and feed.total_events:
            self.jump_to_event(round(event.fraction * (feed.total_events - 1)))

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        log = self.query_one(EventLog)
        if not event.value:
            log.clear_search()
            self._close_box(event.input)
            return
        if log.find(event.value, 1, include_current=log.search != event.value) is None:
            self.notify(f"no event contains “{event.value}”", severity="warning", timeout=2)
        self._update_titles()

    @on(Input.Changed, "#finding-filter")
    def _filter_typed(self, event: Input.Changed) -> None:
        self.query_one(FindingsList).set_filter(text=event.value)

    @on(Input.Submitted, "#finding-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self._close_box(event.input)
        self.query_one(FindingsList).focus()

    def _close_box(self, box: Input) -> None:
        box.add_class("-hidden")
        (self.query_one(EventLog) if box.id == "search" else self.query_one(FindingsList)).focus()

    def on_key(self, event) -> None:
        if event.key == "escape" and isinstance(self.focused, Input) and self.focused.id in ("search", "finding-filter"):
            event.stop()
            self._close_box(self.focused)



def _set_border(widget, title: str, subtitle: str) -> None:
    """Set a pane's border title/subtitle only when they changed (each change repaints the pane)."""
    if getattr(widget, "_si_border", None) != (title, subtitle):
        widget._si_border = (title, subtitle)
        widget.border_title = title
        widget.border_subtitle = subtitle


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
    return InspectorApp(feeds, title=title, theme=theme, paused=paused, pretty=pretty)
