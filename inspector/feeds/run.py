"""Run a whole ``Capture`` through a fresh ``Session`` (what ``check`` and the tests do)."""
from __future__ import annotations

from inspector.capture.load import CaptureError
from inspector.feeds.base import Driver, Settings, new_session, paused_gc
from inspector.model.capture import Capture
from inspector.session.session import Session


def session_for(cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                severity_overrides: dict | None = None) -> Session:
    """A session set up for ``cap`` (its response head, timing basis, line numbering, import notes)."""
    return new_session(cap, Settings(dialect, stall_s, severity_overrides or {}))


def run_capture(cap: Capture, *, dialect: str | None = None, stall_s: float = 10.0,
                severity_overrides: dict | None = None) -> Session:
    """Feed every chunk of ``cap`` and close the session with its end record (and the request
    that continues it on its WebSocket, ``Capture.followup``: ``Driver.close``).

    The cyclic garbage collector is paused meanwhile: a session holds hundreds of thousands of
    long-lived, acyclic objects that each full collection would scan again (a third of the run
    time on a large capture); reference counting frees what dies.
    """
    with paused_gc():
        driver = Driver.for_capture(cap, Settings(dialect, stall_s, severity_overrides or {}))
        for chunk in cap.chunks:
            driver.take(chunk)
        return driver.close(cap.end)


def not_a_stream(session: Session, cap: Capture) -> str | None:
    """Why a closed session's input is no stream capture at all (SPEC.md: "not linted: exit 2"),
    or None when it is one. A recorded capture, an HTTP error, an in-band error, an SSE body (of
    whatever provider) and any body a dialect recognised are streams; a file with no event, or
    whose JSON values no provider sends (a config file, ``{"hello": "world"}``, random bytes), is not."""
    if cap.source_format in ("native", "har", "cassette", "websocket") or session.http_error:
        return None
    if session.dialect_name not in (None, "unknown"):
        return None
    if any(f.code in ("S006", "S007") for f in session.findings):
        return None
    if session.framing == "sse" and session.events:
        return None
    if not session.events:
        return "no SSE event and no JSON value in it"
    values = [ev.payload for ev in session.events if isinstance(ev.payload, (dict, list))]
    if not values:
        return f"{len(session.events)} line{'s' if len(session.events) != 1 else ''}, none of them SSE or JSON"
    keys = sorted({k for v in values if isinstance(v, dict) for k in v})
    shown = ", ".join(keys[:6]) + (", …" if len(keys) > 6 else "")
    return (f"{len(values)} JSON value{'s' if len(values) != 1 else ''} that no known provider streams"
            + (f" (keys: {shown})" if keys else ""))


def stream_problem(cap: Capture, *, dialect: str | None = None) -> str | None:
    """Why ``cap`` is no stream capture (:func:`not_a_stream`), or None: the one detection ``check``
    and ``replay`` share. Reads only as much of the body as it takes: once an event identifies a
    dialect the capture is a stream; else the whole body is read and judged as ``check`` judges it."""
    if cap.source_format in ("native", "har", "websocket") or dialect:
        return None
    with paused_gc():
        driver = Driver.for_capture(cap, Settings(dialect))
        for chunk in cap.chunks:
            driver.take(chunk)
            if driver.session.dialect_name not in (None, "unknown"):
                return None
        return not_a_stream(driver.close(cap.end), cap)


def check_request_file(session: Session, path) -> None:
    """The request in the file at ``path`` (see ``load_request_body``) against ``session``: Q rules for
    the history it sends back, and V rules for the tools it declares when the capture recorded no
    request declaring any (an agent sends the same tools on every turn; RULES.md V).

    Raises ``CaptureError`` with a one-line message when the file cannot be read, or its request
    carries neither history (no ``messages``, ``contents`` or ``input`` list) nor declared tools.
    """
    from inspector.capture.request import load_request_body  # check --request only (start-up)
    from inspector.session.history import check_request, has_history
    body = load_request_body(path)
    history = has_history(body)
    tools = session.declared.read(body) is not None
    session.declared.use_request(body)
    if not history and not tools:
        raise CaptureError(f"{path}: request has no history to check (no 'messages', 'contents' or 'input' list) "
                           "and declares no tools")
    if history:
        check_request(session, body)
