"""Content blocks: what a stream assembles per index (text, reasoning, tool-call arguments)."""
from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from inspector.session.jsonprogress import COMPLETE, EMPTY, INVALID, PARTIAL, TRAILING, JsonProgress

_STATUS = {EMPTY: "empty", PARTIAL: "partial", COMPLETE: "complete", TRAILING: "invalid", INVALID: "invalid"}


@dataclass(eq=False, slots=True)
class Block:
    """One content block (Anthropic), tool call or text channel (Chat), output item (Responses)...

    Owned by the session; dialects change it only through ``Session`` methods, sinks only read it.
    """

    kind: str
    """The provider's own name: ``text``, ``tool_use``, ``tool_call``, ``function_call``..."""
    index: int | None = None
    choice: int | None = None
    id: str | None = None
    name: str | None = None
    tool: bool = False
    """True when the content is JSON arguments judged by the J rules."""
    empty_is_object: bool = False
    """Anthropic: a tool block with no input text means ``{}`` (status complete)."""
    opened_event: int | None = None
    opened_t: float | None = None
    closed: bool = False
    closed_event: int | None = None
    closed_t: float | None = None
    replaced: bool = False
    """A later start took this block's slot (A003); it raises no end-of-stream findings."""
    attribution: str | None = None
    """How the block was keyed when the provider sent no index (e.g. ``"by id"``), else None."""
    deltas: int = 0
    first_delta_s: float | None = None
    last_delta_s: float | None = None
    max_gap_s: float | None = None
    last_fragment: str = ""
    """The newest fragment (highlighted by the TUI)."""
    fragment_times: list = field(default_factory=list)
    """``[(t, utf8_bytes), ...]`` per fragment: T003 and the TUI's sparklines read it."""
    progress: JsonProgress | None = None
    whole_input: object = None
    """Arguments that arrived as an object (Gemini, Ollama) or in a start event; informational."""
    stop_info: str | None = None
    """Why or how the block ended, for display (e.g. ``finish_reason: tool_calls``)."""
    extra: dict = field(default_factory=dict)
    """Dialect-specific facts (signatures, item ids, ...), shown but not part of the report shape."""
    _parts: list = field(default_factory=list)
    _joined: str | None = ""

    @property
    def content(self) -> str:
        """The accumulated text or argument text (joined lazily, cached)."""
        if self._joined is None:
            self._joined = "".join(self._parts)
            self._parts = [self._joined] if self._joined else []
        return self._joined

    @property
    def status(self) -> str | None:
        """SPEC status: ``empty``/``partial``/``complete``/``invalid``; None for non-tool blocks."""
        if not self.tool or self.progress is None:
            return None
        st = self.progress.state
        if st == EMPTY and self.empty_is_object:
            return "complete"
        return _STATUS[st]

    @property
    def input(self):
        """The parsed arguments when complete, else None."""
        if self.status != "complete":
            return None
        text = self.content
        if not text.strip():
            return {}
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return None

    def to_dict(self) -> dict:
        text = self.content
        return {
            "index": self.index, "choice": self.choice, "kind": self.kind, "id": self.id, "name": self.name,
            "text": None if self.tool else text,
            "arguments": text if self.tool else None,
            "input": self.input, "status": self.status, "closed": self.closed, "deltas": self.deltas,
            "first_delta_s": self.first_delta_s, "last_delta_s": self.last_delta_s, "max_gap_s": self.max_gap_s,
        }
