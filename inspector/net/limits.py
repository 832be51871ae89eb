"""How long and how large one response body may grow: ``live`` and ``proxy`` ``--max-bytes``, ``--max-duration``.

Why: ``--timeout`` bounds only the silence between bytes, so an upstream that never stops (a
runaway generation, a broken gateway looping) would grow the session and the recording without
end. A body that passes a limit is cut there and the stream ends ``cancelled`` (SPEC.md's end
kinds are kept) with an error naming the limit, so S012's message says what happened and which
option to raise.

Imports: the standard library and ``inspector.model.sizes``.
"""
from __future__ import annotations

from dataclasses import dataclass

from inspector.model.sizes import human_size, parse_size

__all__ = ["MAX_BYTES", "StreamLimits", "human_size", "parse_size"]

MAX_BYTES = 64 * 1024 * 1024
"""Default ``--max-bytes``: 64 MiB, about fifty times the largest real LLM stream we have seen (a
1.4 M-character tool call). Inspection holds roughly 13 bytes of memory per body byte."""

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
