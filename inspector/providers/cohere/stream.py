"""Cohere v2 chat streaming (``POST /v2/chat``, ``stream: true``; SSE, ``event:`` = payload ``type``).

Wire facts (PROTOCOLS.md §8; docs.cohere.com/v2/docs/streaming and /v2/docs/tool-use-streaming;
the oracle is cohere-python's ``V2ChatStreamResponse``): ``message-start`` → (``tool-plan-delta``*
→ (``tool-call-start`` → ``tool-call-delta``* → ``tool-call-end``)*) or (``content-start`` →
``content-delta``* → (``citation-start`` → ``citation-end``)* → ``content-end``)* → ``message-end``
(``delta.finish_reason``, ``delta.usage``, ``delta.error``). Content and tool calls are numbered by
``index`` each in their own sequence; every payload sits under ``delta.message``.

Blocks: ``text`` and ``thinking`` (``content-start``'s ``content.type``), ``tool_plan`` (the plan
before the calls) and ``tool_call`` (``function.arguments`` text, judged by the J rules). Citations
are kept beside the content block they cite. The cohere SDK assembles nothing itself: it hands each
event to the application, and drops an event whose shape its types reject (K001) or everything after
a ``[DONE]`` (K002). ``message-end`` is the end marker (S003 without it); ``finish_reason`` ``ERROR``
and ``TIMEOUT`` say the generation failed (S006, with ``delta.error``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.model.events import DONE
from inspector.providers.cohere.clients import says
from inspector.providers.base import Dialect
from inspector.providers.cohere.shapes import problem
from inspector.providers.cohere.sniff import EVENT_TYPES
from inspector.model.members import string_member

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.model.capture import End
    from inspector.model.events import EventRecord

FINISH_REASONS = frozenset({"COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR", "TIMEOUT"})
"""``ChatFinishReason`` (cohere/types/chat_finish_reason.py)."""
FAILED = frozenset({"ERROR", "TIMEOUT"})
CONTENT_KINDS = frozenset({"text", "thinking"})


def _dict(v) -> dict:
    return v if isinstance(v, dict) else {}


def _message(p: dict) -> dict:
    return _dict(_dict(p.get("delta")).get("message"))


def _tool_call(v) -> dict:
    """``delta.message.tool_calls``: one object; a list (the OpenAI shape, K001) is read by its first item."""
    if isinstance(v, list):
        v = v[0] if v else None
    return _dict(v)


class CohereChat(Dialect):
    """Cohere v2 chat events -> text/thinking/tool_plan/tool_call blocks; S003, S006, K001, K002."""

    name = "cohere-chat"
    accepts_done = True  # judged here: K002 before message-end, nothing after it (the SDK stops there)
    typed_events = True
    starts_response = frozenset({"message-start"})
    run_keys = {"tool-call-delta": ("arguments",), "content-delta": ("text", "thinking"),
                "tool-plan-delta": ("tool_plan",), "": ("arguments", "text", "thinking", "tool_plan")}

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.content: dict[int, Block] = {}
        self.calls: dict[int, Block] = {}
        self.plan: Block | None = None
        self.last_content: Block | None = None
        self.last_call: Block | None = None
        """The blocks a delta without an ``index`` belongs to (the content block or call started last)."""
        self.positions = 0
        self.message_started = False
        self.k002 = False

    def next_response(self, ev: "EventRecord") -> bool:
        """A ``message-start`` after ``message-end``: another response glued on (S004, said by the session)."""
        p = ev.payload
        return self.message_started and self.w.ended and isinstance(p, dict) and p.get("type") == "message-start"

    def run_target(self, p: dict, name: str, value: str) -> "tuple[Block, str] | None":
        """A run of ``tool-call-delta``/``content-delta``/``tool-plan-delta`` events of an open block whose
        one string (arguments, text, thinking, plan) is what varies, and whose shape cohere-python takes
        as it is (``delta.message`` holding that one key): ``on_event`` would only add that string."""
        if self.w.ended or (p.get("type") != name and name):
            return None
        msg = _message(p)
        if len(msg) != 1:
            return None
        typ, idx = p.get("type"), p.get("index")
        if typ == "tool-plan-delta":
            block = self.plan
            fits = msg.get("tool_plan") == value
        elif typ == "tool-call-delta" and idx.__class__ is int:
            tc = msg.get("tool_calls")
            fn = tc.get("function") if tc.__class__ is dict and len(tc) == 1 else None
            block = self.calls.get(idx)
            fits = fn.__class__ is dict and len(fn) == 1 and fn.get("arguments") == value
        elif typ == "content-delta" and idx.__class__ is int:
            content = msg.get("content")
            block = self.content.get(idx)
            key = "thinking" if block is not None and block.kind == "thinking" else "text"
            fits = content.__class__ is dict and len(content) == 1 and content.get(key) == value
        else:
            return None
        if block is None or block.closed or not fits:
            return None
        return block, "arguments" if block.tool else "text"

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if p is DONE:
            self.K002_done_before_end()
            return
        if not isinstance(p, dict):
            return  # not JSON: S002 already
        typ = p.get("type") if isinstance(p.get("type"), str) else ev.name
        if self.w.ended:
            self.w.after_end(f"{typ!r} event after message-end")
        if typ not in EVENT_TYPES:
            if self.w.http_error:
                return  # an error body (``{"id", "message"}``): S007 shows it
            if not self.generic_error(ev):
                self.w.report("S008", f"unknown event type {typ!r} ({says('S008-cohere-unknown-event')})", cause=typ)
            return
        self.K001_event_dropped(p, typ)
        handler = _HANDLERS[typ]  # resolved once per event type, not per event
        handler(self, p)

    def _message_start(self, p: dict) -> None:
        self.message_started = True

    def _content_start(self, p: dict) -> None:
        idx = p.get("index")
        content = _dict(_message(p).get("content"))
        ctype = content.get("type")
        known = isinstance(ctype, str) and ctype in CONTENT_KINDS
        kind = str(ctype) if known else \
            "thinking" if isinstance(content.get("thinking"), str) and content.get("text") is None else "text"
        if ctype is not None and not known:
            self.w.report("S008", f"unknown content type {ctype!r}"[:200], cause=repr(ctype)[:80])
        block = self._open(kind, idx, self.content)
        self._close_plan()
        self.last_content = block
        if isinstance(content.get(kind), str) and content[kind]:
            self.w.add_text(block, content[kind])

    def _content_delta(self, p: dict) -> None:
        idx = p.get("index")
        content = _dict(_message(p).get("content"))
        block = self._find(self.content, idx, self.last_content, "content block")
        if block is None or block.closed:
            kind = "thinking" if isinstance(content.get("thinking"), str) and content.get("text") is None else "text"
            block = self._open(kind, idx, self.content)
            self.w.set_attribution(block, "opened by content-delta (no content-start)")
            self.last_content = block
        text = content.get("thinking") if block.kind == "thinking" else content.get("text")
        self.w.add_text(block, text if isinstance(text, str) else "")

    def _content_end(self, p: dict) -> None:
        self._close(self.content, p.get("index"), "content-end")

    def _tool_plan_delta(self, p: dict) -> None:
        text = _message(p).get("tool_plan")
        if self.plan is None:
            self.plan = self.w.open_block("tool_plan", index=self._position())
        elif self.plan.closed:
            self.w.note_event_block(self.plan)
            return
        self.w.add_text(self.plan, text if isinstance(text, str) else "")

    def _tool_call_start(self, p: dict) -> None:
        idx = p.get("index")
        tc = _tool_call(_message(p).get("tool_calls"))
        fn = _dict(tc.get("function"))
        self._close_plan()
        block = self._open("tool_call", idx, self.calls, id=string_member(tc, "id"),
                           name=string_member(fn, "name"))
        self.last_call = block
        if isinstance(fn.get("arguments"), str) and fn["arguments"]:
            self.w.add_arguments(block, fn["arguments"])

    def _tool_call_delta(self, p: dict) -> None:
        idx = p.get("index")
        fn = _dict(_tool_call(_message(p).get("tool_calls")).get("function"))
        block = self._find(self.calls, idx, self.last_call, "tool call")
        if block is None or block.closed:
            block = self._open("tool_call", idx, self.calls)
            self.w.set_attribution(block, "opened by tool-call-delta (no tool-call-start: no id, no name)")
        self.w.add_arguments(block, fn["arguments"] if isinstance(fn.get("arguments"), str) else "")

    def _tool_call_end(self, p: dict) -> None:
        self._close(self.calls, p.get("index"), "tool-call-end")

    def _citation_start(self, p: dict) -> None:
        citation = _message(p).get("citations")
        cidx = _dict(citation).get("content_index")
        block = self.content.get(cidx) if isinstance(cidx, int) else self.last_content
        if block is not None:
            self.w.note(block, "citations", [*block.extra.get("citations", ()), citation])
            self.w.note_event_block(block)

    def _citation_end(self, p: dict) -> None:
        return

    def _debug(self, p: dict) -> None:
        return

    def _message_end(self, p: dict) -> None:
        delta = _dict(p.get("delta"))
        reason = delta.get("finish_reason")
        self.w.mark_ended()
        if reason is not None:
            reason = reason if isinstance(reason, str) else str(reason)
            self.w.set_stop_reason(reason)
            if reason not in FINISH_REASONS:
                self.w.report("S008", f"unknown finish_reason {reason!r}", cause=reason)
        if isinstance(delta.get("usage"), dict):
            self.w.set_usage(delta["usage"])
        error = delta.get("error")
        if reason in FAILED or (isinstance(error, str) and error):
            self.errored = True
            self.w.report("S006", f"error inside the stream: finish_reason {reason}"
                          + (f": {error}" if isinstance(error, str) and error else "")[:400])
        info = f"message-end ({reason})" if reason else "message-end"
        self._close_plan(info)
        for block in self.content.values():
            if not block.closed:
                self.w.close_block(block, stop_info=info)

    def on_end(self, end: "End") -> None:
        if not self.w.ended:
            self.truncated("message-end")

    # ---------------------------------------------------------------- helpers
    def _position(self) -> int:
        self.positions += 1
        return self.positions - 1

    def _open(self, kind: str, idx, table: dict, *, id: str | None = None, name: str | None = None) -> "Block":
        """A block at the next position, kept in ``table`` under the event's ``index``."""
        tool = kind == "tool_call"
        block = self.w.open_block(kind, index=self._position(), id=id, name=name, tool=tool)
        if isinstance(idx, int):
            if idx in table and not table[idx].closed:
                self.w.replace_block(table[idx])
            table[idx] = block
        self.w.note(block, "cohere_index", idx)
        return block

    def _find(self, table: dict, idx, last: "Block | None", what: str) -> "Block | None":
        """The block a delta's ``index`` names; without an integer ``index``, the one started last (the
        docs' clients append to the last call), said once on the block."""
        if isinstance(idx, int):
            return table.get(idx)
        if last is not None and not last.closed and last.attribution is None:
            self.w.set_attribution(last, f"deltas without an index taken as the {what} started last")
        return last

    def _close(self, table: dict, idx, info: str) -> None:
        """The block at ``index`` ``idx`` of ``table`` is closed by its end event (one for an index
        never started, or already ended, changes nothing: cohere-python does not look)."""
        block = table.get(idx) if isinstance(idx, int) else None
        if block is not None and not block.closed:
            self.w.close_block(block, stop_info=info)

    def _close_plan(self, info: str = "the tool calls start") -> None:
        if self.plan is not None and not self.plan.closed:
            self.w.close_block(self.plan, stop_info=info)

    # ------------------------------------------------------------------- rules
    def K001_event_dropped(self, p: dict, typ: str) -> None:
        """K001: cohere-python's stream types reject this event's shape; the SDK logs a warning and
        drops it (measured: ``tests/unit/test_cohere_shapes.py``)."""
        why = problem(p)
        if why:
            self.w.report("K001", f"a {typ} event of a shape the SDK's types reject ({why}): "
                          f"{says('K001-event-dropped')}, and what it carries never reaches the application",
                          cause=(typ, why.split(" is ")[0]))

    def K002_done_before_end(self) -> None:
        """K002: ``data: [DONE]`` before ``message-end``: cohere-python stops reading at it."""
        if self.w.ended or self.k002:
            return
        self.k002 = True
        self.w.report("K002", f"data: [DONE] before message-end: {says('K002-done-before-end')}, so every "
                      "event after it (the rest of the answer, the finish_reason) is lost")


_HANDLERS = {typ: getattr(CohereChat, "_" + typ.replace("-", "_")) for typ in EVENT_TYPES}
"""The method handling each event type (``tool-call-delta`` -> ``_tool_call_delta``)."""
