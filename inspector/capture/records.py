"""One body record of the native capture (SPEC.md "Capture files"), written and read.

A record is ``{"t": seconds, "data": text}`` (a chunk that is valid UTF-8 on its own),
``{"t": seconds, "b64": base64}`` (one that is not) or ``{"t": seconds, "end": kind, "error": text}``.
A WebSocket capture's messages are ``{"t": seconds, "ws": "send"|"recv", "data": text}`` (a text
message) or ``{"t", "ws", "b64"}`` (a binary one), and its close is ``{"t": seconds, "end": "close",
"code": 1000, "reason": text}`` (README "WebSocket captures").
The recorder writes them one per line; the HAR export keeps the same records in an entry's
``_chunks`` list (and its ``_end``), so both read back through :func:`read_record`.
"""
from __future__ import annotations

import base64

from inspector.capture.redact import ChunkScrubber, scrub_secrets
from inspector.model.capture import END_KINDS, Chunk, End
from inspector.model.websocket import DIRECTIONS, WsMessage


def round_t(t: float | None) -> float | None:
    """Seconds as records store them: rounded to the microsecond."""
    return None if t is None else round(t, 6)


def chunk_record(t: float | None, data: bytes, scrubber: ChunkScrubber | None = None) -> dict:
    """One chunk record: ``data`` when the chunk is valid UTF-8 on its own, else ``b64``.

    Anything shaped like an API key inside the text, and every credential this process sent or
    forwarded, is masked: some servers quote the key back in a 401 body, and a record is written
    to be shared. ``scrubber`` (one per stream) also masks a key that a chunk boundary cuts in two.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"t": round_t(t), "b64": base64.b64encode(data).decode("ascii")}
    return {"t": round_t(t), "data": scrubber.scrub(text) if scrubber is not None else scrub_secrets(text)}


def ws_record(t: float | None, direction: str, data: bytes, binary: bool = False,
              scrubber: ChunkScrubber | None = None) -> dict:
    """One WebSocket message record: ``{"t", "ws": direction, "data": text}`` for a text message,
    ``b64`` for a binary one (or a text message that is not UTF-8), secrets masked as in
    :func:`chunk_record`. ``direction`` is ``"send"`` or ``"recv"``."""
    if binary:
        return {"t": round_t(t), "ws": direction, "b64": base64.b64encode(data).decode("ascii")}
    rec = chunk_record(t, data, scrubber)
    return {"t": rec.pop("t"), "ws": direction, **rec}


def end_record(end: End) -> dict:
    """The end record for ``end`` (``error`` only when there is one, secrets masked); a WebSocket
    close is ``{"t", "end": "close", "code": int|null, "reason": text}``."""
    rec: dict = {"t": round_t(end.t), "end": end.kind}
    if end.kind == "close":
        rec["code"] = end.code
        if end.error:
            rec["reason"] = scrub_secrets(end.error)
    elif end.error:
        rec["error"] = scrub_secrets(end.error)
    return rec


def read_record(rec: object, line: int | None = None) -> Chunk | End | WsMessage:
    """A chunk, WebSocket message or end record back into a ``Chunk`` (with ``line``), a
    ``WsMessage`` (with ``line``) or an ``End``.

    Raises ``ValueError`` with a short reason (the caller says where): not an object, ``t`` not a
    number, an unknown end kind, a close ``code`` that is not a whole number, ``ws`` neither
    ``send`` nor ``recv``, ``data`` not a string, ``b64`` not base64, or none of the three.
    """
    if not isinstance(rec, dict):
        raise ValueError("capture record is not an object")
    t = rec.get("t")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool)):
        raise ValueError("'t' must be a number of seconds")
    t = float(t) if t is not None else None
    if "end" in rec:
        kind = rec.get("end")
        if kind not in END_KINDS:
            raise ValueError(f"unknown end kind {kind!r} (expected one of {', '.join(END_KINDS)})")
        if kind == "close":
            return _close(rec, t)
        error = rec.get("error")
        return End(t=t, kind=kind, error=error if isinstance(error, str) else None)
    if "ws" in rec:
        return _message(rec, t, line)
    if "data" in rec:
        data = rec["data"]
        if not isinstance(data, str):
            raise ValueError("'data' must be a string")
        return Chunk(t, data.encode("utf-8", "replace"), line)
    if "b64" in rec:
        try:
            return Chunk(t, base64.b64decode(rec["b64"], validate=True), line)
        except (ValueError, TypeError):
            raise ValueError("'b64' is not valid base64") from None
    raise ValueError("record has none of 'data', 'b64', 'end'")


def _close(rec: dict, t: float | None) -> End:
    code = rec.get("code")
    if code is not None and (not isinstance(code, int) or isinstance(code, bool)):
        raise ValueError("close 'code' must be a whole number or null")
    reason = rec.get("reason", rec.get("error"))
    return End(t=t, kind="close", error=reason if isinstance(reason, str) and reason else None, code=code)


def _message(rec: dict, t: float | None, line: int | None) -> WsMessage:
    direction = rec["ws"]
    if direction not in DIRECTIONS:
        raise ValueError(f"'ws' must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
    if "data" in rec:
        if not isinstance(rec["data"], str):
            raise ValueError("'data' must be a string")
        return WsMessage(t, direction, rec["data"].encode("utf-8", "replace"), False, line)
    if "b64" in rec:
        try:
            return WsMessage(t, direction, base64.b64decode(rec["b64"], validate=True), True, line)
        except (ValueError, TypeError):
            raise ValueError("'b64' is not valid base64") from None
    raise ValueError("WebSocket message record has neither 'data' nor 'b64'")
