"""Opening captures inside the inspector: read in the background, a HAR's stream chosen in a list.

A controller composed into ``InspectorApp`` (``app.opening``). A capture being read is an ``OpeningFeed`` (``inspector.feeds.opening``):
the app shows at once, the header saying what is being read (and, when that takes longer than
``LOADING_DELAY_S``, the blocks pane under a loading indicator), while a thread parses the file;
the ``ReplayFeed`` it yields then takes the ``OpeningFeed``'s place and plays (its total is learned by the background scan). ``o`` opens
another capture the same way (``OpenFileScreen``), as one more stream (``[``/``]``). A HAR with
several streams asks which one (``EntryPickerScreen``); the stream's label then names the entry.

If the capture the app was started with cannot be read, the app ends at once with
``app.failure`` set to the one-line reason (the CLI prints it, exit 2); a capture opened later that fails is
dropped with a notification.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.timer import Timer

from inspector.capture.errors import CaptureError, SeveralStreams
from inspector.capture.load import probe_path
from inspector.feeds.opening import OpeningFeed
from inspector.tui.screens.entry_picker import EntryPickerScreen
from inspector.tui.screens.open_file import OpenFileScreen
from inspector.tui.text import notice

if TYPE_CHECKING:
    from inspector.feeds.base import Feed
    from inspector.tui.app import InspectorApp


LOADING_DELAY_S = 0.25
"""How long a capture may take to read before the blocks pane shows a loading indicator: a quick
read shows none (an indicator mounted, animated and removed within a few frames costs the app
more than the read itself; issue 16)."""


class CaptureOpening:
    """See the module docstring."""

    def __init__(self, app: InspectorApp) -> None:
        self.app = app
        self.loading_timer: Timer | None = None
        """Shows the blocks pane's loading indicator once ``LOADING_DELAY_S`` passed (None: none pending)."""

    def open_pending(self) -> None:
        """Start reading every feed that is still a file being opened."""
        for feed in self.app.feeds:
            if isinstance(feed, OpeningFeed) and feed.loading:
                self._read(feed, None)

    def _read(self, pending: OpeningFeed, entry: int | None) -> None:
        """Parse ``pending``'s file in a thread and hand the result to the app."""
        self.app.run_worker(partial(self._read_file, pending, entry), name="_read", group="open", thread=True)

    def _read_file(self, pending: OpeningFeed, entry: int | None) -> None:
        app = self.app
        try:
            feed = pending.open(entry)
        except SeveralStreams as e:
            app.call_from_thread(self._choose_entry, pending, e)
        except CaptureError as e:
            app.call_from_thread(self.failed, pending, str(e))
        except ValueError as e:  # a dialect the settings do not know
            app.call_from_thread(self.failed, pending, str(e).splitlines()[0])
        else:
            app.call_from_thread(self._opened, pending, feed)

    def _opened(self, pending: OpeningFeed, feed: Feed) -> None:
        app = self.app
        index = self._index_of(pending)
        if index is None:
            return
        app.feeds[index] = feed
        if index == app.feed_index:
            self.show_blocks_loading(False)
            app.select_feed(index, play=not app.start_paused)

    def failed(self, pending: Feed, message: str) -> None:
        """``pending`` cannot be read (``message`` says why): the app ends with it when it is the only
        stream (exit 2), else the stream is dropped with a notification."""
        app = self.app
        index = self._index_of(pending)
        if index is None:
            return
        if len(app.feeds) == 1:
            app.failure = message
            app.exit(None, 2)
            return
        app.notify(notice(message), title="cannot open", severity="error", timeout=8)
        self._drop_feed(index)

    def _choose_entry(self, pending: OpeningFeed, several: SeveralStreams) -> None:
        app = self.app

        def chosen(entry: int | None) -> None:
            if entry is not None:
                pending.entry = entry
                self._read(pending, entry)
                return
            index = self._index_of(pending)
            if index is None:
                return
            if len(app.feeds) == 1:
                app.failure = f"{pending.path}: no stream chosen (pick one with --entry N)"
                app.exit(None, 2)
            else:
                self._drop_feed(index)

        app.push_screen(EntryPickerScreen(pending.path.name, several.choices), chosen)

    def _index_of(self, feed: Feed) -> int | None:
        return next((i for i, f in enumerate(self.app.feeds) if f is feed), None)

    def _drop_feed(self, index: int) -> None:
        app = self.app
        del app.feeds[index]
        app.select_feed(min(app.feed_index, len(app.feeds) - 1) if index != app.feed_index else max(0, index - 1))

    def show_blocks_loading(self, loading: bool) -> None:
        """The blocks pane under a loading indicator while the shown feed is read, from
        ``LOADING_DELAY_S`` on (the header says "opening…" at once)."""
        if loading:
            if self.loading_timer is None:
                self.loading_timer = self.app.set_timer(LOADING_DELAY_S, self._still_loading)
            return
        if self.loading_timer is not None:
            self.loading_timer.stop()
            self.loading_timer = None
        blocks = self.app.query_one("#blocks")
        if blocks.loading:
            blocks.loading = False

    def _still_loading(self) -> None:
        self.loading_timer = None
        if self.app.feed.loading:
            try:
                self.app.query_one("#blocks").loading = True
            except NoMatches:
                pass  # the app is tearing its widgets down (q, Ctrl+C)

    # ------------------------------------------------------------------ o: open another capture
    def ask_open(self) -> None:
        """``o``: choose a capture file (``OpenFileScreen``), then open it."""
        start = getattr(self.app.feed, "path", None)
        self.app.push_screen(OpenFileScreen(Path(start).parent if start else None), self.open_path)

    def open_path(self, path: Path | None, *, entry: int | None = None) -> None:
        """Open ``path`` as one more stream and show it (read in the background); None: nothing chosen."""
        if path is None:
            return
        try:
            probe_path(path)
        except CaptureError as e:
            self.app.notify(notice(e), title="cannot open", severity="error", timeout=8)
            return
        pending = OpeningFeed(path, entry=entry, **self.app.open_options)
        self.app.feeds.append(pending)
        self.app.select_feed(len(self.app.feeds) - 1)
        self._read(pending, entry)
