"""The one feed protocol every viewer reads, and the one driver that feeds sessions from sources.

A *source* yields ``Head``, then ``Chunk``s, then ``End`` (``inspector.model.capture``): a live
socket, the proxy's tee, a capture replayed. The :class:`Driver` turns that sequence into a
``Session`` (a new one at each ``Head``), so ``check``, ``live``, the proxy's exchanges, replay
and compare all inspect a stream the same way.

A *feed* is what the TUI shows: one stream with its session and transport state. Replay
(``ReplayFeed``), a live source (``LiveFeed``) and a proxy exchange (``ExchangeFeed``) implement
:class:`Feed`; what a feed can do is said by ``seekable`` and ``restartable``, never by its type.
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from inspector.model.static import Protocol

from inspector.model.capture import Capture, Chunk, End, Head, SourceItem
from inspector.session.session import Session
from inspector.model.record import FrozenRecord

Progress = Callable[[], None]
"""Called by ``play``/``aseek_event`` after each batch of work (the TUI posts a message there)."""


class Settings(FrozenRecord):
    """How sessions judge a stream (the CLI's ``--dialect``, ``--stall``, ``--severity``)."""

    __slots__ = ("dialect", "stall_s", "severity_overrides")

    dialect: str | None
    """Forced dialect, or None to detect it."""
    stall_s: float
    """T001/T002/T003 threshold in seconds."""
    severity_overrides: dict
    """``{code: severity}``."""

    def __init__(self, dialect: str | None = None, stall_s: float = 10.0,
                 severity_overrides: dict | None = None) -> None:
        object.__setattr__(self, "dialect", dialect)
        object.__setattr__(self, "stall_s", stall_s)
        object.__setattr__(self, "severity_overrides", {} if severity_overrides is None else severity_overrides)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside the block (restored after, if it was on).

    What the block allocated is then all in the youngest generation: the first collection after
    ``gc.enable()`` would traverse every object of it (0.1 s for a 25 000-event session, a sixth of
    its run). When nothing is frozen, ``freeze`` + ``unfreeze`` moves it to the oldest generation
    instead (two list splices), where the next full collection sees it, cycles included."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():  # unfreeze would also release what a caller froze
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def new_session(cap: Capture, settings: Settings = Settings()) -> Session:
    """A fresh session set up for ``cap``: its response head, timing basis, line numbering, and
    the importer's notes as S014 findings, impossible record times as S017."""
    s = Session(dialect_name=settings.dialect, stall_s=settings.stall_s, request_relative=cap.request_relative,
                response=cap.response, request=cap.request, line_base=cap.line_base,
                severity_overrides=dict(settings.severity_overrides), messages=cap.source_format == "websocket")
    for note in cap.notes:
        s.report_at("S014", note, event=None, line=None, t=None)
    for note in cap.timing_notes:
        s.report_at("S017", note, event=None, line=None, t=None)
    return s


class Driver:
    """Feeds sessions from a source's items: a new session per ``Head``, then chunks, then the end.

    Times on live sources count from the request (``request_relative``), so the wait for the
    first byte is part of the stream (T001). Lines on live sources are capture lines (RULES.md
    preamble): a chunk that arrives without one gets the line its record has in the native
    capture of this stream (the header is line 1, each non-empty chunk one record after it), so a
    finding points at the same line live and in ``check`` of the recording.
    """

    def __init__(self, settings: Settings = Settings(), capture: Capture | None = None, *, keep: bool = False) -> None:
        self.settings = settings
        self.session: Session = new_session(capture or Capture(request_relative=True), settings)
        """The current session (before a head arrives: an empty one, or ``capture``'s)."""
        self.head: Head | None = None
        self.end: End | None = None
        self.generation = 0
        """Bumped each time a ``Head`` starts a new session."""
        self.keep = keep
        self._records = 0
        """Lines of the native capture this live stream is (or would be) recorded as, so far."""
        self.followup = capture.followup if capture is not None else None
        """The request that continues this response on its WebSocket (``Capture.followup``): judged
        against the session when it closes (Q rules), as ``check --request`` judges a request file."""
        self.tape: Capture | None = None
        """With ``keep``: the current stream as received (request, response head, chunks, end), for
        saving it as a native capture; a new one at each ``Head``. The chunks are the ones fed (not copies)."""

    @classmethod
    def for_capture(cls, cap: Capture, settings: Settings = Settings()) -> "Driver":
        """A driver whose session is set up for ``cap`` (its head, timing basis, line numbering):
        feed it ``cap``'s chunks, then ``close(cap.end)``."""
        return cls(settings, cap)

    def take(self, item: SourceItem) -> None:
        """Apply one source item."""
        if isinstance(item, Head):
            self.head = item
            response = {"status": item.status, "headers": item.headers} if item.status is not None else None
            self.session = new_session(Capture(request=item.request, response=response, request_relative=True),
                                       self.settings)
            self.generation += 1
            self._records = 1  # the header line
            if self.keep:
                self.tape = Capture(request=item.request, response=response, source_format="native",
                                    request_relative=True)
        elif isinstance(item, Chunk):
            if self._records and item.data and item.line is None:
                self._records += 1
                item.line = self._records
            self.session.feed(item)
            if self.tape is not None and item.data:
                self.tape.chunks.append(item)
        elif isinstance(item, End):
            self.close(item)

    def close(self, end: End | None = None) -> Session:
        """End the stream (``None``: a clean end of file at the last byte) and return the session."""
        self.end = end
        closing = not self.session.closed
        self.session.close(end)
        if closing and self.followup is not None:
            from inspector.session.history import check_request  # a WebSocket follow-up request only (start-up)
            check_request(self.session, self.followup)
        if self.tape is not None and self.tape.end is None:
            self.tape.end = end or self.session.end
        return self.session

    def cancel(self, t: float | None = None, reason: str = "cancelled by the user") -> None:
        """Close an unfinished session as ``cancelled`` (the source stopped without an ``End``)."""
        if not self.session.closed:
            self.close(End(t if t is not None else self.session.last_byte_t, "cancelled", reason))

    @property
    def connected(self) -> bool:
        """A response head with a status arrived."""
        return self.head is not None and self.head.status is not None


class Feed(Protocol):
    """One stream as a viewer sees it. Times are seconds on the stream's own clock.

    Viewers only read its state (a feed may keep any of it as a plain attribute or compute it:
    the members are read-only here) and change it through its methods."""

    @property
    def label(self) -> str:
        """Short name shown in the TUI."""

    @property
    def session(self) -> Session:
        """The session to show now (replaced on seek or restart: see ``generation``)."""

    @property
    def generation(self) -> int:
        """Bumped whenever ``session`` is replaced; viewers drop their caches."""

    @property
    def paused(self) -> bool: ...

    @property
    def speed(self) -> float:
        """Playback speed factor (1 = as recorded); live feeds ignore it."""

    @property
    def instant(self) -> bool: ...

    @property
    def error(self) -> str | None:
        """Why the source failed (one line), if it did."""

    @property
    def loading(self) -> bool:
        """The source is still being read (a capture file opening): nothing to play or seek yet."""

    @property
    def reading(self) -> int | None:
        """Events read so far by an ``instant`` read that is not shown yet (``session`` is the one from
        before it until it ends); None when no such read runs."""

    @property
    def seekable(self) -> bool:
        """Can step back and jump to any event (replays)."""

    @property
    def restartable(self) -> bool:
        """Can play from the start again."""

    @property
    def finished(self) -> bool:
        """Everything has been fed (the session is closed)."""

    @property
    def event_count(self) -> int:
        """Events shown now."""

    @property
    def total_events(self) -> int | None:
        """Events in the whole stream when known."""

    @property
    def duration(self) -> float | None:
        """The stream's length in seconds when known."""

    def now(self) -> float | None:
        """The feed's clock, None when untimed."""

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def set_speed(self, speed: float) -> None: ...

    def restart(self) -> None:
        """Back to the start (``play`` then plays it again); a no-op unless ``restartable``."""

    async def play(self, progress: Progress | None = None) -> None:
        """Feed until the end or ``pause``; ``progress()`` after each batch."""

    async def aseek_event(self, n: int, progress: Progress | None = None) -> None:
        """Show exactly events ``0..n`` (seekable feeds only)."""

    async def ascan(self, progress: Progress | None = None) -> None:
        """Learn ``total_events`` in the background without changing what is shown (replays)."""

    def recorded(self) -> Capture | None:
        """The whole stream as received so far (request, response head, chunks, end), what saving
        writes as a native capture; None when the feed keeps none (nothing arrived yet)."""
