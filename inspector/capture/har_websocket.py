"""WebSockets in HAR files, as Chrome writes them: ``_webSocketMessages`` on the handshake's entry.

Chrome DevTools' HAR export (devtools-frontend ``models/har/Log.ts``) gives a WebSocket entry (the
``GET`` with its ``101`` answer, ``_resourceType: "websocket"``) a list ``_webSocketMessages`` of
``{"type": "send"|"receive", "time": seconds since the Unix epoch, "opcode": 1|2, "data": text}``:
opcode 1 is a text message, 2 a binary one whose ``data`` is base64 (RFC 6455 §5.2; the DevTools
protocol's ``payloadData``); a failed frame is ``type: "error"`` with the error as ``data``. Chrome
records no close frame. ``export --to har`` writes the same list, and the close as ``_webSocketClose``
(the native capture's end record); both read back into a socket ``Capture`` (``messages`` set).
"""
from __future__ import annotations

import base64
import binascii
import math
from datetime import datetime

from inspector.capture.clock import Clock
from inspector.capture.errors import CaptureError
from inspector.capture.records import read_record, round_t, ws_record
from inspector.model.capture import Capture, End
from inspector.model.websocket import BINARY_OPCODE, RECV, SEND, TEXT_OPCODE, WsMessage

_TYPES = {"send": SEND, "receive": RECV}


def is_socket(e: dict) -> bool:
    """A HAR entry that carries a WebSocket's messages."""
    return isinstance(e.get("_webSocketMessages"), list)


def started_epoch(e: dict) -> float | None:
    """``startedDateTime`` of an entry in seconds since the Unix epoch, None when absent or unreadable."""
    when = e.get("startedDateTime")
    if not isinstance(when, str):
        return None
    try:
        return datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def read_socket(e: dict, request: dict | None, response: dict | None, where: str) -> Capture:
    """The socket of HAR entry ``e`` (its handshake already read as ``request``/``response``).

    Times count from ``startedDateTime`` (else the first message). An ``error`` message ends the
    socket as a ``reset`` at its time (Chrome's failed frame); a ``_webSocketClose`` record is the
    close; with neither the end is unknown (None). Messages that are not objects, or of another
    type, are skipped with a note (S014). Raises ``CaptureError`` for a ``_webSocketClose`` that is
    no end record."""
    messages: list[WsMessage] = []
    cap = Capture(request=request, response=response, source_format="har", request_relative=True, messages=messages)
    raw = e["_webSocketMessages"]
    t0 = started_epoch(e)
    skipped = 0
    clock = Clock()
    for i, m in enumerate(raw):
        if not isinstance(m, dict):
            skipped += 1
            continue
        t = m.get("time")
        t = float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) else None
        if t is not None:
            t0 = t if t0 is None else t0
            t = clock.check(round_t(t - t0), f"_webSocketMessages[{i}]")
        data = m.get("data")
        data = data if isinstance(data, str) else ""
        if m.get("type") == "error":
            cap.end = End(t, "reset", data or "WebSocket error")
            break
        kind = m.get("type")
        direction = _TYPES.get(kind) if isinstance(kind, str) else None
        if direction is None:
            skipped += 1
            continue
        binary = m.get("opcode") == BINARY_OPCODE
        try:
            payload = base64.b64decode(data, validate=True) if binary else data.encode("utf-8", "replace")
        except (binascii.Error, ValueError):
            payload, binary = data.encode("utf-8", "replace"), False
        messages.append(WsMessage(t, direction, payload, binary))
    if skipped:
        cap.notes.append(f"{where}: {skipped} _webSocketMessages entr{'y' if skipped == 1 else 'ies'} that are no "
                         "send/receive message skipped")
    if e.get("_webSocketClose") is not None:
        cap.end = read_end(e["_webSocketClose"], f"{where}: _webSocketClose")
        cap.end.t = clock.check(cap.end.t, "_webSocketClose")
    cap.timing_notes = clock.notes()
    return cap


def read_end(rec: object, where: str) -> End:
    """An end record kept in a HAR field (``_end``, ``_webSocketClose``). Raises ``CaptureError``
    saying ``where`` and why when it is none."""
    try:
        end = read_record(rec)
    except ValueError as err:
        raise CaptureError(f"{where}: {err}") from None
    if not isinstance(end, End):
        raise CaptureError(f"{where} is not an end record")
    return end


def chrome_messages(cap: Capture, start: float) -> list[dict]:
    """``cap.messages`` as Chrome's ``_webSocketMessages`` (``time`` = ``start`` + ``t``), secrets
    masked as the native records mask them."""
    out = []
    for msg in cap.messages or []:
        rec = ws_record(msg.t, msg.direction, msg.data, msg.binary)
        out.append({"type": "send" if msg.direction == SEND else "receive",
                    "time": start + (msg.t or 0.0),
                    "opcode": BINARY_OPCODE if "b64" in rec else TEXT_OPCODE,
                    "data": rec.get("b64", rec.get("data"))})
    return out
