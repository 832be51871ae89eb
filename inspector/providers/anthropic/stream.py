"""Anthropic Messages streaming (SSE): content blocks by index, deltas, stop events.

Wire facts (PROTOCOLS.md §1; platform.claude.com/docs/en/build-with-claude/streaming):
``message_start`` → (``content_block_start`` → ``content_block_delta``* → ``content_block_stop``)*
→ ``message_delta`` (``stop_reason``) → ``message_stop``; ``ping`` anywhere; ``error`` is terminal.
Each A rule of RULES.md is one method below named after its code.
"""
from __future__ import annotations

import re
from heapq import heappop, heappush
from typing import TYPE_CHECKING, ClassVar
from collections.abc import Callable

import orjson

from inspector.model.blocks import Block
from inspector.providers.anthropic import calls
from inspector.providers.anthropic.clients import says
from inspector.providers.anthropic.sniff import EVENT_TYPES
from inspector.providers.base import Dialect
from inspector.model.members import object_member, string_member

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.events import EventRecord
    from inspector.providers.base import CallTaker


TOOL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""Blocks whose input streams as ``input_json_delta`` (PROTOCOLS.md §1, delta table)."""
BLOCK_TYPES = TOOL_BLOCKS | {
    "text", "thinking", "redacted_thinking", "web_search_tool_result", "web_fetch_tool_result",
    "code_execution_tool_result", "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
    "tool_search_tool_result", "container_upload", "mcp_tool_result", "advisor_tool_result", "compaction", "fallback",
}
DELTA_BLOCKS = {
    "text_delta": frozenset({"text"}),
    "citations_delta": frozenset({"text"}),
    "input_json_delta": TOOL_BLOCKS,
    "thinking_delta": frozenset({"thinking"}),
    "signature_delta": frozenset({"thinking"}),
    "compaction_delta": frozenset({"compaction"}),
}
"""Which block types each delta type belongs to (RULES.md A002)."""
_RUN_KEY = {"input_json_delta": "partial_json", "text_delta": "text", "thinking_delta": "thinking"}
"""The string a delta of each type adds (runs of them are taken whole, see ``run_target``)."""
STOP_REASONS = frozenset({"end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal",
                          "model_context_window_exceeded", "compaction"})
TRUNCATING = frozenset({"max_tokens", "model_context_window_exceeded"})
REFUSAL = "refusal"
TOOL_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


class _Slot:
    """The dialect's bookkeeping for one started block (the block itself is the session's)."""

    __slots__ = ("block", "start_input", "a002", "a010")

    def __init__(self, block: Block, start_input: object = None) -> None:
        self.block = block
        self.start_input = start_input
        """``content_block.input`` of the start event (tool blocks)."""
        self.a002: set | None = None
        """Delta types already reported as not fitting this block (None: none yet)."""
        self.a010 = False


class AnthropicMessages(Dialect):
    name = "anthropic-messages"
    typed_events = True
    buffered_arguments_hint = " Set eager_input_streaming: true on the tool to stream it as generated (see `compare`)."
    starts_response = frozenset({"message_start"})
    delta_types = frozenset({"content_block_delta"})
    group_starts = frozenset({"content_block_start"})
    group_stops = frozenset({"content_block_stop"})
    run_keys = {"content_block_delta": ("partial_json", "text", "thinking"),
                "": ("partial_json", "text", "thinking")}
    stop_reasons: ClassVar[frozenset] = STOP_REASONS
    """The ``stop_reason`` values this API sends; others are S008."""

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.slots: dict[int, _Slot] = {}
        """The current block per index (a duplicate start replaces the slot)."""
        self.started_order: list[int] = []
        self.orphans: set[int] = set()
        self.seen_first = False
        self.message_started = False
        self.stop_reason_event: EventRecord | None = None
        self.stop_reason: str | None = None
        self.errored = False
        self.tool_use_started = False
        self.open_slots: set[int] = set()
        """Indexes whose block is started and not stopped (A006 in O(1))."""
        self.open_heap: list[int] = []
        """``open_slots`` as a heap, stopped indexes dropped when they reach the top: A006 names the
        lowest open index without a ``min`` over every open block (100 000 blocks never stopped)."""
        self.empty_text: list[tuple[Block, EventRecord | None]] = []
        """Text blocks closed empty, with their closing event: A009 is judged once the stop
        reason is known (a refusal's empty text block is not A009)."""
        self._handlers = {
            "message_start": self._message_start,
            "content_block_start": self._block_start,
            "content_block_delta": self._block_delta,
            "content_block_stop": self._block_stop,
            "message_delta": self._message_delta,
            "message_stop": self._message_stop,
        }

    def next_response(self, ev: "EventRecord") -> bool:
        """A ``message_start`` after this message's ``message_start`` starts a new response:
        after ``message_stop`` a glued exchange (S004, reported by the session), before it a
        retry spliced into the stream (A017)."""
        p = ev.payload
        if not (self.message_started and isinstance(p, dict) and p.get("type") == "message_start"):
            return False
        if not self.w.ended:
            self.A017_repeated_message_start()
        return True

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if p.__class__ is not dict:
            return
        typ = p.get("type")
        if typ.__class__ is not str:
            typ = ev.name
        if self.w.ended:
            self.w.after_end(f"{typ!r} event after message_stop (clients stop reading at message_stop)")
        if typ == "ping":
            return
        if typ == "error" or "error" in p and typ not in EVENT_TYPES:
            self.errored = True
            self.generic_error(ev)
            return
        if not self.seen_first:
            self.A012_missing_message_start(typ)
        handler = self._handlers.get(typ)
        if handler is None:
            self.w.report("S008", f"unknown event type {typ!r} (tolerated; providers add types)", cause=typ)
            return
        handler(p)

    def run_target(self, p: dict, name: str, value: str) -> "tuple[Block, str] | None":
        """A run of ``content_block_delta`` events of an open block whose ``partial_json``,
        ``text`` or ``thinking`` string is the one that varies: ``_block_delta`` would only add it."""
        target = self.delta_of(p) if p.get("type") == "content_block_delta" else None
        if target is None or target[2] != value:
            return None
        return target[0], target[1]

    def delta_of(self, p: dict) -> "tuple[Block, str, str] | None":
        """A ``content_block_delta`` that ``_block_delta`` would only add to its open block: an
        ``input_json_delta`` of a tool block whose start carried no input (else A010), a
        ``text_delta`` of a text block, a ``thinking_delta`` of a thinking block. None before the
        first event and in a subclass that reads events its own way (``direct`` is empty then)."""
        if p.get("type") != "content_block_delta" or not self.direct or self.w.ended or "error" in p:
            return None
        idx, delta = p.get("index"), p.get("delta")
        slot = self.slots.get(idx) if idx.__class__ is int else None
        if slot is None or delta.__class__ is not dict:
            return None
        block = slot.block
        if block.closed:
            return None
        dtype = delta.get("type")
        if dtype == "input_json_delta":
            if slot.start_input or block.kind not in TOOL_BLOCKS:
                return None
            how = "arguments"
        elif dtype == "text_delta" or dtype == "thinking_delta":
            if block.kind != ("text" if dtype == "text_delta" else "thinking"):
                return None
            how = "text"
        else:
            return None
        value = delta.get(_RUN_KEY[dtype])
        return block, how, value if value.__class__ is str else ""

    def _message_start(self, p: dict) -> None:
        self.message_started = True
        msg = object_member(p, "message")
        if isinstance(msg.get("model"), str):
            self.w.set_model(msg["model"])
        if isinstance(msg.get("stop_reason"), str):
            self._set_stop_reason(msg["stop_reason"])
        content = msg.get("content")
        if isinstance(content, list):
            for pos, cb in enumerate(content):
                self._prefilled(pos, cb)

    def _prefilled(self, pos: int, cb: object) -> None:
        """A block pre-filled in ``message_start.message.content`` (programmatic and deferred tool
        calls, RULES.md A013): the message's block at ``pos``, complete and closed, its ``input``
        the arguments."""
        if not isinstance(cb, dict):
            self.w.report("S008", f"message_start.message.content[{pos}] is a {type(cb).__name__}, not a block")
            return
        kind = string_member(cb, "type", "unknown")
        if kind not in BLOCK_TYPES:
            self.w.report("S008", f"unknown content block type {kind!r} in message_start", index=pos, cause=kind)
        tool = kind in TOOL_BLOCKS
        block = self.w.open_block(kind, index=pos, id=string_member(cb, "id"),
                                  name=string_member(cb, "name"),
                                  tool=tool, empty_is_object=tool)
        self.slots[pos] = _Slot(block)
        self.started_order.append(pos)
        self.w.note(block, "prefilled", "message_start")
        if kind == "tool_use":
            self.tool_use_started = True
        if tool:
            self.A011_invalid_tool_identity(block, cb)
            if cb.get("input") is not None:
                self.w.set_object_arguments(block, cb["input"])
        elif kind in ("text", "thinking") and isinstance(cb.get(kind), str):
            self.w.add_text(block, cb[kind])
        if kind == "thinking" and isinstance(cb.get("signature"), str) and cb["signature"]:
            self.w.set_signature(block, cb["signature"])
        self.w.close_block(block, stop_info="pre-filled in message_start")
        self._after_close(block)

    def _block_start(self, p: dict) -> None:
        idx = p.get("index")
        cb = p.get("content_block")
        if cb.__class__ is not dict:
            cb = {}
        kind = cb.get("type")
        if kind.__class__ is not str:
            kind = "unknown"
        if not isinstance(idx, int):
            self.w.report("S008", "content_block_start without an integer index")
            return
        if kind not in BLOCK_TYPES:
            self.w.report("S008", f"unknown content block type {kind!r}", index=idx)
        # The rules' own checks first, inline: a short call's start reaches none of them (hot: once per block).
        if idx in self.slots:
            self.A003_duplicate_start(idx)
        else:
            if idx != len(self.started_order):
                self.A004_index_out_of_order(idx)
            self.started_order.append(idx)
        if self.open_slots:
            self.A006_overlapping_blocks(idx)
            heappush(self.open_heap, idx)
        else:
            self.open_heap = [idx]  # what it held was all stopped: kept, it grew by a block per block
        self.open_slots.add(idx)
        tool = kind in TOOL_BLOCKS
        tid, name = cb.get("id"), cb.get("name")
        block = self.w.open_block(kind, index=idx, id=tid if tid.__class__ is str else None,
                                  name=name if name.__class__ is str else None,
                                  tool=tool, empty_is_object=tool)
        slot = self.slots[idx] = _Slot(block, cb.get("input") if tool else None)
        if kind == "tool_use":
            self.tool_use_started = True
        if tool:
            if slot.start_input:  # shown: a pre-filled input is the block's whole input, or doubled (A010)
                self.w.note(block, "start_input", slot.start_input)
            # A011 asked only when its checks could fire (an ASCII identifier id, a name of 1-200 characters pass).
            if not (tid.__class__ is str and tid.isascii() and tid.isidentifier()
                    and name.__class__ is str and 0 < len(name) <= 200):
                self.A011_invalid_tool_identity(block, cb)
        elif kind == "text" and isinstance(cb.get("text"), str) and cb["text"]:
            self.w.add_text(block, cb["text"])
        elif kind == "thinking" and isinstance(cb.get("thinking"), str) and cb["thinking"]:
            self.w.add_text(block, cb["thinking"])
        if kind == "thinking" and isinstance(cb.get("signature"), str) and cb["signature"]:
            self.w.set_signature(block, cb["signature"])

    def open_call(self, p: dict, at: int) -> "Block | None":
        """``_block_start`` of a tool block that reports nothing and carries no input: the next index
        (A004), a free slot (A003), no block open (A006), a known tool type (S008), an id and name
        A011 passes (an ASCII identifier, 1-200 characters); None for any other start (then
        ``_block_start`` judges it)."""
        if not self.whole_calls:
            return None
        idx, cb = p.get("index"), p.get("content_block")
        if idx.__class__ is not int or cb.__class__ is not dict or self.open_slots or idx in self.slots \
                or idx != len(self.started_order):
            return None
        kind, tid, name, start_input = cb.get("type"), cb.get("id"), cb.get("name"), cb.get("input")  # type: ignore[union-attr]  # a dict: checked above
        if start_input or kind.__class__ is not str or kind not in TOOL_BLOCKS \
                or not (tid.__class__ is str and tid.isascii() and tid.isidentifier()
                        and name.__class__ is str and 0 < len(name) <= 200):
            return None
        self.started_order.append(idx)
        self.open_slots.add(idx)
        self.open_heap = [idx]  # none open before it (above)
        block = self.w.open_block_at(at, kind, idx, None, tid, name, True, True)
        self.slots[idx] = _Slot(block, start_input)
        if kind == "tool_use":
            self.tool_use_started = True
        return block

    def deltas_after(self, block: Block) -> "Callable[[dict], tuple[Block, str, str] | None]":
        """``delta_of`` right after ``open_call`` opened ``block`` (a tool block with no input, the only
        one open, the response under way: ``delta_of``'s other checks hold already), for a payload
        whose ``type`` is ``content_block_delta``: an ``input_json_delta`` of ``block``'s index."""
        idx = block.index

        def of(p: dict) -> "tuple[Block, str, str] | None":
            i, delta = p.get("index"), p.get("delta")
            if i.__class__ is not int or i != idx or delta.__class__ is not dict or "error" in p \
                    or delta.get("type") != "input_json_delta":  # type: ignore[union-attr]  # a dict: checked
                return None
            value = delta.get("partial_json")  # type: ignore[union-attr]  # a dict: checked above
            return block, "arguments", value if value.__class__ is str else ""

        return of

    def take_calls(self, session: "CallTaker", items: list, i: int) -> int:
        """Short tool calls taken whole, one pass per call (``inspector.providers.anthropic.calls``), which
        stands for this class's own hooks and handlers: none in a subclass (it may judge its events its own way)."""
        if self.__class__ is not AnthropicMessages:
            return 0
        return calls.take(self, session, items, i, TOOL_BLOCKS, _Slot)

    def close_call(self, p: dict, block: Block, at: int) -> bool:
        """``_block_stop`` of ``block`` (a tool block ``open_call`` opened) that reports nothing: its
        own index, and J002/J004/J007 and the V rules silent (``StreamWriter.close_block_at``)."""
        idx = p.get("index")
        slot = self.slots.get(idx) if idx.__class__ is int else None
        if slot is None or slot.block is not block or block.closed or slot.start_input \
                or not self.w.close_block_at(block, "content_block_stop", at):
            return False
        self.open_slots.discard(idx)
        return True

    def _block_delta(self, p: dict) -> None:
        idx = p.get("index")
        delta = p.get("delta")
        if delta.__class__ is not dict:
            delta = {}
        dtype = delta.get("type")
        slot = self.slots.get(idx) if idx.__class__ is int else None
        if slot is None:
            self.A001_delta_without_start(idx, "content_block_delta")
            return
        block = slot.block
        if block.closed:
            self.w.note_event_block(block)
            self.A005_delta_after_stop(block, "content_block_delta")
            return
        if dtype not in DELTA_BLOCKS:
            self.w.note_event_block(block)
            self.w.report("S008", f"unknown delta type {dtype!r}", index=idx, cause=dtype)
            return
        if block.kind not in DELTA_BLOCKS[dtype]:
            self.w.note_event_block(block)
            self.A002_delta_type_mismatch(slot, dtype)
            return
        if dtype == "input_json_delta":  # the add_* calls link the event to the block
            if slot.start_input:
                self.A010_start_input_not_empty(slot)
            fragment = delta.get("partial_json")
            self.w.add_arguments(block, fragment if fragment.__class__ is str else "")
        elif dtype == "text_delta":
            self.w.add_text(block, _str(delta.get("text")))
        elif dtype == "thinking_delta":
            self.w.add_text(block, _str(delta.get("thinking")))
        elif dtype == "signature_delta":
            self.w.set_signature(block, (block.signature or "") + _str(delta.get("signature")))
            self.w.add_text(block, "")
        elif dtype == "compaction_delta":  # beta: the summary text is the block's content
            self.w.add_text(block, _str(delta.get("content")))
        else:  # citations_delta: counted, the citation kept aside
            self.w.note(block, dtype, [*block.extra.get(dtype, ()), delta])
            self.w.add_text(block, "")

    def _block_stop(self, p: dict) -> None:
        idx = p.get("index")
        slot = self.slots.get(idx) if isinstance(idx, int) else None
        if slot is None:
            self.A001_delta_without_start(idx, "content_block_stop")
            return
        block = slot.block
        self.w.note_event_block(block)
        if block.closed:
            self.A005_delta_after_stop(block, "second content_block_stop")
            return
        if block.tool and block.deltas == 0 and slot.start_input:
            # The whole input came in the start event (no deltas): that is the block's input.
            self.w.set_arguments(block, orjson.dumps(slot.start_input).decode(), t=block.opened_t)
        self.w.close_block(block, "content_block_stop")
        self.open_slots.discard(idx)
        if block.kind in _AFTER_CLOSE:  # what ``_after_close`` judges (A009's empty text, A015)
            self._after_close(block)

    def _after_close(self, block: Block) -> None:
        if block.kind == "text" and not block.length:
            self.empty_text.append((block, self.w.current))
        self.A015_thinking_without_signature(block)

    def _message_delta(self, p: dict) -> None:
        delta = object_member(p, "delta")
        reason = delta.get("stop_reason")
        if reason is not None:
            self._set_stop_reason(reason)

    def _set_stop_reason(self, reason: object) -> None:
        reason = reason if isinstance(reason, str) else str(reason)
        self.w.set_stop_reason(reason)
        self.stop_reason = reason
        self.stop_reason_event = self.w.current
        if reason not in self.stop_reasons:
            self.w.report("S008", f"unknown stop_reason {reason!r}", cause=reason)

    def _message_stop(self, p: dict) -> None:
        self.w.mark_ended()
        self.A013_missing_stop_reason()

    def on_end(self, end: "End") -> None:
        if not self.w.ended and not self.errored:  # an error event is terminal (S006 says it)
            self.truncated("message_stop")
        self.A007_stop_reason_mismatch()
        self.A008_truncated_tool_call()
        self.A009_empty_text_block()
        self.A014_block_never_stopped()
        self.A016_empty_message()

    # ------------------------------------------------------------------- rules
    def A001_delta_without_start(self, idx, what: str) -> None:
        """A001: a delta or stop for an index with no ``content_block_start``; it creates no block."""
        key = idx if isinstance(idx, int) else -1
        if key in self.orphans:
            return
        self.orphans.add(key)
        self.w.report("A001", f"{what} for index {idx!r}, which no content_block_start opened "
                      "(the fragment belongs to no block)", index=idx if isinstance(idx, int) else None)

    def A002_delta_type_mismatch(self, slot: _Slot, dtype: str) -> bool:
        """A002: the delta type does not fit the block type. Returns True when it fits."""
        block = slot.block
        if block.kind in DELTA_BLOCKS[dtype]:
            return True
        if slot.a002 is None:
            slot.a002 = set()
        if dtype not in slot.a002:
            slot.a002.add(dtype)
            self.w.report("A002", f"{dtype} sent to a {block.kind!r} block (belongs to "
                          f"{'/'.join(sorted(DELTA_BLOCKS[dtype]))}): clients drop it", index=block.index)
        return False

    def A003_duplicate_start(self, idx: int) -> bool:
        """A003: a second ``content_block_start`` for an index; the new block takes the slot."""
        slot = self.slots.get(idx)
        if slot is None:
            return False
        old = slot.block
        self.w.replace_block(old)
        self.open_slots.discard(idx)
        self.w.report("A003", f"content_block_start for index {idx}, which already holds a {old.kind!r} block "
                      f"({'stopped' if old.closed else 'still open'}); the new block replaces it", index=idx)
        return True

    def A004_index_out_of_order(self, idx: int) -> None:
        """A004: a started index is not the next position 0, 1, 2, … of the final content array."""
        expected = len(self.started_order)
        if idx != expected:
            said = f"; {says('A004-index-out-of-order')}" if idx > expected else ""
            self.w.report("A004", f"block started at index {idx}, expected {expected} "
                          f"(index is the position in the final content array{said})", index=idx)

    def A005_delta_after_stop(self, block: Block, what: str) -> None:
        """A005: a delta or second stop for a block already stopped."""
        self.w.report("A005", f"{what} for index {block.index} after its content_block_stop "
                      "(clients that finalised the block lose it)", index=block.index)

    def A006_overlapping_blocks(self, idx: int) -> None:
        """A006: a block starts while another is still open (named: the lowest open index, so the
        message does not hang on the set's iteration order, which its history of adds and discards sets)."""
        if self.open_slots:
            heap = self.open_heap
            while heap[0] not in self.open_slots:
                heappop(heap)
            other = heap[0]
            self.w.report("A006", f"block {idx} starts while block {other} is still open", index=idx)

    def A007_stop_reason_mismatch(self) -> None:
        """A007: a ``tool_use`` block but a ``stop_reason`` that never runs it, or ``tool_use`` with no block."""
        reason = self.w.stop_reason
        if reason is None:
            return
        ev = self.stop_reason_event or False
        if self.tool_use_started and reason not in TRUNCATING and reason != "tool_use":
            self.w.report("A007", f"a tool_use block was streamed but stop_reason is {reason!r}: "
                          "clients keyed on stop_reason never run the tool", event=ev)
        elif reason == "tool_use" and not self.tool_use_started:
            self.w.report("A007", "stop_reason is 'tool_use' but no tool_use block was started", event=ev)

    def A008_truncated_tool_call(self) -> None:
        """A008: ``max_tokens``/``model_context_window_exceeded`` while a tool block is open or incomplete."""
        reason = self.w.stop_reason
        if reason not in TRUNCATING:
            return
        for b in self.w.blocks:
            if b.tool and not b.replaced and (not b.closed or b.status != "complete"):
                self.w.report("A008", f"stop_reason {reason!r} with tool block {b.index} "
                              f"{'open' if not b.closed else b.status}: the call was cut off; retry with a "
                              "higher max_tokens", index=b.index, event=self.stop_reason_event or False)

    def A009_empty_text_block(self) -> None:
        """A009: a ``text`` block closed with zero characters (replaying it is rejected), unless
        the message is a refusal (judged at the end, when the stop reason is known)."""
        if self.stop_reason == REFUSAL:
            return
        for block, ev in self.empty_text:
            self.w.report("A009", f"text block {block.index} closed empty: sending it back in history is "
                          "rejected (text blocks must be non-empty)", index=block.index, event=ev or False)

    def A010_start_input_not_empty(self, slot: _Slot) -> None:
        """A010: the tool block's start carried a non-empty ``input`` and deltas follow (double counting)."""
        start, block = slot.start_input, slot.block
        if start and not slot.a010:
            slot.a010 = True
            self.w.report("A010", f"content_block_start carried input {orjson.dumps(start).decode()[:80]} "
                          "and input_json_delta follows: accumulators that start from it double-count",
                          index=block.index)

    def A011_invalid_tool_identity(self, block: Block, cb: dict) -> None:
        """A011: tool id not matching ``^[a-zA-Z0-9_-]+$``, or name not 1–200 characters."""
        tid, name = cb.get("id"), cb.get("name")
        # An ASCII identifier ([A-Za-z_][A-Za-z0-9_]*) matches TOOL_ID: the regex only for other ids.
        if not isinstance(tid, str) or not (tid.isascii() and tid.isidentifier() or TOOL_ID.match(tid)):
            self.w.report("A011", f"tool id {tid!r} does not match ^[a-zA-Z0-9_-]+$", index=block.index)
        if not isinstance(name, str) or not 1 <= len(name) <= 200:
            self.w.report("A011", f"tool name {name!r} is not 1–200 characters", index=block.index)

    def A012_missing_message_start(self, typ: str) -> None:
        """A012: the first non-ping event is not ``message_start``."""
        if self.seen_first:
            return
        self.seen_first = True
        cls = type(self)
        if cls.on_event is AnthropicMessages.on_event:  # a subclass that reads events its own way keeps on_event
            self.direct = self._handlers  # from now on, on_event of a handled type only calls its handler
            # A block's start and stop taken whole (``open_call``) only where they are these handlers.
            self.whole_calls = (cls._block_start is AnthropicMessages._block_start
                          and cls._block_stop is AnthropicMessages._block_stop)
        if typ != "message_start":
            self.w.report("A012", f"first event is {typ!r}, not message_start "
                          f"({says('A012-missing-message-start')})")

    def A013_missing_stop_reason(self) -> None:
        """A013: ``message_stop`` without a ``message_delta`` carrying ``stop_reason``, and none in
        ``message_start`` either."""
        if self.w.stop_reason is None:
            self.w.report("A013", "message_stop without a message_delta carrying stop_reason (and "
                          "message_start.message.stop_reason was null)")

    def A014_block_never_stopped(self) -> None:
        """A014: a non-tool block still open at the end (tool blocks: J005)."""
        for b in self.w.blocks:
            if not b.tool and not b.closed and not b.replaced:
                self.w.report("A014", f"{b.kind} block {b.index} never got content_block_stop",
                              index=b.index, event=False)

    def A015_thinking_without_signature(self, block: Block) -> None:
        """A015: a ``thinking`` block closed without ``signature_delta`` (cannot be replayed)."""
        if block.kind == "thinking" and not block.signature:
            self.w.report("A015", f"thinking block {block.index} closed without a signature: it cannot be "
                          "sent back in history", index=block.index)

    def A016_empty_message(self) -> None:
        """A016: the message ended with no content blocks (pre-filled ones count), unless it is a refusal."""
        if self.message_started and not self.started_order and not self.errored and self.stop_reason != REFUSAL:
            self.w.report("A016", "the message ended with no content blocks", event=False)

    def A017_repeated_message_start(self) -> None:
        """A017: a second ``message_start`` before ``message_stop``: a retry spliced into one
        stream. What follows is judged as a response of its own."""
        self.w.report("A017", "a second message_start before message_stop: a retry was spliced into the "
                      "stream (clients that keep the first message lose the retry; the rest is judged as "
                      "a response of its own)")


_AFTER_CLOSE = frozenset({"text", "thinking"})
"""The block kinds ``_after_close`` looks at."""


def _str(v) -> str:
    return v if isinstance(v, str) else ""
