"""Run a whole ``Capture`` through a fresh ``Session`` (what ``check`` and the tests do)."""
from __future__ import annotations

from inspector.capture.load import CaptureError
from inspector.capture.request import load_request_body
from inspector.feeds.base import Driver, Settings, new_session
from inspector.model.capture import Capture
from inspector.session.history import check_request, has_history
from inspector.session.session import Session


def session_for(cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                severity_overrides: dict | None = None) -> Session:
    """A session set up for ``cap`` (its response head, timing basis, line numbering, import notes)."""
    return new_session(cap, Settings(dialect, stall_s, severity_overrides or {}))


def run_capture(cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                severity_overrides: dict | None = None) -> Session:
    """Feed every chunk of ``cap`` and close the session with its end record."""
    driver = Driver.for_capture(cap, Settings(dialect, stall_s, severity_overrides or {}))
    for chunk in cap.chunks:
        driver.take(chunk)
    return driver.close(cap.end)


def check_request_file(session: Session, path) -> None:
    """Q rules for the request in the file at ``path`` (see ``load_request_body``) against ``session``.

    Raises ``CaptureError`` with a one-line message when the file cannot be read or its request
    carries no history (no ``messages``, ``contents`` or ``input`` list).
    """
    body = load_request_body(path)
    if not has_history(body):
        raise CaptureError(f"{path}: request has no history to check (no 'messages', 'contents' or 'input' list)")
    check_request(session, body)
