"""What every provider is: a stream dialect writing through a narrow writer, plus its request side.

A *dialect* is a small state machine that turns one provider's events into block operations and
findings. It never owns state the sinks need and never touches the session: it writes through
:class:`StreamWriter` (open/extend/close a block, report, finish, set model/usage) and reads back
only what that protocol exposes. Its own bookkeeping (which index maps to which block, which
rule already fired for what) stays on the dialect instance. One instance judges one response;
a body holding several responses gets a fresh instance per response.

Everything else one provider folder knows is on its ``Provider`` record (``inspector.providers.record``;
its endpoint: ``inspector.providers.endpoint``; its rule texts: ``inspector.providers.ruletext``); the
registry in ``inspector.providers`` lists them.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from inspector.model.static import TYPE_CHECKING, Protocol

from inspector.model.events import KEEPALIVE_TYPES

if TYPE_CHECKING:
    from typing import ClassVar

    from inspector.model.blocks import Block
    from inspector.model.capture import End
    from inspector.model.findings import Finding
    from inspector.model.severity import Severity
    from inspector.model.events import EventRecord


class StreamWriter(Protocol):
    """The session as a dialect sees it (``inspector.session.session.Session`` implements it).

    Places: ``event=True`` means the event being handled, ``False`` the whole stream, or an
    explicit ``EventRecord``. ``t=True`` likewise means the current event's arrival time.
    """

    # -- read back
    @property
    def current(self) -> "EventRecord | None":
        """The event being handled (None while end-of-stream rules run)."""

    @property
    def ended(self) -> bool:
        """The dialect's end marker was seen (``mark_ended``)."""

    @property
    def stop_reason(self) -> str | None:
        """The stop reason set so far for this response."""

    @property
    def http_error(self) -> bool:
        """S007 applies: framing and truncation rules are not judged on this body."""

    @property
    def blocks(self) -> "Sequence[Block]":
        """This response's blocks, in opening order (read only)."""

    @property
    def ended_cleanly(self) -> bool:
        """The body ended at EOF with its last event terminated (judged once it ended)."""

    @property
    def transport_failed_early(self) -> bool:
        """The transport failed before any byte arrived (there was no stream to truncate)."""

    @property
    def request_body(self) -> dict | None:
        """The body of the request that produced the stream, when the capture recorded it."""

    # -- blocks
    def open_block(self, kind: str, *, index: int | None = None, choice: int | None = None,
                   id: str | None = None, name: str | None = None, tool: bool = False,
                   empty_is_object: bool = False, attribution: str | None = None) -> "Block":
        """Start a block at the current event. ``tool``: its content is JSON arguments judged by
        the J rules; ``empty_is_object``: no argument text means ``{}`` (Anthropic, Gemini)."""

    def open_block_at(self, at: int | None, kind: str, index: int | None = None, choice: int | None = None,
                      id: str | None = None, name: str | None = None, tool: bool = False,
                      empty_is_object: bool = False, t: float | None = None) -> "Block":
        """Start a block at event ``at`` (arrived at ``t``), which is not the one being handled: what
        ``Dialect.open_call`` opens (the session records that event afterwards)."""

    def add_text(self, block: "Block", text: str) -> None:
        """One text/reasoning delta (an empty one still counts as a delta)."""

    def add_arguments(self, block: "Block", fragment: str) -> None:
        """One argument delta, judged on the way (J001, J003, J006)."""

    def set_arguments(self, block: "Block", text: str, *, t: "float | None | bool" = True) -> None:
        """Arguments that arrived whole (``t``: when their bytes arrived, for T003)."""

    def prepend_text(self, block: "Block", prefix: str) -> None:
        """Text streamed before a resumed stream's cursor, known from a final event: put in front."""

    def set_object_arguments(self, block: "Block", value: object) -> None:
        """Arguments that arrived as a JSON value (Gemini ``args``, Ollama ``arguments``)."""

    def close_block(self, block: "Block", stop_info: str | None = None) -> None:
        """The block was closed by its closing event (J002, J004, J007, T003 judged)."""

    def close_block_at(self, block: "Block", stop_info: str, at: int) -> bool:
        """``close_block`` at the untimed event ``at``, not the one being handled (``Dialect.close_call``),
        when none of its rules could report there: True, closed; False: nothing changed."""

    def replace_block(self, block: "Block") -> None:
        """A later start took this block's slot (A003, R007): no end-of-stream findings for it."""

    def set_identity(self, block: "Block", *, id: str | None = None, name: str | None = None,
                     call_id: str | None = None) -> None:
        """An id or name that arrived after the block opened (only non-None values are set)."""

    def set_signature(self, block: "Block", signature: str, *, keep: bool = False) -> None:
        """The signature to send back with this block (``keep``: only if it has none yet)."""

    def set_attribution(self, block: "Block", how: str) -> None:
        """How fragments without an index were attributed to this block (C001)."""

    def note(self, block: "Block", key: str, value: object) -> None:
        """A dialect-specific fact shown with the block (``block.extra``), not judged."""

    def note_event_block(self, block: "Block") -> None:
        """Link the current event to ``block`` (the TUI jumps there) without changing it."""

    # -- findings
    def report(self, code: str, message: str, *, index: int | None = None,
               event: "EventRecord | None | bool" = True, severity: "Severity | None" = None,
               cause: object = None) -> "Finding":
        """A finding for ``code`` at ``event`` (returned: a rule may edit its message later). ``severity``: where the rule itself grades the case
        (e.g. C014's info case). ``cause``: what the finding is about when the message varies
        between repeats of one cause (repeats fold into one finding with a count)."""

    def after_end(self, what: str, *, event: "EventRecord | None | bool" = True) -> None:
        """S004 event-after-end (reported once per stream)."""

    # -- the response
    def mark_ended(self) -> None:
        """The dialect's end marker arrived (``message_stop``, ``[DONE]``, ``done: true``...)."""

    def set_stop_reason(self, reason: str | None) -> None:
        """The response's stop reason (Anthropic ``stop_reason``, Chat ``finish_reason`` of choice 0...)."""

    def set_model(self, model: str) -> None:
        """The model the stream says answered (first one wins)."""

    def set_usage(self, usage: dict) -> None:
        """Token usage as the provider reports it (the latest report wins)."""


class CallTaker(Protocol):
    """What ``Dialect.take_calls`` takes its calls through (the session: ``Session.take_call``)."""

    def take_call(self, kind: str, index: int, id: str, name: str, fragments: list, frames: list,
                  names: tuple[str, str, str]) -> "Block | None":
        """A short tool call (``frames``: its start, one delta per string of ``fragments``, its stop; ``names``
        their types) recorded and its block opened, filled and closed, when its rules would report
        nothing: the block; None: nothing changed."""


class Dialect:
    """Base class. Subclasses set ``name`` and implement ``on_event`` and ``on_end`` (detection is the
    folder's ``sniff`` module, named on its ``Provider`` record)."""

    name: ClassVar[str] = "unknown"
    accepts_done: ClassVar[bool] = False
    """``data: [DONE]`` is part of this dialect (OpenAI); elsewhere it is S002 (RULES.md S002)."""

    typed_events: ClassVar[bool] = False
    """Every event payload names its type in ``type`` (Anthropic, Responses): a ``type`` that is
    not a string is S018 at that event (the session skips it)."""

    starts_response: ClassVar[frozenset] = frozenset()
    """Payload ``type`` values that may open a new response before this one ended (the session
    asks ``next_response`` for those, and for every event once this response ended)."""
    superseded: bool = False
    """Set by the session when a retry started before this response's end marker (no S003)."""
    errored: bool = False
    """An in-band error arrived (S006): it is terminal, so no S003 on top of it."""

    run_keys: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Event name (``""``: none) -> payload keys whose string value may vary along a run of deltas
    that the framing hands over whole (``FrameRun``); the dialect then answers ``run_target``."""

    array_body: ClassVar[bool] = False
    """A body that is one JSON array is this dialect's stream whatever its content type says (Gemini's
    ``streamGenerateContent`` without ``alt=sse``: Vertex's REST transport, PROTOCOLS.md §8)."""

    json_content_type: ClassVar[bool] = False
    """``application/json`` is one of this dialect's stream content types (Ollama's NDJSON); elsewhere it
    says the body is not a stream (S007)."""

    buffered_arguments_hint: ClassVar[str] = ""
    """T003: a sentence added when a tool's arguments arrived in one burst at the end, saying how this API
    streams them as generated (Anthropic's ``eager_input_streaming``); ``""``: none."""

    run_noise: ClassVar[tuple[str, ...]] = ()
    """Keys of a string after the varying one that may vary too and that the dialect never reads
    (OpenAI's ``obfuscation`` padding): a run may differ there as well."""

    direct: "Mapping[str, Callable[[dict], None]]" = MappingProxyType({})
    """Payload ``type`` -> the handler ``on_event`` would call for an event of that type, given the
    payload (a dict), while this response has not ended: the session calls it in place of
    ``on_event`` (dispatch resolved once per event type). The dialect keeps it to what is exact:
    ``on_event`` for such an event must do nothing but call that handler. Empty: always ``on_event``."""

    def __init__(self, writer: StreamWriter) -> None:
        self.w = writer

    def run_target(self, payload: dict, name: str, value: str) -> "tuple[Block, str] | None":
        """For a run of events each equal to ``payload`` but for the one string that is ``value``
        here (a sentinel), all following the event just handled without a finding: the block that
        taking each event one by one would only add that string to, and how (``"arguments"`` or
        ``"text"``); None when taking one could do anything else (then each is taken alone).
        Exactness is the contract: answer None whenever unsure."""
        return None

    delta_types: ClassVar[frozenset] = frozenset()
    """The payload ``type`` values ``delta_of`` may answer for (empty: it is never asked)."""
    typed_deltas: ClassVar[frozenset] = frozenset()
    """``delta_types`` less keep-alive types and ``starts_response``: what a delta's ``type`` must be
    for the session to ask ``delta_of`` (set for each subclass from those two)."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.typed_deltas = cls.delta_types.difference(cls.starts_response, KEEPALIVE_TYPES)
    delta_template: ClassVar[bool] = False
    """A group's later deltas are read from its first one's text when they repeat it but for the
    string ``delta_of`` answers (``inspector.session.deltas``), not parsed and asked one by one."""
    untyped: ClassVar[str | None] = None
    """The ``type`` a payload without that key counts as for ``delta_types`` (Chat: ``message``, the
    name the session gives such an event); None: a payload without ``type`` is never a delta."""

    group_starts: ClassVar[frozenset] = frozenset()
    """Payload ``type`` values of events that open a block whose deltas (``delta_of``) and stop
    (``group_stops``) may follow in the same list of frames: the session takes such a group in one
    pass (``inspector.session.groups``), each start and stop through its ``direct`` handler. Never a
    keep-alive type, nor one of ``starts_response``."""
    group_stops: ClassVar[frozenset] = frozenset()
    """Payload ``type`` values of events that close a block opened by one of ``group_starts``."""

    def delta_of(self, payload: dict) -> "tuple[Block, str, str] | None":
        """For an event whose parsed ``payload`` (a dict with a string ``type``, or none when ``untyped``)
        arrives while this response is under way (not ended, its first event seen): when handling it would do nothing
        but add one delta to an open block, that block, how (``"arguments"``: judged by the J rules;
        ``"text"``) and the string added; None when it could do anything else (it is then handled
        alone). Consecutive such events of one block are taken in one step
        (``inspector.session.deltas``). Exactness is the contract: answer None whenever unsure."""
        return None

    def open_call(self, payload: dict, at: int) -> "Block | None":
        """For an untimed event of ``group_starts`` (its parsed ``payload`` a dict whose string ``type``
        its SSE name, if any, agrees with; this response under way, its first event seen, no stall
        pending, the body with no lines of its own): when handling it would report nothing and open a
        block, do what handling it does, the block opened as of event ``at`` (``StreamWriter.open_block_at``;
        the session records the event afterwards, linked to the block), and return the block; None
        when it could do anything else (nothing changed: it is handled as usual). Exactness is the
        contract: answer None whenever unsure."""
        return None

    def close_call(self, payload: dict, block: "Block", at: int) -> bool:
        """For an untimed event of ``group_stops`` right after ``block``'s start and deltas (taken by
        ``open_call`` and ``delta_of``), as in ``open_call``: when handling it would report nothing and
        close ``block``, do what handling it does (``StreamWriter.close_block_at``, as of event ``at``)
        and return True; False when it could do anything else (nothing changed)."""
        return False

    def deltas_after(self, block: "Block") -> "Callable[[dict], tuple[Block, str, str] | None]":
        """``delta_of`` for the events right after ``block``'s start that ``open_call`` took (nothing
        else between): it may lean on what that start established. Default: ``delta_of`` itself."""
        return self.delta_of

    def lead_template(self, block: "Block", data: str) -> "tuple[str, str, str, str | None] | None":
        """For the events right after ``block``'s start that ``open_call`` took (``data``: the first one's
        text): ``(name, head, tail, noise_tail)`` when every untimed event, unnamed or named ``name``, whose
        data is ``head``, a JSON string body and ``tail`` (with ``noise_tail``: then another JSON string
        body, one no rule reads, and ``noise_tail``) is an event of type ``name`` that ``deltas_after(block)``
        would answer ``(block, "arguments", that string)`` for: the session reads such events from their
        text, not parsing them (``inspector.session.deltas``). None: each is parsed and asked. Exactness
        is the contract: answer None whenever unsure."""
        return None

    whole_calls: bool = False
    """``open_call`` and ``close_call`` may answer (False: the session does not ask them)."""

    def take_calls(self, session: CallTaker, items: list, i: int) -> int:
        """Where ``open_call`` may answer: the short calls from ``items[i]`` on (frames as the framing
        gave them) taken whole, each through ``Session.take_call`` when handling its events one by one
        would report nothing but open, fill and close its block; how many items were taken (0: none,
        nothing changed). Exactness is the contract: stop at anything unproven. Default: none."""
        return 0

    def judges_text(self, block: "Block", values: list) -> bool:
        """True when adding some of ``values`` (text deltas of a run) to ``block`` one by one could
        report a finding (Chat's C019): the run is then taken event by event."""
        return False

    def on_event(self, ev: "EventRecord") -> None:
        """Handle one event (``ev.payload`` is parsed JSON, ``DONE`` or ``NOT_JSON``)."""
        self.generic_error(ev)

    def on_end(self, end: "End") -> None:
        """This response is over (the body ended, or another response starts): judge what needs
        the whole response (S003, never-closed blocks...)."""

    def next_response(self, ev: "EventRecord") -> bool:
        """True when ``ev`` starts a new response (several responses glued in one body, RULES.md
        S004, A017): the session then ends this response and judges the rest with a fresh
        instance. A dialect may report what that says (A017) before answering."""
        return False

    # helpers shared by dialects
    def generic_error(self, ev: "EventRecord") -> bool:
        """S006 for an ``{"error": …}`` payload, ``event: error`` or an AWS event-stream exception
        (an event named ``…Exception``); True when it was one."""
        p = ev.payload
        if not isinstance(p, dict):
            return False
        if ev.named and ev.name.endswith("Exception"):
            # An AWS event-stream exception message (framing.eventstream names it by its
            # ``:exception-type``; botocore raises EventStreamError with that code).
            msg = p.get("message") or p.get("Message") or str(p)
            self.w.report("S006", f"error inside the stream: {ev.name}: {msg}"[:400])
            return True
        err = p.get("error")
        # An OpenRouter-style chunk can carry both ``error`` and ``choices``: any truthy ``error``
        # is an error (the OpenAI SDK raises APIError on it, PROTOCOLS.md §2).
        if ev.name == "error" or p.get("type") == "error" or err:
            detail = err if err is not None else p
            if isinstance(detail, dict):
                kind = detail.get("type") or detail.get("code") or "error"
                msg = detail.get("message") or str(detail)
                text = f"{kind}: {msg}"
            else:
                text = str(detail)
            self.w.report("S006", f"error inside the stream: {text}"[:400])
            self.errored = True
            return True
        return False

    def truncated(self, what: str) -> None:
        """S003 unless the body was already reported as an HTTP error (S007), or no byte ever
        arrived before the transport failed (S012 alone says that: there was no stream to cut)."""
        if self.w.transport_failed_early or self.w.http_error or self.superseded or self.errored:
            return
        self.w.report("S003", f"stream ended before {what}", event=False)
