"""``live --transport websocket``: one response over the Responses API's WebSocket mode, inspected as it arrives.

The socket is ``ws(s)://`` + the HTTP URL's host and path (``…/v1/responses``: openai-python
``ResponsesConnectionManager._prepare_url``); the handshake carries the key as the HTTP request would.
The request body goes as ``{"type": "response.create", …}`` (the POST body's fields without ``stream``,
PROTOCOLS.md §8); for Realtime (``wss://…/v1/realtime?model=…``) as its session, input items and
``response.create`` (``realtime_messages``). The server's messages are read until the response's
terminal event; then the client closes the socket (1000), as the SDKs do when done.

Like ``live_source`` this is a *source* (``Head``, ``Chunk``s, ``End``), cut by the same
``SocketSplitter`` that ``check`` applies to a recorded socket, so each message is one event timed from
the ``response.create``; the head is the handshake's ``101``. Faults become part of the sequence: no
connection or a refused upgrade is ``Head(None)`` (or the refusal's status with its body) and an ``End``
saying why; a close mid-response ends it with that close (1006: no close frame; S012); no message for
``timeout`` seconds ends it ``timeout``. ``record`` writes the socket as a WebSocket capture.

Imports: ``inspector.net.live`` (request preparation, errors), ``inspector.net.proxy.wsrelay`` (URL and
close shapes), ``inspector.capture``, ``inspector.model`` and ``websockets``.
"""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.frames import Close

from inspector.capture.recorder import Recorder, redact_request, redact_response
from inspector.capture.websocket import SocketSplitter
from inspector.model.capture import Chunk, End, Head, SourceItem
from inspector.model.websocket import RECV, SEND, WsMessage, close_end
from inspector.net.limits import StreamLimits
from inspector.net.live import LiveError, LiveRequest, describe_error, prepare
from inspector.net.proxy.headers import headers_dict
from inspector.net.proxy.wsrelay import ABNORMAL, NO_STATUS, OPEN_TIMEOUT_S, ws_url

TRANSPORT_PROVIDERS = ("openai-responses", "openai-realtime")
"""Providers ``live`` can speak over a WebSocket (PROTOCOLS.md §8); Realtime speaks nothing else."""

_HTTP_ONLY = frozenset({"content-type", "accept", "accept-encoding", "content-length"})
"""Headers of the HTTP request that say nothing on a WebSocket handshake."""


def create_message(body: dict) -> dict:
    """The ``response.create`` message for a Responses request body (``stream`` dropped: a socket streams)."""
    return {"type": "response.create", **{k: v for k, v in body.items() if k != "stream"}}


def realtime_messages(body: dict) -> list[dict]:
    """The client events for one Realtime response (openai-python ``RealtimeClientEvent``): ``session``
    as ``session.update``, ``input`` (a text, or a list of conversation items) as ``conversation.item.create``,
    ``events`` (client events) as given, then ``response.create`` with ``response`` (its options)."""
    out: list[dict] = []
    if isinstance(body.get("session"), dict):
        out.append({"type": "session.update", "session": body["session"]})
    given = body.get("input")
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": given}]}] \
        if isinstance(given, str) else given if isinstance(given, list) else []
    out += [{"type": "conversation.item.create", "item": item} for item in items]
    out += [e for e in body.get("events") or [] if isinstance(e, dict)]
    if not any(e.get("type") == "response.create" for e in out):
        response = body.get("response")
        out.append({"type": "response.create", **({"response": response} if isinstance(response, dict) else {})})
    return out


def prepare_socket(provider: str, body: dict, *, base_url: str | None = None) -> LiveRequest:
    """``prepare`` for a WebSocket: the same key and URL, ``ws(s)://``; ``body`` becomes ``{"messages": […]}``,
    the client messages to send (one ``response.create``; Realtime's session and input before it).
    Raises ``LiveError``."""
    if provider not in TRANSPORT_PROVIDERS:
        raise LiveError(f"--transport websocket speaks {', '.join(TRANSPORT_PROVIDERS)}, not {provider}")
    req = prepare(provider, body, base_url=base_url)
    headers = {k: v for k, v in req.headers.items() if k.lower() not in _HTTP_ONLY}
    messages = realtime_messages(req.body) if provider == "openai-realtime" else [create_message(req.body)]
    return LiveRequest(req.provider, ws_url(req.url), headers, {"messages": messages}, req.local)


async def live_socket_source(req: LiveRequest, *, timeout: float = 600.0, record: str | os.PathLike | None = None,
                             limits: StreamLimits | None = None) -> AsyncIterator[SourceItem]:
    """Open the socket, send ``req.body["messages"]`` (``prepare_socket``), yield the response (module docstring).

    ``timeout``: seconds without a message that end the response (``timeout``); the handshake waits at
    most ``min(timeout, 30)``. ``limits.max_bytes`` bounds one message; ``max_duration`` the response.
    Cancellation yields a ``cancelled`` end, closes the socket (1001) and goes on."""
    limits = limits or StreamLimits()
    request = {"method": "GET", "url": req.url, "headers": dict(req.headers)}
    sent = redact_request(request)
    t0 = time.monotonic()

    def now() -> float:
        return round(time.monotonic() - t0, 6)

    opened = await _open(req, sent, record, now, timeout, limits)
    if isinstance(opened, list):  # no socket: what the handshake got instead
        for item in opened:
            yield item
        return
    ws = opened
    answer = ws.response
    assert answer is not None  # connect() returns once the handshake's answer is in
    response = redact_response({"status": answer.status_code, "headers": headers_dict(answer.headers.raw_items())})
    rec = Recorder(record, sent, response) if record is not None else None
    splitter = SocketSplitter(sent, response)
    ended = False

    def take(msg: WsMessage) -> list[SourceItem]:
        if rec is not None:
            rec.message(msg)
        return splitter.take(msg)

    try:
        for message in req.body["messages"]:
            out = orjson.dumps(message)
            items = take(WsMessage(now(), SEND, out))
            await ws.send(out.decode("utf-8"))
            for item in items:
                yield item
        while not ended:
            try:
                wait = timeout if limits.max_duration is None else max(0.0, min(timeout, limits.max_duration - now()))
                data = await asyncio.wait_for(ws.recv(), wait)
            except asyncio.TimeoutError:
                for item in splitter.close(_silence_end(limits, timeout, now)):
                    yield item
                await ws.close(1000)
                _write_end(rec, close_end(now(), 1000, "the client stopped waiting"))
                return
            except ConnectionClosed:
                end = _closed_end(ws.protocol.close_rcvd, now())
                _write_end(rec, end)
                for item in splitter.close(end):
                    yield item
                return
            raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            for item in take(WsMessage(now(), RECV, raw, binary=not isinstance(data, str))):
                ended = ended or isinstance(item, End)
                yield item
        await ws.close(1000)
        _write_end(rec, close_end(now(), 1000))
    except asyncio.CancelledError:
        end = close_end(now(), 1001, "cancelled by the user")
        _write_end(rec, end)
        for item in splitter.close(End(end.t, "cancelled", "cancelled by the user")):
            yield item
        ws.transport.abort()
        raise
    finally:
        if rec is not None:
            rec.close(now())


async def _open(req: LiveRequest, sent: dict, record: str | os.PathLike | None, now: Callable[[], float],
                timeout: float, limits: StreamLimits) -> ClientConnection | list[SourceItem]:
    """The open socket, or the source items of a handshake that failed (``_refused``, ``_unanswered``)."""
    try:
        return await connect(req.url, additional_headers=req.headers, user_agent_header=None,
                             proxy=None if req.local else True, open_timeout=min(timeout, OPEN_TIMEOUT_S),
                             max_size=limits.max_bytes)
    except InvalidStatus as e:
        return _refused(e, sent, record, now())
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as e:
        return _unanswered(e, req.url, sent, record, now(), timeout)


def _write_end(rec: Recorder | None, end: End) -> None:
    if rec is not None:
        rec.write_end(end)


def _refused(e: InvalidStatus, sent: dict, record: str | os.PathLike | None, t: float) -> list[SourceItem]:
    """A handshake the server answered with an HTTP status other than 101: its head, its body (a
    chunk, when there is one) and an ``eof`` end at ``t`` s, recorded as the HTTP exchange it was."""
    status = e.response.status_code
    refusal = redact_response({"status": status, "headers": headers_dict(e.response.headers.raw_items())})
    body = bytes(e.response.body or b"")
    end = End(t, "eof")
    _record_http(record, sent, refusal, body, end)
    return [Head(status, refusal.get("headers") or {}, sent), *([Chunk(end.t, body)] if body else []), end]


def _unanswered(e: BaseException, url: str, sent: dict, record: str | os.PathLike | None, t: float,
                timeout: float) -> list[SourceItem]:
    """A handshake with no answer (refused connection, DNS, TLS, a bad URI, no answer in time): a
    head without a status and a ``timeout`` or ``reset`` end at ``t`` s, recorded."""
    timed_out = isinstance(e, TimeoutError)
    end = End(t, "timeout" if timed_out else "reset",
              f"no handshake answer within {min(timeout, OPEN_TIMEOUT_S):g} s" if timed_out
              else describe_error(e, url))
    _record_http(record, sent, None, b"", end)
    return [Head(None, {}, sent), end]


def _silence_end(limits: StreamLimits, timeout: float, now: Callable[[], float]) -> End:
    """The end once no message came in time: ``cancelled`` at ``--max-duration``, else ``timeout``."""
    cut = limits.max_duration is not None and now() >= limits.max_duration
    return End(now(), "cancelled" if cut else "timeout",
               limits.duration_reached() if cut else f"no message for {timeout:g} s (--timeout)")


def _closed_end(rcvd: Close | None, t: float) -> End:
    """The ``close`` end of a socket the server closed: its code and reason (no
    code given is None, no close frame at all ``ABNORMAL``: RFC 6455 §7.4.1, 1005 and 1006)."""
    code = ABNORMAL if rcvd is None else (None if rcvd.code == NO_STATUS else int(rcvd.code))
    return close_end(t, code, rcvd.reason if rcvd is not None and rcvd.reason else None)


def _record_http(record, sent: dict | None, response: dict | None, body: bytes, end: End) -> None:
    """A refused or failed handshake recorded as the HTTP exchange it was."""
    if record is None:
        return
    with Recorder(record, sent, response) as rec:
        rec.chunk(end.t, body)
        rec.write_end(end)
