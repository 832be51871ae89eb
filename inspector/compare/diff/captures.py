"""``diff A B`` on captures: each one loaded, inspected and read as an :class:`Answer`.

A capture is a stream (any dialect ``check`` reads) or a non-streamed answer body (the whole body
one JSON object: a Message, a chat.completion, a Response…; compared without timing or stream
findings; dialects would read such an object as a one-event stream).
Anything else is trouble (:class:`DiffInputError`, one line, exit 2).
"""
from __future__ import annotations

from inspector.capture.load import CaptureError, load_path
from inspector.compare.diff.answer import Answer, answer_from_body, answer_from_session
from inspector.compare.diff.compare import LATE_S, Diff, diff_answers
from inspector.feeds.run import not_a_stream, run_capture
from inspector.model.capture import Capture
from inspector.model.pathnames import path_name


class DiffInputError(Exception):
    """A side cannot be compared: unreadable, not a stream and not an answer (one-line message)."""


def answer_from_capture(cap: Capture, label: str, *, dialect: str | None = None, stall_s: float = 10.0) -> Answer:
    """``cap`` as an :class:`Answer`; raises :class:`DiffInputError`."""
    session = run_capture(cap, dialect=dialect, stall_s=stall_s)
    status = (cap.response or {}).get("status") if isinstance(cap.response, dict) else None
    problem = not_a_stream(session, cap)
    body = b"".join(c.data for c in cap.chunks)
    if body.lstrip()[:1] == b"{":  # the whole body one JSON object: a non-streamed answer?
        answer = answer_from_body(body, label, dialect=dialect, http_status=status)
        if answer is not None:
            return answer
    if problem is not None:
        raise DiffInputError(f"{label}: not a stream capture and not an answer: {problem}")
    return answer_from_session(session, label)


def load_answer(path: str, *, dialect: str | None = None, stall_s: float = 10.0,
                max_bytes: int | None = None) -> Answer:
    """The capture file at ``path`` (at most ``max_bytes``, None: the default limit) as an
    :class:`Answer`; raises :class:`DiffInputError`."""
    try:
        cap = load_path(path, max_bytes=max_bytes)
    except CaptureError as e:
        raise DiffInputError(str(e)) from None
    return answer_from_capture(cap, path_name(path), dialect=dialect, stall_s=stall_s)


def diff_captures(a_path: str, b_path: str, *, dialect: str | None = None, stall_s: float = 10.0,
                  late_s: float = LATE_S, max_bytes: int | None = None) -> Diff:
    """Load, inspect and compare two capture files; raises :class:`DiffInputError`."""
    return diff_answers(load_answer(a_path, dialect=dialect, stall_s=stall_s, max_bytes=max_bytes),
                        load_answer(b_path, dialect=dialect, stall_s=stall_s, max_bytes=max_bytes), late_s=late_s)
