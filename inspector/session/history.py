"""Q rules on the next request: read its history with the provider's reader, judge it against the
streamed answer a ``Session`` holds (``check --request``, proxy, ``run``, conform).

Where each provider keeps its history, and how it looks, is that provider folder's ``history``
module (its ``Provider.history`` record, ``inspector.providers.history_shapes``): it reads the
request into the provider-neutral ``inspector.model.history.History``. The rules themselves are
written once, in ``inspector.session.rules.history``; their findings are stream-level findings.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

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
    import inspector.session.rules.history as rules  # only with a request (start-up)

    def report(code: str, msg: str, index: int | None) -> None:
        session.report(code, msg, index=index, event=False)

    claimed: set[str] = set()
    for shape in history_shapes():
        items = request_body.get(shape.key)
        if shape.key in claimed or not isinstance(items, list):
            continue
        if shape.claims(request_body, session.dialect_name):
            claimed.add(shape.key)
            rules.check(session.blocks, shape.read(items), report)
