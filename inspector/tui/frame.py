"""One frame of the inspector: the frozen, typed view state every panel receives (issue 26 item 3).

Why this module exists: a panel that reads the live session must guess what changed and when,
and each one used to be handed its values its own way. Here, once per frame,
:class:`FrameBuilder` reads the session and the feed and builds one :class:`FrameState`; the app
hands each registered panel its part (:data:`Part`): the header line (:class:`HeaderState`), the
transport line (:class:`PlaybackState`), the blocks list (``BlocksState``), the blocks pane with
its detail (:class:`BlockDetailState`), the findings (:class:`FindingsState`) and the event log
(:class:`LogState`). A :class:`Registration` names a panel's widget class, the part it receives
and, for a pane that takes the focus with a key, its name (``focus_pane``); the app's ``PANELS``
table is the list of them.

The states are frozen and compare by value: a part that did not change is equal to (mostly the
same object as) the one of the last frame, and a panel that receives an equal state returns at
once (no redraw). Two parts refer to the session's append-only logs instead of copying them
every frame (50 000 events would be copied 30 times a second): :attr:`LogState.events` holds
``count`` events for this frame and :attr:`BlockDetailState.items` the blocks, which a frame
only reads.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, runtime_checkable

from inspector.model.capture import end_word
from inspector.tui.view_state import BlocksState, BlocksStateBuilder

if TYPE_CHECKING:
    from textual.widget import Widget

    from inspector.feeds.base import Feed
    from inspector.model.blocks import Block
    from inspector.model.events import EventLog
    from inspector.model.findings import Finding
    from inspector.session.rules.declared import DeclaredRules
    from inspector.session.session import Session

Part = Literal["header", "playback", "blocks", "detail", "findings", "log"]
"""The part of a :class:`FrameState` a panel receives (a field name of ``FrameState``)."""


class HeaderState(NamedTuple):
    """What the header line shows (``StreamHeader``)."""

    label: str
    dialect: str | None
    model: str | None
    stop_reason: str | None
    elapsed: float | None
    """The feed's clock in seconds, None when untimed."""
    counts: tuple[tuple[str, int], ...]
    """Findings per severity (``(severity, n)``, sorted), a stall in progress counted."""
    state: str
    """``waiting``, ``streaming``, ``ended (hang-up)``, ``opening 3.1 MB…``, ``source failed``..."""
    http_status: int | None = None
    """The response's HTTP status when it is an error (400 and up), else None."""
    ttfb: float | None = None
    """Seconds from the request to the first byte (``Session.ttfb_s``), None when unknown."""
    ttfc: float | None = None
    """Seconds from the request to the first content (``Session.ttfc_s``), None when unknown."""


class PlaybackState(NamedTuple):
    """What the transport line shows (``PlaybackBar``)."""

    play: str
    """``▶ playing``, ``‖ paused``, ``■ ended``, ``● live``, ``⟳ seeking``, ``⟳ reading``."""
    speed: float
    instant: bool
    events: int
    """Events shown (or read so far, while ``--instant`` reads)."""
    total: int | None
    """Events in the whole stream when known."""
    now: float | None
    """The feed's clock in seconds, None when untimed."""
    duration: float | None
    follow: bool
    """The event log keeps the newest event in view."""
    sources: int
    """How many streams the app holds (``[`` / ``]`` switch)."""
    source_index: int
    live: bool
    """The feed cannot seek (a live stream): no speed, no seek bar."""
    silence: float | None = None
    """Seconds without a byte up to now while the stream is open, else None."""
    stall: float | None = None
    """The stall threshold in seconds (``--stall``)."""
    ended: bool = False
    """The stream is over: no events then means none came."""


@dataclass(frozen=True, slots=True)
class FindingsState:
    """What the findings list shows."""

    findings: tuple[Finding, ...]
    """The session's findings this frame, oldest first."""
    generation: int
    """Changes when the session is replaced (positions restart)."""
    in_progress: Finding | None
    """A finding still open (a stall while it lasts, ``Session.open_stall``), shown last."""
    in_progress_message: str | None
    """Its message this frame (the stall's gap grows while the same finding stays open)."""
    repeats: int
    """Sum of the findings' ``count``: a repeat folded into an existing finding changes it."""


@dataclass(frozen=True, slots=True)
class LogState:
    """What the event log shows."""

    events: EventLog
    """The session's event log (append-only while ``generation`` holds)."""
    count: int
    """Events in this frame (the log may hold more once the frame is drawn)."""
    findings: tuple[Finding, ...]
    """The findings this frame (their events get a severity mark)."""
    generation: int
    dialect: str | None
    """The stream's dialect (which provider summarises the events), None while unknown."""


@dataclass(frozen=True, slots=True)
class BlockDetailState:
    """What the blocks pane needs beyond the list: the highlighted block's detail and its border."""

    blocks: BlocksState
    items: Sequence[Block]
    """The session's blocks (``BlockRow.pos`` indexes it)."""
    findings: Mapping[int, list[Finding]]
    """Findings per block position, oldest first."""
    declared: DeclaredRules
    """The request's declared tools and the V002 violations of each call."""
    show_schema: bool
    """Show each tool call's declared schema (``k``)."""
    moving: bool
    """The stream is playing: the sparklines are throttled."""


@dataclass(frozen=True, slots=True)
class FrameState:
    """Everything the main screen shows, for one frame (one field per :data:`Part`)."""

    header: HeaderState
    playback: PlaybackState
    blocks: BlocksState
    detail: BlockDetailState
    findings: FindingsState
    log: LogState


@runtime_checkable
class StatePanel(Protocol):
    """A widget that receives its part of each frame (``receive`` returns at once when the state
    equals the last one it drew)."""

    def receive(self, state: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class Registration:
    """One panel of the main screen: its widget class, the part it receives, its focus name.

    ``slot="top"``: the app composes it itself, in the top band under the header (order of the
    table); ``None``: a container composes it (the blocks pane, the side panes) and the app finds
    it. ``focus``: the name ``focus_pane`` takes (keys 1, 2, 3)."""

    widget: type[Widget]
    part: Part
    focus: str | None = None
    slot: Literal["top"] | None = None
    id: str | None = None
    """The widget's id when the app composes it."""


@dataclass(frozen=True, slots=True)
class ViewFlags:
    """What a frame shows that is the viewer's choice, not the session's."""

    feed_index: int
    sources: int
    pretty: bool
    show_schema: bool
    follow: bool
    """The event log follows the tail (shown in the transport line)."""


class FrameBuilder:
    """Builds each frame's :class:`FrameState` from the feed shown; keeps what a frame can reuse
    (unchanged block rows, the findings tuple, the counts per severity) until :meth:`reset`."""

    def __init__(self) -> None:
        self.blocks = BlocksStateBuilder()
        self.reset(0)

    def reset(self, generation: int) -> None:
        """A new session (another stream, a seek): forget everything kept."""
        self.generation = generation
        self.blocks.reset(generation)
        self._counts: dict[str, int] = {}
        self._counted = 0
        self._findings: tuple[Finding, ...] = ()
        self.last: FrameState | None = None

    def build(self, feed: Feed, s: Session, flags: ViewFlags) -> FrameState:
        """The frame of ``feed`` showing its session ``s``."""
        findings = s.findings
        if len(findings) != len(self._findings):
            for f in findings[self._counted:]:
                self._counts[f.severity] = self._counts.get(f.severity, 0) + 1
            self._counted = len(findings)
            self._findings = tuple(findings)
        counts = dict(self._counts)
        stall = s.open_stall
        if stall is not None:  # a stall in progress counts as found
            counts[stall.severity] = counts.get(stall.severity, 0) + 1
        gen = self.generation
        blocks = self.blocks.build(s, pretty=flags.pretty, empty_note=no_blocks_note(s))
        moving = not feed.paused and not feed.finished
        dialect = None if s.dialect is None else s.dialect_name
        frame = FrameState(
            header=HeaderState(feed.label, dialect, s.model, s.stop_reason, feed.now(), tuple(sorted(counts.items())),
                               state_word(feed), http_error_status(s), s.ttfb_s, s.ttfc_s),
            playback=PlaybackState(play_word(feed), feed.speed, feed.instant, len(s.events), feed.total_events,
                                   feed.now(), feed.duration, flags.follow, flags.sources, flags.feed_index,
                                   not feed.seekable, silence(feed, s), s.stall_s, s.closed),
            blocks=blocks,
            detail=BlockDetailState(blocks, s.blocks, self.blocks.findings, s.declared, flags.show_schema, moving),
            findings=FindingsState(self._findings, gen, stall, None if stall is None else stall.message,
                                   sum(f.count for f in self._findings)),
            log=LogState(s.events, len(s.events), self._findings, gen, dialect))
        self.last = frame
        return frame


def transport_state(feed: Feed, flags: ViewFlags, play: str, events: int) -> PlaybackState:
    """The transport line alone, while a seek rebuilds the session or ``--instant`` reads (the
    other panels keep the last frame: a half-built session is not drawn)."""
    return PlaybackState(play, feed.speed, feed.instant, events, feed.total_events, None, None, False,
                         flags.sources, flags.feed_index, False)


def state_word(feed: Feed) -> str:
    """The stream's state as the header says it."""
    s = feed.session
    if feed.loading:
        return loading_text(feed)
    if feed.error:
        return "source failed"
    if s.closed:
        word = end_word(s.end, s.ended)
        return "ended" if word == "eof" else f"ended ({word})"
    return "streaming" if s.events or s.bytes_received else "waiting"


def play_word(feed: Feed) -> str:
    """The play state as the transport line says it."""
    if feed.finished:
        return "■ ended"
    if feed.paused:
        return "‖ paused"
    return "▶ playing" if feed.seekable else "● live"


def silence(feed: Feed, s: Session) -> float | None:
    """Seconds without a byte up to now, while the stream is open (a stall in progress).

    Counted from the newest *arrival* (``feed.last_arrival()`` where the feed knows it), not
    from the newest event drawn: a frame drawn late must not show a silence that is not there."""
    now = feed.now()
    if now is None or s.closed:
        return None
    arrival = getattr(feed, "last_arrival", None)
    last = arrival() if arrival is not None else s.last_byte_t
    if last is None and s.request_relative:
        last = 0.0
    return None if last is None else max(0.0, now - last)


def http_error_status(session: Session) -> int | None:
    """The response's HTTP status when it is an error (400 and up), else None."""
    status = (session.response or {}).get("status")
    return status if isinstance(status, int) and status >= 400 else None


def no_blocks_note(s: Session) -> str:
    """What the blocks pane says when there are no blocks."""
    if not s.closed:
        return "no content blocks yet"
    status = http_error_status(s)
    if status is not None:
        return f"no content blocks: the answer was HTTP {status} (see the findings)"
    return "no content blocks"


def size_text(n: int | None) -> str:
    """A file size for people: ``3.1 MB``, ``812 B``, '' when unknown."""
    if n is None:
        return ""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def loading_text(feed: Feed) -> str:
    """What the header says while ``feed`` is read."""
    size = size_text(getattr(feed, "size", None))
    return f"opening{' ' + size if size else ''}…"
