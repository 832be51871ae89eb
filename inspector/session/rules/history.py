"""Q rules: the history a client sends back, judged against the streamed answer (RULES.md section Q).

Why it exists: most tool-call bugs surface one request *later*: the client assembled the stream
wrongly and sends the assistant turn back with stream deltas where content blocks belong, empty
text, tool ids the model never produced, signatures dropped, or arguments that differ from what
was streamed. Every Q rule but Q007 (which needs the proxy's exchanges:
``inspector.feeds.exchanges.log``) is written here once, over the provider-neutral
:class:`~inspector.model.history.History` that each provider's ``history`` module reads from its
request shape. Pure: findings go through ``report``; never raises on odd values.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import orjson

from inspector.capture.redact import clipped
from inspector.model.history import Answer, Call, History, Misplaced, Text
from inspector.providers.history import canon, signature_bytes

if TYPE_CHECKING:
    from inspector.model.blocks import Block

Report = Callable[[str, str, "int | None"], object]
"""``report(code, message, block_index)``: record a Q finding for the whole stream."""

Pair = tuple[Call, "Block | None"]


class _Judge:
    """The streamed answer's side of the comparison (its tool blocks by id), the report callback and
    the ids already called unknown (Q003 says each once)."""

    def __init__(self, blocks: "Sequence[Block]", history: History, report: Report) -> None:
        self.blocks = blocks
        self.history = history
        self._report = report
        self.tools = [b for b in blocks if b.tool and not b.replaced]
        self.by_id: dict[str, Block] = {}
        for b in self.tools:
            for key in (b.id, b.call_id):
                if isinstance(key, str) and key:
                    self.by_id.setdefault(key, b)
        self.unknown: set[str] = set()

    def report(self, code: str, msg: str, block: "Block | None" = None) -> None:
        self._report(code, msg[:500], block.index if block is not None else None)


def check(blocks: "Sequence[Block]", history: History, report: Report) -> None:
    """Fire Q001–Q006 for ``history`` against the streamed ``blocks`` (a session's), in the order
    the history is written: every message's parts first, then the answer's calls, its tool results
    and its signatures."""
    j = _Judge(blocks, history, report)
    for part in history.written:
        if isinstance(part, Misplaced):
            Q001_delta_in_history(j, part)
        elif isinstance(part, Text):
            Q002_empty_text_in_history(j, part)
        else:
            Q005_history_input_not_object(j, part)
    answer = history.answer
    if answer is None:
        return
    pairs = _pair(j, answer.calls)
    for call, block in pairs:
        if block is None:
            Q003_unknown_tool_id(j, call.id, call.where, judged=not history.by_id_only or bool(j.tools))
        else:
            Q006_arguments_differ(j, call, block)
    for result in answer.results:
        if result.id not in j.by_id:
            Q003_unknown_tool_id(j, result.id, result.where, judged=bool(j.by_id))
    Q004_signature_dropped(j, answer, pairs)


def Q001_delta_in_history(j: _Judge, part: Misplaced) -> None:
    """Q001: a stream delta type where a content block or item belongs."""
    j.report("Q001", f"{part.where} is a stream delta ({part.type!r}) where {j.history.wording.slot} belongs: "
             "the client stored deltas instead of assembling them")


def Q002_empty_text_in_history(j: _Judge, part: Text) -> None:
    """Q002: empty text, where the provider rejects it (not the prefill a client leaves empty)."""
    if j.history.rejects_empty_text and not part.prefill and not part.thinking and not part.text.strip():
        j.report("Q002", f"{part.where} ({part.role}) is empty text (rejected: text content must be non-empty)")


def Q003_unknown_tool_id(j: _Judge, tid: str | None, where: str, *, judged: bool) -> None:
    """Q003: a call or tool result names an id the streamed response never produced (each id once)."""
    if not tid or not judged or tid in j.unknown:
        return
    j.unknown.add(tid)
    produced = ", ".join(sorted(j.by_id)[:5]) or "none"
    j.report("Q003", f"{where} id {tid!r} was never produced by the streamed response (streamed ids: {produced})")


def Q004_signature_dropped(j: _Judge, answer: Answer, pairs: list[Pair]) -> None:
    """Q004: a signature received in the stream is not among those the answer sends back (compared
    as bytes: base64 and base64url spell the same signature)."""
    sent = {signature_bytes(s) for s in answer.signatures}
    wording = j.history.wording
    for b in j.blocks:
        sig = b.signature
        if not isinstance(sig, str) or not sig or signature_bytes(sig) in sent:
            continue
        what = f"function call {b.name!r}" if b.tool else f"{b.kind} block {b.index}"
        back = _sent_back(b, answer, pairs)
        how = "not sent back" if back is None else \
            f"sent back without its {wording.signature}" if not back.signature else \
            f"sent back with a different {wording.signature}"
        note = f": {wording.unsigned}" if wording.unsigned else ""
        j.report("Q004", f"{what} ({wording.signature} {_clip(sig, 16)}) is {how} in {answer.where}{note}", b)


def Q005_history_input_not_object(j: _Judge, call: Call) -> None:
    """Q005: a call's arguments in history are not JSON, or not an object."""
    if not call.parsed:
        j.report("Q005", f"{call.arguments_at} is not JSON: {_show(call.text)}")
    elif not isinstance(call.arguments, dict):
        j.report("Q005", f"{call.arguments_at} is {_kind(call.arguments)}, not an object")


def Q006_arguments_differ(j: _Judge, call: Call, block: "Block") -> None:
    """Q006: the arguments sent back differ from the streamed ones (the same text, or the same object
    in any key order, is the same)."""
    streamed_text = block.content
    if call.text is not None and call.text == streamed_text and streamed_text:
        return
    if not isinstance(call.arguments, dict):
        if not call.parsed and call.text != streamed_text:
            j.report("Q006", f"{call.where} sends arguments {_show(call.text)} but the stream produced "
                     f"{_show(streamed_text)}", block)
        return
    if block.status == "complete":
        sent = canon(call.arguments)
        if sent is not None and sent == canon(block.input):
            return
        j.report("Q006", f"{call.where} sends arguments {_show(call.arguments)} but the stream produced "
                 f"{_show(streamed_text or '{}')} for {block.name or block.id or 'this call'}: "
                 "the client mis-assembled them", block)
    else:
        j.report("Q006", f"{call.where} sends arguments {_show(call.arguments)} but the streamed arguments were "
                 f"{block.status or 'absent'} ({len(streamed_text)} characters: {_show(streamed_text)}): "
                 "the client sent something the model never completed", block)


# ---------------------------------------------------------------- helpers
def _pair(j: _Judge, calls: Sequence[Call]) -> list[Pair]:
    """Each call with the streamed tool block it repeats: by id; by position among the calls when the
    stream gave no ids (or the call carries none); never by position when ``by_id_only``."""
    positional = not any(b.id or b.call_id for b in j.tools)
    out: list[Pair] = []
    for pos, call in enumerate(calls):
        block = None
        if call.id and not positional:
            block = j.by_id.get(call.id)
        elif not j.history.by_id_only and pos < len(j.tools):
            block = j.tools[pos]
        out.append((call, block))
    return out


def _sent_back(b: "Block", answer: Answer, pairs: list[Pair]) -> Call | Text | None:
    """The part of the answer that repeats streamed block ``b``: its call, or a part with its text."""
    if b.tool:
        return next((call for call, block in pairs if block is b), None)
    thinking = b.kind == "thinking"
    return next((t for t in answer.texts if t.thinking == thinking and t.text == b.content), None)


def _clip(text: str, n: int = 80) -> str:
    return clipped(text, n)


def _show(value: object) -> str:
    if isinstance(value, str):
        return _clip(value)
    try:
        return _clip(orjson.dumps(value).decode())
    except TypeError:
        return _clip(repr(value))


def _kind(value: object) -> str:
    if value is None:
        return "missing"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
