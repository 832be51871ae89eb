"""T rules: stalls (T001), keepalive-only stretches (T002), buffered tool arguments (T003).

Times are the chunk arrival times carried by the session; untimed input (pasted text) is never
judged. The threshold is ``Session.stall_s`` (``--stall``, default 10 s).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from inspector.model.findings import Finding

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord
    from inspector.session.session import Session


def _fmt(t: float) -> str:
    return f"{t:.1f}" if t >= 1 else f"{t:.3f}"


class StallWatch:
    """Watches byte arrival (T001) and keepalive-only stretches (T002) for one session."""

    def __init__(self, session: "Session") -> None:
        self.s = session
        self.last_bytes_t: float | None = 0.0 if session.request_relative else None
        self.pending_stall: tuple[float, float] | None = None
        self.last_content_t: float | None = self.last_bytes_t
        self.keepalives = 0

    def tick(self, now: float) -> None:
        """T001 while it lasts: the stream is silent up to ``now``; a silence ≥ threshold since the
        last byte (or the request) becomes ``Session.open_stall``, its gap updated at every tick.
        The stall's own finding is still reported by ``on_bytes``/``on_end``, where a recorded
        capture reports it, so a live stream ends with exactly the findings ``check`` gives."""
        last = self.last_bytes_t
        if last is None or now - last < self.s.stall_s:
            self.s.open_stall = None
            return
        where = "before the first byte" if self.s.first_byte_t is None and self.s.request_relative \
            else f"after t={_fmt(last)} s"
        self.s.open_stall = Finding.make("T001", f"no bytes for {_fmt(now - last)} s so far ({where}; still silent)",
                                         t=now, severity=self.s.severity_overrides.get("T001"))

    def on_bytes(self, t: float | None) -> None:
        """T001: a chunk arrived at ``t``; a gap ≥ threshold since the previous one is a stall."""
        self.s.open_stall = None
        if t is None:
            return
        prev = self.last_bytes_t
        self.last_bytes_t = t if prev is None else max(prev, t)
        if prev is not None and t - prev >= self.s.stall_s:
            self._flush_stall()
            self.pending_stall = (prev, t)
            if self.last_content_t is None:
                self.last_content_t = prev

    def _flush_stall(self, ev: "EventRecord | None" = None) -> None:
        if self.pending_stall is None:
            return
        a, b = self.pending_stall
        self.pending_stall = None
        where = "before the first byte" if a == 0.0 and self.s.first_byte_t == b and self.s.request_relative \
            else f"after t={_fmt(a)} s"
        msg = f"no bytes for {_fmt(b - a)} s ({where}, until t={_fmt(b)} s)"
        if ev is not None:
            self.s.report_at("T001", msg, event=ev.index, line=ev.line, t=b)
        else:
            self.s.report_at("T001", msg, event=None, line=None, t=b)

    def on_keepalive(self, t: float | None, line: int | None = None) -> None:
        if t is not None:
            self.keepalives += 1

    def on_event(self, ev: "EventRecord") -> None:
        self._flush_stall(ev)
        if ev.t is None:
            return
        if ev.keepalive:
            self.keepalives += 1
            return
        self._check_keepalive_only(ev.t, ev)
        self.last_content_t = ev.t
        self.keepalives = 0

    def _check_keepalive_only(self, t: float, ev: "EventRecord | None") -> None:
        """T002: only pings/comments for ≥ threshold while a block is open, or before the first
        content event (the wait ``ttfc_s`` measures; keep-alives hide it from ``ttfb_s``)."""
        last = self.last_content_t
        if not self.keepalives or last is None or t - last < self.s.stall_s:
            return
        blocks = self.s.current_response.blocks if self.s.current_response is not None else ()
        b = next((b for b in reversed(blocks) if not b.closed and not b.replaced), None)
        if b is not None:
            where, index = f"while block {b.index if b.index is not None else b.kind} was open", b.index
        elif self.s.first_content_t is None:
            where, index = "before the first content (time to first content; keep-alives hide it from the time to first byte)", None
        else:
            return
        msg = f"only keepalives ({self.keepalives}) for {_fmt(t - last)} s {where} (t={_fmt(last)} → {_fmt(t)} s)"
        self.s.report_at("T002", msg, event=ev.index if ev is not None else None,
                         line=ev.line if ev is not None else None, t=t, index=index)

    def on_end(self, end: "End") -> None:
        """T001 for the wait between the last chunk and the end record; pending stalls; T002 at the end."""
        self.s.open_stall = None
        self._flush_stall()
        if end.t is not None and self.last_bytes_t is not None and end.t - self.last_bytes_t >= self.s.stall_s:
            self.pending_stall = (self.last_bytes_t, end.t)
            a, b = self.pending_stall
            self.pending_stall = None
            self.s.report_at("T001", f"no bytes for {_fmt(b - a)} s before the stream ended "
                             f"({end.kind}) at t={_fmt(b)} s", event=None, line=None, t=b)
        if end.t is not None:
            self._check_keepalive_only(end.t, None)


def check_buffered(session: "Session", block: "Block", close_t: float | None) -> None:
    """T003: ≥ 90 % of a tool block's argument bytes arrived in the last 10 % of its lifetime.

    Lifetime runs from the opening event to ``close_t`` (its closing event, or the end of the
    stream when it never closed); it must be at least the stall threshold (RULES.md T003).
    """
    if block.opened_t is None or close_t is None:
        return
    lifetime = close_t - block.opened_t
    if lifetime < session.stall_s or lifetime <= 0:
        return
    total = block.fragment_times.total()
    if total <= 0:
        return
    cut = close_t - 0.1 * lifetime
    late = sum(n for t, n in block.fragment_times if t is not None and t >= cut)
    if late >= 0.9 * total:
        first = next((t for t, n in block.fragment_times if n and t is not None), close_t)
        burst = [t for t, n in block.fragment_times if n and t is not None and t >= cut]
        span = (max(burst) - min(burst)) if burst else 0.0
        hint = session.dialect.buffered_arguments_hint if session.dialect is not None else ""
        session.report_at(
            "T003",
            f"{late * 100 // total}% of the {total} argument bytes arrived in one {_fmt(span)} s burst at the "
            f"end of the block's {_fmt(lifetime)} s lifetime (first argument byte at t={_fmt(first)} s, "
            f"{_fmt(first - block.opened_t)} s after the block opened): the server buffered the parameters.{hint}",
            event=block.closed_event, line=_line_of(session, block.closed_event), t=close_t, index=block.index)


def _line_of(session: "Session", event: int | None) -> int | None:
    if event is None or event >= len(session.events):
        return None
    return session.events[event].line


def check_buffered_blocks(session: "Session", end: "End", blocks) -> None:
    """T003 for ``blocks``' tool blocks that never closed: their lifetime runs to ``end``."""
    t = end.t if end.t is not None else session.last_byte_t
    for b in blocks:
        if b.tool and not b.closed and not b.replaced:
            check_buffered(session, b, t)
