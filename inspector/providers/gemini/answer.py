"""Gemini native as the conformance tools read it: the non-streamed request and answer, the turn a
client sends back, stop-reason classes (``inspector.providers.conformance``).

A non-streamed answer is one ``GenerateContentResponse`` from ``…:generateContent``
(ai.google.dev/api/generate-content); history keeps ``contents[]`` with ``role: model`` turns.
"""
from __future__ import annotations

from inspector.model.members import object_member
from inspector.providers.conformance import Call, Turn, last_index_of
from inspector.providers.gemini.stream import finish_reason_name

ERRORS = ("MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS")


def stop_class(reason: str | None) -> str | None:
    if reason == "STOP":
        return "end"
    if reason == "MAX_TOKENS":
        return "length"
    if reason in ERRORS:
        return "error"
    return "refusal" if reason else None


def plain(body: dict) -> tuple[dict, str]:
    """The body without ``model`` (it goes in the path) and ``…:generateContent``. Raises ``ValueError``."""
    body = dict(body)
    model = body.pop("model", None)
    body.pop("stream", None)
    if not isinstance(model, str) or not model.strip():
        raise ValueError('gemini: the request needs a "model" field')
    return body, f"/v1beta/models/{model.strip().removeprefix('models/')}:generateContent"


def _turn(parts: list, finish: str | None = None) -> Turn:
    turn = Turn(stop_reason=finish)
    for p in parts:
        if not isinstance(p, dict):
            continue
        if isinstance(p.get("functionCall"), dict):
            fc = p["functionCall"]
            turn.calls.append(Call(fc.get("id"), fc.get("name"), fc.get("args", {})))
            turn.kinds.append("function_call")
        elif isinstance(p.get("text"), str):
            turn.kinds.append("thought" if p.get("thought") else "text")
            if not p.get("thought"):
                turn.text += p["text"]
    return turn


def read(answer) -> Turn:
    cands = answer.get("candidates") if isinstance(answer, dict) else None
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], dict):
        raise ValueError("not a GenerateContentResponse (no candidates)")
    content = object_member(cands[0], "content")
    return _turn(content.get("parts") or [], finish_reason_name(cands[0].get("finishReason")))


def sent_back(request: dict) -> Turn | None:
    contents = request.get("contents") if isinstance(request, dict) else None
    if not isinstance(contents, list):
        return None
    k = last_index_of(contents, "model")
    if k is None:
        return None
    turn = _turn(contents[k].get("parts") or [])
    for c in contents[k + 1:]:
        for p in (c.get("parts") or []) if isinstance(c, dict) else []:
            fr = p.get("functionResponse") if isinstance(p, dict) else None
            if isinstance(fr, dict) and isinstance(fr.get("id") or fr.get("name"), str):
                turn.results.append(fr.get("id") or fr["name"])
    return turn
