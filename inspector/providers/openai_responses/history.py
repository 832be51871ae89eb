"""OpenAI Responses request history, read for the Q rules: ``input[]`` items (``message`` with text
content, ``function_call`` with ``call_id``/``arguments``, ``function_call_output``). The items of the
last round repeat the answer (``last_turn``).
"""
from __future__ import annotations

from collections.abc import Iterator

from inspector.model.history import Answer, Call, History, Misplaced, Result, Text, Wording
from inspector.model.members import string_member
from inspector.providers.history import HistoryShape, is_delta_type, text_of, type_of, written_call

WORDING = Wording(slot="an item")


def read(items: list) -> History:
    """Every item; the answer is the items from :func:`last_turn` on."""
    written = tuple(p for ii, it in enumerate(items) for p in _item(it, f"input[{ii}]")
                    if not isinstance(p, Result))
    start = last_turn(items)
    parts = [p for ii in range(start, len(items)) for p in _item(items[ii], f"input[{ii}]")]
    answer = Answer(f"input[{start}:]", calls=tuple(p for p in parts if isinstance(p, Call)),
                    texts=tuple(p for p in parts if isinstance(p, Text)),
                    results=tuple(p for p in parts if isinstance(p, Result)))
    return History(WORDING, written, answer)


def _item(it: object, where: str) -> Iterator[Misplaced | Text | Call | Result]:
    typ = type_of(it)
    if not isinstance(it, dict):
        return
    if typ is not None and is_delta_type(typ):
        yield Misplaced(where, typ)
    elif typ == "function_call":
        yield written_call(f"{where} function_call", f"{where}.arguments", id=it.get("call_id") or it.get("id"),
                           name=it.get("name"), arguments=it.get("arguments"))
    elif typ == "function_call_output" and (tid := text_of(it.get("call_id"))) is not None:
        yield Result(f"{where} function_call_output call_id", tid)
    elif typ in (None, "message"):
        yield from _texts(it, where)


def _texts(message: dict, where: str) -> Iterator[Text]:
    """A message item's text: a bare string, or ``input_text``/``output_text`` content parts."""
    role, content = string_member(message, "role"), message.get("content")
    if isinstance(content, str):
        yield Text(where, role, content)
    for pi, part in enumerate(content if isinstance(content, list) else ()):
        text = string_member(part, "text") if isinstance(part, dict) else None
        if text is not None:
            yield Text(f"{where}.content[{pi}]", role, text)


SHAPE = HistoryShape("input", lambda body, dialect: True, read)


def last_turn(items: list) -> int:
    """Where the items of the answer being continued start: after the last user message, and after the
    tool outputs of an earlier round (a ``function_call_output`` before the last ``function_call``). An
    agent loop sends the whole history without ``previous_response_id`` (openai-agents):
    ``[user, call 1, output 1, call 2, output 2]`` continues the answer that streamed call 2 only."""
    def kind(i: int) -> object:
        it = items[i]
        return it.get("type") if isinstance(it, dict) else None

    start = next((i + 1 for i in range(len(items) - 1, -1, -1)
                  if isinstance(items[i], dict) and items[i].get("role") == "user"), 0)
    last_call = next((i for i in range(len(items) - 1, start - 1, -1) if kind(i) == "function_call"), None)
    if last_call is not None:
        start = next((i + 1 for i in range(last_call - 1, start - 1, -1) if kind(i) == "function_call_output"), start)
    return start
