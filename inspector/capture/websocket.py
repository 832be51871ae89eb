"""A WebSocket cut into exchanges: one per response, each read like any streamed answer.

Why: one socket carries many responses in a row (the Responses API's WebSocket mode, the Realtime
API; PROTOCOLS.md §8). Each response is judged on its own, so each becomes the source items a
``Driver`` takes (``Head``, ``Chunk``s, ``End``; ``inspector.model.capture``):

- An exchange opens at the client's ``response.create`` (its payload, without ``type``, is the
  request body: the POST body's fields) or, with none pending, at the server's
  ``response.created`` (a Realtime response the server started itself, voice activity).
  A ``response.create`` sent while a response is open waits for it to end (both APIs run one
  response at a time on a socket).
- Every server message while it is open is one ``Chunk`` of it (a whole message: the session
  frames it as one event), timed from its ``response.create``; the response's terminal event
  (``response.completed``/``failed``/``incomplete``/``done``, or an ``error`` before
  ``response.created``: the request was refused) ends it with an ``eof`` ``End``.
- Server messages between responses (Realtime's ``session.*``, ``conversation.item.*``,
  ``rate_limits.updated``) lead the next exchange; left over at the close, they make one last
  exchange only when one of them is not such a session event (an ``error``, a garbled message).
- Client messages other than ``response.create`` (Realtime ``conversation.item.create`` with a
  ``function_call_output``, ``session.update``) ride with the next exchange's request as
  ``request["sent"]`` (payloads, audio kept as sizes). The last ``session.update``'s ``session``
  (a Realtime session's tools and instructions) goes into every later request body as ``session``:
  it is what the response answers to.
- The socket's end ends the exchange still open: a close with its code (1000/1001 normal, any
  other S012), a transport failure as recorded, and no close at all as a ``reset`` (S012).

Audio payloads (base64 in ``response.output_audio.delta``, ``input_audio_buffer.append``…) are
large and say nothing about the protocol: they are replaced by their size unless ``keep_audio``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import orjson

from inspector.capture.errors import CaptureError, SeveralStreams, listing
from inspector.model.capture import Capture, Chunk, End, Head, SourceItem
from inspector.model.display import display_text
from inspector.model.jsondepth import loads
from inspector.model.websocket import RECV, SEND, WsMessage

CREATE = "response.create"
CREATED = "response.created"
TERMINAL = frozenset({"response.completed", "response.failed", "response.incomplete", "response.done"})
"""Server events that end a response: Responses (PROTOCOLS.md §3; openai-python notes WebSocket mode
may end with ``response.done``) and Realtime (``response.done``)."""
SESSION_PREFIXES = ("session.", "conversation.", "input_audio_buffer.", "output_audio_buffer.",
                    "rate_limits.", "transcription_session.")
"""Realtime server events that belong to the socket, not to a response (openai-python
``types/realtime/realtime_server_event.py``). The carrier's own copy: this layer may not import the
providers (``inspector.providers.openai_realtime.sniff`` has the dialect's)."""
AUDIO_FIELDS = {"response.output_audio.delta": "delta", "response.audio.delta": "delta",
                "input_audio_buffer.append": "audio"}
"""Messages whose one string field is base64 audio (GA and beta Realtime names)."""
NO_CLOSE = "the socket ended with no close frame recorded"


def audio_placeholder(b64: str) -> str:
    """What stands for base64 audio when audio is not kept: ``<audio: N bytes>``, N the decoded size."""
    return f"<audio: {len(b64) * 3 // 4 - len(b64) + len(b64.rstrip('='))} bytes>"


_LEADING_TYPE = re.compile(rb'\{\s*"type"\s*:\s*"([A-Za-z0-9_.\-]{1,100})"\s*[,}]')
"""A message whose object starts with its ``type`` (how both APIs write their events): the type is read
without parsing the rest (the session parses each server message once, when it reads it)."""


def server_type(data: bytes) -> tuple[str | None, object]:
    """:func:`message_type` for a server message, fast when its first member is ``type`` (the payload
    is then None: the splitter needs only the type, but for audio, whose payload it rewrites)."""
    m = _LEADING_TYPE.match(data)
    if m is not None:
        typ = m.group(1).decode("ascii")
        if typ not in AUDIO_FIELDS:
            return typ, None
    return message_type(data)


def message_type(data: bytes) -> tuple[str | None, object]:
    """``(type, payload)`` of a message: its JSON object's ``type`` (None when it is no JSON
    object or has no string ``type``) and the parsed value (None when it does not parse)."""
    try:
        payload = loads(data)
    except (orjson.JSONDecodeError, TypeError):
        return None, None
    typ = payload.get("type") if isinstance(payload, dict) else None
    return (typ if isinstance(typ, str) else None), payload


def without_audio(typ: str | None, payload: object) -> object:
    """``payload`` with the base64 audio of an audio message replaced by its size (the same
    object when it holds none)."""
    key = AUDIO_FIELDS.get(typ or "")
    if key is None or not isinstance(payload, dict) or not isinstance(payload.get(key), str):
        return payload
    return {**payload, key: audio_placeholder(payload[key])}


@dataclass(slots=True)
class _Open:
    t0: float | None
    created: bool = False
    """``response.created`` arrived (an ``error`` no longer ends the exchange)."""
    last_t: float | None = None


@dataclass
class SocketSplitter:
    """Incremental: a socket's messages in, each exchange's source items out (module docstring).

    ``take(msg)`` and ``close(end)`` return the items they complete, in order: ``Head`` (status
    and headers of the opening handshake's response, ``request`` the handshake with this
    exchange's ``body`` and ``sent``), then ``Chunk``s (times from the exchange's start, ``line``
    the message's capture line), then an ``End``. The proxy feeds its live socket through one; a
    recorded socket goes through :func:`exchanges`.
    """

    request: dict | None = None
    """The opening handshake (``{"method", "url", "headers"}``), redacted."""
    response: dict | None = None
    """Its answer (``{"status": 101, "headers": {…}}``)."""
    keep_audio: bool = False
    index: int = 0
    """Exchanges opened so far."""
    _open: _Open | None = None
    _creates: list[tuple[float | None, dict | None, list]] = field(default_factory=list)
    _sent: list = field(default_factory=list)
    _held: list[tuple[WsMessage, bytes, str | None]] = field(default_factory=list)
    _session: dict | None = None

    def take(self, msg: WsMessage) -> list[SourceItem]:
        typ, payload = message_type(msg.data) if msg.direction == SEND else server_type(msg.data)
        data = msg.data
        if not self.keep_audio:
            kept = without_audio(typ, payload)
            if kept is not payload:
                payload, data = kept, orjson.dumps(kept)
        if msg.direction == SEND:
            if typ == CREATE:
                body = {k: v for k, v in payload.items() if k != "type"} if isinstance(payload, dict) else None
                self._creates.append((msg.t, body, self._sent))
                self._sent = []
                return self._start() if self._open is None else []
            self._sent.append(payload if payload is not None else data.decode("utf-8", "replace"))
            if typ == "session.update" and isinstance(payload, dict) and isinstance(payload.get("session"), dict):
                self._session = payload["session"]
            return []
        out: list[SourceItem] = []
        if self._open is None:
            if typ == CREATED and not self._creates:
                self._creates.append((self._held[0][0].t if self._held else msg.t, None, self._sent))
                self._sent = []
            out += self._start()
            if self._open is None:  # between responses: leads the next one
                self._held.append((msg, data, typ))
                return out
        out.append(self._chunk(msg, data))
        if typ == CREATED:
            self._open.created = True
        if typ in TERMINAL or (typ == "error" and not self._open.created):
            out.append(End(self._rel(msg.t), "eof"))
            self._open = None
            out += self._start()
        return out

    def close(self, end: End | None) -> list[SourceItem]:
        """The socket ended (``end``: its close or transport failure; None: nothing recorded)."""
        out: list[SourceItem] = []
        if self._open is None and self._held and any(not _session_event(typ) for _, _, typ in self._held):
            self._creates.append((self._held[0][0].t, None, self._sent))
            out += self._start()
        if self._open is None and self._creates:
            out += self._start()
        if self._open is not None:
            if end is None:
                end = End(self._open.last_t, "reset", NO_CLOSE)
            out.append(End(self._rel(end.t), end.kind, end.error, end.code))
            self._open = None
        return out

    def _start(self) -> list[SourceItem]:
        """Open the next exchange when a ``response.create`` waits, with the held messages first."""
        if self._open is not None or not self._creates:
            return []
        t0, body, sent = self._creates.pop(0)
        self._open = _Open(t0, last_t=t0)
        self.index += 1
        request = dict(self.request or {"method": "GET", "url": None, "headers": {}})
        if body is None:
            request["started_by"] = "server"
        if self._session is not None and (body is None or "session" not in body):
            body = {**(body or {}), "session": self._session}
        request["body"] = body
        if sent:
            request["sent"] = sent
        response = self.response or {}
        out: list[SourceItem] = [Head(response.get("status"), dict(response.get("headers") or {}), request)]
        held, self._held = self._held, []
        for msg, data, typ in held:
            out.append(self._chunk(msg, data))
            self._open.created |= typ == CREATED
        return out

    def _chunk(self, msg: WsMessage, data: bytes) -> Chunk:
        assert self._open is not None
        if msg.t is not None:
            self._open.last_t = msg.t
        return Chunk(self._rel(msg.t), data, msg.line)

    def _rel(self, t: float | None) -> float | None:
        t0 = self._open.t0 if self._open is not None else None
        if t is None or t0 is None:
            return t
        return max(0.0, t - t0)


def _session_event(typ: str | None) -> bool:
    return typ is not None and typ.startswith(SESSION_PREFIXES)


def exchanges(cap: Capture, *, keep_audio: bool = False) -> list[Capture]:
    """The responses of the recorded socket ``cap`` (``cap.messages`` set), each a ``Capture``
    (``source_format`` ``websocket``, times from its ``response.create``, ``entry`` saying which
    response it is and when it started on the socket, ``followup`` the request body that
    continues it). The socket's import notes go with the first. A socket with no response at all
    gives one exchange of every server message (so its events are still judged)."""
    splitter = SocketSplitter(cap.request, cap.response, keep_audio)
    items: list[SourceItem] = []
    starts: list[float | None] = []
    for msg in cap.messages or []:
        got = splitter.take(msg)
        items += got
        starts += [msg.t for item in got if isinstance(item, Head)]
    items += splitter.close(cap.end)
    out: list[Capture] = []
    for item in items:
        if isinstance(item, Head):
            response = {"status": item.status, "headers": item.headers} if item.status is not None else None
            out.append(Capture(request=item.request, response=response, source_format="websocket",
                               request_relative=True))
        elif out:
            if isinstance(item, Chunk):
                out[-1].chunks.append(item)
            else:
                out[-1].end = item
    if not out:
        return [_whole(cap)]
    for i, ex in enumerate(out):
        ex.entry = _describe(i, ex, cap)
        ex.socket = cap
    _chain(out)
    out[0].notes, out[0].timing_notes = list(cap.notes) + _stray(cap), list(cap.timing_notes)
    return out


def _stray(cap: Capture) -> list[str]:
    """A note (S014) for body records beside the messages: a socket has no body, so they are not read."""
    if not cap.chunks:
        return []
    lines = [c.line for c in cap.chunks if c.line is not None]
    where = f" (first at line {lines[0]})" if lines else ""
    return [f"{len(cap.chunks)} body record{'s' if len(cap.chunks) != 1 else ''} beside the WebSocket messages "
            f"ignored{where}: a socket's records are messages ('ws') and its close"]


def _whole(cap: Capture) -> Capture:
    """Every server message of a socket with no response in it, as one exchange."""
    chunks = [Chunk(m.t, m.data, m.line) for m in cap.messages or [] if m.direction == RECV]
    end = cap.end if cap.end is not None else End(chunks[-1].t if chunks else None, "reset", NO_CLOSE)
    return Capture(chunks=chunks, request=cap.request, response=cap.response, end=end, source_format="websocket",
                   request_relative=True, notes=list(cap.notes) + _stray(cap), timing_notes=list(cap.timing_notes),
                   entry="the whole socket (no response.create or response.created in it)", socket=cap)


def _describe(i: int, ex: Capture, cap: Capture) -> str:
    body = (ex.request or {}).get("body")
    model = body.get("model") if isinstance(body, dict) else None
    size = sum(len(c.data) for c in ex.chunks)
    return (f"response {i}: {len(ex.chunks)} messages, {size} bytes" + (f", model {model}" if isinstance(model, str) else "")
            + (", started by the server" if (ex.request or {}).get("started_by") else ""))


def response_id(ex: Capture) -> str | None:
    """The id of the response an exchange carries (from ``response.created`` or its terminal event)."""
    for chunk in ex.chunks:
        typ, payload = message_type(chunk.data)
        if typ == CREATED or typ in TERMINAL:
            resp = payload.get("response") if isinstance(payload, dict) else None
            if isinstance(resp, dict) and isinstance(resp.get("id"), str):
                return resp["id"]
    return None


def followup(request: dict | None) -> tuple[dict | None, str | None, bool]:
    """What an exchange's ``request`` (a ``Head.request`` from :class:`SocketSplitter`) sends back:
    ``(body, continues, sends_back)``. ``body`` is the request body with the client messages sent
    before it (``sent``), judged with the Q rules against the answer it continues; ``continues`` its
    ``previous_response_id`` (None: it names none); ``sends_back`` whether it carries anything for
    the previous response (an ``input`` list, tool outputs sent before it): without a
    ``previous_response_id`` (Realtime: the conversation lives on the socket) it continues the
    response just before it on the socket. The live proxy and :func:`exchanges` both chain so."""
    body = (request or {}).get("body")
    sent = (request or {}).get("sent")
    prior = body.get("previous_response_id") if isinstance(body, dict) else None
    sends_back = bool(sent) or _has_input(body)
    out = {**(body if isinstance(body, dict) else {}), **({"sent": sent} if sent else {})}
    return out, prior if isinstance(prior, str) else None, sends_back


def _chain(out: list[Capture]) -> None:
    """Give each exchange the request that continues it (:func:`followup`)."""
    ids = {response_id(ex): ex for ex in out}
    ids.pop(None, None)
    for prev, ex in zip(out, out[1:]):
        body, prior, sends_back = followup(ex.request)
        target = ids.get(prior) if prior is not None else (prev if sends_back else None)
        if target is not None and target.followup is None:
            target.followup = body


def _has_input(body: object) -> bool:
    return isinstance(body, dict) and isinstance(body.get("input"), list) and bool(body["input"])


def pick_exchange(exs: list[Capture], *, name: str, entry: int | None,
                  pick: str | None = "pick one with {name}#N or --entry N (check reads each of them)") -> Capture:
    """Exchange ``entry`` of a socket, or its only one. Raises ``CaptureError`` for an entry out of
    range, and when there are several and none was chosen ``SeveralStreams`` listing them, then
    ``pick`` (None: they cannot be picked by ``entry``, a plain ``CaptureError`` lists them)."""
    if entry is None and len(exs) == 1:
        return exs[0]
    if entry is None:
        choices = [(i, ex.entry or f"response {i}") for i, ex in enumerate(exs)]
        lines = [display_text(d, one_line=True) for _, d in choices]  # a socket's text adds no line
        message = f"{name}: {len(exs)} responses on the WebSocket:{listing(lines)}\n"
        if pick is None:
            raise CaptureError(message + "check reads each of them (a HAR's entries are picked by --entry, not "
                               "their responses: record the socket natively to pick one)")
        raise SeveralStreams(message + pick.format(name=name), choices)
    if not 0 <= entry < len(exs):
        raise CaptureError(f"{name}: --entry {entry} is out of range (the socket carries {len(exs)} "
                           f"response{'s' if len(exs) != 1 else ''}, 0–{len(exs) - 1})")
    return exs[entry]
