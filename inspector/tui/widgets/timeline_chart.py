"""The timeline chart: one row per block showing when its bytes arrived across the whole stream.

Why this module exists: stalls and bursts are the timing bugs people chase (a tool call's
arguments held back for five minutes and released at once). A row per block on one shared time
axis shows at a glance where the silence sits and which block it belongs to. Each row is the
block's lifetime (open → close, a dim line) with its bytes as shaded cells (darker = more bytes
in that slice of time); the first row is every event of the stream; the last row is the axis.
"""
from __future__ import annotations

from itertools import repeat

from textual.widget import Widget

from inspector.tui.series import bucket_row, styled_runs
from inspector.tui.text import Content, assemble, join, shown

SHADES = " ░▒▓█"
LABEL_W = 30


def _shade(v: float, peak: float) -> str:
    if v <= 0 or peak <= 0:
        return ""
    return SHADES[max(1, min(4, int(v / peak * 4 + 0.999)))]


class TimelineChart(Widget):
    """Renders the rows from a session snapshot handed over by :meth:`show`."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = None
        self.start = 0.0
        self.end = 1.0
        self.now: float | None = None
        self._sig: tuple | None = None
        self._rendered: tuple[tuple, Content] | None = None

    def show(self, session, *, start: float, end: float, now: float | None) -> None:
        sig = (id(session), len(session.events), sum(b.deltas for b in session.blocks), start, end,
               None if now is None else round(now, 1))
        if sig == self._sig:
            return
        self._sig = sig
        self.session, self.start, self.end, self.now = session, start, max(end, start + 1e-9), now
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        n = len(self.session.blocks) if self.session is not None else 0
        return n + 5

    def _label(self, text: str) -> str:
        text = text if len(text) <= LABEL_W - 1 else text[:LABEL_W - 2] + "…"
        return text.ljust(LABEL_W)

    def _row(self, label: str, times, columns: int, life: tuple[float | None, float | None] | None,
             style: str) -> Content:
        buckets = bucket_row(times, self.start, self.end, columns)
        peak = max(buckets) if buckets else 0.0
        span = self.end - self.start
        lo: int | None = None
        hi: int | None = None
        if life is not None:
            a, b = life
            if a is not None:
                lo = int((a - self.start) / span * columns)
                hi = int(((b if b is not None else self.end) - self.start) / span * columns)
        cells: list[tuple[str, str]] = []
        for x, v in enumerate(buckets):
            ch = _shade(v, peak)
            if ch:
                st = style
            elif lo is not None and hi is not None and lo <= x <= hi:
                ch, st = "─", "$text-muted"
            else:
                ch, st = " ", ""
            if x == self._now_col(columns) and ch == " ":
                ch, st = "│", "$accent 50%"
            cells.append((ch, st))
        return assemble((self._label(label), "bold"), *styled_runs(cells))

    def _now_col(self, columns: int) -> int | None:
        if self.now is None:
            return None
        span = self.end - self.start
        return min(columns - 1, max(0, int((self.now - self.start) / span * columns)))

    def render(self) -> Content:
        # Layout and paint both ask; on 50 000 events the rows cost tens of milliseconds each.
        key = (self._sig, self.size.width)
        if self._rendered is None or self._rendered[0] != key:
            self._rendered = (key, self._render_rows())
        return self._rendered[1]

    def _render_rows(self) -> Content:
        s = self.session
        if s is None:
            return shown("")
        columns = max(10, self.size.width - LABEL_W - 1)
        times = s.events.times()
        if times and all(t is None for t in times):
            return assemble(
                ("No timing in this capture", "bold"),
                ("\nPasted SSE text and NDJSON files carry no arrival times, so there is nothing to draw. "
                 "Record a stream with `live --record FILE` or `proxy --record DIR` to see when its bytes "
                 "arrived.", "$text-muted"))
        lines: list[Content] = []
        lines.append(self._row("all events", zip(times, repeat(1)), columns, None, "$secondary"))
        lines.append(self._stalls(s, columns, times))
        for b in s.blocks:
            where = f"#{b.index}" if b.index is not None else "#?"
            name = f"{where} {b.kind}" + (f" {b.name}" if b.name else "")
            style = "$error" if b.status == "invalid" or (b.tool and b.closed and b.status == "partial") else "$primary"
            lines.append(self._row(name, b.fragment_times.pairs(), columns, (b.opened_t, b.closed_t), style))
        lines.append(shown(""))
        lines.append(self._axis(columns))
        return join("\n", lines)

    def stall_spans(self, s, times: list | None = None) -> list[tuple[float, float]]:
        """Silences of at least the stall threshold between byte arrivals (from t=0 when request-relative);
        ``times``: ``s.events.times()`` when the caller has it already."""
        times = sorted([t for t in (s.events.times() if times is None else times) if t is not None])
        if not times:
            return []
        if s.request_relative:
            times.insert(0, 0.0)
        end = s.end.t if s.end is not None and s.end.t is not None else None
        if end is not None:
            times.append(end)
        return [(a, b) for a, b in zip(times, times[1:]) if b - a >= s.stall_s]

    def _stalls(self, s, columns: int, times: list) -> Content:
        span = self.end - self.start
        row = [" "] * columns
        for a, b in self.stall_spans(s, times):
            lo = max(0, int((a - self.start) / span * columns))
            hi = min(columns - 1, int((b - self.start) / span * columns))
            for x in range(lo, hi + 1):
                row[x] = "━"
        label = f"stalls ≥ {s.stall_s:g} s"
        return assemble((self._label(label), "bold"), ("".join(row), "$warning"))

    def _axis(self, columns: int) -> Content:
        span = self.end - self.start
        ticks = max(2, columns // 14)
        axis = [" "] * columns
        labels = [" "] * (columns + 12)
        for k in range(ticks + 1):
            x = min(columns - 1, int(k / ticks * (columns - 1)))
            axis[x] = "┬"
            lab = f"{self.start + span * k / ticks:.1f}s"
            pos = max(0, min(x - len(lab) // 2, columns - len(lab)))
            for i, c in enumerate(lab):
                labels[pos + i] = c
        axis_line = "".join(a if a != " " else "─" for a in axis)
        return assemble((self._label("time"), "bold"), (axis_line, "$text-muted"), ("\n", ""),
                                (" " * LABEL_W, ""), ("".join(labels[:columns]), "$text-muted"))
