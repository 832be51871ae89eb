"""Anthropic Messages request history, read for the Q rules: ``messages[].content[]`` blocks
(``text``, ``thinking`` with ``signature``, ``tool_use`` with ``id``/``input``, ``tool_result`` with
``tool_use_id``); a message's content may be a bare string. The last assistant turn repeats the answer.
"""
from __future__ import annotations

from collections.abc import Iterator

from inspector.model.history import Answer, Call, History, Misplaced, Result, Text, Wording
from inspector.providers.history import HistoryShape, is_delta_type, last_index, text_of, type_of

ANTHROPIC_TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
_ANTHROPIC_MARKERS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use",
                                "document", "search_result"})

WORDING = Wording(slot="a content block", signature="signature",
                  unsigned="the API rejects or ignores unsigned thinking")


def claims(body: dict, dialect: str | None) -> bool:
    """The ``messages`` list is Anthropic-shaped (else OpenAI Chat reads it)."""
    if "contents" in body:
        return False
    for m in body["messages"]:
        if not isinstance(m, dict):
            continue
        if m.get("role") in ("system", "tool", "developer") or "tool_calls" in m:
            return False
        content = m.get("content")
        for typ in map(type_of, content if isinstance(content, list) else ()):
            if typ in _ANTHROPIC_MARKERS:
                return True
            if typ in ("image_url", "input_audio"):
                return False
    if isinstance(body.get("system"), (str, list)) or "anthropic_version" in body:
        return True
    return dialect == "anthropic-messages"


def read(msgs: list) -> History:
    """Every message's blocks; the answer is the last assistant message when its content is blocks."""
    written: list[Misplaced | Text | Call] = []
    for mi, m in enumerate(msgs):
        if isinstance(m, dict):
            written.extend(_message(m, f"messages[{mi}]", final=mi == len(msgs) - 1))
    return History(WORDING, tuple(written), _answer(msgs), rejects_empty_text=True)


def _message(m: dict, where: str, *, final: bool) -> Iterator[Misplaced | Text | Call]:
    role = text_of(m.get("role"))
    content = m.get("content")
    if isinstance(content, str):
        yield Text(where, role, content, prefill=final and role == "assistant")
    elif isinstance(content, list):
        for bi, blk in enumerate(content):
            part = _block(blk, f"{where}.content[{bi}]", role)
            if part is not None:
                yield part


def _block(blk: object, where: str, role: str | None) -> Misplaced | Text | Call | None:
    typ = type_of(blk)
    if typ is None or not isinstance(blk, dict):  # type_of said it is one: this tells the checker
        return None
    if is_delta_type(typ):
        return Misplaced(where, typ)
    if typ in ("text", "thinking"):
        text = blk.get(typ)
        return Text(where, role, text if isinstance(text, str) else "", thinking=typ == "thinking",
                    signature=blk.get("signature"))
    if typ in ANTHROPIC_TOOL_TYPES:
        return Call(f"{where} {typ}", f"{where}.input", text_of(blk.get("id")), text_of(blk.get("name")),
                    blk.get("input"))
    return None


def _answer(msgs: list) -> Answer | None:
    last = last_index(msgs, ("assistant",))
    content = msgs[last].get("content") if last is not None else None
    if last is None or not isinstance(content, list):
        return None
    parts = [p for bi, blk in enumerate(content)
             if (p := _block(blk, f"messages[{last}].content[{bi}]", "assistant")) is not None]
    texts = tuple(p for p in parts if isinstance(p, Text))
    return Answer(f"messages[{last}]", calls=tuple(p for p in parts if isinstance(p, Call)), texts=texts,
                  signatures=tuple(t.signature for t in texts if t.thinking),
                  results=tuple(_results(msgs, last + 1)))


def _results(msgs: list, start: int) -> Iterator[Result]:
    for mi in range(start, len(msgs)):
        content = msgs[mi].get("content") if isinstance(msgs[mi], dict) else None
        for bi, blk in enumerate(content if isinstance(content, list) else ()):
            tid = text_of(blk.get("tool_use_id")) if type_of(blk) == "tool_result" else None
            if tid is not None:
                yield Result(f"messages[{mi}].content[{bi}] tool_result", tid)


SHAPE = HistoryShape("messages", claims, read)
