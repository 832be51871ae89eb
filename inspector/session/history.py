"""Q rules: lint the history a client sends back after a streamed answer (``check --request``, proxy).

Why it exists: most tool-call bugs surface one request *later*: the client assembled the stream
wrongly and sends the assistant turn back with stream deltas where content blocks belong, empty
text blocks, tool ids the model never produced, thought signatures dropped, or arguments that
differ from what was streamed. The provider then rejects the request (400) or the model sees a
call it never made. This module compares the next request's history with the streamed response
held by a ``Session`` and adds Q001–Q006 findings (``shared/RULES.md`` section Q) as
stream-level findings. Where each provider keeps its history, and how its assistant turn looks,
is that provider folder's ``history`` module (``inspector.providers.history_shapes``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.providers import history_shapes

if TYPE_CHECKING:
    from inspector.session.session import Session


def has_history(body: dict) -> bool:
    """True when ``body`` carries a history list any provider shape reads."""
    return any(isinstance(body.get(shape.key), list) for shape in history_shapes())


def check_request(session: "Session", request_body: dict) -> None:
    """Add Q001–Q006 findings to ``session`` for the history in ``request_body`` (never raises).

    Each history key is read by the first provider shape that claims it (Anthropic before Chat
    for ``messages``); a body may carry several keys.
    """
    if not isinstance(request_body, dict):
        return
    from inspector.providers.history import HistoryCheck  # only with a request (start-up)
    ctx = HistoryCheck(session.blocks, lambda code, msg, index: session.report(code, msg, index=index,
                                                                               event=False))
    claimed: set[str] = set()
    for shape in history_shapes():
        history = request_body.get(shape.key)
        if shape.key in claimed or not isinstance(history, list):
            continue
        if shape.claims(request_body, session.dialect_name):
            claimed.add(shape.key)
            shape.check(ctx, history)
