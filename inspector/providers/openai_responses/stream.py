"""openai-responses dialect: the OpenAI Responses API stream (``POST /v1/responses``, ``stream: true``).

Why it exists: a Responses stream is a sequence of typed events addressing *output items* by
``output_index`` and ``item_id``. Clients assemble function-call arguments from
``response.function_call_arguments.delta`` events and trust ``.done``; servers and proxies
that speak "Responses-compatible" get the item bookkeeping, the sequence numbers and the
terminal event wrong in ways that are silent in the official SDK (it asserts or drops). This
module turns the events into blocks (one per output item; ``kind`` is the item type) and judges
the R rules of ``shared/RULES.md`` plus S003, S004, S006, S008 and J007 for this dialect.

Protocol facts (``shared/PROTOCOLS.md`` §3): event union and item union of openai-python
``types/responses/response_stream_event.py`` / ``response_output_item.py``; every event carries
``sequence_number``; item-level events carry ``output_index`` and ``item_id``; the terminal
events are ``response.completed``/``.failed``/``.incomplete``; ``error`` is
``{code?, message, param?, sequence_number}``; streams may end without ``[DONE]`` (tolerated).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.capture.redact import clipped
from inspector.model.jsonprogress import PARTIAL
from inspector.providers.openai_responses.clients import says
from inspector.providers.base import Dialect
from inspector.model.members import object_member, string_member

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord

TERMINAL = frozenset({"response.completed", "response.failed", "response.incomplete", "response.done"})
"""Events that end a response (PROTOCOLS.md §3, R5); the final status is the stop reason. Over a
WebSocket the Responses API may end with ``response.done`` (openai-python
``examples/responses/websocket.py``: "Responses over WebSocket currently emit `response.done` as the
final event"); its ``response.status`` says which end it is."""
_DONE_STATUS = {"failed": "response.failed", "incomplete": "response.incomplete", "cancelled": "response.incomplete"}
"""``response.done``'s ``response.status`` as the terminal event it stands for (completed otherwise)."""

KNOWN_EVENTS = frozenset({
    "error",
    "response.created", "response.queued", "response.in_progress",
    "response.completed", "response.failed", "response.incomplete", "response.done",
    "response.output_item.added", "response.output_item.done",
    "response.content_part.added", "response.content_part.done",
    "response.output_text.delta", "response.output_text.done", "response.output_text.annotation.added",
    "response.refusal.delta", "response.refusal.done",
    "response.function_call_arguments.delta", "response.function_call_arguments.done",
    "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done",
    "response.mcp_call_arguments.delta", "response.mcp_call_arguments.done",
    "response.mcp_call.in_progress", "response.mcp_call.completed", "response.mcp_call.failed",
    "response.mcp_list_tools.in_progress", "response.mcp_list_tools.completed", "response.mcp_list_tools.failed",
    "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done",
    "response.reasoning_text.delta", "response.reasoning_text.done",
    "response.file_search_call.in_progress", "response.file_search_call.searching",
    "response.file_search_call.completed",
    "response.web_search_call.in_progress", "response.web_search_call.searching",
    "response.web_search_call.completed",
    "response.code_interpreter_call.in_progress", "response.code_interpreter_call.interpreting",
    "response.code_interpreter_call.completed",
    "response.code_interpreter_call_code.delta", "response.code_interpreter_call_code.done",
    "response.image_generation_call.in_progress", "response.image_generation_call.generating",
    "response.image_generation_call.partial_image", "response.image_generation_call.completed",
    "response.shell_call_command.added", "response.shell_call_command.delta", "response.shell_call_command.done",
    "response.shell_call_output_content.delta", "response.shell_call_output_content.done",
    "response.audio.delta", "response.audio.done",
    "response.audio.transcript.delta", "response.audio.transcript.done",
    "response.compaction.compacting",
    "response.steer", "response.steer.accepted", "response.steer.failed", "response.steer.pending",
})
"""The SDK's ``ResponseStreamEvent`` union (openai-python @e43b422); anything else is S008 info."""

KNOWN_ITEMS = frozenset({
    "message", "function_call", "function_call_output", "reasoning", "file_search_call", "web_search_call",
    "computer_call", "computer_call_output", "image_generation_call", "code_interpreter_call",
    "local_shell_call", "local_shell_call_output", "shell_call", "shell_call_output",
    "apply_patch_call", "apply_patch_call_output", "mcp_call", "mcp_list_tools", "mcp_approval_request",
    "mcp_approval_response", "custom_tool_call", "custom_tool_call_output", "tool_search_call",
    "tool_search_output", "compaction", "program", "program_output", "additional_tools",
})
"""The SDK's ``ResponseOutputItem`` union; other item types are shown and reported as S008 info."""

_LIFECYCLE = frozenset({"response.created", "response.queued", "response.in_progress"})
_DONE_OF = {
    "response.output_text.delta": "response.output_text.done",
    "response.refusal.delta": "response.refusal.done",
    "response.reasoning_text.delta": "response.reasoning_text.done",
    "response.reasoning_summary_text.delta": "response.reasoning_summary_text.done",
}
"""Text deltas whose part ends with a ``.done`` event carrying the whole text (R009)."""
_TEXT_DONE = frozenset(_DONE_OF.values())
_TEXT_DELTAS = frozenset({
    "response.output_text.delta", "response.refusal.delta", "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta", "response.custom_tool_call_input.delta",
    "response.mcp_call_arguments.delta", "response.code_interpreter_call_code.delta",
    "response.shell_call_command.delta", "response.audio.transcript.delta",
})
"""Deltas whose text is shown on the item's block (function-call arguments are judged separately)."""
_MESSAGE_PART_EVENTS = frozenset({
    "response.content_part.added", "response.output_text.delta", "response.output_text.done",
    "response.refusal.delta", "response.refusal.done",
})
"""Events that address a message item's content list by ``content_index`` (openai-python indexes it: R011)."""
_ITEM_OF_EVENT = (
    ("response.output_text.", "message"), ("response.refusal.", "message"), ("response.content_part.", "message"),
    ("response.function_call_arguments.", "function_call"), ("response.reasoning", "reasoning"),
    ("response.custom_tool_call_input.", "custom_tool_call"), ("response.mcp_call", "mcp_call"),
    ("response.code_interpreter_call", "code_interpreter_call"), ("response.web_search_call.", "web_search_call"),
    ("response.file_search_call.", "file_search_call"), ("response.image_generation_call.", "image_generation_call"),
    ("response.shell_call", "shell_call"), ("response.audio.", "message"),
)
"""Event-type prefix -> the type of the item it addresses: how an item announced before a resumed
stream's cursor (R012) is named from the first event that arrives for it."""


class _Item:
    """Bookkeeping for one announced output item."""

    __slots__ = ("block", "output_index", "item_id", "type", "done", "args_set", "arg_deltas",
                 "r002", "r006", "r009", "r010", "r011", "incomplete", "parts", "done_parts", "parts_added",
                 "before_cursor")

    def __init__(self, block: "Block", output_index, item_id, typ: str) -> None:
        self.block = block
        self.output_index = output_index
        self.item_id = item_id
        self.type = typ
        self.done = False
        self.args_set = False
        self.arg_deltas = 0
        self.r002 = False
        self.r006 = False
        self.r009 = False
        self.r010 = False
        self.r011 = False
        self.incomplete = False
        self.parts: dict[tuple | None, list[str]] = {}
        """Text deltas per part (``(kind, content_index)``), compared with the ``.done`` text (R009)."""
        self.done_parts: dict[tuple, str] = {}
        """The ``.done`` text of each part that got one (a later delta makes it wrong: R009)."""
        self.parts_added = 0
        """Content parts added to a message item so far (``content_part.added``; R011)."""
        self.before_cursor = False
        """Announced before a resumed stream's cursor (R012): its deltas are a suffix of its text."""


class OpenAIResponses(Dialect):
    """Responses events -> one block per output item; R001–R008, S003/S004/S006/S008, J via the session."""

    name = "openai-responses"
    accepts_done = True
    """[R] Responses streams may or may not close with ``[DONE]``; the SDK tolerates either (PROTOCOLS.md §3)."""
    typed_events = True
    known_events = KNOWN_EVENTS
    """Event types this dialect knows (others are S008); a dialect reading the same events adds its own."""
    text_deltas = _TEXT_DELTAS
    done_of = _DONE_OF
    text_done = _TEXT_DONE
    part_types = frozenset({"output_text", "refusal", "reasoning_text", "summary_text"})
    """Content part types of ``response.content_part.added``/``.done`` (others are S008)."""

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.by_index: dict = {}
        self.by_id: dict = {}
        self.items: list[_Item] = []
        self.first = True
        self.last_seq: int | None = None
        self.terminal: str | None = None
        self.unknown_reported: set = set()
        self.resumed = False
        """The stream starts after the beginning (R012): unknown items were announced before the cursor."""

    def next_response(self, ev: "EventRecord") -> bool:
        """``response.created`` after the terminal event starts a new response (RULES.md S004)."""
        p = ev.payload
        return self.terminal is not None and isinstance(p, dict) and p.get("type") == "response.created"

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if not isinstance(p, dict):
            # [DONE] after the terminal event is tolerated (PROTOCOLS.md §3 [R]); NOT_JSON is S002.
            return
        typ = p.get("type")
        typ = typ if isinstance(typ, str) else (ev.name if ev.named else None)
        first, self.first = self.first, False
        if first and typ != "response.created" and not self._is_error(typ, p):
            resumed = self._resumed(p)
            if resumed:
                self.R012_resumed_stream(resumed)
            else:
                self.w.report("R008", f"the first event is {typ!r}, not 'response.created' "
                              f"({says('R008-missing-created')})")
        self._check_sequence(p)
        if self.terminal is not None:
            self.w.after_end(f"event {typ!r} after the terminal event {self.terminal!r}")
            return
        if self._is_error(typ, p):
            self._error(p)
            return
        if typ not in self.known_events:
            self._unknown("event type", typ)
        if typ in _LIFECYCLE:
            resp = p.get("response")
            if isinstance(resp, dict) and isinstance(resp.get("model"), str):
                self.w.set_model(resp["model"])
            return
        if typ in TERMINAL:
            self._terminal(typ, p)
            return
        if typ == "response.output_item.added":
            self._item_added(p)
            return
        if typ == "response.output_item.done":
            self._item_done(p)
            return
        if "item_id" not in p and "output_index" not in p:
            return
        item = self._resolve(p, typ)
        if item is None:
            return
        self.w.note_event_block(item.block)
        if item.type == "message" and typ in _MESSAGE_PART_EVENTS and not item.before_cursor:
            self.R011_content_index_gap(item, p, typ)
        if typ == "response.function_call_arguments.delta":
            self._args_delta(item, p)
        elif typ == "response.function_call_arguments.done":
            self._args_done(item, p)
        elif typ in self.text_deltas:
            delta = p.get("delta")
            if isinstance(delta, str) and not item.block.tool:
                if typ == "response.refusal.delta":
                    self.w.note(item.block, "refusal", True)
                self.w.add_text(item.block, delta)
                if typ in self.done_of:
                    key = _part_key(typ, p)
                    item.parts.setdefault(key, []).append(delta)
                    if key in item.done_parts and delta:
                        self.R009_text_done_mismatch(item, "".join(item.parts[key]), item.done_parts[key],
                                                     f"{typ} after the part's .done")
        elif typ in self.text_done:
            text = _done_text(p)
            if isinstance(text, str) and not item.block.tool:
                key = _part_key(typ, p)
                item.done_parts[key] = text
                if item.block.deltas == 0:
                    if text:
                        self.w.add_text(item.block, text)
                else:
                    streamed = "".join(item.parts.get(key, ()))
                    if item.before_cursor and streamed != text and text.endswith(streamed):
                        self.w.prepend_text(item.block, text[: len(text) - len(streamed)])
                        item.parts[key] = [text]
                        streamed = text
                    self.R009_text_done_mismatch(item, streamed, text, typ)
        elif typ in ("response.content_part.added", "response.content_part.done"):
            part = p.get("part")
            if isinstance(part, dict) and isinstance(part.get("type"), str) and part["type"] not in self.part_types:
                self._unknown("content part type", part["type"])

    def on_end(self, end: "End") -> None:
        if self.terminal is None:
            self._never_done()
            self.truncated("a terminal event (response.completed/failed/incomplete)")

    def _resumed(self, p: dict) -> str:
        """Why the stream is a resumed one, which may start anywhere (RULES.md R008, R012):
        ``starting_after`` in the request, or a first ``sequence_number`` above 0; "" when it is not."""
        body = self.w.request_body
        seq = p.get("sequence_number")
        if isinstance(body, dict) and "starting_after" in body:
            return f"starting_after {body['starting_after']!r} in the request"
        if isinstance(seq, int) and not isinstance(seq, bool) and seq > 0:
            return f"its first sequence_number is {seq}"
        return ""

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _is_error(typ, p: dict) -> bool:
        return typ == "error" or (typ is None and p.get("error") is not None)

    def _error(self, p: dict) -> None:
        error = p.get("error")
        err = error if isinstance(error, dict) else p
        code = err.get("code") or err.get("type") or "error"
        msg = err.get("message") or "(no message)"
        param = err.get("param")
        extra = f" (param {param})" if param else ""
        self.w.report("S006", f"error inside the stream: {code}: {msg}{extra}"[:400])
        self.errored = True

    def _unknown(self, what: str, typ) -> None:
        key = (what, typ)
        if key in self.unknown_reported:
            return
        self.unknown_reported.add(key)
        self.w.report("S008", f"unknown {what} {typ!r} (shown, not judged)")

    def _check_sequence(self, p: dict) -> None:
        seq = p.get("sequence_number")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return
        prev, self.last_seq = self.last_seq, seq
        if prev is not None and seq != prev + 1:
            self.w.report("R003", f"sequence_number {seq} after {prev} (expected {prev + 1})")

    def _item_added(self, p: dict) -> None:
        item = p.get("item")
        oi = p.get("output_index")
        if not isinstance(item, dict):
            self.w.report("R001", "response.output_item.added without an item object", index=_int(oi))
            return
        typ = string_member(item, "type", "unknown")
        iid = item.get("id") if isinstance(item.get("id"), str) and item.get("id") else None
        if typ not in KNOWN_ITEMS:
            self._unknown("item type", typ)
        old = self.by_index.get(oi) if oi is not None else None
        if old is not None:
            if old.item_id is not None and old.item_id == iid:
                self.w.note_event_block(old.block)
                return
            self.w.report("R007", f"output_index {oi} announced again for a different item "
                          f"({old.type} {old.item_id!r} then {typ} {iid!r})", index=_int(oi))
            self.w.replace_block(old.block)
        is_call = typ == "function_call"
        name = string_member(item, "name")
        block = self.w.open_block(typ, index=_int(oi), id=iid, name=name, tool=is_call)
        rec = _Item(block, oi, iid, typ)
        if isinstance(item.get("call_id"), str):
            self.w.set_identity(block, call_id=item["call_id"])
        if is_call and iid is None:
            rec.r006 = True
            self.w.report("R006", f"function_call item at output_index {oi} has no 'id' "
                          "(events must be correlated by output_index)", index=_int(oi))
        if oi is not None:
            self.by_index[oi] = rec
        if iid is not None:
            self.by_id[iid] = rec
        self.items.append(rec)

    def _resolve(self, p: dict, typ) -> _Item | None:
        """Find the item an event addresses: by ``item_id``, else by ``output_index`` (R001, R006);
        an ``item_id`` other than the one announced at its ``output_index`` is attributed by the
        index, as the official SDK does (R010)."""
        iid = p.get("item_id")
        oi = p.get("output_index")
        iid = iid if isinstance(iid, str) and iid else None
        rec = self.by_id.get(iid) if iid is not None else None
        if rec is None:
            by_oi = self.by_index.get(oi) if oi is not None else None
            if by_oi is not None:
                rec = by_oi
                if iid is not None and by_oi.item_id is not None:
                    self.R010_item_id_changed(by_oi, iid, typ)
        if rec is None and self.resumed:
            return self._before_cursor(oi, iid, _item_type_of(typ))
        if rec is None:
            what = f"item_id {iid!r}" if iid is not None else f"output_index {oi!r}"
            if iid is not None and oi is not None:
                what += f" / output_index {oi!r}"
            self.w.report("R001", f"{typ} names {what}, never announced by response.output_item.added",
                          index=_int(oi))
            return None
        if iid is None and rec.type == "function_call" and not rec.r006:
            rec.r006 = True
            self.w.report("R006", f"{typ} carries no 'item_id' (correlated by output_index {oi})",
                          index=_int(rec.output_index))
        return rec

    def _args_delta(self, item: _Item, p: dict) -> None:
        delta = p.get("delta")
        if not isinstance(delta, str):
            return
        if not item.block.tool:
            self.w.add_text(item.block, delta)
            return
        item.arg_deltas += 1
        item.args_set = True
        if item.before_cursor:
            # Only the suffix after the cursor arrives: shown, judged once the whole text is known.
            self.w.add_text(item.block, delta)
        else:
            self.w.add_arguments(item.block, delta)

    def _compare(self, item: _Item, args, where: str) -> None:
        """R002: deltas arrived and ``args`` (from ``where``) differs from their concatenation."""
        if item.r002 or item.arg_deltas == 0 or not isinstance(args, str):
            return
        got = item.block.content
        if item.before_cursor and args != got and args.endswith(got):
            self.w.set_arguments(item.block, args)  # the deltas were its suffix: the whole is judged
            return
        if args != got:
            item.r002 = True
            self.w.report("R002", f"{where} arguments ({len(args)} characters) differ from the "
                          f"{item.arg_deltas} concatenated deltas ({len(got)} characters): "
                          f"{_clip(args)!r} vs {_clip(got)!r}", index=item.block.index)

    def _args_done(self, item: _Item, p: dict) -> None:
        block = item.block
        if not block.tool:
            return
        if block.name is None and isinstance(p.get("name"), str):
            self.w.set_identity(block, name=p["name"])
        args = p.get("arguments")
        if item.arg_deltas:
            self._compare(item, args, "response.function_call_arguments.done")
        elif isinstance(args, str) and args and not item.args_set:
            self.w.set_arguments(block, args)
            item.args_set = True
        if item.args_set and not block.closed:
            self.w.close_block(block, stop_info="response.function_call_arguments.done")

    def R009_text_done_mismatch(self, item: _Item, streamed: str, done: str, where: str) -> None:
        """R009 text-done-mismatch (warning): the text deltas of a part concatenate to a text that
        differs from its ``.done`` event or from the item in ``output_item.done``. Once per item."""
        if item.r009 or streamed == done:
            return
        item.r009 = True
        self.w.report("R009", f"{where}: the text deltas of {item.type} item {item.item_id!r} make "
                      f"{_clip(streamed)!r} ({len(streamed)} characters) but the final text is {_clip(done)!r} "
                      f"({len(done)} characters): clients that keep one of them show the wrong text",
                      index=item.block.index)

    def R010_item_id_changed(self, item: _Item, iid: str, where: object) -> None:
        """R010 item-id-changed (warning): an event's ``item_id`` differs from the id announced for
        its ``output_index`` (some gateways rotate ids). Attributed by ``output_index``; once per item."""
        if item.r010:
            return
        item.r010 = True
        self.w.report("R010", f"{where} names item_id {iid!r} but output_index {item.output_index} was announced "
                      f"as {item.item_id!r}: attributed by output_index ({says('R010-item-id-changed')}); "
                      "clients that key on item_id lose these events (reported once per item)",
                      index=item.block.index)

    def _item_done(self, p: dict) -> None:
        item = p.get("item")
        oi = p.get("output_index")
        iid = item.get("id") if isinstance(item, dict) else None
        q = {"output_index": oi}
        if isinstance(iid, str) and iid:
            q["item_id"] = iid
        rec = self._resolve(q, "response.output_item.done")
        if rec is None:
            return
        self.w.note_event_block(rec.block)
        rec.done = True
        block = rec.block
        if isinstance(item, dict):
            if item.get("status") == "incomplete":
                rec.incomplete = True
            if block.tool:
                args = item.get("arguments")
                if rec.arg_deltas:
                    self._compare(rec, args, "response.output_item.done")
                elif not rec.args_set and isinstance(args, str) and args:
                    self.w.set_arguments(block, args)
                    rec.args_set = True
                if block.name is None and isinstance(item.get("name"), str):
                    self.w.set_identity(block, name=item["name"])
            elif block.deltas == 0:
                text = _item_text(item)
                if text:
                    self.w.add_text(block, text)
            elif rec.parts and rec.type in ("message", "reasoning") and _item_text(item):
                # An item with no text parts at all states no text (some servers leave them out).
                streamed, final = "".join("".join(v) for v in rec.parts.values()), _item_text(item)
                if rec.before_cursor and streamed != final and final.endswith(streamed):
                    self.w.prepend_text(block, final[: len(final) - len(streamed)])
                    rec.parts = {None: [final]}
                    streamed = final
                self.R009_text_done_mismatch(rec, streamed, final, "response.output_item.done")
        if not block.closed and not block.replaced:
            status = item.get("status") if isinstance(item, dict) else None
            self.w.close_block(block, stop_info=f"output_item.done ({status})" if status else "output_item.done")

    def _terminal(self, typ: str, p: dict) -> None:
        self.terminal = typ
        self.w.mark_ended()
        resp = object_member(p, "response")
        status = resp.get("status") if isinstance(resp.get("status"), str) else typ.rsplit(".", 1)[-1]
        if typ == "response.done":
            typ = _DONE_STATUS.get(str(status), "response.completed")
        self.w.set_stop_reason(status)
        if isinstance(resp.get("model"), str):
            self.w.set_model(resp["model"])
        output = resp.get("output")
        if isinstance(output, list) and self.resumed:
            self._finished_before_cursor(output, typ)
        if isinstance(output, list):
            for pos, out in enumerate(output):
                if not isinstance(out, dict) or out.get("type") != "function_call":
                    continue
                oid = out.get("id")
                rec = self.by_id.get(oid) if isinstance(oid, str) and oid else None
                if rec is None:
                    rec = self.by_index.get(pos)
                    if rec is not None and rec.type != "function_call":
                        rec = None
                if rec is not None:
                    self._compare(rec, out.get("arguments"), typ)
        if typ in ("response.failed", "response.incomplete"):
            bad = [r for r in self.items if r.type == "function_call" and not r.block.replaced and (
                not r.block.closed or r.incomplete or
                (r.block.progress is not None and r.block.progress.state == PARTIAL))]
            if bad:
                reason = ""
                details = resp.get("incomplete_details") or resp.get("error")
                if isinstance(details, dict):
                    reason = details.get("reason") or details.get("message") or details.get("code") or ""
                    reason = f" ({reason})" if reason else ""
                calls = ", ".join(f"{r.block.name or '?'} at output_index {r.output_index}" for r in bad)
                self.w.report("R005", f"{typ}{reason} while function call(s) are open or incomplete: "
                              f"{calls}: do not execute them", index=bad[0].block.index)
        self._never_done()

    def _before_cursor(self, oi, iid: str | None, typ: str, item: dict | None = None) -> _Item:
        """An item announced before a resumed stream's cursor (R012): opened from the first event
        that names it, assembled from what arrives (deltas, ``.done``, ``output_item.done``,
        ``response.completed``)."""
        name = item.get("name") if isinstance(item, dict) and isinstance(item.get("name"), str) else None
        block = self.w.open_block(typ, index=_int(oi), id=iid, name=name, tool=typ == "function_call")
        self.w.note(block, "announced", "before the resumed stream's cursor")
        if isinstance(item, dict) and isinstance(item.get("call_id"), str):
            self.w.set_identity(block, call_id=item["call_id"])
        rec = _Item(block, oi, iid, typ)
        rec.before_cursor = True
        if oi is not None:
            self.by_index[oi] = rec
        if iid is not None:
            self.by_id[iid] = rec
        self.items.append(rec)
        return rec

    def _finished_before_cursor(self, output: list, where: str) -> None:
        """Items of a resumed stream's final output that no event after the cursor named: whole
        items the stream resumed after. Each becomes a closed block, as the final event states it."""
        for pos, out in enumerate(output):
            if not isinstance(out, dict):
                continue
            oid = out.get("id") if isinstance(out.get("id"), str) and out.get("id") else None
            if (oid is not None and oid in self.by_id) or (oid is None and pos in self.by_index):
                continue
            typ = string_member(out, "type", "unknown")
            rec = self._before_cursor(pos, oid, typ, out)
            rec.done = True
            if rec.block.tool:
                args = out.get("arguments")
                if isinstance(args, str) and args:
                    self.w.set_arguments(rec.block, args)
            else:
                text = _item_text(out)
                if text:
                    self.w.add_text(rec.block, text)
            self.w.close_block(rec.block, stop_info=where)

    def R011_content_index_gap(self, item: _Item, p: dict, typ: str) -> None:
        """R011 content-index-gap (error): a content part or delta at ``content_index`` n of a
        message item whose parts 0 … n−1 were never added (``response.content_part.added``).
        Once per item; never for an item announced before a resumed stream's cursor."""
        ci = _int(p.get("content_index"))
        added = item.parts_added
        if typ == "response.content_part.added":
            item.parts_added += 1
        if ci is None or ci <= added or item.r011:
            return
        item.r011 = True
        missing = "part 0" if added == 0 and ci == 1 else f"parts {added}…{ci - 1}"
        self.w.report("R011", f"{typ} at content_index {ci} of message item {item.item_id!r}, whose content "
                      f"{missing} {'was' if missing == 'part 0' else 'were'} never added "
                      f"(response.content_part.added): {says('R011-content-index-gap')}",
                      index=item.block.index)

    def R012_resumed_stream(self, why: str) -> None:
        """R012 resumed-stream (info): the stream starts after the beginning; items announced
        before the cursor are assembled from what arrives, and R001/R008 do not apply."""
        self.resumed = True
        self.w.report("R012", f"the stream is resumed ({why}): items announced before the cursor are assembled "
                      f"from what arrives; {says('R012-resumed-stream')} on such a body, "
                      f"{says('R012-resumed-stream-retrieve')}")

    def _never_done(self) -> None:
        for rec in self.items:
            if not rec.done and not rec.block.replaced:
                rec.done = True
                which = f"{rec.type} item {rec.item_id!r}" if rec.item_id else f"{rec.type} item"
                self.w.report("R004", f"{which} at output_index {rec.output_index} was announced but never got "
                              "response.output_item.done", index=rec.block.index,
                              event=self.w.current if self.w.current is not None else False)


def _item_type_of(typ: str | None) -> str:
    """The type of the item an event addresses, from the event's type (``_ITEM_OF_EVENT``)."""
    for prefix, item_type in _ITEM_OF_EVENT:
        if isinstance(typ, str) and typ.startswith(prefix):
            return item_type
    return "unknown"


def _part_key(typ: str, p: dict) -> tuple:
    """Which part a text event is about: its kind (``.delta``/``.done`` of one family share it) and
    its ``content_index`` (``summary_index`` for reasoning summaries)."""
    family = typ.rsplit(".", 1)[0]
    return family, p.get("summary_index", p.get("content_index"))


def _int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _clip(text: str, n: int = 60) -> str:
    return clipped(text, n)


def _done_text(p: dict) -> object:
    """The whole text a ``.done`` event (or a content part) states: ``text``, ``refusal`` or, for a
    Realtime audio part, its ``transcript``."""
    return p.get("text", p.get("refusal", p.get("transcript")))


def _item_text(item: dict) -> str:
    """Text of a finished message/reasoning item (``content[].text``/``summary[].text``; a Realtime
    audio part's ``transcript``)."""
    parts = []
    for key in ("content", "summary"):
        seq = item.get(key)
        if isinstance(seq, list):
            for part in seq:
                if isinstance(part, dict):
                    t = _done_text(part)
                    if isinstance(t, str):
                        parts.append(t)
    return "".join(parts)
