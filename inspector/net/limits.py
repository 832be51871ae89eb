"""How long and how large one response body may grow: ``live`` and ``proxy`` ``--max-bytes``, ``--max-duration``.

Why: ``--timeout`` bounds only the silence between bytes, so an upstream that never stops (a
runaway generation, a broken gateway looping) would grow the session and the recording without
end. A body that passes a limit is cut there and the stream ends ``cancelled`` (SPEC.md's end
kinds are kept) with an error naming the limit, so S012's message says what happened and which
option to raise.

Imports: the standard library only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64 * 1024 * 1024
"""Default ``--max-bytes``: 64 MiB, about fifty times the largest real LLM stream we have seen (a
1.4 M-character tool call). Inspection holds roughly 13 bytes of memory per body byte."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


def parse_size(text: str) -> int:
    """``"1000"``, ``"64M"``, ``"64MiB"``, ``"1.5g"`` -> bytes (K, M, G, T are powers of 1024).

    Raises ``ValueError`` for anything else, or a size below 1 byte."""
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (e.g. 1000000, 64M, 1G)")
    n = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if n < 1:
        raise ValueError(f"must be at least 1 byte: {text!r}")
    return n


def human_size(n: int) -> str:
    """``67108864`` -> ``64 MiB``; ``1000`` -> ``1000 bytes``."""
    for unit, size in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


@dataclass(frozen=True, slots=True)
class StreamLimits:
    """Per response body: at most ``max_bytes`` bytes (None: no limit) and ``max_duration`` seconds
    from the request being sent (None: no limit)."""

    max_bytes: int | None = MAX_BYTES
    max_duration: float | None = None

    def bytes_reached(self, kept: int) -> str:
        """The end's error text once the body passed ``max_bytes`` (``kept``: bytes before the cut)."""
        return (f"cut at --max-bytes {human_size(self.max_bytes or 0)}: the body went on past it "
                f"({kept} bytes kept, the rest not read)")

    def duration_reached(self) -> str:
        """The end's error text once the stream ran for ``max_duration`` seconds."""
        return f"cut at --max-duration {self.max_duration:g} s: the body was still streaming (the rest not read)"
