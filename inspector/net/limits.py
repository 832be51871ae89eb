"""How long and how large one response body may grow: ``live`` and ``proxy`` ``--max-bytes``, ``--max-duration``;
and the defaults of what one request to ``serve`` or ``proxy`` may take (``inspector.net.servers.RequestLimits``).

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

__all__ = ["HEADER_TIMEOUT", "MAX_BYTES", "MAX_REQUEST_BYTES", "StreamLimits", "human_size", "parse_size"]

HEADER_TIMEOUT = 10.0
"""Default ``--header-timeout``: seconds a client has to send a request's headers (SDKs send them
in one write; a slow-loris client sends a byte every few seconds)."""

MAX_REQUEST_BYTES = 64 * 1024 * 1024
"""Default ``--max-request-bytes``: 64 MiB, twice Anthropic's documented 32 MB request limit and
room for a Gemini request with inline media; the proxy holds a few copies of a body it forwards."""

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
