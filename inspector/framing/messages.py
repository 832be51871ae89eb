"""Framing of a WebSocket's messages: the carrier already framed them, one message is one event.

A WebSocket stream (PROTOCOLS.md §8) has no SSE framing and no ``[DONE]``: each text message is
one JSON event. The session feeds each received message whole (``inspector.capture.websocket``
makes one chunk of each), so this decoder has the ``SSEDecoder`` interface but never splits or
joins: ``feed`` is one message. The SDKs parse a message with ``json.loads`` whatever its opcode
(openai-python ``ResponsesConnection.parse_event``), so a binary message is read the same way.
"""
from __future__ import annotations

from inspector.framing.lines import Utf8Lines
from inspector.model.frames import Frame, Item

__all__ = ["MessageDecoder"]


class MessageDecoder:
    """``feed(data: bytes, t) -> [Frame]``: one ``Frame`` per call (``event="message"``, not named),
    ``line`` the message's 1-based number on this stream, ``offset`` its first byte's offset in
    the concatenated messages. Invalid UTF-8 is replaced and reported once (S001). ``close`` adds
    nothing: a message cannot be cut by the end of the stream."""

    def __init__(self) -> None:
        self._text = Utf8Lines()
        self._count = 0
        self._pos = 0

    def feed(self, data: bytes, t: float | None = None) -> list[Item]:
        self._count += 1
        out: list[Item] = []
        text = self._text.decode(data, self._count, self._pos, t, out)
        out.append(Frame("message", text, "", None, False, self._count, self._pos, t))
        self._pos += len(data)
        return out

    def close(self, t: float | None = None) -> list[Item]:
        return []
