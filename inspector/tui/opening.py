"""Opening captures inside the inspector: read in the background, a HAR's stream chosen in a list.

A mixin of ``InspectorApp``. A capture being read is an ``OpeningFeed`` (``inspector.feeds.opening``):
the app shows at once, the header saying what is being read (and, when that takes longer than
``LOADING_DELAY_S``, the blocks pane under a loading indicator), while a thread parses the file;
the ``ReplayFeed`` it yields then takes the ``OpeningFeed``'s place and plays (its total is learned by the background scan). ``o`` opens
another capture the same way (``OpenFileScreen``), as one more stream (``[``/``]``). A HAR with
several streams asks which one (``EntryPickerScreen``); the stream's label then names the entry.

If the capture the app was started with cannot be read, the app ends at once with ``failure``
set to the one-line reason (the CLI prints it, exit 2); a capture opened later that fails is
dropped with a notification.
"""
from __future__ import annotations

from pathlib import Path

from textual import work
from textual.css.query import NoMatches
from textual.timer import Timer

from inspector.capture.errors import CaptureError, SeveralStreams
from inspector.capture.load import probe_path
from inspector.feeds.opening import OpeningFeed
from inspector.tui.screens.entry_picker import EntryPickerScreen
from inspector.tui.screens.open_file import OpenFileScreen
from inspector.tui.text import notice


LOADING_DELAY_S = 0.25
"""How long a capture may take to read before the blocks pane shows a loading indicator: a quick
read shows none (an indicator mounted, animated and removed within a few frames costs the app
more than the read itself; issue 16)."""


class CaptureOpening:
    """See the module docstring."""

    failure: str | None = None
    """Why the app ended without showing the capture it was started with (one line), if it did."""

    def _open_pending(self) -> None:
        """Start reading every feed that is still a file being opened."""
        for feed in self.feeds:
            if feed.loading:
                self._read(feed, None)

    @work(thread=True, group="open")
    def _read(self, pending: OpeningFeed, entry: int | None) -> None:
        """Parse ``pending``'s file off the event loop and hand the result to the app."""
        try:
            feed = pending.open(entry)
        except SeveralStreams as e:
            self.call_from_thread(self._choose_entry, pending, e)
        except CaptureError as e:
            self.call_from_thread(self._open_failed, pending, str(e))
        except ValueError as e:  # a dialect the settings do not know
            self.call_from_thread(self._open_failed, pending, str(e).splitlines()[0])
        else:
            self.call_from_thread(self._opened, pending, feed)

    def _opened(self, pending: OpeningFeed, feed) -> None:
        index = self._index_of(pending)
        if index is None:
            return
        self.feeds[index] = feed
        if index == self.feed_index:
            self._show_blocks_loading(False)
            self.select_feed(index, play=not self.start_paused)

    def _open_failed(self, pending: OpeningFeed, message: str) -> None:
        index = self._index_of(pending)
        if index is None:
            return
        if len(self.feeds) == 1:
            self.failure = message
            self.exit(None, 2)
            return
        self.notify(notice(message), title="cannot open", severity="error", timeout=8)
        self._drop_feed(index)

    def _choose_entry(self, pending: OpeningFeed, several: SeveralStreams) -> None:
        def chosen(entry: int | None) -> None:
            if entry is not None:
                pending.entry = entry
                self._read(pending, entry)
                return
            index = self._index_of(pending)
            if index is None:
                return
            if len(self.feeds) == 1:
                self.failure = f"{pending.path}: no stream chosen (pick one with --entry N)"
                self.exit(None, 2)
            else:
                self._drop_feed(index)

        self.push_screen(EntryPickerScreen(pending.path.name, several.choices), chosen)

    def _index_of(self, feed) -> int | None:
        return next((i for i, f in enumerate(self.feeds) if f is feed), None)

    def _drop_feed(self, index: int) -> None:
        del self.feeds[index]
        self.select_feed(min(self.feed_index, len(self.feeds) - 1) if index != self.feed_index
                         else max(0, index - 1))

    _loading_timer: Timer | None = None

    def _show_blocks_loading(self, loading: bool) -> None:
        """The blocks pane under a loading indicator while the shown feed is read, from
        ``LOADING_DELAY_S`` on (the header says "opening…" at once)."""
        if loading:
            if self._loading_timer is None:
                self._loading_timer = self.set_timer(LOADING_DELAY_S, self._still_loading)
            return
        if self._loading_timer is not None:
            self._loading_timer.stop()
            self._loading_timer = None
        blocks = self.query_one("#blocks")
        if blocks.loading:
            blocks.loading = False

    def _still_loading(self) -> None:
        self._loading_timer = None
        if self.feed.loading:
            try:
                self.query_one("#blocks").loading = True
            except NoMatches:
                pass  # the app is tearing its widgets down (q, Ctrl+C)

    # ------------------------------------------------------------------ o: open another capture
    def action_open(self) -> None:
        start = getattr(self.feed, "path", None)
        self.push_screen(OpenFileScreen(Path(start).parent if start else None), self._open_path)

    def open_capture(self, path: str | Path, *, entry: int | None = None) -> None:
        """Open ``path`` as one more stream and show it (read in the background)."""
        self._open_path(Path(path), entry=entry)

    def _open_path(self, path: Path | None, *, entry: int | None = None) -> None:
        if path is None:
            return
        try:
            probe_path(path)
        except CaptureError as e:
            self.notify(notice(e), title="cannot open", severity="error", timeout=8)
            return
        pending = OpeningFeed(path, entry=entry, **self.open_options)
        self.feeds.append(pending)
        self.select_feed(len(self.feeds) - 1)
        self._read(pending, entry)
