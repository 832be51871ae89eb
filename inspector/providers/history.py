"""What the request-history readers share: the reader record and the reading helpers.

A request that follows a streamed answer carries that answer back as history. Each provider
folder's ``history`` module reads where its requests keep the history, in its own shape, into the
provider-neutral :class:`~inspector.model.history.History` (``HistoryShape``);
``inspector.session.rules.history`` fires the Q rules on it (``shared/RULES.md`` section Q). This
module holds the reader record and the helpers the readers (and the proxy's pairing) share.
Pure: no I/O.
"""
from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

from inspector.model.history import Call
from inspector.model.jsondepth import loads as json_loads

if TYPE_CHECKING:
    from inspector.model.history import History

DELTA_TYPES = frozenset({
    "text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta",
    "compaction_delta",
})
"""Anthropic stream delta types (PROTOCOLS.md §1); any ``*_delta``/``response.*.delta`` type counts too."""



@dataclass(frozen=True)
class HistoryShape:
    """Where one provider's requests carry history, and how to read it."""

    key: str
    """The request body key holding the history list (``messages``, ``contents``, ``input``, ``sent``)."""
    claims: Callable[[dict, "str | None"], bool]
    """``claims(body, dialect_name)``: this provider's shape reads ``body[key]``."""
    read: Callable[[list], "History"]
    """``read(items) -> History``: the list under ``key`` as the provider-neutral history (never raises:
    values of the wrong type are skipped)."""


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
    """True when ``typ`` names a stream delta or delta event (never a content block or item type)."""
    return isinstance(typ, str) and (typ in DELTA_TYPES or typ.endswith("_delta") or
                                     (typ.startswith("response.") and typ.endswith(".delta")))


def canon(value) -> bytes | None:
    """``value`` as JSON with sorted keys (the same object in any key order is the same); None when not JSON."""
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


def last_index(msgs: list, roles: tuple) -> int | None:
    """The index of the last message (a JSON object) whose ``role`` is one of ``roles``; None when none is."""
    for i in range(len(msgs) - 1, -1, -1):
        m = msgs[i]
        if isinstance(m, dict) and m.get("role") in roles:
            return i
    return None


def text_of(value: object) -> str | None:
    """``value`` when it is a non-empty string (an id, a name), else None."""
    return value if isinstance(value, str) and value else None


def type_of(part: object) -> str | None:
    """A part's ``type`` when it is a string (any other value is no type: never used as a key)."""
    typ = part.get("type") if isinstance(part, dict) else None
    return typ if isinstance(typ, str) else None


def written_call(where: str, arguments_at: str, *, id: object, name: object, arguments: object,
                 signature: object = None) -> Call:
    """A :class:`Call` whose ``arguments`` are written as JSON text (Chat, Responses; an object is taken
    as it is, as Ollama writes them)."""
    ok, value = parse_args(arguments)
    return Call(where, arguments_at, text_of(id), text_of(name), value if ok else None,
                text=arguments if isinstance(arguments, str) else None, parsed=ok, signature=signature)
