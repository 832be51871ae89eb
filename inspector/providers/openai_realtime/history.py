"""Realtime history (Q rules): what the client sent back on the socket before its next ``response.create``.

A Realtime conversation lives on the server: the client adds items with ``conversation.item.create``
(a ``function_call_output`` with the ``call_id`` of the call it answers; openai-python
``types/realtime/conversation_item_create_event.py``), then asks for a response. Those client messages
ride with the next exchange's request as ``sent`` (``inspector.capture.websocket``).
"""
from __future__ import annotations

from inspector.providers.history import HistoryCheck, HistoryShape, compare, is_delta_type, parse_args


def check(ctx: HistoryCheck, sent: list) -> None:
    """Q001 for a stream event created as an item; Q003 for a tool output or call naming a
    ``call_id`` the response never produced; Q006 for a call sent back with other arguments."""
    for i, msg in enumerate(sent):
        if not isinstance(msg, dict) or msg.get("type") != "conversation.item.create":
            continue
        item = msg.get("item")
        if not isinstance(item, dict):
            continue
        typ = item.get("type")
        where = f"sent[{i}] conversation.item.create {typ!r}"
        if is_delta_type(typ):
            ctx.report("Q001", f"{where} is a stream event where a conversation item belongs")
            continue
        tid = item.get("call_id")
        if typ not in ("function_call", "function_call_output") or not isinstance(tid, str) or not tid:
            continue
        block = ctx.by_id.get(tid)
        if block is None:
            if ctx.tools:
                ctx.unknown_id(tid, f"{where} call_id")
            continue
        if typ == "function_call":
            ok, value = parse_args(item.get("arguments"))
            if ok and isinstance(value, dict):
                compare(ctx, block, value, where, sent_text=item.get("arguments"))


SHAPE = HistoryShape("sent", lambda body, dialect: dialect == "openai-realtime", check)
