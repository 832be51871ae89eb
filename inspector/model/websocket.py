"""One WebSocket, in memory: the opening handshake, every message either way, and how it closed.

A WebSocket capture (README "WebSocket captures") is a ``Capture`` whose ``messages`` hold the
socket's messages (its ``request``/``response`` the opening handshake, its ``end`` the close);
``inspector.capture.websocket`` cuts it into exchanges (one per response) that the rest of the
pipeline reads like any stream.
Protocol facts: RFC 6455 (opcodes §5.2: 0x1 text, 0x2 binary; close codes §7.4.1: 1000 normal,
1001 going away, 1006 closed with no close frame, never sent on the wire).
"""
from __future__ import annotations

from inspector.model.capture import End
from inspector.model.record import Record

SEND = "send"
"""A message the client sent (``"ws": "send"`` in the native capture)."""
RECV = "recv"
"""A message the client received from the server (``"ws": "recv"``)."""
DIRECTIONS = (SEND, RECV)

ABNORMAL_CLOSE = 1006
"""The code an endpoint reports when the connection dropped without a close frame (RFC 6455 §7.4.1)."""

TEXT_OPCODE = 1
BINARY_OPCODE = 2
"""RFC 6455 §5.2 opcodes, as Chrome's HAR ``_webSocketMessages[].opcode`` spells them."""


class WsMessage(Record):
    """One WebSocket message (a whole message: the frames of a fragmented one joined)."""

    __slots__ = ("t", "direction", "data", "binary", "line")

    t: float | None
    """Seconds since the opening handshake's request was sent; None if untimed."""
    direction: str
    """``SEND`` (client to server) or ``RECV`` (server to client)."""
    data: bytes
    """The payload: UTF-8 text for a text message, any bytes for a binary one."""
    binary: bool
    """Sent as a binary message (opcode 0x2; ``b64`` in the native capture)."""
    line: int | None
    """The capture file's line holding this message (native captures)."""

    def __init__(self, t: float | None, direction: str, data: bytes, binary: bool = False,
                 line: int | None = None) -> None:
        self.t = t
        self.direction = direction
        self.data = data
        self.binary = binary
        self.line = line


def is_upgrade(response: dict | None) -> bool:
    """``response`` (``{"status", "headers"}``) is a WebSocket handshake's answer: status 101 and
    ``upgrade: websocket`` (RFC 6455 §4.2.2), so the body after it is messages, not bytes."""
    resp = response or {}
    headers = resp.get("headers") or {}
    upgrade = next((str(v) for k, v in headers.items() if str(k).lower() == "upgrade"), "")
    return resp.get("status") == 101 and upgrade.lower() == "websocket"


def close_end(t: float | None, code: int | None, reason: str | None = None) -> End:
    """The ``End`` of a socket closed with ``code`` (None: no code was given) and ``reason``:
    kind ``close``; ``code`` in ``NORMAL_CLOSE_CODES`` is a normal end (``inspector.model.capture.normal_end``)."""
    return End(t=t, kind="close", error=reason or None, code=code)
