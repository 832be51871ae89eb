"""A scripted WebSocket upstream on 127.0.0.1 (the ``websockets`` library's own server), for proxy tests.

Each text message the client sends is a command: ``echo:TEXT`` answers ``TEXT`` then the same bytes as
a binary message; ``close:CODE:REASON`` closes with that code (``close::`` sends a close frame without
a code); ``drop`` drops the TCP connection without a close frame (the client sees 1006). A binary
message is echoed as it came. ``seen`` keeps, per connection, the handshake headers, every message
received and how the client closed (``(code, reason)``, ``None`` for no close frame).
"""
from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response
from websockets.datastructures import Headers

from tests.e2e.conftest import LOOPBACK, WAIT_S


@dataclass
class Seen:
    headers: Headers
    """The handshake request's headers (names case-insensitive)."""
    path: str
    subprotocol: str | None
    messages: list = field(default_factory=list)
    closed: tuple | None = None
    """``(code, reason)`` of the client's close frame; ``("none",)`` when it dropped the connection."""
    done: threading.Event = field(default_factory=threading.Event)


def _first_offered(conn, offered):
    """Accept the client's first subprotocol, or none when it offers none."""
    return offered[0] if offered else None


class WsUpstream:
    """``with WsUpstream() as up: up.url``; ``refuse`` makes every handshake a 401 with a JSON body."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.seen: list[Seen] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future | None = None
        self.url = ""

    async def _handler(self, ws: ServerConnection) -> None:
        seen = Seen(Headers(ws.request.headers.raw_items()), ws.request.path, ws.subprotocol)
        self.seen.append(seen)
        try:
            async for msg in ws:
                seen.messages.append(msg)
                if isinstance(msg, bytes):
                    await ws.send(msg)
                elif msg.startswith("echo:"):
                    await ws.send(msg[5:])
                    await ws.send(msg[5:].encode("utf-8"))
                elif msg.startswith("close:"):
                    _, code, reason = msg.split(":", 2)
                    if code:
                        await ws.close(int(code), reason)
                    else:
                        await ws.close(None, "")  # type: ignore[arg-type] (an empty close frame)
                    return
                elif msg == "drop":
                    ws.transport.abort()
                    return
        except ConnectionClosed:
            pass
        finally:
            rcvd = ws.protocol.close_rcvd
            seen.closed = (rcvd.code, rcvd.reason) if rcvd is not None else ("none",)
            seen.done.set()

    def _process_request(self, conn, request):
        if self.refuse:
            return Response(401, "Unauthorized", Headers({"content-type": "application/json", "x-why": "no key"}),
                            b'{"error": {"message": "Incorrect API key provided"}}')
        return None

    def _run(self) -> None:
        async def main() -> None:
            self._stop = self._loop.create_future()
            async with serve(self._handler, LOOPBACK, 0, select_subprotocol=_first_offered,
                             process_request=self._process_request, max_size=None) as server:
                self.url = f"http://{LOOPBACK}:{server.sockets[0].getsockname()[1]}"
                self._ready.set()
                await self._stop
        self._loop.run_until_complete(main())

    def __enter__(self) -> "WsUpstream":
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(WAIT_S), "WebSocket upstream did not start"
        return self

    def __exit__(self, *exc) -> None:
        self._loop.call_soon_threadsafe(lambda: self._stop.done() or self._stop.set_result(None))
        self._thread.join(WAIT_S)

    def last(self) -> Seen:
        assert self.seen, "no connection reached the upstream"
        assert self.seen[-1].done.wait(WAIT_S), "the upstream connection did not end"
        return self.seen[-1]
