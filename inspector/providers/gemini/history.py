"""Gemini request history, read for the Q rules: ``contents[].parts[]`` (``text``, ``thought``,
``functionCall`` with ``args``, ``functionResponse`` with its optional ``id``; the ``thoughtSignature``
rides beside the part). The last ``model`` content repeats the answer.

``args`` is optional: a call without it (or with ``null``: proto3 JSON's unset) has no arguments,
``{}`` (``FunctionCall.args``, ai.google.dev/api/caching#FunctionCall).
"""
from __future__ import annotations

from collections.abc import Iterator

from inspector.model.history import Answer, Call, History, Result, Text, Wording
from inspector.model.members import string_member
from inspector.providers.history import HistoryShape, last_index, text_of

WORDING = Wording(slot="a part", signature="thoughtSignature",
                  unsigned="Gemini 3 rejects function calling turns without it")


def read(contents: list) -> History:
    """Every content's parts; the answer is the last ``model`` content when its parts are a list."""
    written = tuple(p for ci, c in enumerate(contents) for p in _parts(c, f"contents[{ci}]")
                    if not isinstance(p, Result))
    last = last_index(contents, ("model",))
    if last is None or not isinstance(contents[last].get("parts"), list):
        return History(WORDING, written)
    parts = list(_parts(contents[last], f"contents[{last}]"))
    texts = tuple(p for p in parts if isinstance(p, Text))
    calls = tuple(p for p in parts if isinstance(p, Call))
    results = tuple(p for ci in range(last + 1, len(contents))
                    for p in _parts(contents[ci], f"contents[{ci}]") if isinstance(p, Result))
    signatures = tuple(p.get("thoughtSignature") for p in contents[last]["parts"] if isinstance(p, dict))
    answer = Answer(f"contents[{last}]", calls=calls, texts=texts, signatures=signatures, results=results)
    return History(WORDING, written, answer)


def _parts(content: object, where: str) -> Iterator[Text | Call | Result]:
    parts = content.get("parts") if isinstance(content, dict) else None
    role = string_member(content, "role") if isinstance(content, dict) else None
    for pi, part in enumerate(parts if isinstance(parts, list) else ()):
        if not isinstance(part, dict):
            continue
        at, sig = f"{where}.parts[{pi}]", part.get("thoughtSignature")
        fc, fr, text = part.get("functionCall"), part.get("functionResponse"), part.get("text")
        if isinstance(fc, dict):
            args = fc.get("args")
            yield Call(f"{at} functionCall", f"{at}.functionCall.args", text_of(fc.get("id")),
                       text_of(fc.get("name")), {} if args is None else args, signature=sig)
        elif isinstance(text, str):
            yield Text(at, role, text, thinking=part.get("thought") is True, signature=sig)
        elif isinstance(fr, dict) and (tid := text_of(fr.get("id"))) is not None:
            yield Result(f"{at} functionResponse", tid)


SHAPE = HistoryShape("contents", lambda body, dialect: True, read)
