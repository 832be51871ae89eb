"""Feed control of the inspector: play, pause, step, seek, speed, restart, switch streams.

A controller composed into ``InspectorApp`` (``app.feeding``): it drives the feed the app shows
(``app.feeds[app.feed_index]``) with workers it starts on the app. Every feed speaks ``inspector.feeds.base.Feed``; what a key can do on it
is asked (``seekable``, ``restartable``), never read from its type. Feeding runs in exclusive
workers (``group="feed"``); each batch posts ``ChunksReceived`` (replaceable), the end
``StreamClosed``.

Seeks accumulate: a step, ``g`` or a click sets :attr:`FeedControl.seek_target` and starts a seek
worker that replaces (cancels) the running one; the next step counts from that target, not from
what is shown yet, so five quick ``.`` presses from event 2 land on event 7 however long each
seek takes.
"""
from __future__ import annotations

import gc
from functools import partial
from typing import TYPE_CHECKING

from textual.worker import WorkType

from inspector.capture.memory import MemoryLimitReached
from inspector.tui.screens.jump import JumpScreen

if TYPE_CHECKING:
    from inspector.tui.app import InspectorApp

SPEEDS = (0.125, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
"""Speed steps for ``+`` / ``-``."""


class FeedControl:
    """The playback keys and the feed workers (see the module docstring)."""

    def __init__(self, app: InspectorApp) -> None:
        self.app = app
        self.seek_target: int | None = None
        """The newest event asked for by a seek still running (None: no seek pending)."""
        self.seeking = False
        """A seek worker is rebuilding the session (frames show only the transport line)."""

    def start(self) -> None:
        """Show the first feed: read what is still a file, learn a replay's total, play (or pause at 0)."""
        app = self.app
        gc.freeze()  # what exists now (a replay's pre-run session included) lives as long as the app
        feed = app.feed
        if any(f.loading for f in app.feeds):
            app.opening.open_pending()
        if feed.loading:
            app.opening.show_blocks_loading(True)
            app.render_frame()
            return
        self.scan()
        if app.start_paused and feed.seekable:
            feed.pause()
            app.render_frame()
            return
        self.play()

    def _run(self, work: WorkType[None], name: str, group: str) -> None:
        """Run ``work`` in a worker of the app that replaces the running one of ``group``."""
        self.app.run_worker(work, name=name, group=group, exclusive=True)

    def scan(self) -> None:
        """Learn the total of a replay in small background batches (the seek bar and ``g`` use it)."""
        self._run(self._scan, "_scan", "scan")

    async def _scan(self) -> None:
        feed = self.app.feed
        if feed.total_events is None and not feed.instant:
            try:
                await feed.ascan(self._posted)
            except MemoryLimitReached as e:
                self._over_memory(feed, e)

    def _posted(self) -> None:
        self.app.post_message(self.app.ChunksReceived())

    def play(self) -> None:
        """Play the feed shown from where it is (a worker: replaces a running play or seek)."""
        self._run(self._play, "_play", "feed")

    async def _play(self) -> None:
        feed = self.app.feed
        feed.resume()
        # --instant reads the whole stream at once: a full garbage collection over tens of
        # thousands of new event records would hold every key for a fifth of a second, so the
        # collector waits until the end (as ``check`` does); the records then live on, frozen.
        paused_gc = feed.instant and gc.isenabled()
        if paused_gc:
            gc.disable()
        try:
            await feed.play(self._posted)
        except MemoryLimitReached as e:
            self._over_memory(feed, e)
            return
        finally:
            if paused_gc:
                gc.enable()
                gc.freeze()
        self.app.post_message(self.app.StreamClosed())

    async def _seek(self, n: int) -> None:
        feed = self.app.feed
        if not feed.seekable:
            return
        feed.pause()
        self.seeking = True
        try:
            await feed.aseek_event(n)
        except MemoryLimitReached as e:
            self._over_memory(feed, e)
            return
        finally:
            self.seeking = False
        if self.seek_target == n:
            self.seek_target = None
        self.app.post_message(self.app.StreamClosed())

    def _over_memory(self, feed, e: MemoryLimitReached) -> None:
        """Reading ``feed`` went over the memory limit (``--max-memory``): as a capture that cannot be
        opened, the app ends with the one line (exit 2), or, beside other streams, that one is dropped."""
        feed.pause()
        self.app.opening.failed(feed, str(e.named(feed.label)))

    def check_action(self, action: str) -> bool | None:
        """``check_action`` for the playback keys: greyed out (None) or hidden (False) when they do nothing."""
        app = self.app
        if action in ("next_source", "prev_source"):
            return len(app.feeds) > 1
        if action in ("speed_up", "speed_down"):
            return True if app.feed.seekable else None
        return True

    def _replay_only(self) -> bool:
        """True when the feed can seek; otherwise say why the key does nothing here."""
        if self.app.feed.seekable:
            return True
        self.app.notify("Stepping and seeking work on a replay: save this stream with s, then open it with o "
                        "(or `stream-inspector replay FILE`).", title="live stream", timeout=5)
        return False

    def position(self) -> int:
        """The newest event shown, or asked for by a pending seek (-1: none)."""
        return self.seek_target if self.seek_target is not None else self.app.feed.event_count - 1

    def toggle_pause(self) -> None:
        app = self.app
        feed = app.feed
        if not feed.seekable:
            feed.resume() if feed.paused else feed.pause()
            app.mark_dirty()
            app.render_frame()
            return
        if feed.finished:
            self.restart()
        elif feed.paused:
            self.seek_target = None  # playing on replaces a pending seek (the same worker group)
            self.play()
        else:
            feed.pause()
        app.render_frame()

    def seek_to(self, n: int) -> None:
        """Pause and show events 0..n (a worker: a rebuild of a huge capture keeps the app responsive).

        ``n`` is clamped to the capture (-1: before the first event) and becomes :attr:`seek_target`."""
        feed = self.app.feed
        total = feed.total_events
        n = max(-1, n if total is None else min(n, total))  # total: everything, the end included
        feed.pause()
        self.seek_target = n
        self._run(partial(self._seek, n), "_seek", "feed")

    def step(self, delta: int) -> None:
        """Show ``delta`` events more (or fewer, when negative) than the newest shown or asked for."""
        if self._replay_only():
            self.seek_to(self.position() + delta)

    def change_speed(self, direction: int) -> None:
        """The next faster (``direction`` > 0) or slower speed of :data:`SPEEDS`."""
        feed = self.app.feed
        if not feed.seekable:
            return
        cur = feed.speed
        if direction > 0:
            nxt = next((s for s in SPEEDS if s > cur + 1e-9), SPEEDS[-1])
        else:
            nxt = next((s for s in reversed(SPEEDS) if s < cur - 1e-9), SPEEDS[0])
        feed.set_speed(nxt)
        self.app.mark_dirty()

    def restart(self) -> None:
        feed = self.app.feed
        if not feed.restartable:
            return
        self.seek_target = None
        feed.pause()
        feed.restart()
        self.app.render_frame()
        self.play()

    def ask_jump(self) -> None:
        """``g``: ask which event to show (``JumpScreen``), then show it."""
        feed = self.app.feed
        if not self._replay_only():
            return

        def done(n: int | None) -> None:
            if n is not None:
                self.jump_to_event(n)

        total = feed.total_events
        self.app.push_screen(JumpScreen(None if total is None else total - 1, self.position() + 1), done)

    def jump_to_event(self, n: int) -> None:
        """Pause and show events 0..n, with event n selected in the log."""
        if not self.app.feed.seekable:
            return
        self.app.pending_pointer = n
        self.seek_to(n)

    def select_feed(self, index: int, *, restart: bool = False, play: bool = True) -> None:
        """Show feed ``index`` (its panels rebuilt); ``restart`` plays a replay from its start;
        ``play`` False leaves a replay paused at its start (its total is still scanned)."""
        app = self.app
        if not 0 <= index < len(app.feeds):
            return
        app.feed.pause()
        self.seek_target = None
        app.feed_index = index
        feed = app.feed
        if restart and feed.seekable:
            feed.restart()
        app.forget_frame()  # whatever was shown before, start this frame afresh
        app.opening.show_blocks_loading(feed.loading)
        if not play:
            feed.pause()
        app.render_frame()
        self.scan()
        if play:
            self.play()

    def seek_fraction(self, fraction: float) -> None:
        """A click on the seek bar at ``fraction`` (0..1) of the events."""
        feed = self.app.feed
        if feed.seekable and feed.total_events:
            self.jump_to_event(round(fraction * (feed.total_events - 1)))
