"""The blocks' part of the frozen, typed view state a frame hands to the panels (issue 26 item 3).

Why this module exists: a frame of 5 000 blocks must not cost 5 000 rows. Each frame
:class:`BlocksStateBuilder` turns the session's blocks into a :class:`BlocksState` (one
:class:`BlockRow` per block: its index, kind, name, status, size, stop and finding counts), which
is one part of the frame (``inspector.tui.frame.FrameState``) that every panel registered for
it receives.

Building is incremental: a row is rebuilt only when its block's signature (deltas, length,
status, closed, stop, findings) changed, so a frame of 5 000 finished blocks costs a signature
check each, not a row each.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from inspector.model.jsonprogress import INVALID, TRAILING


class BlockRow(NamedTuple):
    """One block's one-line summary (what :class:`~inspector.tui.widgets.block_list.BlockList` draws).

    A named tuple, not a frozen dataclass: as immutable and typed, and built five times faster
    (a frame of 5 000 new blocks builds 5 000 of them)."""

    pos: int
    """Position in ``Session.blocks``."""
    block_index: int | None
    """The provider's index (``#?`` when none was sent); not ``index``, which is the tuple's method."""
    choice: int | None
    kind: str
    name: str | None
    id: str | None
    status: str
    """The status badge text: ``complete``, ``partial``, ``invalid at 12``, ``text · 40 chars``..."""
    status_class: str
    """``-status-complete``, ``-status-partial``, ``-status-empty``, ``-status-invalid``, ``-status-text``."""
    state: str
    """``open``, ``closed`` or ``replaced``."""
    chars: int
    """Characters of text or arguments received so far."""
    stop: str | None
    """The block's stop info (``finish_reason: tool_calls``...), else None."""
    errors: int = 0
    warnings: int = 0
    infos: int = 0


@dataclass(frozen=True, slots=True)
class BlocksState:
    """Every block of the session shown, for one frame."""

    generation: int
    """Changes when the session is replaced (another stream, a seek): positions restart."""
    rows: tuple[BlockRow, ...]
    writing: int | None
    """Position of the block being written (the newest open one), None when none is open."""
    pretty: bool
    """Tool arguments shown as pretty partial JSON (``j``)."""
    empty_note: str
    """What the pane says when there are no rows (``no content blocks yet``...)."""


def status_label(block) -> tuple[str, str]:
    """The badge text and its state class for a block (``Block``)."""
    prog = block.progress
    if not block.tool or prog is None:
        return f"{block.kind} · {block.length:,} chars", "-status-text"
    if prog.state == INVALID:
        return f"invalid at {prog.error_offset}", "-status-invalid"
    if prog.state == TRAILING:
        return f"trailing data at {prog.trailing_offset}", "-status-invalid"
    status = block.status or "empty"
    if status == "complete" and not prog.length:
        # Anthropic: no input text means {} - but only once the block is closed.
        return ("complete {}", "-status-complete") if block.closed else ("empty", "-status-empty")
    return status, f"-status-{status}"


class BlocksStateBuilder:
    """Builds each frame's :class:`BlocksState` from a session, reusing unchanged rows.

    It also keeps the findings per block (a finding goes to the block its event touched, else
    the last block with its index), which the block detail shows."""

    def __init__(self) -> None:
        self.reset(0)

    def reset(self, generation: int) -> None:
        """Forget every row (a new session)."""
        self.generation = generation
        self._rows: list[BlockRow] = []
        self._sigs: list[tuple] = []
        self._routed = 0
        self._last: BlocksState | None = None
        self.findings: dict[int, list] = {}
        """Findings per block position, oldest first."""

    def build(self, session, *, pretty: bool, empty_note: str) -> BlocksState:
        blocks = session.blocks
        changed = len(self._rows) != len(blocks)
        if len(self._rows) > len(blocks):
            del self._rows[len(blocks):]
            del self._sigs[len(blocks):]
        for f in session.findings[self._routed:]:
            pos = block_position(session, f)
            if pos is not None:
                self.findings.setdefault(pos, []).append(f)
        self._routed = len(session.findings)
        rows, sigs, findings = self._rows, self._sigs, self.findings
        writing = None
        for b in blocks:
            pos = b.pos
            prog = b.progress
            found = findings.get(pos)
            sig = (b.deltas, b.length, prog.state if prog is not None else None, b.closed, b.replaced,
                   b.stop_info, b.name, b.id, len(found) if found else 0)
            if not b.closed and not b.replaced:
                writing = pos
            if pos < len(sigs):
                if sigs[pos] == sig:
                    continue
                sigs[pos] = sig
                rows[pos] = self._row(b, found)
            else:
                sigs.append(sig)
                rows.append(self._row(b, found))
            changed = True
        last = self._last
        if not changed and last is not None and (last.writing, last.pretty, last.empty_note) == (
                writing, pretty, empty_note):
            return last  # nothing new: the same state, so panels see ``rows`` unchanged and skip a redraw
        self._last = BlocksState(self.generation, tuple(rows), writing, pretty, empty_note)
        return self._last

    @staticmethod
    def _row(b, found) -> BlockRow:
        status, cls = status_label(b)
        state = "replaced" if b.replaced else ("closed" if b.closed else "open")
        if not found:
            return BlockRow(b.pos, b.index, b.choice, b.kind, b.name, b.id, status, cls, state, b.length, b.stop_info)
        severities = [f.severity for f in found]
        return BlockRow(b.pos, b.index, b.choice, b.kind, b.name, b.id, status, cls, state, b.length, b.stop_info,
                        severities.count("error"), severities.count("warning"), severities.count("info"))


def block_position(session, f) -> int | None:
    """Which block a finding is about: the block its event touched, else the last block with its index."""
    if f.index is None:
        return None
    if f.event is not None and 0 <= f.event < len(session.events):
        b = session.block_of(session.events[f.event])
        if b is not None and b.index == f.index:
            return b.pos
    for b in reversed(session.blocks):
        if b.index == f.index:
            return b.pos
    return None
