"""Record times that cannot be true, clamped in one place (RULES.md S017).

Why it exists: a capture's times come from files strangers share (a hand-edited native capture, a
HAR's ``_chunks`` or EventSource message times, a merged log). A time that is negative, not finite,
absurdly far out (``1e300``) or earlier than the one before would break every duration, gap and
wall-clock conversion downstream (``datetime`` overflows, ``int()`` of infinity); every reader of
record times passes them through a :class:`Clock`, which keeps the last good time to clamp a bad one
to and words one S017 note for them all.
"""
from __future__ import annotations

import math

MAX_T = 1e6
"""Seconds after the request beyond which a record's time is taken as wrong (about 11.6 days)."""
SHOWN = 3
"""Bad times named in the note before "and N more"."""


class Clock:
    """Checks record times in order; keeps the last good one to clamp bad ones to."""

    def __init__(self) -> None:
        self.last = 0.0
        self.bad: list[tuple[str, str]] = []

    def check(self, t: float | None, where: str) -> float | None:
        """``t`` when it can be true, else the last good time (noted under ``where``: ``line 3``)."""
        if t is None:
            return None
        if not math.isfinite(t):
            why = f"t={t}"
        elif t < 0:
            why = f"negative t={t:g}"
        elif t > MAX_T:
            why = f"t={t:g} s (over {MAX_T:g} s)"
        elif t < self.last:
            why = f"t={t:g} earlier than the record before ({self.last:g})"
        else:
            self.last = t
            return t
        self.bad.append((where, why))
        return self.last

    def notes(self) -> list[str]:
        """The S017 note (``Capture.timing_notes``), or none when every time could be true."""
        if not self.bad:
            return []
        shown = "; ".join(f"{where}: {why}" for where, why in self.bad[:SHOWN])
        more = f"; and {len(self.bad) - SHOWN} more" if len(self.bad) > SHOWN else ""
        return [f"{len(self.bad)} record time{'s' if len(self.bad) != 1 else ''} cannot be true ({shown}{more}): "
                "clamped to the time before, so durations and gaps there are not measured"]


def seconds(t: int | float) -> float:
    """A JSON number of seconds as a float: a whole number too large for one (Python's ``json`` reads
    ``1`` followed by 400 zeros) is infinite, which :meth:`Clock.check` then clamps."""
    try:
        return float(t)
    except OverflowError:
        return math.inf if t > 0 else -math.inf
