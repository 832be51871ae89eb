"""Realtime history, read for the Q rules: what the client sent on the socket before its next
``response.create``.

A Realtime conversation lives on the server: the client adds items with ``conversation.item.create``
(a ``function_call_output`` with the ``call_id`` of the call it answers; openai-python
``types/realtime/conversation_item_create_event.py``), then asks for a response. Those client messages
ride with the next exchange's request as ``sent`` (``inspector.capture.websocket``). Every item created
answers the response just streamed, and is judged only by the ids it names (``History.by_id_only``).
"""
from __future__ import annotations

from inspector.model.history import Answer, Call, History, Misplaced, Result, Wording
from inspector.providers.history import HistoryShape, is_delta_type, text_of, type_of, written_call

WORDING = Wording(slot="a conversation item")


def read(sent: list) -> History:
    """The items of every ``conversation.item.create`` message: stream events created as items, calls
    and tool outputs; all of them are the answer's."""
    written: list[Misplaced | Call] = []
    results: list[Result] = []
    for i, msg in enumerate(sent):
        item = msg.get("item") if type_of(msg) == "conversation.item.create" and isinstance(msg, dict) else None
        typ = type_of(item)
        if typ is None or not isinstance(item, dict):
            continue
        where = f"sent[{i}].item"
        if is_delta_type(typ):
            written.append(Misplaced(where, typ))
        elif typ == "function_call":
            written.append(written_call(f"{where} function_call", f"{where}.arguments", id=item.get("call_id"),
                                        name=item.get("name"), arguments=item.get("arguments")))
        elif typ == "function_call_output" and (tid := text_of(item.get("call_id"))) is not None:
            results.append(Result(f"{where} function_call_output call_id", tid))
    calls = tuple(p for p in written if isinstance(p, Call))
    return History(WORDING, tuple(written), Answer("sent", calls=calls, results=tuple(results)), by_id_only=True)


SHAPE = HistoryShape("sent", lambda body, dialect: dialect == "openai-realtime", read)
