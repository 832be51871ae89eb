"""Copy what is highlighted (``y``) and save the stream shown as a native capture (``s``).

A controller composed into ``InspectorApp`` (``app.copying``). Copying goes through Textual's ``App.copy_to_clipboard`` (an OSC 52
escape: the terminal puts the text on the system clipboard, over SSH too; a few terminals need it
allowed). What is copied follows the focus: the blocks list or the arguments give the highlighted block's tool arguments (or its text),
the event log its highlighted event's data, the findings list its highlighted finding.

Saving asks the feed for the stream as received (``Feed.recorded``): the capture being replayed,
or what a live stream, the demo or a proxy exchange has delivered so far, and writes it with
``inspector.capture.recorder.write_capture`` (secrets redacted as a recording redacts them).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.capture.recorder import write_capture
from inspector.capture.redact import scrub_secrets
from inspector.tui.screens.save_file import SaveFileScreen
from inspector.tui.widgets.argument_view import ArgumentView
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.block_panel import BlockPanel
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from inspector.tui.text import notice

if TYPE_CHECKING:
    from inspector.model.capture import Capture
    from inspector.tui.app import InspectorApp


def finding_text(f) -> str:
    """A finding as plain text for a bug report: code, name, severity, where, message."""
    where = " · ".join(f.where())
    return f"{f.code} {f.name} ({f.severity}){' at ' + where if where else ''}: {f.message}"


def save_summary(capture, *, still_arriving: bool) -> str:
    """What the save dialog says it will write: ``1 chunk (complete)``, ``12 chunks (so far, still
    arriving)``. ``still_arriving``: a live stream that has not ended (a replay holds its whole
    capture, whether or not the file recorded an end)."""
    n = len(capture.chunks)
    state = "so far, still arriving" if still_arriving and capture.end is None else "complete"
    return f"{n:,} chunk{'s' if n != 1 else ''} ({state})"


class CopySave:
    """See the module docstring."""

    def __init__(self, app: InspectorApp) -> None:
        self.app = app

    def copy_target(self) -> tuple[str, str] | None:
        """``(what, text)`` to copy for the focused pane, or None when nothing there can be copied.
        Secrets masked: a clipboard is pasted into bug reports (the block's text as ``check
        --format json`` writes it, the event as the event log shows it)."""
        focused = self.app.focused
        detail = focused.screen.query_one(BlockPanel) if isinstance(focused, (BlockList, ArgumentView)) else None
        if detail is not None and detail.display and detail.block is not None:
            b = detail.block
            what = f"the arguments of {b.name or 'the tool call'} (block #{b.index})" if b.tool else \
                f"the text of block #{b.index}"
            return scrub_secrets(what), scrub_secrets(b.content)
        if isinstance(focused, EventLog) and focused.pointer is not None and focused.pointer < len(focused.events):
            ev = focused.shown_event(focused.pointer)
            return f"event {ev.index} ({ev.name})", ev.data
        if isinstance(focused, FindingsList):
            cur = focused.current()
            if cur is not None:
                f = cur[0]
                return f"finding {f.code}", scrub_secrets(finding_text(f))
        return None

    def copy(self) -> None:
        """``y``: copy what the focused pane highlights, or say how to."""
        app = self.app
        target = self.copy_target()
        if target is None:
            app.notify("Nothing to copy here: highlight a finding (2), an event (3) or focus a block (1), "
                        "then press y.", title="copy", timeout=4)
            return
        what, text = target
        app.copy_to_clipboard(text)
        app.notify(notice(f"Copied {what}: {len(text):,} characters (through the terminal: OSC 52)."), title="copy",
                    timeout=3)

    # ------------------------------------------------------------------ s: save
    def ask_save(self) -> None:
        """``s``: ask where to save the stream shown (``SaveFileScreen``), then write it."""
        app = self.app
        feed = app.feed
        capture = feed.recorded()
        if capture is None:
            app.notify("Nothing to save yet: no response has arrived on this stream.", title="save", timeout=4)
            return
        what = f"{feed.label}: {save_summary(capture, still_arriving=not feed.seekable and not feed.finished)}"
        default = Path.cwd() / f"stream-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.save_capture(capture, path)

        app.push_screen(SaveFileScreen(default, what), chosen)

    def save_capture(self, capture: Capture, path: Path) -> bool:
        """Write ``capture`` to ``path``; tell the user either way. True when written."""
        try:
            n = write_capture(capture, path)
        except OSError as e:
            self.app.notify(notice(f"{path}: {e.strerror or e}"), title="cannot save", severity="error", timeout=8)
            return False
        self.app.notify(notice(f"Saved {n:,} chunks to {path}: `stream-inspector replay {path}` (or o) replays it."),
                    title="saved", timeout=6)
        return True
