"""The block sparklines' series (inspector/tui/series.py): the same bars however the deltas arrive."""
from __future__ import annotations

import random

import pytest

from inspector.tui.series import BlockSeries


def _fragments(rng: random.Random, n: int, timed: bool) -> list[tuple[float | None, int]]:
    t, out = rng.random(), []
    for _ in range(n):
        t += rng.expovariate(20) if rng.random() < 0.9 else rng.random() * 3
        out.append((t if timed and rng.random() > 0.02 else None, rng.randint(0, 50)))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_bars_do_not_depend_on_how_many_deltas_each_frame_brings(seed):
    rng = random.Random(seed)
    frags = _fragments(rng, rng.randint(1, 3000), timed=seed % 4 != 0)
    whole, pieces = BlockSeries(), BlockSeries()
    assert whole.update(frags)
    n = 0
    while n < len(frags):
        n = min(len(frags), n + rng.randint(1, 300))
        assert pieces.update(frags[:n])
    assert not pieces.update(frags)  # nothing new
    assert pieces.bytes_bars == whole.bytes_bars and pieces.gap_bars == whole.gap_bars
    assert pieces.timed is whole.timed and pieces.bucket_s == whole.bucket_s
    assert sum(whole.bytes_bars) == sum(size for _, size in frags)
    assert len(whole.bytes_bars) <= whole.max_bars and len(whole.gap_bars) <= whole.max_bars + 1


def test_bars_and_gaps_of_a_small_timed_block():
    s = BlockSeries(max_bars=4, bucket_s=1.0)
    s.t0 = 0.0
    s.update([(0.5, 10), (1.5, 20), (1.6, 5), (6.0, 7)])
    assert s.timed is True
    assert s.bucket_s == 2.0 and s.bytes_bars == [35.0, 0.0, 0.0, 7.0]  # 6.0 s: buckets doubled once
    assert s.gap_bars == pytest.approx([1.0, 0.1, 4.4])
    s.update([(0.5, 10), (1.5, 20), (1.6, 5), (6.0, 7)] + [(None, 3)])
    assert s.bytes_bars == [35.0, 0.0, 3.0, 7.0]  # an untimed delta is placed by its number (4)


def _bucket_row_by_definition(times, start, end, columns):
    """Each timed pair on its own: the bucket its time falls in, clamped to the row."""
    out = [0.0] * columns
    span = end - start
    for t, amount in times:
        if t is None or t != t:
            continue
        x = 0 if span <= 0 else int((t - start) / span * columns)
        out[min(max(x, 0), columns - 1)] += amount
    return out


@pytest.mark.parametrize("seed", range(30))
def test_timeline_rows_sum_each_pair_into_its_bucket(seed):
    from inspector.model.blocks import FragmentTimes
    from inspector.tui.series import bucket_row

    rng = random.Random(seed)
    pairs = _fragments(rng, rng.randint(0, 2000), timed=seed % 5 != 0)
    # chunks: several fragments at one time, and times before the start and after the end
    pairs = [p for p in pairs for _ in range(rng.choice((1, 1, 4)))]
    start, end = rng.uniform(-1, 2), rng.uniform(0, 8)
    columns = rng.choice((1, 7, 80, 150))
    expected = _bucket_row_by_definition(pairs, start, end, columns)
    assert bucket_row(pairs, start, end, columns) == expected
    ft = FragmentTimes()
    for t, n in pairs:
        ft.append(t, n)
    assert bucket_row(ft.pairs(), start, end, columns) == expected  # untimed as NaN
    assert bucket_row([], start, end, columns) == [0.0] * columns
    assert bucket_row(pairs, start, end, 0) == []
