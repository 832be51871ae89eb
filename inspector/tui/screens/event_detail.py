"""One event in full (enter on an event): its time, the block it fed, its findings, its whole
payload as pretty JSON and its raw bytes.

Why this module exists: the event log gives each event one row, cut at the terminal's width (at
80 columns, about 40 characters of payload). To read what a provider actually sent (a
``response.completed`` holding the whole answer, a delta with an odd field, the bytes around a
framing fault) the event is shown here whole, in one scrollable page (``TextPage``, rendered
virtually: a payload of hundreds of kilobytes opens at once).

The payload is the event's data as the event log shows it (secrets masked, also a key split
across events: ``EventMasks``); the raw bytes come from the feed's capture (``Feed.recorded``)
between this event's first byte and the next one's (``inspector.capture.event_bytes``): masked,
every control character written out, a binary body (AWS event-stream) as a hex dump.
"""
from __future__ import annotations

import json
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from inspector.capture.event_bytes import MAX_BYTES, Body, event_bytes, is_binary, shown_lines
from inspector.model.events import DONE, NOT_JSON
from inspector.model.jsondepth import loads
from inspector.tui.text import notice, one_line
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.text_page import TextPage


def payload_text(ev) -> str:
    """The event's data pretty-printed when it is JSON (bounded depth), else as it is."""
    if ev.payload is DONE or ev.payload is NOT_JSON:
        return ev.data
    try:
        return json.dumps(loads(ev.data), indent=2, ensure_ascii=False)
    except (ValueError, TypeError):
        return ev.data


def block_words(session, ev) -> str:
    """Which block the event fed and how: ``block #1 tool_use get_weather (opened it)``."""
    b = session.block_of(ev)
    if b is None:
        return "no content block (a stream-level event)"
    label = f"block #{b.index if b.index is not None else b.pos} {b.kind}" + (f" {b.name}" if b.name else "")
    how = "opened it" if ev.index == b.opened_event else "closed it" if ev.index == b.closed_event else \
        "added to it"
    return f"{label} ({how})"


def time_words(session, events, ev) -> str:
    """``t 1.234 s since the request · +0.012 s after event 6`` (or ``untimed``)."""
    if ev.t is None:
        return "untimed (the capture has no times)"
    origin = "since the request was sent" if session.request_relative else "since the first byte"
    out = f"t {ev.t:.3f} s {origin}"
    if ev.index > 0:
        before = events[ev.index - 1].t
        if before is not None:
            out += f" · +{ev.t - before:.3f} s after event {ev.index - 1}"
    return out


def detail_lines(session, ev, capture) -> tuple[list[tuple[str, str]], int, int]:
    """The page's lines and where its payload and raw-bytes sections start (line numbers).

    ``session``: whose ``events`` hold ``ev`` (``ev`` itself already masked: ``EventMasks.shown``);
    ``capture``: the feed's capture (``Feed.recorded()``) or None."""
    events = session.events
    lines: list[tuple[str, str]] = [
        (f"time      {time_words(session, events, ev)}", ""),
        (f"fed       {block_words(session, ev)}", ""),
        (f"position  event {ev.index} of {len(events)}" + (f" · line {ev.line}" if ev.line is not None else "")
         + (f" · body byte {ev.offset:,}" if ev.offset is not None else "")
         + (f" · response {ev.response + 1}" if ev.response else ""), ""),
        (f"name      {ev.name}" + ("" if ev.named else " (from the payload's type; no SSE event: field)"), ""),
    ]
    found = [f for f in session.findings if f.event == ev.index]
    for f in found:
        lines.append((f"finding   {f.code} {f.name} ({f.severity}): {f.message}", "marker"))
    lines.append(("", ""))
    payload_at = len(lines)
    text = payload_text(ev)
    body = text.split("\n")
    what = "JSON" if ev.payload is not NOT_JSON and ev.payload is not DONE else "not JSON, as sent"
    lines.append((f"Payload ({what}, {len(ev.data):,} characters, {len(body):,} lines)", "heading"))
    lines += [(part, "") for part in body]
    lines.append(("", ""))
    raw_at = len(lines)
    raw = event_bytes(Body(capture.chunks), events, ev.index) if capture is not None else None
    if raw is None:
        lines.append(("Raw bytes", "heading"))
        lines.append(("not available: this stream's bytes are not kept (a proxy exchange released from memory, "
                      "or a record made by hand)", "muted"))
    else:
        kind = "hex dump" if is_binary(raw.data) else "as text, each line end shown"
        lines.append((f"Raw bytes (body bytes {raw.start:,}–{raw.stop:,}: {raw.stop - raw.start:,} bytes, "
                       f"up to the next event; {kind}; secrets masked)", "heading"))
        lines += [(part, "") for part in shown_lines(raw)]
        if raw.cut:
            lines.append((f"… {raw.cut:,} more bytes (the view shows the first {MAX_BYTES:,})", "muted"))
    return lines, payload_at, raw_at


def show_event(app: Any, index: int) -> None:
    """Push the detail view of event ``index`` of ``app``'s stream (an ``InspectorApp``: its feed,
    event log and ``routing.focus_block_of``); ``b`` there closes it and focuses the event's block."""
    s = app.feed.session
    if not 0 <= index < len(s.events):
        return

    def done(to_block: bool | None) -> None:
        if to_block:
            app.routing.focus_block_of(index)

    shown = app.query_one(EventLog).shown_event(index)  # masked as the log shows it
    app.push_screen(EventDetailScreen(s, shown, app.feed.recorded()), done)


class EventDetailScreen(ModalScreen[bool]):
    """Event ``ev`` (masked) of ``session`` in full; dismisses with True when the user asks for
    its block (``b``)."""

    HELP_TITLE = "Event detail"
    BINDINGS = [
        Binding("escape,q", "close", "Close", key_display="esc"),
        Binding("p", "section('payload')", "Payload", tooltip="Scroll to the payload"),
        Binding("r", "section('raw')", "Raw bytes", tooltip="Scroll to the raw bytes"),
        Binding("b", "block", "Show block", tooltip="Close and focus the block this event fed"),
        Binding("y", "copy", "Copy", tooltip="Copy the payload (secrets masked) to the clipboard"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?", tooltip="These keys"),
    ]
    DEFAULT_CSS = """
    EventDetailScreen { align: center middle; background: $background; }
    EventDetailScreen #event-detail {
        width: 100%; max-width: 160; height: 100%; max-height: 60;
        border: round $primary; border-title-color: $primary; border-subtitle-color: $text-muted;
        background: $surface; padding: 0 1;
    }
    EventDetailScreen TextPage { height: 1fr; background: $surface; }
    """

    def __init__(self, session, ev, capture) -> None:
        super().__init__()
        self.session = session
        self.event = ev
        self.lines, self.payload_at, self.raw_at = detail_lines(session, ev, capture)

    def compose(self) -> ComposeResult:
        ev = self.event
        with Vertical(id="event-detail") as box:
            box.border_title = one_line(f"Event {ev.index} · {ev.name}")
            box.border_subtitle = "p payload · r raw · b block · y copy · ? help · esc close"
            yield TextPage(self.lines, id="event-page")

    def on_mount(self) -> None:
        self.query_one(TextPage).focus()

    def action_section(self, which: str) -> None:
        self.query_one(TextPage).scroll_to_line(self.payload_at if which == "payload" else self.raw_at)

    def action_copy(self) -> None:
        text = payload_text(self.event)
        self.app.copy_to_clipboard(text)
        self.app.notify(notice(f"Copied the payload of event {self.event.index}: {len(text):,} characters "
                               "(through the terminal: OSC 52)."), title="copy", timeout=3)

    def action_block(self) -> None:
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)
