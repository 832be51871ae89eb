"""HAR 1.2 export: captures as entries any HAR viewer opens, with per-chunk timing kept.

Why it exists: a HAR is what browsers, proxies and bug trackers already exchange. Its standard
fields hold the request, the response head and the whole body (``content.text``, base64 when it
is not UTF-8) with ``timings`` (``wait`` = time to first byte, ``receive`` = the rest); the
stream's shape lives in custom fields (HAR 1.2 allows fields starting with ``_``):

- ``_chunks``: one native capture record per network chunk, ``{"t": seconds, "data": text}`` or
  ``{"t": seconds, "b64": base64}`` (SPEC.md "Capture files");
- ``_end``: how the body ended, ``{"t", "end": "eof"|"reset"|"timeout"|"cancelled", "error"?}`` or null;
- ``_chunksFromRequest``: true when ``t`` counts from the request (native captures), false when
  from the first byte.

A WebSocket's responses give one entry, the socket's, in Chrome's shape (``_webSocketMessages``;
``inspector.capture.har_websocket``) with the close as ``_webSocketClose``.

``inspector.capture.har`` reads such an entry back exactly (round trip: same chunks, times, heads,
end). A capture with no request gets an empty method and URL; one with no response head status 0
(HAR's "no response"). Secrets are redacted on the way out (``inspector.capture.redact``), also
in bodies. Spec: HAR 1.2 (w3c.github.io/web-performance/specs/HAR/Overview.html).
"""
from __future__ import annotations

import base64
from datetime import datetime, timezone
from http import HTTPStatus
from urllib.parse import parse_qsl

import orjson

from inspector import __version__
from inspector.capture.har_websocket import chrome_messages
from inspector.capture.recorder import redact_request, redact_response
from inspector.capture.records import chunk_record, end_record, masked_bytes, pending_record
from inspector.capture.redact import ChunkScrubber, scrub_secrets
from inspector.model.capture import Capture
from inspector.model.display import json_safe
from inspector.model.urls import split_url

HTTP_VERSION = "HTTP/1.1"


def _pairs(headers: dict) -> list[dict]:
    """``{name: value | [values]}`` -> HAR ``[{name, value}]`` (one pair per value)."""
    out = []
    for k, v in (headers or {}).items():
        for one in v if isinstance(v, list) else [v]:
            out.append({"name": str(k), "value": str(one)})
    return out


def _header(headers: dict, name: str) -> str:
    for k, v in (headers or {}).items():
        if str(k).lower() == name:
            return str(v[0] if isinstance(v, list) and v else v)
    return ""


def _ms(t: float | None) -> float:
    return 0.0 if t is None else round(max(t, 0.0) * 1000, 3)


def _request(request: dict | None) -> dict:
    if request is None:
        return {"method": "", "url": "", "httpVersion": HTTP_VERSION, "cookies": [], "headers": [],
                "queryString": [], "headersSize": -1, "bodySize": 0}
    url = request.get("url") or ""
    out = {"method": request.get("method") or "", "url": url, "httpVersion": HTTP_VERSION, "cookies": [],
           "headers": _pairs(request.get("headers") or {}),
           "queryString": [{"name": k, "value": v} for k, v in parse_qsl(split_url(url).query, keep_blank_values=True)],
           "headersSize": -1, "bodySize": 0}
    body = request.get("body")
    if body is not None:
        text = body if isinstance(body, str) else orjson.dumps(body).decode()
        text = scrub_secrets(text)
        out["postData"] = {"mimeType": _header(request.get("headers") or {}, "content-type") or "application/json",
                           "text": text}
        out["bodySize"] = len(text.encode())
    return out


def _content(body: bytes, mime: str) -> dict:
    content: dict = {"size": len(body), "mimeType": mime}
    if body[:1] not in (b"\x00", b"\x01"):  # not an AWS event-stream body (``records._frames``)
        try:
            content["text"] = ChunkScrubber().scrub(body.decode("utf-8"))  # also a key split across events
            return content
        except UnicodeDecodeError:
            pass
    # Bytes masked in place (an event-stream body keeps its framing: ``records.masked_bytes``).
    content["text"] = base64.b64encode(masked_bytes(body, ChunkScrubber(), final=True)).decode("ascii")
    content["encoding"] = "base64"
    return content


def _sniffed_type(body: bytes) -> str:
    """``content.mimeType`` for a capture with no response head (pasted text): NDJSON when the body
    starts with a JSON value, else SSE (the two bodies a pasted stream can be)."""
    return "application/x-ndjson" if body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") else "text/event-stream"


def _response(response: dict | None, body: bytes) -> dict:
    status = response.get("status") if response else None
    headers = (response or {}).get("headers") or {}
    mime = _header(headers, "content-type") or (_sniffed_type(body) if response is None and body else "")
    try:
        phrase = HTTPStatus(status).phrase if status else ""
    except ValueError:
        phrase = ""
    return {"status": status or 0, "statusText": phrase, "httpVersion": HTTP_VERSION, "cookies": [],
            "headers": _pairs(headers), "content": _content(body, mime),
            "redirectURL": "", "headersSize": -1, "bodySize": len(body)}


def _chunks(cap: Capture, scrubber: ChunkScrubber) -> list[dict]:
    """The ``_chunks`` records, times as the capture holds them (not rounded again: the round trip is
    exact), and the bytes an event-stream body's last chunk left waiting (``records.pending_record``)."""
    out = [{**chunk_record(c.t, c.data, scrubber), "t": c.t} for c in cap.chunks]
    pending = pending_record(scrubber)
    if pending is not None:
        out.append({**pending, "t": cap.chunks[-1].t})
    return out


def entry(cap: Capture, *, started: datetime | None = None, name: str | None = None) -> dict:
    """One HAR entry for ``cap`` (secrets redacted). ``started``: when the request was sent
    (``startedDateTime``; default the Unix epoch, as a capture does not record wall time).
    ``name``: the capture's file name, kept in the entry's ``comment`` (HAR 1.2's free-text field)
    so that a reader listing the entries can tell them apart."""
    timed = [c.t for c in cap.chunks if c.t is not None]
    first = timed[0] if timed else None
    last = cap.end.t if cap.end is not None and cap.end.t is not None else (timed[-1] if timed else None)
    wait = _ms(first) if cap.request_relative else 0.0
    receive = round(max(_ms(last) - (_ms(first) if cap.request_relative else 0.0), 0.0), 3) \
        if last is not None and first is not None else 0.0
    when = started or datetime.fromtimestamp(0, timezone.utc)
    named = {"comment": scrub_secrets(name)} if name else {}
    scrubber = ChunkScrubber()  # one per body: a key cut by a chunk boundary or split across events
    return {
        "startedDateTime": when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "time": round(wait + receive, 3),
        "request": _request(redact_request(cap.request)),
        "response": _response(redact_response(cap.response), cap.body),
        "cache": {},
        "timings": {"send": 0, "wait": wait, "receive": receive},
        "_chunks": _chunks(cap, scrubber),
        "_end": {**end_record(cap.end), "t": cap.end.t} if cap.end is not None else None,
        "_chunksFromRequest": cap.request_relative,
        **named,
    }


def socket_entry(sock: Capture, *, started: datetime | None = None, name: str | None = None) -> dict:
    """One HAR entry for a whole recorded WebSocket (``sock.messages`` set), as Chrome writes one:
    the handshake as request and response, ``_resourceType: "websocket"``, the messages as
    ``_webSocketMessages`` (``inspector.capture.har_websocket``), and the close (which Chrome does not
    record) as ``_webSocketClose``, the native end record."""
    when = started or datetime.fromtimestamp(0, timezone.utc)
    stamp = when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    start = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()  # the written, rounded one
    times = [m.t for m in sock.messages or [] if m.t is not None]
    last = sock.end.t if sock.end is not None and sock.end.t is not None else (times[-1] if times else None)
    named = {"comment": scrub_secrets(name)} if name else {}
    return {
        "startedDateTime": stamp,
        "time": _ms(last),
        "request": _request(redact_request({**(sock.request or {}), "body": None})),
        "response": _response(redact_response(sock.response), b""),
        "cache": {},
        "timings": {"send": 0, "wait": 0, "receive": _ms(last)},
        "_resourceType": "websocket",
        "_webSocketMessages": chrome_messages(sock, start),
        "_webSocketClose": end_record(sock.end) if sock.end is not None else None,
        **named,
    }


def entries(caps: list[tuple[Capture, datetime | None, str | None]]) -> list[dict]:
    """One entry per capture; the responses of one WebSocket give one entry, their socket's."""
    out, seen = [], set()
    for cap, started, name in caps:
        if cap.socket is None:
            out.append(entry(cap, started=started, name=name))
        elif id(cap.socket) not in seen:
            seen.add(id(cap.socket))
            out.append(socket_entry(cap.socket, started=started, name=name.split("#")[0] if name else None))
    return out


def document(entries: list[dict]) -> dict:
    """The HAR object (``{"log": {...}}``) holding ``entries``."""
    return {"log": {"version": "1.2", "creator": {"name": "stream-inspector", "version": __version__},
                    "entries": entries}}


BYTE_COST = 12
"""Memory the HAR of a body takes per body byte while it is made: its text in ``_chunks``, again in
``content.text``, the JSON and its string (measured 6 to 10.4, ``bench/bench_memory.py --shapes``)."""
PIECE_COST = 400
"""Memory a chunk or message takes in it beyond its bytes (its record; measured ~320 for 9-byte chunks)."""


def render_cost(caps: list[tuple[Capture, datetime | None, str | None]]) -> int:
    """About how much memory :func:`render` of ``caps`` takes at its peak (checked before it starts:
    it is made whole, out of reach of the memory limit's checks)."""
    total, seen = 0, set()
    for cap, _, _ in caps:
        if cap.socket is None or not cap.socket.messages:
            total += sum(BYTE_COST * len(c.data) + PIECE_COST for c in cap.chunks)
        elif id(cap.socket) not in seen:  # the responses of one WebSocket share its one entry (``entries``)
            seen.add(id(cap.socket))
            total += sum(BYTE_COST * len(m.data) + PIECE_COST for m in cap.socket.messages)
    return total


def render(caps: list[tuple[Capture, datetime | None, str | None]]) -> str:
    """A HAR 1.2 file (indented JSON) with one entry per ``(capture, started, name)``; C1, DEL and bidi
    characters written as ``\\u`` escapes (``json_safe``: the same values; nothing a terminal obeys)."""
    return json_safe(orjson.dumps(document(entries(caps)), option=orjson.OPT_INDENT_2).decode())
