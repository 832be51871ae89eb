"""What the proxy does with each relayed WebSocket: records the socket and inspects each response on it.

One :class:`SocketTap` per socket (a ``wsrelay.SocketObserver``):

- ``--record DIR`` gets one WebSocket capture per socket (``NNN-WS-path.jsonl``; README "WebSocket
  captures": the handshake in the header, one ``{"t", "ws": "send"|"recv", "data"|"b64"}`` record per
  message, the close as the end record), each record one unbuffered write before the message is sent on,
  secrets masked as in any recording;
- the messages are queued on the inspecting loop (``sink``: nothing of it delays a message) and go
  through ``inspector.capture.websocket.SocketSplitter`` there, the same cut ``check`` makes of
  the recording: each response (``response.create`` → … → ``response.completed``) becomes an exchange of
  its own in the proxy's log, numbered with the HTTP exchanges, judged like any stream (its request the
  ``response.create`` payload with the client messages sent before it, so the Q rules judge the tool
  outputs it sends back against the response it continues, chained as ``check`` chains them:
  ``inspector.capture.websocket.followup``; the findings on the new exchange's report, as for HTTP),
  and reported when it ends; the socket's close ends the response still open (1006 or no close: S012).

A handshake the upstream refused (401, 404…) is an exchange of its own, like an HTTP error answer (S007).

Imports: ``endpoint`` (its type), ``wsrelay``, ``tap``, ``inspector.capture``, ``inspector.feeds.exchanges``.
"""
from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import orjson

from inspector.capture.recorder import Recorder, redact_request, redact_response
from inspector.capture.websocket import CREATED, TERMINAL, SocketSplitter, followup, message_type
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import Chunk, End, Head
from inspector.model.websocket import WsMessage, close_end
from inspector.net.proxy.endpoint import ProxyEndpoint
from inspector.net.proxy.tap import end_recording, open_recording, safe_name
from inspector.net.proxy.wsrelay import ABNORMAL, NO_STATUS, Close, SocketOpen, WebSocketRelay

METHOD = "WS"
"""What the exchange list and the reports call a response that came over a WebSocket."""


def socket_end(t: float, close: Close, error: str | None) -> End:
    """The capture's end record for a socket that ended with ``close``: ``close`` with its code (None for a
    close frame without one), the reason, or for a fault the error saying why."""
    code = None if close.code == NO_STATUS else close.code
    reason = close.reason or (error if close.code == ABNORMAL or close.by == "proxy" else None)
    return close_end(t, code, reason)


class SocketTap:
    """Records one socket and feeds its responses to the proxy's exchange log (module docstring)."""

    def __init__(self, endpoint: ProxyEndpoint, sock: SocketOpen) -> None:
        self.endpoint = endpoint
        self.sink = endpoint.sink
        self.sock = sock
        self.first = endpoint.next_number()
        """The socket's number: its recording's, and its first exchange's."""
        self.record_path: str | None = None
        if endpoint.record_dir is not None:
            self.record_path = str(Path(endpoint.record_dir) / f"{self.first:03d}-{safe_name(METHOD, sock.path)}.jsonl")
        self.rec: Recorder | None = None
        self.splitter: SocketSplitter | None = None
        self.current: Exchange | None = None
        self._numbers_used = 0
        self._responses: dict[str, int] = {}
        """Response id → the exchange that streamed it (``previous_response_id`` chains to it)."""
        self._last: int | None = None
        """The last exchange that ended on this socket."""
        self._unnamed = True
        """The current exchange's response id is not known yet."""

    def opened(self, sock: SocketOpen) -> None:
        request = redact_request(sock.request)
        response = redact_response(sock.response)
        self.rec = open_recording(self.record_path, request or {}, response)
        if sock.response is None or sock.response.get("status") != 101:
            self._refused(request or {}, response, sock.extra.get("body", ""))
            return
        self.splitter = SocketSplitter(request, response)

    def message(self, t: float, direction: str, data: str | bytes) -> None:
        """Record the message (before it is sent on), then queue it for inspection (delays nothing)."""
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        msg = WsMessage(t, direction, raw, binary=not isinstance(data, str))
        if self.rec is not None:
            try:
                self.rec.message(msg)
            except OSError as e:
                print(f"stream-inspector: proxy: recording {self.record_path} stopped: {e.strerror or e}",
                      file=sys.stderr)
                self.rec.abandon()
                self.rec = None
        if self.splitter is not None:
            self.sink.posted_bytes += len(raw)  # counted as waiting until inspected (the relay paces on it)
            self.sink.post(self._inspect, t, msg)

    def _inspect(self, t: float, msg: WsMessage) -> None:
        """On the inspecting loop: cut the message into its exchange (``SocketSplitter``) and pass it on."""
        try:
            if self.splitter is not None:
                self._route(t, self.splitter.take(msg))
        finally:
            self.sink.inspected_bytes += len(msg.data)

    def closed(self, t: float, close: Close, error: str | None = None) -> None:
        if self.splitter is None:  # the upgrade was refused: the HTTP answer was whole, or there was none
            answered = self.sock.response is not None
            end = End(t, "eof") if answered else End(t, "timeout" if "within" in (error or "") else "reset", error)
            end_recording(self.rec, end)
            self.rec = None
            if self.current is not None:
                self.sink.finish(self.current.n, end)
                self.current = None
            return
        end = socket_end(t, close, error)
        end_recording(self.rec, end)
        self.rec = None
        self.sink.post(self._close, t, end)

    def _close(self, t: float, end: End) -> None:
        if self.splitter is not None:
            self._route(t, self.splitter.close(end))

    # ---- exchanges
    def _number(self) -> int:
        self._numbers_used += 1
        return self.first if self._numbers_used == 1 else self.endpoint.next_number()

    def _exchange(self, t: float, request: dict, body: object = None) -> Exchange:
        sock = self.sock
        size = len(orjson.dumps(body)) if body is not None else 0
        return Exchange(n=self._number(), method=METHOD, path=sock.path, target=sock.target, url=sock.url,
                        request=request, body=body, started_wall=sock.started_wall + t, t0=sock.t0 + t,
                        record_path=self.record_path, request_bytes=size)

    def _route(self, t: float, items: list) -> None:
        sink = self.sink
        for item in items:
            if isinstance(item, Head):
                body, prior, sends_back = followup(item.request)
                ex = self.current = self._exchange(t, item.request or {}, body if body else None)
                if prior is not None and prior in self._responses:
                    ex.socket_continues = (self._responses[prior], "previous_response_id on the WebSocket")
                elif prior is None and sends_back and self._last is not None:
                    ex.socket_continues = (self._last, "the response before it on the WebSocket")
                sink.begin(ex)
                sink.head(ex.n, item.status or 0, item.headers)
            elif self.current is None:
                continue
            elif isinstance(item, Chunk):
                if self._unnamed:
                    self._learn_id(item)
                sink.chunk(self.current.n, item)
            elif isinstance(item, End):
                sink.finish(self.current.n, item)
                self._last, self.current, self._unnamed = self.current.n, None, True

    def _learn_id(self, chunk: Chunk) -> None:
        """The current exchange's response id, from ``response.created`` (or its terminal event)."""
        typ, payload = message_type(chunk.data)
        resp = payload.get("response") if isinstance(payload, dict) else None
        if (typ == CREATED or typ in TERMINAL) and isinstance(resp, dict) and isinstance(resp.get("id"), str) \
                and self.current is not None:
            self._responses[resp["id"]] = self.current.n
            self._unnamed = False

    def _refused(self, request: dict, response: dict | None, body: str) -> None:
        """The upgrade got no ``101``: one exchange holding the refusal as an HTTP answer (S007), or the
        fault when the upstream never answered (S012); recorded as an HTTP capture."""
        ex = self.current = self._exchange(0.0, dict(request, body=None))
        self.sink.begin(ex)
        if response is None:
            return
        self.sink.head(ex.n, response["status"], response.get("headers") or {})
        if body:
            data = body.encode("utf-8")
            if self.rec is not None:
                self.rec.chunk(0.0, data)
            self.sink.chunk(ex.n, Chunk(0.0, data))


def websocket_relay(endpoint: ProxyEndpoint) -> WebSocketRelay:
    """The WebSocket side of ``endpoint``: same routes, timeout, limits, numbering, recording and log."""

    def observe(sock: SocketOpen) -> SocketTap:
        sink = endpoint.sink
        if sink.loop is None and sink.auto_attach:  # headless: inspection on the proxy's own loop
            sink.attach(asyncio.get_running_loop(), threading.get_ident())
        return SocketTap(endpoint, sock)

    def log(line: str) -> None:
        if endpoint.log is not None:
            endpoint.log(line)

    return WebSocketRelay(endpoint.routes, observe, timeout=endpoint.timeout,
                          max_message=endpoint.limits.max_bytes, log=log, sink=endpoint.sink)
