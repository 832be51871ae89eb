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
        self._gap_max = 0.0
        """Longest gap of the group in progress (``_gap_n`` gaps so far)."""
        self._gap_n = 0
        self._last_t: float | None = None
        self._timed: bool | None = None
        self._count = 0

    def update(self, fragment_times) -> bool:
        """Consume new ``(t, bytes)`` entries; True when anything changed.

        One loop with its state in locals: a block of 50 000 deltas shown at once (``--instant``)
        costs one pass of a few tens of milliseconds, not one method call per delta."""
        n = len(fragment_times)
        if n < self.seen:  # the block was replaced by a rebuild
            self.reset()
        if n == self.seen:
            return False
        new = fragment_times[self.seen:n]
        self.seen = n
        if self._timed is None:
            self._timed = new[0][0] is not None
            if not self._timed:
                self.bucket_s = 1.0  # untimed: one bucket per delta, merged as they grow
        if not self._timed:
            for _, size in new:
                self._add_bytes_at(float(self._count), size)
                self._count += 1
            return True
        max_bars, bars, bucket = self.max_bars, self.bytes_bars, self.bucket_s
        t0, last_t, count = self.t0, self._last_t, self._count
        group, gap_max, gap_n = self._gap_group, self._gap_max, self._gap_n
        for t, size in new:
            if t is None:  # an untimed delta in a timed block: placed by its number
                self.bucket_s, self.bytes_bars = bucket, bars
                self._add_bytes_at(float(count), size)
                bucket, bars = self.bucket_s, self.bytes_bars
                count += 1
                continue
            count += 1
            if t0 is None:
                t0 = t
            x = t - t0 if t > t0 else 0.0
            idx = int(x / bucket)
            if idx >= max_bars:
                self.bucket_s, self.bytes_bars = bucket, bars
                self._add_bytes_at(x, size)
                bucket, bars = self.bucket_s, self.bytes_bars
            else:
                if idx >= len(bars):
                    bars.extend([0.0] * (idx + 1 - len(bars)))
                bars[idx] += size
            if last_t is not None:
                gap = t - last_t if t > last_t else 0.0
                if gap_n == 0 or gap > gap_max:
                    gap_max = gap
                gap_n += 1
                if gap_n >= group:
                    done = self._gap_done
                    done.append(gap_max)
                    gap_n = 0
                    if len(done) > max_bars:
                        self._gap_done = [max(done[i:i + 2]) for i in range(0, len(done), 2)]
                        group *= 2
            last_t = t
        self.bucket_s, self.bytes_bars = bucket, bars
        self.t0, self._last_t, self._count = t0, last_t, count
        self._gap_group, self._gap_max, self._gap_n = group, gap_max, gap_n
        return True

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

    @property
    def timed(self) -> bool | None:
        """True when the fragments carry times, False when untimed, None before the first one."""
        return self._timed

    @property
    def gap_bars(self) -> list[float]:
        return self._gap_done + ([self._gap_max] if self._gap_n else [])


def bucket_row(times, start: float, end: float, columns: int) -> list[float]:
    """Sum ``(t, amount)`` pairs (``t`` seconds; None or NaN: untimed, skipped) into ``columns``
    equal buckets over ``[start, end]`` (timeline rows). One pass; the events of a chunk share
    their time, so a bucket is computed once per distinct time in a row."""
    out = [0.0] * columns
    if columns <= 0:
        return out
    span = end - start
    last = columns - 1
    prev: object = out  # no time equals it
    x = -1
    for t, amount in times:
        if t != prev:
            prev = t
            if t is None or t != t:
                x = -1
            else:
                x = 0 if span <= 0 else int((t - start) / span * columns)
                x = 0 if x < 0 else (last if x > last else x)
        if x >= 0:
            out[x] += amount
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
