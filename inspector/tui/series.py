"""Small incremental series for the block sparklines and the timeline (no Textual).

Why this module exists: a block can receive tens of thousands of deltas; the panel's sparklines
must not rescan all of them on every frame. :class:`BlockSeries` consumes only the fragments
added since the last frame and keeps a bounded number of bars by merging neighbours (doubling
the bucket width), so a frame costs O(new fragments).
"""
from __future__ import annotations

MAX_BARS = 32
"""Most bars a sparkline keeps (neighbours merge beyond that)."""


class BlockSeries:
    """Bytes over time and inter-delta gaps of one block, updated incrementally.

    ``bytes_bars``: UTF-8 bytes per time bucket since the block's first fragment (per delta when
    untimed). ``gap_bars``: the longest gap (seconds) in each group of consecutive deltas.
    """

    def __init__(self, max_bars: int = MAX_BARS, bucket_s: float = 0.05) -> None:
        self.max_bars = max_bars
        self._bucket0 = bucket_s
        self.reset()

    def reset(self) -> None:
        self.seen = 0
        """Fragments consumed so far."""
        self.t0: float | None = None
        self.bucket_s = self._bucket0
        self.bytes_bars: list[float] = []
        self._gap_done: list[float] = []
        self._gap_group = 1
        self._gap_cur: list[float] = []
        self._last_t: float | None = None
        self._timed: bool | None = None
        self._count = 0

    def update(self, fragment_times: list) -> bool:
        """Consume new ``(t, bytes)`` entries; True when anything changed."""
        n = len(fragment_times)
        if n < self.seen:  # the block was replaced by a rebuild
            self.reset()
        if n == self.seen:
            return False
        for t, size in fragment_times[self.seen:n]:
            self._add(t, size)
        self.seen = n
        return True

    def _add(self, t: float | None, size: int) -> None:
        if self._timed is None:
            self._timed = t is not None
            if not self._timed:
                self.bucket_s = 1.0  # untimed: one bucket per delta, merged as they grow
        count = self._count
        self._count += 1
        if not self._timed or t is None:
            self._add_bytes_at(float(count), size)
            return
        if self.t0 is None:
            self.t0 = t
        self._add_bytes_at(max(0.0, t - self.t0), size)
        if self._last_t is not None:
            self._add_gap(max(0.0, t - self._last_t))
        self._last_t = t

    def _add_bytes_at(self, x: float, size: int) -> None:
        idx = int(x / self.bucket_s)
        while idx >= self.max_bars:
            self._merge_bytes()
            self.bucket_s *= 2
            idx = int(x / self.bucket_s)
        bars = self.bytes_bars
        if idx >= len(bars):
            bars.extend([0.0] * (idx + 1 - len(bars)))
        bars[idx] += size

    def _merge_bytes(self) -> None:
        b = self.bytes_bars
        self.bytes_bars = [sum(b[i:i + 2]) for i in range(0, len(b), 2)]

    def _add_gap(self, gap: float) -> None:
        self._gap_cur.append(gap)
        if len(self._gap_cur) >= self._gap_group:
            self._gap_done.append(max(self._gap_cur))
            self._gap_cur = []
            if len(self._gap_done) > self.max_bars:
                d = self._gap_done
                self._gap_done = [max(d[i:i + 2]) for i in range(0, len(d), 2)]
                self._gap_group *= 2

    @property
    def timed(self) -> bool | None:
        """True when the fragments carry times, False when untimed, None before the first one."""
        return self._timed

    @property
    def gap_bars(self) -> list[float]:
        return self._gap_done + ([max(self._gap_cur)] if self._gap_cur else [])


def bucket_row(times: list, start: float, end: float, columns: int) -> list[float]:
    """Sum ``(t, amount)`` pairs into ``columns`` equal buckets over ``[start, end]`` (timeline rows)."""
    out = [0.0] * columns
    span = end - start
    if columns <= 0:
        return out
    for t, amount in times:
        if t is None:
            continue
        x = 0 if span <= 0 else int((t - start) / span * columns)
        out[min(max(x, 0), columns - 1)] += amount
    return out


def styled_runs(cells) -> list[tuple[str, str]]:
    """Merge ``(character, style)`` cells into runs of one style, for ``Content.assemble``."""
    out: list[tuple[str, str]] = []
    run: list[str] = []
    run_style = None
    for ch, st in cells:
        if st != run_style and run:
            out.append(("".join(run), run_style or ""))
            run = []
        run_style = st
        run.append(ch)
    if run:
        out.append(("".join(run), run_style or ""))
    return out
