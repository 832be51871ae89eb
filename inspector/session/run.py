"""Run a whole ``Capture`` through a fresh ``Session`` (what ``check`` and the tests do)."""
from __future__ import annotations

from inspector.capture.model import Capture
from inspector.session.session import Session


def session_for(cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                severity_overrides: dict | None = None) -> Session:
    """A session set up for ``cap`` (its response head, timing basis and line numbering)."""
    return Session(dialect_name=dialect, stall_s=stall_s, request_relative=cap.request_relative,
                   response=cap.response, request=cap.request, line_base=cap.line_base,
                   severity_overrides=severity_overrides or {})


def run_capture(cap: Capture, **kw) -> Session:
    """Feed every chunk of ``cap`` and close the session with its end record."""
    s = session_for(cap, **kw)
    for note in cap.notes:
        s.report_at("S014", note, event=None, line=None, t=None)
    for chunk in cap.chunks:
        s.feed(chunk)
    s.close(cap.end)
    return s
