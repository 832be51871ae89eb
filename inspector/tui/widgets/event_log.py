"""The raw event log: every SSE event (or NDJSON line) of the stream, one line each, rendered virtually.

Why this module exists: a stream can hold tens of thousands of events; a widget per line or a
``RichLog`` that re-renders its whole buffer would stall the app. Like Textualize/toolong's
``LogLines``, this is a ``ScrollView`` that renders only the visible lines (``render_line``)
from the session's event list, with an LRU cache of rendered strips. It never copies the events:
the app tells it, once per frame, how many exist.

Lines show the event number (0-based, as in findings), arrival time, event name and raw data,
with a gutter mark in the colour of the worst finding on that event. A pointer line (selected
event, search hit, finding jump) is highlighted; ``/`` search highlights matches.
"""
from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.model.events import EventLog as Events
from inspector.capture.redact import EventMasks
from inspector.model.display import display_text
from inspector.providers import summarize
from inspector.tui.frame import LogState
from inspector.tui.widgets.virtual_size import set_virtual_size
from inspector.tui.text import Text, line
from inspector.model.severity import MARKS, severity_rank

MAX_DATA_CHARS = 600
"""Characters of event data shown per line (the rest is cut with an ellipsis)."""
NAME_W = 21
"""Width of the event-name column (longer names are cut with an ellipsis)."""



def short_name(ev) -> str:
    """The name column: unnamed SSE events and NDJSON lines say ``data``; a long Responses type
    keeps its telling end (``output_item.added`` vs ``output_item.done``)."""
    return _short(ev.name, ev.named)


def _short(name: str, named: bool) -> str:
    """``short_name`` of an event with this ``name`` and ``named`` flag."""
    name = name if named or name != "message" else "data"
    if len(name) > NAME_W and name.startswith("response."):
        name = name[len("response."):]
    return name if len(name) <= NAME_W else "…" + name[-(NAME_W - 1):]


class EventLog(ScrollView, can_focus=True, inherit_bindings=False):
    """Virtual list of the session's events."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "cursor_page(-1)", "Page up", show=False),
        Binding("pagedown", "cursor_page(1)", "Page down", show=False),
        Binding("home", "cursor_home", "First event", show=False),
        Binding("end", "cursor_end", "Last event", show=False),
        Binding("enter", "choose", "Detail", tooltip="The event in full: time, block, payload, raw bytes"),
        Binding("n", "search_next(1)", "Next match", show=False),
        Binding("N", "search_next(-1)", "Previous match", show=False),
        Binding("escape", "clear_search", "Clear search", show=False, tooltip="Clear the search highlight (when on)"),
    ]

    COMPONENT_CLASSES = {
        "eventlog--index",
        "eventlog--time",
        "eventlog--name",
        "eventlog--keepalive",
        "eventlog--pointer",
        "eventlog--match",
        "eventlog--error",
        "eventlog--warning",
        "eventlog--info",
    }

    pointer: reactive[int | None] = reactive(None, repaint=False)
    """The selected event (highlighted), or None."""

    class EventChosen(Message):
        """Enter (or a double click) on an event: the app shows it in full (``EventDetailScreen``)."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    class SearchCleared(Message):
        """Esc cleared the search (the app updates the pane's title)."""

    class FollowChanged(Message):
        """The user scrolled away from the tail (or back to it)."""

        def __init__(self, follow: bool) -> None:
            self.follow = follow
            super().__init__()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.events: Events = Events()
        """The session's event list (not copied; read up to ``count``)."""
        self._masks = EventMasks(self.events)
        """What each event shows: its data with secrets masked, also those split across events."""
        self.count = 0
        """Events shown (the session may hold more until the next frame)."""
        self.marks: dict[int, str] = {}
        """Event number -> worst finding severity on it."""
        self.follow = True
        """Keep the newest event in view as events arrive."""
        self.search = ""
        """Current search text (case-insensitive substring of name or data)."""
        self.dialect: str | None = None
        """The stream's dialect (which provider summarises the events)."""
        self._generation = -1
        self._received: LogState | None = None
        self._findings_seen = 0
        self._cache: LRUCache[tuple, Strip] = LRUCache(maxsize=2000)
        self._max_width = 0
        self._styles: dict[str, Style] = {}
        self._name_w = 4
        self._measured = 0
        """Events whose names ``_name_w`` has measured."""
        """Width of the name column: the longest name shown so far, at most ``NAME_W`` (a
        stream of unnamed ``data`` events leaves the room to the payloads)."""

    # ------------------------------------------------------------ feeding
    def receive(self, state: LogState) -> None:
        """Show ``state`` (``inspector.tui.frame``); nothing to do when it equals the last one."""
        if state != self._received:
            self._received = state
            self.sync(state.events, state.findings, state.generation, state.dialect)

    def sync(self, events: Events, findings: Sequence, generation: int, dialect: str | None = None) -> None:
        """Called once per frame with the session's lists; cheap when nothing changed.
        ``dialect`` picks the provider's event summaries."""
        if dialect != self.dialect:
            self.dialect = dialect
            self._cache.clear()
            self.refresh()
        if generation != self._generation:
            self._generation = generation
            self.marks = {}
            self._findings_seen = 0
            self._cache.clear()
            if self.pointer is not None and self.pointer >= len(events):
                self.pointer = None
            self.refresh()
        if events is not self.events:
            self._masks = EventMasks(events)
        self.events = events
        if len(findings) > self._findings_seen:
            for f in findings[self._findings_seen:]:
                if f.event is not None:
                    old = self.marks.get(f.event)
                    if old is None or severity_rank(f.severity) > severity_rank(old):
                        self.marks[f.event] = f.severity
            self._findings_seen = len(findings)
            self.refresh()
        n = len(events)
        self._measured = min(self._measured, n)
        self._measure_names()
        if n != self.count:
            grew = n > self.count
            self.count = n
            self._update_virtual_size()
            if self.follow and grew:
                self._scroll_tail()
            self.refresh()

    def _measure_names(self) -> None:
        """Widen the name column to the longest name of the events not measured yet (the
        session's log gives their distinct names without building a record per event of a run)."""
        events, n = self.events, len(self.events)
        if self._measured >= n or self._name_w >= NAME_W:
            self._measured = n
            return
        start, self._measured = self._measured, n
        self._widen(max(len(_short(name, named)) for name, named in events.names(start, n)))

    def _widen(self, width: int) -> None:
        """Make the name column ``width`` wide if that is wider (at most ``NAME_W``)."""
        width = min(width, NAME_W)
        if width > self._name_w:
            self._name_w = width
            self._cache.clear()
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        """A pane resized (a breakpoint, a maximise, a findings pane growing) keeps the tail in view."""
        self._update_virtual_size()
        if self.follow:
            self.call_after_refresh(self._scroll_tail)

    def _scroll_tail(self) -> None:
        self.scroll_to(y=max(0, self.count - self.scrollable_content_region.height), animate=False, force=True)

    def _update_virtual_size(self) -> None:
        if not self.count and not self.virtual_size.height:
            return  # no line yet: a width alone would only cost a screen-wide layout pass
        set_virtual_size(self, Size(max(self._max_width, self.scrollable_content_region.width), self.count))

    def notify_style_update(self) -> None:
        self._cache.clear()
        self._styles = {}
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        """A component style, cached until the theme or CSS changes."""
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style

    # ------------------------------------------------------------ rendering
    def shown_event(self, index: int):
        """Event ``index`` as it may be shown or copied (secrets masked, also across events)."""
        return self._masks.shown(index)

    def _line_text(self, index: int) -> "Text":
        ev = self.shown_event(index)
        sev = self.marks.get(index)
        style = self._style
        pieces = [(MARKS[sev], style(f"eventlog--{sev}")) if sev else (" ", None),
                  (f"{index:>5} ", style("eventlog--index"))]
        if ev.t is not None:
            pieces.append((f"{ev.t:>8.3f}s ", style("eventlog--time")))
        name = _short(display_text(ev.name, one_line=True), ev.named)  # escaped, then cut: the column stays aligned
        pieces.append((f"{name:<{self._name_w}} ", style("eventlog--keepalive" if ev.keepalive else "eventlog--name")))
        data = summarize(ev, self.dialect)
        if len(data) > MAX_DATA_CHARS:
            data = data[:MAX_DATA_CHARS] + "…"
        pieces.append((data, None))
        text = line(pieces)
        if self.search:
            text.highlight_words([self.search], style("eventlog--match"), case_sensitive=False)
        return text

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= self.count or index >= len(self.events):
            return Strip.blank(width, base)
        is_pointer = index == self.pointer
        key = (index, is_pointer, self.search, self.marks.get(index))
        strip = self._cache.get(key)
        if strip is None:
            text = self._line_text(index)
            text.stylize_before(base)
            if is_pointer:
                text.stylize(self._style("eventlog--pointer"))
            strip = Strip(list(text.render(self.app.console)), text.cell_len)
            if strip.cell_length > self._max_width:
                self._max_width = strip.cell_length
                self.call_later(self._update_virtual_size)
            self._cache[key] = strip
        fill = base + self._style("eventlog--pointer") if is_pointer else base
        return strip.crop_extend(scroll_x, scroll_x + width, fill)

    # ------------------------------------------------------------ pointer & search
    def watch_pointer(self, old: int | None, new: int | None) -> None:
        self.refresh()

    def center_on(self, index: int) -> None:
        """Select event ``index`` and scroll it to the middle (stops following the tail)."""
        if not self.count:
            return
        index = max(0, min(index, self.count - 1))
        self.pointer = index
        self._set_follow(False)
        self._center(index)
        # Again once the layout settled (a new scrollbar may have taken a line meanwhile).
        self.call_after_refresh(self._center, index)

    def _center(self, index: int) -> None:
        if self.pointer == index:
            self.scroll_to(y=max(0, index - self.scrollable_content_region.height // 2), animate=False, force=True)

    def find(self, query: str, direction: int = 1, *, include_current: bool = False) -> int | None:
        """Move the pointer to the next event whose name or data contains ``query``; its number or None."""
        self.search = query
        self._cache.clear()
        self.refresh()
        if not query or not self.count:
            return None
        q = query.lower()
        start = self.pointer if self.pointer is not None else (
            self.scroll_offset.y - 1 if direction > 0 else self.scroll_offset.y + 1)
        if include_current and self.pointer is not None:
            start -= direction
        n = self.count
        for step in range(1, n + 1):
            i = (start + step * direction) % n
            ev = self.events[i]
            if q in ev.data.lower() or q in ev.name.lower():
                self.center_on(i)
                return i
        return None

    def clear_search(self) -> None:
        self.search = ""
        self._cache.clear()
        self.refresh()

    def _set_follow(self, follow: bool) -> None:
        if follow != self.follow:
            self.follow = follow
            self.post_message(self.FollowChanged(follow))

    def set_follow(self, follow: bool) -> None:
        """Follow the tail (True scrolls to the newest event now)."""
        self.follow = follow
        if follow:
            self.pointer = None
            self._scroll_tail()

    # ------------------------------------------------------------ actions
    def action_cursor(self, delta: int) -> None:
        if not self.count:
            return
        base = self.pointer if self.pointer is not None else (
            self.scroll_offset.y + (self.scrollable_content_region.height - 1 if delta < 0 else 0) - delta)
        new = max(0, min(self.count - 1, base + delta))
        self.pointer = new
        self._set_follow(False)
        self.scroll_to_region_line(new)

    def scroll_to_region_line(self, index: int) -> None:
        top = self.scroll_offset.y
        h = self.scrollable_content_region.height
        if index < top:
            self.scroll_to(y=index, animate=False, force=True)
        elif index >= top + h:
            self.scroll_to(y=index - h + 1, animate=False, force=True)

    def action_cursor_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 1))

    def action_cursor_home(self) -> None:
        if self.count:
            self.pointer = 0
            self._set_follow(False)
            self.scroll_to(y=0, animate=False, force=True)

    def action_cursor_end(self) -> None:
        if self.count:
            self.pointer = self.count - 1
            self._set_follow(True)
            self._scroll_tail()

    def action_choose(self) -> None:
        if self.pointer is not None:
            self.post_message(self.EventChosen(self.pointer))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "clear_search":
            return bool(self.search)  # nothing to clear: let esc go on to the screen
        return True

    def action_clear_search(self) -> None:
        self.clear_search()
        self.post_message(self.SearchCleared())

    def action_search_next(self, direction: int) -> None:
        if self.search:
            if self.find(self.search, direction) is None:
                self.app.bell()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._set_follow(False)

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < self.count:
            if index == self.pointer and event.chain >= 2:
                self.post_message(self.EventChosen(index))
            self.pointer = index
            self._set_follow(False)

