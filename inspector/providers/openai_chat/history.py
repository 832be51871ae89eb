"""OpenAI Chat request history, read for the Q rules: ``messages[]`` with assistant ``tool_calls[]``
(``id``, string ``function.arguments``; Gemini-compat ``extra_content.google.thought_signature``) and
``tool`` messages' ``tool_call_id``. Ollama ``/api/chat`` sends the same shape with object
arguments, so it is read here too. The last assistant message repeats the answer.
"""
from __future__ import annotations

from collections.abc import Iterator

from inspector.model.history import Answer, Call, History, Misplaced, Result, Text, Wording
from inspector.model.members import object_member, string_member
from inspector.providers.history import HistoryShape, is_delta_type, last_index, text_of, type_of, written_call

WORDING = Wording(slot="a content part", signature="extra_content.google.thought_signature",
                  unsigned="Gemini rejects the next turn without it")


def read(msgs: list) -> History:
    """Every message's content parts and tool calls; the answer is the last assistant message."""
    written: list[Misplaced | Text | Call] = []
    for mi, m in enumerate(msgs):
        if isinstance(m, dict):
            written.extend(_message(m, f"messages[{mi}]"))
    last = last_index(msgs, ("assistant",))
    if last is None:
        return History(WORDING, tuple(written))
    parts = list(_message(msgs[last], f"messages[{last}]"))
    calls = tuple(p for p in parts if isinstance(p, Call))
    answer = Answer(f"messages[{last}]", calls=calls, texts=tuple(p for p in parts if isinstance(p, Text)),
                    signatures=tuple(c.signature for c in calls), results=tuple(_results(msgs, last + 1)))
    return History(WORDING, tuple(written), answer)


def _message(m: dict, where: str) -> Iterator[Misplaced | Text | Call]:
    role = text_of(m.get("role"))
    content = m.get("content")
    if isinstance(content, str):
        yield Text(where, role, content)
    for pi, part in enumerate(content if isinstance(content, list) else ()):
        typ = type_of(part)
        text = string_member(part, "text") if typ == "text" and isinstance(part, dict) else None
        if typ is not None and is_delta_type(typ):
            yield Misplaced(f"{where}.content[{pi}]", typ)
        elif text is not None:
            yield Text(f"{where}.content[{pi}]", role, text)
    calls = m.get("tool_calls")
    if role != "assistant" or not isinstance(calls, list):
        return
    for ci, tc in enumerate(calls):
        if isinstance(tc, dict):
            yield _call(tc, f"{where}.tool_calls[{ci}]")


def _call(tc: dict, where: str) -> Call:
    fn = object_member(tc, "function")
    google = object_member(object_member(tc, "extra_content"), "google")
    return written_call(where, f"{where}.function.arguments", id=tc.get("id"), name=fn.get("name"),
                        arguments=fn.get("arguments"), signature=google.get("thought_signature"))


def _results(msgs: list, start: int) -> Iterator[Result]:
    for mi in range(start, len(msgs)):
        m = msgs[mi]
        tid = text_of(m.get("tool_call_id")) if isinstance(m, dict) and m.get("role") == "tool" else None
        if tid is not None:
            yield Result(f"messages[{mi}] tool message tool_call_id", tid)


SHAPE = HistoryShape("messages", lambda body, dialect: True, read)
"""Claims any ``messages`` list the Anthropic shape did not claim first."""
