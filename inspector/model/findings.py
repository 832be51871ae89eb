"""Findings: a rule code fired at a place in the stream (event, body line, time, block index)."""
from __future__ import annotations


from inspector.model.catalog import RULES
from inspector.model.severity import Severity
from inspector.model.record import Record


class Finding(Record):
    """One rule violation, shaped like SPEC.md's ``findings[]`` entries."""

    __slots__ = ("code", "name", "severity", "message", "event", "line", "t", "index", "count", "last_event",
                 "response")

    code: str
    name: str
    severity: Severity
    """``error``, ``warning`` or ``info`` (the catalog default unless overridden)."""
    message: str
    event: int | None
    """0-based event number (SSE event or NDJSON line) that caused it, None for stream-level facts."""
    line: int | None
    """1-based line in the capture body where that event starts."""
    t: float | None
    """Arrival time in seconds of the chunk that completed the event, None when untimed."""
    index: int | None
    """Content-block / tool-call index the finding is about, if any."""
    count: int
    """How many times this cause was seen (one cause, one finding: RULES.md preamble)."""
    last_event: int | None
    """The last event where it was seen (the first is ``event``)."""
    response: int
    """Which response of the body it belongs to (0-based; SPEC.md "several responses in one body")."""

    def __init__(self, code: str, name: str, severity: Severity, message: str, event: int | None, line: int | None,
                 t: float | None, index: int | None, count: int = 1, last_event: int | None = None,
                 response: int = 0) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.message = message
        self.event = event
        self.line = line
        self.t = t
        self.index = index
        self.count = count
        self.last_event = last_event
        self.response = response

    @classmethod
    def make(cls, code: str, message: str, *, event=None, line=None, t=None, index=None,
             severity: Severity | None = None) -> "Finding":
        """A finding for ``code`` with the catalog's name and (unless overridden) severity.
        Raises ``KeyError`` for a code the catalog does not know."""
        rule = RULES[code]
        return cls(code, rule.name, severity or rule.severity, message, event, line, t, index, 1, event)

    def where(self, *, short: bool = False) -> list[str]:
        """Where it fired, for people: ``["event 6", "block #0", "t 12.207 s", "line 19"]``
        (``short``: ``["ev 6", "#0", "12.207s", "line 19"]``), and ``"×3, last at event 9"`` when
        the cause repeated; empty for the whole stream."""
        out = []
        if self.event is not None:
            out.append(f"ev {self.event}" if short else f"event {self.event}")
        if self.index is not None:
            out.append(f"#{self.index}" if short else f"block #{self.index}")
        if self.t is not None:
            out.append(f"{self.t:.3f}s" if short else f"t {self.t:.3f} s")
        if self.line is not None:
            out.append(f"line {self.line}")
        if self.count > 1:
            last = f", last ev {self.last_event}" if short else f", last at event {self.last_event}"
            out.append(f"×{self.count}" + (last if self.last_event is not None else ""))
        return out

    def to_dict(self) -> dict:
        """SPEC.md ``findings[]`` entry (``response`` is added by reports of several responses)."""
        return {"code": self.code, "name": self.name, "severity": self.severity, "message": self.message,
                "event": self.event, "line": self.line, "t": self.t, "index": self.index,
                "count": self.count, "last_event": self.last_event}
