"""Feed control of the inspector: play, pause, step, seek, speed, restart, switch streams.

A mixin of ``InspectorApp``: it owns which feed is shown (``feeds``, ``feed_index``) and the
workers that drive it. Every feed speaks ``inspector.feeds.base.Feed``; what a key can do on it
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

from textual import work

from inspector.tui.screens.jump import JumpScreen
from inspector.tui.widgets.playback_bar import PlaybackBar

SPEEDS = (0.125, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
"""Speed steps for ``+`` / ``-``."""


class FeedControl:
    """The playback keys and the feed workers (see the module docstring)."""

    def _start_feed(self) -> None:
        gc.freeze()  # what exists now (a replay's pre-run session included) lives as long as the app
        feed = self.feed
        if any(f.loading for f in self.feeds):
            self._open_pending()
        if feed.loading:
            self._show_blocks_loading(True)
            self._render_frame()
            return
        self._scan()
        if self.start_paused and feed.seekable:
            feed.pause()
            self._render_frame()
            return
        self._play()

    @work(exclusive=True, group="scan")
    async def _scan(self) -> None:
        """Learn the total of a replay in small background batches (the seek bar and ``g`` use it)."""
        feed = self.feed
        if feed.total_events is None and not feed.instant:
            await feed.ascan(self._posted)

    def _posted(self) -> None:
        self.post_message(self.ChunksReceived())

    @work(exclusive=True, group="feed")
    async def _play(self) -> None:
        feed = self.feed
        feed.resume()
        # --instant reads the whole stream at once: a full garbage collection over tens of
        # thousands of new event records would hold every key for a fifth of a second, so the
        # collector waits until the end (as ``check`` does); the records then live on, frozen.
        paused_gc = feed.instant and gc.isenabled()
        if paused_gc:
            gc.disable()
        try:
            await feed.play(self._posted)
        finally:
            if paused_gc:
                gc.enable()
                gc.freeze()
        self.post_message(self.StreamClosed())

    seek_target: int | None = None
    """The newest event asked for by a seek still running (None: no seek pending)."""

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
        if self.seek_target == n:
            self.seek_target = None
        self.post_message(self.StreamClosed())

    def feed_check_action(self, action: str) -> bool | None:
        """``check_action`` for the playback keys: greyed out (None) or hidden (False) when they do nothing."""
        if action in ("next_source", "prev_source"):
            return len(self.feeds) > 1
        if action in ("speed_up", "speed_down"):
            return True if self.feed.seekable else None
        return True

    def _replay_only(self) -> bool:
        """True when the feed can seek; otherwise say why the key does nothing here."""
        if self.feed.seekable:
            return True
        self.notify("Stepping and seeking work on a replay: save this stream with s, then open it with o "
                    "(or `stream-inspector replay FILE`).", title="live stream", timeout=5)
        return False

    def _position(self) -> int:
        """The newest event shown, or asked for by a pending seek (-1: none)."""
        return self.seek_target if self.seek_target is not None else self.feed.event_count - 1

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
            self.seek_target = None  # playing on replaces a pending seek (the same worker group)
            self._play()
        else:
            feed.pause()
        self._render_frame()

    def _seek_to(self, n: int) -> None:
        """Pause and show events 0..n (a worker: a rebuild of a huge capture keeps the app responsive).

        ``n`` is clamped to the capture (-1: before the first event) and becomes :attr:`seek_target`."""
        total = self.feed.total_events
        n = max(-1, n if total is None else min(n, total))  # total: everything, the end included
        self.feed.pause()
        self.seek_target = n
        self._seek(n)

    def action_step_forward(self) -> None:
        if self._replay_only():
            self._seek_to(self._position() + 1)

    def action_step_back(self) -> None:
        if self._replay_only():
            self._seek_to(self._position() - 1)

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
        self.seek_target = None
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

        total = feed.total_events
        self.push_screen(JumpScreen(None if total is None else total - 1, self._position() + 1), done)

    def jump_to_event(self, n: int) -> None:
        """Pause and show events 0..n, with event n selected in the log."""
        if not self.feed.seekable:
            return
        self._pending_pointer = n
        self._seek_to(n)

    def action_next_source(self) -> None:
        self._switch_source(1)

    def action_prev_source(self) -> None:
        self._switch_source(-1)

    def _switch_source(self, step: int) -> None:
        if len(self.feeds) < 2:
            return
        self.select_feed((self.feed_index + step) % len(self.feeds), restart=True)

    def select_feed(self, index: int, *, restart: bool = False, play: bool = True) -> None:
        """Show feed ``index`` (its panels rebuilt); ``restart`` plays a replay from its start;
        ``play`` False leaves a replay paused at its start (its total is still scanned).

        The public way to change streams (``[``/``]``, the proxy's exchange list, a file opened).
        """
        if not 0 <= index < len(self.feeds):
            return
        self.feed.pause()
        self.seek_target = None
        self.feed_index = index
        if restart and self.feed.seekable:
            self.feed.restart()
        self._generation = (-1, -1)  # whatever was shown before, start this frame afresh
        self._show_blocks_loading(self.feed.loading)
        if not play:
            self.feed.pause()
        self._render_frame()
        self._scan()
        if play:
            self._play()

    def on_playback_bar_seek_requested(self, event: PlaybackBar.SeekRequested) -> None:
        feed = self.feed
        if feed.seekable and feed.total_events:
            self.jump_to_event(round(event.fraction * (feed.total_events - 1)))
