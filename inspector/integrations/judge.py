"""One stream judged for a test or a tool: run through a session, findings at or above a level.

Shared by the pytest plugin (cassettes, responses a test made) and the MCP server, so both say the
same thing about the same stream in the same words (``inspector.report.text.finding_sentence``).
"""
from __future__ import annotations

from dataclasses import dataclass

from inspector.capture.errors import CaptureError
from inspector.feeds.run import not_a_stream, run_capture
from inspector.model.capture import Capture
from inspector.model.severity import severity_rank
from inspector.model.findings import Finding
from inspector.report.text import finding_sentence, safe
from inspector.session.session import Session


@dataclass(slots=True)
class Verdict:
    """What one stream came to: its session, and the findings at or above the level asked for."""

    name: str
    session: Session | None
    over: list[Finding]
    problem: str | None = None
    """Why the stream could not be judged (a body that does not decode, no stream in it), or None."""

    def lines(self) -> list[str]:
        """``name: J002 args-incomplete-at-close (error) at event 4, index 0: …`` per finding (or the problem)."""
        if self.problem:
            return [f"{safe(self.name)}: {self.problem}"]
        return [f"{safe(self.name)}: {finding_sentence(f)}" for f in self.over]


def judge(name: str, cap: Capture, level: str = "error") -> Verdict:
    """``cap`` run through a fresh session; ``over`` holds its findings of severity ``level`` or worse."""
    try:
        s = run_capture(cap)
    except CaptureError as e:
        return Verdict(name, None, [], str(e))
    why = not_a_stream(s, cap)
    if why:
        return Verdict(name, s, [], f"not a stream: {why}")
    bar = severity_rank(level)
    return Verdict(name, s, [f for f in s.findings if severity_rank(f.severity) >= bar])
