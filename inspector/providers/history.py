"""What the Q rules share across providers: the streamed side of a history check and helpers.

A request that follows a streamed answer carries that answer back as history. Each provider
folder's ``history`` module knows where its requests keep the history and how an assistant turn
looks (``HistoryShape``); this module holds the streamed side (:class:`HistoryCheck`: the
response's tool blocks by id, and the report callback) and the comparisons every shape needs.
Rules: ``shared/RULES.md`` section Q. Pure: no I/O.
"""
from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

from inspector.capture.redact import clipped
from inspector.model.jsondepth import loads as json_loads

if TYPE_CHECKING:
    from inspector.model.blocks import Block

DELTA_TYPES = frozenset({
    "text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta",
    "compaction_delta",
})
"""Anthropic stream delta types (PROTOCOLS.md §1); any ``*_delta``/``response.*.delta`` type counts too."""

Report = Callable[[str, str, "int | None"], object]
"""``report(code, message, block_index)``: record a Q finding for the whole stream."""


@dataclass(frozen=True)
class HistoryShape:
    """Where one provider's requests carry history, and how to check it."""

    key: str
    """The request body key holding the history list (``messages``, ``contents``, ``input``)."""
    claims: Callable[[dict, "str | None"], bool]
    """``claims(body, dialect_name)``: this provider's shape reads ``body[key]``."""
    check: Callable[["HistoryCheck", list], None]
    """``check(ctx, history)``: add Q findings through ``ctx.report``."""


class HistoryCheck:
    """The streamed response's side of the comparison, plus de-duplication of Q003 ids."""

    def __init__(self, blocks: "Sequence[Block]", report: Report) -> None:
        self.blocks = blocks
        self._report = report
        self.tools = [b for b in blocks if b.tool and not b.replaced]
        self.by_id: dict = {}
        for b in self.tools:
            for key in (b.id, b.call_id):
                if isinstance(key, str) and key:
                    self.by_id.setdefault(key, b)
        self.q003: set = set()

    def report(self, code: str, msg: str, block: "Block | None" = None) -> None:
        self._report(code, msg[:500], block.index if block is not None else None)

    def unknown_id(self, tid: str, where: str) -> None:
        if tid in self.q003:
            return
        self.q003.add(tid)
        produced = ", ".join(sorted(self.by_id)[:5]) or "none"
        self.report("Q003", f"{where} {tid!r} was never produced by the streamed response "
                    f"(streamed ids: {produced})")


def signature_bytes(sig) -> bytes | str | None:
    """What a signature stands for: its bytes when it is base64 in either alphabet, else the string itself.

    Servers send ``thoughtSignature``/``signature`` in standard base64 (``+``, ``/``); google-genai
    keeps it as bytes and sends it back URL-safe (``-``, ``_``; ``_common.py`` ``urlsafe_b64encode``):
    the same signature. Missing padding is tolerated. None for a non-string or empty value.
    """
    if not isinstance(sig, str) or not sig:
        return None
    text = sig.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return sig


def same_signature(a, b) -> bool:
    """True when ``a`` and ``b`` are the same signature (compared as bytes: see :func:`signature_bytes`)."""
    x = signature_bytes(a)
    return x is not None and x == signature_bytes(b)


def is_delta_type(typ) -> bool:
    return isinstance(typ, str) and (typ in DELTA_TYPES or typ.endswith("_delta") or
                                     (typ.startswith("response.") and typ.endswith(".delta")))


def canon(value) -> bytes | None:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None


def parse_args(value):
    """Chat/Responses ``arguments``: a JSON string (or an object, Ollama); ``(ok, parsed)``."""
    if isinstance(value, str):
        try:
            return True, json_loads(value)
        except orjson.JSONDecodeError:
            return False, None
    return True, value


def clip(text: str, n: int = 80) -> str:
    return clipped(text, n)


def show(value) -> str:
    if isinstance(value, str):
        return clip(value)
    try:
        return clip(orjson.dumps(value).decode())
    except TypeError:
        return clip(repr(value))


def compare(ctx: HistoryCheck, block: "Block", sent, where: str, *, sent_text: str | None = None) -> None:
    """Q006: the arguments sent back (``sent``: parsed value) differ from the streamed ones."""
    streamed_text = block.content
    if sent_text is not None and sent_text == streamed_text and streamed_text:
        return
    status = block.status
    if status == "complete":
        streamed = block.input
        if canon(sent) == canon(streamed) and canon(sent) is not None:
            return
        ctx.report("Q006", f"{where} sends arguments {show(sent)} but the stream produced "
                   f"{show(streamed_text or '{}')} for {block.name or block.id or 'this call'}: "
                   "the client mis-assembled them", block)
    else:
        ctx.report("Q006", f"{where} sends arguments {show(sent)} but the streamed arguments were "
                   f"{status or 'absent'} ({len(streamed_text)} characters: {show(streamed_text)}): "
                   "the client sent something the model never completed", block)


def match(ctx: HistoryCheck, calls: list, ids: list) -> list:
    """Pair history calls with streamed tool blocks: by id, else by position among the calls."""
    out = []
    positional = not any(b.id or b.call_id for b in ctx.tools)
    for pos, tid in enumerate(ids):
        b = None
        if isinstance(tid, str) and tid and not positional:
            b = ctx.by_id.get(tid)
        elif pos < len(ctx.tools):
            b = ctx.tools[pos]
        out.append(b)
    return out


def last_index(msgs: list, roles: tuple) -> int | None:
    for i in range(len(msgs) - 1, -1, -1):
        m = msgs[i]
        if isinstance(m, dict) and m.get("role") in roles:
            return i
    return None


def kind_of(value) -> str:
    if value is None:
        return "missing"
    if isinstance(value, str):
        return f"a string ({show(value)})"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
