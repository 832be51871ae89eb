"""One response of a stream, as its dialect sees it: the ``StreamWriter`` a dialect instance gets.

A body usually holds one response. When it holds several (an agent loop's exchanges glued into
one file, a retry spliced after the end: ``shared/RULES.md`` S004, A017), each is judged on its
own, as if it were a capture of its own: a fresh dialect instance writes through a fresh
:class:`ResponseWriter`, whose read-back (``ended``, ``stop_reason``, ``blocks``) is that
response's alone. Block and finding writes go straight to the session's methods (bound once
here, so a delta costs no extra call); the session tags them with the response's number.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord
    from inspector.session.session import Session


class ResponseWriter:
    """``StreamWriter`` (``inspector.providers.base``) for response number ``index`` of a session."""

    def __init__(self, session: "Session", index: int) -> None:
        self._s = session
        self.index = index
        """0-based number of this response in the body."""
        self.ended = False
        """The dialect's end marker arrived for this response."""
        self.stop_reason: str | None = None
        self.model: str | None = None
        self.usage: dict | None = None
        self.blocks: list[Block] = []
        """This response's blocks, in opening order."""
        s = session
        self.open_block = s.open_block
        self.open_block_at = s.open_block_at
        self.open_call_at = s.open_call_at
        self.add_text = s.add_delta  # what ``Session.add_text`` does, without its call
        self.add_arguments = s.argument_rules.fragment  # what ``Session.add_arguments`` does, without its call
        self.set_arguments = s.set_arguments
        self.set_object_arguments = s.set_object_arguments
        self.prepend_text = s.prepend_text
        self.close_block = s.close_block
        self.close_block_at = s.close_block_at
        self.replace_block = s.replace_block
        self.set_identity = s.set_identity
        self.set_signature = s.set_signature
        self.set_attribution = s.set_attribution
        self.note = s.note
        self.note_event_block = s.note_event_block
        self.report = s.report
        self.after_end = s.after_end

    # -- read back
    @property
    def current(self) -> "EventRecord | None":
        return self._s.current

    @property
    def http_error(self) -> bool:
        return self._s.http_error

    @property
    def ended_cleanly(self) -> bool:
        return self._s.ended_cleanly

    @property
    def transport_failed_early(self) -> bool:
        return self._s.transport_failed_early

    @property
    def request_body(self) -> dict | None:
        """The body of the request that produced this stream, when the capture recorded it."""
        body = (self._s.request or {}).get("body")
        return body if isinstance(body, dict) else None

    # -- the response
    def mark_ended(self) -> None:
        self.ended = True

    def set_stop_reason(self, reason: str | None) -> None:
        self.stop_reason = reason

    def set_model(self, model: str) -> None:
        if self.model is None and model:
            self.model = model

    def set_usage(self, usage: dict) -> None:
        self.usage = usage
