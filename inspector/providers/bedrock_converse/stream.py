"""AWS Bedrock ConverseStream (binary event-stream): content blocks by ``contentBlockIndex``.

Wire facts (PROTOCOLS.md §6; botocore ``bedrock-runtime`` ``service-2.json``, ``ConverseStreamOutput``):
``messageStart{role}`` → per block: ``contentBlockStart{contentBlockIndex, start}`` (tool use, tool
result and image blocks only: **text and reasoning blocks have no start event**, their first delta
opens them) → ``contentBlockDelta{contentBlockIndex, delta}``* → ``contentBlockStop`` →
``messageStop{stopReason}`` → ``metadata{usage, metrics}``. Each event is one event-stream message
named by its ``:event-type``; the payload is the event's members (Bedrock adds a padding member
``p``). Exceptions arrive as exception messages (S006, ``Dialect.generic_error``).

The end marker is ``messageStop``; ``metadata`` normally follows it (like Chat's usage chunk before
``[DONE]``). Each B rule (README "Rules", ``inspector.model.catalog``) is one method named after
its code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.model.blocks import Block
from inspector.model.clients import says
from inspector.providers.base import Dialect
from inspector.model.members import object_member

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.events import EventRecord

START_KINDS = {"toolUse": "tool_use", "toolResult": "tool_result", "image": "image"}
"""``contentBlockStart.start`` members → block kind."""
DELTA_KINDS = {"text": "text", "citation": "text", "toolUse": "tool_use", "reasoningContent": "reasoning",
               "toolResult": "tool_result", "image": "image"}
"""``contentBlockDelta.delta`` members → the block kind they belong to (B003)."""
STOP_REASONS = frozenset({"end_turn", "tool_use", "max_tokens", "stop_sequence", "guardrail_intervened",
                          "content_filtered", "malformed_model_output", "malformed_tool_use",
                          "model_context_window_exceeded"})
TRUNCATING = frozenset({"max_tokens", "model_context_window_exceeded"})
NOT_RUNNING_TOOLS = frozenset({"end_turn", "stop_sequence"})
"""Normal ends that say no tool is to run (B008); blocked and malformed ends say why on their own."""
MALFORMED = frozenset({"malformed_model_output", "malformed_tool_use"})
TOOL_IDENTITY = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""``ToolUseId`` and ``ToolName`` in service-2.json: pattern ``[a-zA-Z0-9_-]+``, 1–64 characters."""


@dataclass(eq=False, slots=True)
class _Slot:
    """The dialect's bookkeeping for one content block index (the block itself is the session's)."""

    block: Block
    b003: set = field(default_factory=set)
    """Delta kinds already reported as not fitting this block."""


class BedrockConverse(Dialect):
    name = "bedrock-converse"

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.slots: dict[int, _Slot] = {}
        self.positions: dict[int, None] = {}
        """Indexes in the order they first appeared (B006); a dict, not a list: ``in`` once per block
        was a search of every block before it (quadratic in blocks)."""
        self.orphans: set[int] = set()
        self.seen_first = False
        self.message_started = False
        self.metadata_seen = False
        self.stop_event: EventRecord | None = None
        self.stop_seen = False
        self.tool_use_started = False
        self._handlers = {
            "messageStart": self._message_start,
            "contentBlockStart": self._block_start,
            "contentBlockDelta": self._block_delta,
            "contentBlockStop": self._block_stop,
            "messageStop": self._message_stop,
            "metadata": self._metadata,
        }

    def next_response(self, ev: "EventRecord") -> bool:
        """A second ``messageStart`` starts a new response (glued exchanges after ``messageStop``:
        S004 from the session; before it, a retry spliced in: the first response is superseded)."""
        return self.message_started and ev.name == "messageStart"

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if not isinstance(p, dict):
            return
        if self.generic_error(ev):
            return
        name = ev.name
        if self.w.ended and (name != "metadata" or self.metadata_seen):
            self.w.after_end(f"{name!r} event after messageStop"
                             f"{' and metadata' if self.metadata_seen else ''} (clients stop reading there)")
        self.B001_missing_message_start(name)
        handler = self._handlers.get(name)
        if handler is None:
            self.w.report("S008", f"unknown event type {name!r} "
                          f"(tolerated: {says('S008-eventstream-unknown-event')})")
            return
        handler(p)

    def _message_start(self, p: dict) -> None:
        self.message_started = True

    def _index(self, p: dict, what: str) -> int | None:
        idx = p.get("contentBlockIndex")
        if isinstance(idx, int) and not isinstance(idx, bool):
            return idx
        self.w.report("S008", f"{what} without an integer contentBlockIndex")
        return None

    def _position(self, idx: int) -> None:
        if idx not in self.positions:
            self.B006_index_out_of_order(idx)
            self.positions[idx] = None

    def _block_start(self, p: dict) -> None:
        idx = self._index(p, "contentBlockStart")
        if idx is None:
            return
        start = object_member(p, "start")
        member = next((k for k in start if k in START_KINDS), None)
        if member is None:
            member = next(iter(start), "unknown")
            self.w.report("S008", f"unknown contentBlockStart member {member!r}", index=idx)
        kind = START_KINDS.get(member, member)
        info = object_member(start, member)
        self.B005_duplicate_start(idx)
        self._position(idx)
        tool = kind == "tool_use"
        block = self.w.open_block(kind, index=idx, id=_str_or_none(info.get("toolUseId")),
                                  name=_str_or_none(info.get("name")), tool=tool, empty_is_object=tool)
        self.slots[idx] = _Slot(block)
        if tool:
            self.tool_use_started = True
            self.B012_invalid_tool_identity(block, info)
        elif info:
            self.w.note(block, "start", info)

    def _block_delta(self, p: dict) -> None:
        idx = self._index(p, "contentBlockDelta")
        if idx is None:
            return
        delta = object_member(p, "delta")
        member = next((k for k in delta if k in DELTA_KINDS), None)
        if member is None:
            self.w.report("S008", f"unknown delta member {next(iter(delta), None)!r}", index=idx)
            return
        value = delta[member]
        slot = self.slots.get(idx)
        if slot is None:
            if member in ("toolUse", "toolResult"):
                self.B002_delta_without_start(idx, member)
                return
            self._position(idx)  # text and reasoning blocks start with their first delta
            slot = self.slots[idx] = _Slot(self.w.open_block(DELTA_KINDS[member], index=idx))
        block = slot.block
        self.w.note_event_block(block)
        if block.closed:
            self.B004_delta_after_stop(block, f"{member} delta")
            return
        if not self.B003_delta_type_mismatch(slot, member):
            return
        if member == "text":
            self.w.add_text(block, _str(value))
        elif member == "toolUse":
            self.w.add_arguments(block, _str(value.get("input")) if isinstance(value, dict) else "")
        elif member == "reasoningContent" and isinstance(value, dict):
            if "text" in value:
                self.w.add_text(block, _str(value.get("text")))
            else:  # signature or redactedContent: counted as a delta, kept aside
                if isinstance(value.get("signature"), str):
                    self.w.set_signature(block, (block.signature or "") + value["signature"])
                if "redactedContent" in value:
                    # PROTOCOLS.md §8: a redacted reasoning blob (base64 on the wire): shown by its size.
                    self.w.note(block, "redacted_bytes",
                                block.extra.get("redacted_bytes", 0) + _b64_size(value["redactedContent"]))
                self.w.add_text(block, "")
        else:  # citation, toolResult, image: counted, content kept aside
            self.w.note(block, member, [*block.extra.get(member, ()), value])
            self.w.add_text(block, "")

    def _block_stop(self, p: dict) -> None:
        idx = self._index(p, "contentBlockStop")
        if idx is None:
            return
        slot = self.slots.get(idx)
        if slot is None:
            # A stop for an index with no start and no delta: an empty text block as Bedrock
            # streams it (no start event for text). Nothing to close, but the index is taken.
            self._position(idx)
            return
        block = slot.block
        self.w.note_event_block(block)
        if block.closed:
            self.B004_delta_after_stop(block, "second contentBlockStop")
            return
        self.w.close_block(block, stop_info="contentBlockStop")

    def _message_stop(self, p: dict) -> None:
        if self.stop_seen:
            return  # a second messageStop: S004 above already said it
        self.stop_seen = True
        self.w.mark_ended()
        reason = p.get("stopReason")
        if not isinstance(reason, str) or not reason:
            self.B010_missing_stop_reason()
            return
        self.w.set_stop_reason(reason)
        self.stop_event = self.w.current
        if reason not in STOP_REASONS:
            self.w.report("S008", f"unknown stopReason {reason!r}")
        self.B011_malformed_output(reason)

    def _metadata(self, p: dict) -> None:
        if self.metadata_seen:
            return
        self.metadata_seen = True
        if isinstance(p.get("usage"), dict):
            self.w.set_usage(p["usage"])

    def on_end(self, end: "End") -> None:
        if not self.w.ended:
            self.truncated("messageStop")
        else:
            self.B013_missing_metadata(end)
        self.B008_stop_reason_mismatch()
        self.B009_truncated_tool_call()
        self.B007_block_never_stopped()

    # ------------------------------------------------------------------- rules
    def B001_missing_message_start(self, name: str) -> None:
        """B001: the first event is not ``messageStart``."""
        if self.seen_first:
            return
        self.seen_first = True
        if name != "messageStart":
            self.w.report("B001", f"first event is {name!r}, not messageStart")

    def B002_delta_without_start(self, idx: int, member: str) -> None:
        """B002: a ``toolUse``/``toolResult`` delta for an index no ``contentBlockStart`` opened."""
        if idx in self.orphans:
            return
        self.orphans.add(idx)
        self.w.report("B002", f"{member} delta for contentBlockIndex {idx}, which no contentBlockStart opened: "
                      "the call has no toolUseId and no name (the fragment belongs to no block)", index=idx)

    def B003_delta_type_mismatch(self, slot: _Slot, member: str) -> bool:
        """B003: the delta's kind does not fit the block. Returns True when it fits."""
        block = slot.block
        if DELTA_KINDS[member] == block.kind:
            return True
        if member not in slot.b003:
            slot.b003.add(member)
            self.w.report("B003", f"{member} delta sent to the {block.kind!r} block at contentBlockIndex "
                          f"{block.index}: clients drop it or mix it into the wrong content", index=block.index)
        return False

    def B004_delta_after_stop(self, block: Block, what: str) -> None:
        """B004: a delta or second stop for a block already stopped."""
        self.w.report("B004", f"{what} for contentBlockIndex {block.index} after its contentBlockStop "
                      "(clients that finalised the block lose it)", index=block.index)

    def B005_duplicate_start(self, idx: int) -> None:
        """B005: ``contentBlockStart`` for an index already holding a block; the new one takes the slot."""
        slot = self.slots.get(idx)
        if slot is None:
            return
        old = slot.block
        self.w.replace_block(old)
        self.w.report("B005", f"contentBlockStart for contentBlockIndex {idx}, which already holds a "
                      f"{old.kind!r} block ({'stopped' if old.closed else 'still open'}); the new block "
                      "replaces it", index=idx)

    def B006_index_out_of_order(self, idx: int) -> None:
        """B006: a new index is not the next position 0, 1, 2, … of the message content."""
        expected = len(self.positions)
        if idx != expected:
            self.w.report("B006", f"content block at contentBlockIndex {idx}, expected {expected} "
                          "(the index is the position in the message content)", index=idx)

    def B007_block_never_stopped(self) -> None:
        """B007: a non-tool block still open at the end (tool blocks: J005)."""
        for b in self.w.blocks:
            if not b.tool and not b.closed and not b.replaced:
                self.w.report("B007", f"{b.kind} block at contentBlockIndex {b.index} never got contentBlockStop",
                              index=b.index, event=False)

    def B008_stop_reason_mismatch(self) -> None:
        """B008: a ``toolUse`` block and a ``stopReason`` that never runs it, or ``tool_use`` with no block."""
        reason = self.w.stop_reason
        ev = self.stop_event or False
        if self.tool_use_started and reason in NOT_RUNNING_TOOLS:
            self.w.report("B008", f"a toolUse block was streamed but stopReason is {reason!r}: clients keyed on "
                          "stopReason never run the tool", event=ev)
        elif reason == "tool_use" and not self.tool_use_started:
            self.w.report("B008", "stopReason is 'tool_use' but no toolUse block was started", event=ev)

    def B009_truncated_tool_call(self) -> None:
        """B009: ``max_tokens``/``model_context_window_exceeded`` while a tool block is open or incomplete."""
        reason = self.w.stop_reason
        if reason not in TRUNCATING:
            return
        for b in self.w.blocks:
            if b.tool and not b.replaced and (not b.closed or b.status != "complete"):
                self.w.report("B009", f"stopReason {reason!r} with toolUse block {b.index} "
                              f"{'open' if not b.closed else b.status}: the call was cut off; retry with a "
                              "higher maxTokens", index=b.index, event=self.stop_event or False)

    def B010_missing_stop_reason(self) -> None:
        """B010: ``messageStop`` without a ``stopReason``."""
        self.w.report("B010", "messageStop without a stopReason (a required member; clients that read it fail)")

    def B011_malformed_output(self, reason: str) -> None:
        """B011: ``stopReason`` says the model output could not be parsed."""
        if reason in MALFORMED:
            self.w.report("B011", f"stopReason {reason!r}: Bedrock could not parse the model's output; the turn "
                          "has no usable tool call (retry, or simplify the tool schema)")

    def B012_invalid_tool_identity(self, block: Block, info: dict) -> None:
        """B012: ``toolUseId`` or ``name`` missing, empty, too long or outside ``[a-zA-Z0-9_-]``."""
        for key in ("toolUseId", "name"):
            value = info.get(key)
            if not isinstance(value, str) or not TOOL_IDENTITY.match(value):
                self.w.report("B012", f"toolUse {key} {value!r} is not 1–64 characters of [a-zA-Z0-9_-]: the "
                              "toolResult cannot name it", index=block.index)

    def B013_missing_metadata(self, end: "End") -> None:
        """B013: a clean end after ``messageStop`` with no ``metadata``."""
        if not self.metadata_seen and end.kind == "eof":
            self.w.report("B013", "the stream ended after messageStop without a metadata event: token usage and "
                          "latency are unknown", event=False)


def _str(v) -> str:
    return v if isinstance(v, str) else ""


def _str_or_none(v) -> str | None:
    return v if isinstance(v, str) else None


def _b64_size(value: object) -> int:
    """Bytes a base64 string decodes to (without decoding it); 0 for anything else."""
    if not isinstance(value, str):
        return 0
    text = value.strip()
    return len(text) * 3 // 4 - (len(text) - len(text.rstrip("=")))
