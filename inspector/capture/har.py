"""HAR import: a streamed exchange out of a browser devtools or proxy export (HAR 1.2).

Why it exists: people share HAR files from Chrome, Firefox, mitmproxy or Charles when a web
client misbehaves on a stream. A HAR holds every request of a page, so this module picks the
streamed response (``text/event-stream`` or NDJSON), takes its body from
``response.content.text`` (base64 when ``encoding`` is ``"base64"``, HAR 1.2 §content) or
rebuilds it from Chrome's ``_eventSourceMessages`` with their arrival times, and keeps the
request and response heads with secrets redacted (``inspector.capture.redact``). A WebSocket entry
(Chrome's ``_webSocketMessages``) is read as a socket (``inspector.capture.har_websocket``).

A HAR written by ``stream-inspector export --to har`` (``inspector.report.har``) also carries, per
entry, the body as it arrived: ``_chunks`` (one native capture record per network chunk, with its
time), ``_end`` (how the body ended) and ``_chunksFromRequest`` (whether times count from the
request). Such an entry is read back exactly as it was exported: same chunks, times, heads
(repeated header names as lists, as the native capture keeps them; an empty method means the
capture had no request, status 0 with no header no response head) and end.

Spec: HAR 1.2 (w3c.github.io/web-performance/specs/HAR/Overview.html, "content", "entries").
"""
from __future__ import annotations

import base64
import binascii
import math

import orjson

from inspector.model.jsondepth import loads
from inspector.capture.clock import Clock
from inspector.capture.errors import CaptureError, SeveralStreams, listing
from inspector.capture import memory
from inspector.capture.har_websocket import is_socket, read_end, read_socket
from inspector.capture.records import read_record
from inspector.capture.redact import redact_headers, redact_url, scrub_secrets
from inspector.model.capture import Capture, Chunk
from inspector.model.display import display_text
from inspector.model.members import object_member

STREAM_TYPES = ("event-stream", "ndjson", "jsonl", "eventstream")
"""Content types that mark a streamed response (``text/event-stream``, ``application/x-ndjson``,
AWS ``application/vnd.amazon.eventstream``…)."""
OLLAMA_PATHS = ("/api/chat", "/api/generate")
"""Ollama may answer its NDJSON stream as ``application/json``: such entries are candidates too."""


def read_entries(raw: bytes, *, name: str = "<input>") -> list:
    """``log.entries`` of a HAR file, parsed once for :func:`entry_capture` to read entry after entry
    (``check --entry all``: parsing the file per entry made that quadratic). Raises ``CaptureError``
    for invalid JSON or no such list, and ``MemoryLimitReached`` before parsing a file whose values
    would not fit."""
    memory.reserve_parse(raw, name)
    try:
        data = loads(raw.lstrip(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError as e:
        raise CaptureError(f"{name}: not valid HAR JSON: {e}") from None
    log = data.get("log") if isinstance(data, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise CaptureError(f"{name}: not a HAR file (no log.entries list)")
    return entries


def streamed_entries(raw: bytes, *, name: str = "<input>") -> list[tuple[int, str]]:
    """The streamed entries of a HAR file as ``(entry, description)``, e.g. ``(3, "entry 3: POST https://…
    200 text/event-stream, 12 kB")``, in file order (what ``check --entry all`` checks one by one).
    Raises ``CaptureError`` for invalid JSON or a missing ``log.entries`` list."""
    entries = read_entries(raw, name=name)
    return [(i, _describe(i, e)) for i, e in enumerate(entries) if isinstance(e, dict) and _is_stream(e)]


def several_streams_message(name: str, choices: list[tuple[int, str]]) -> str:
    """The readable list of a HAR's streamed entries: one per line, then how to pick."""
    lines = [display_text(d, one_line=True) for _, d in choices]  # a HAR's text adds no line
    return (f"{name}: {len(choices)} streamed responses in the HAR:{listing(lines)}\n"
            f"pick one as {name}#N or with --entry N (check --entry all checks each of them)")


def load_har(raw: bytes, *, name: str = "<input>", entry: int | None = None) -> Capture:
    """Read one streamed entry of a HAR file into a ``Capture`` (``source_format`` ``"har"``).

    ``entry`` is the 0-based index in ``log.entries``. Without it, the only streamed entry is
    used; with several, ``SeveralStreams`` (a ``CaptureError``) lists them (method, redacted URL,
    status, content type, size) and asks for ``--entry N``. ``Capture.entry`` describes the one read. Raises ``CaptureError`` for invalid JSON, a missing
    ``log.entries`` list, an out-of-range ``entry``, no streamed entry, or an empty body.
    """
    return entry_capture(read_entries(raw, name=name), name=name, entry=entry)


def entry_capture(entries: list, *, name: str = "<input>", entry: int | None = None) -> Capture:
    """:func:`load_har` on the ``log.entries`` :func:`read_entries` gave."""
    if entry is not None:
        if not 0 <= entry < len(entries):
            raise CaptureError(f"{name}: --entry {entry} is out of range (the HAR has {len(entries)} entries, 0–"
                               f"{max(len(entries) - 1, 0)})")
        chosen = entry
    else:
        cands = [i for i, e in enumerate(entries) if isinstance(e, dict) and _is_stream(e)]
        if not cands:
            raise CaptureError(f"{name}: no streamed response in the HAR ({len(entries)} entries, none "
                               "text/event-stream or NDJSON); pick one with --entry N")
        if len(cands) > 1:
            choices = [(i, _describe(i, entries[i])) for i in cands]
            raise SeveralStreams(several_streams_message(name, choices), choices)
        chosen = cands[0]
    e = entries[chosen]
    if not isinstance(e, dict):
        raise CaptureError(f"{name}: HAR entry {chosen} is not an object")
    if isinstance(e.get("_chunks"), list):
        return _exported(e, f"{name}: HAR entry {chosen}")
    if is_socket(e):  # Chrome's WebSocket entry: the caller cuts it into responses
        head: dict = e["response"] if isinstance(e.get("response"), dict) else {}
        status = head.get("status")
        answer = {"status": status if isinstance(status, int) and not isinstance(status, bool) else None,
                  "headers": redact_headers(_headers(head.get("headers")))}
        cap = read_socket(e, _request(e.get("request")), answer, f"{name}: HAR entry {chosen}")
        cap.entry = _describe(chosen, e)
        return cap
    resp = object_member(e, "response")
    content = object_member(resp, "content")
    cap = Capture(source_format="har", entry=_describe(chosen, e))
    cap.request = _request(e.get("request"))
    cap.response = _response(resp, content)
    msgs = _messages(e, content)
    if msgs:
        # The messages carry arrival times; content.text (when a tool exports both) does not.
        cap.chunks, cap.timing_notes = _rebuild_sse(msgs)
        if isinstance(content.get("text"), str) and content["text"].strip():
            cap.notes.append(f"HAR entry {chosen}: response.content.text ignored; the body was rebuilt from "
                             f"its {len(msgs)} EventSource messages, which carry arrival times")
    else:
        try:
            body = _body(content)
        except (binascii.Error, ValueError):
            raise CaptureError(f"{name}: HAR entry {chosen}: response.content.text is not valid base64") from None
        if not body:
            raise CaptureError(f"{name}: HAR entry {chosen} has no response body (export the HAR with content)")
        cap.chunks = [Chunk(None, body)]
    return cap


# ------------------------------------------------------------------ helpers
def _headers(items, *, lists: bool = False) -> dict:
    """HAR ``[{name, value}]`` -> ``{name: value}``; repeated names are joined with ``, `` (``lists``:
    kept as a list of values, the native capture's shape)."""
    out: dict = {}
    if not isinstance(items, list):
        return out
    lower: dict = {}
    for h in items:
        if not isinstance(h, dict) or not isinstance(h.get("name"), str):
            continue
        n, v = h["name"], str(h.get("value", ""))
        key = lower.get(n.lower())
        if key is None:
            lower[n.lower()] = n
            out[n] = v
        elif lists:
            out[key] = (out[key] if isinstance(out[key], list) else [out[key]]) + [v]
        else:
            out[key] = f"{out[key]}, {v}"
    return out


def _content_type(e: dict) -> str:
    resp = object_member(e, "response")
    for k, v in _headers(resp.get("headers")).items():
        if k.lower() == "content-type":
            return v.lower()
    content = object_member(resp, "content")
    mime = content.get("mimeType")
    return mime.lower() if isinstance(mime, str) else ""


def _str(value) -> str | None:
    """``value`` when it is a string, else None (HAR fields are untrusted JSON)."""
    return value if isinstance(value, str) else None


def _url(e: dict) -> str:
    return _str(object_member(e, "request").get("url")) or ""


def _messages(e: dict, content: dict) -> list:
    msgs = e.get("_eventSourceMessages")
    if not isinstance(msgs, list) or not msgs:
        msgs = content.get("_eventSourceMessages")
    if not isinstance(msgs, list):
        return []
    return [m for m in msgs if isinstance(m, dict)]


def _is_stream(e: dict) -> bool:
    resp = object_member(e, "response")
    content = object_member(resp, "content")
    if isinstance(e.get("_chunks"), list) or _messages(e, content) or is_socket(e):
        return True
    return is_streamed_response(_content_type(e), _url(e))


def is_streamed_response(ctype: str, url: str) -> bool:
    """Whether a recorded response with content type ``ctype`` (lower case) to ``url`` is a stream:
    SSE, NDJSON or AWS event-stream, or JSON from one of Ollama's streaming paths (HAR entries and
    cassette interactions are picked by this)."""
    if any(s in ctype for s in STREAM_TYPES):
        return True
    return "json" in ctype and any(p in url for p in OLLAMA_PATHS)


def _body(content: dict) -> bytes:
    text = content.get("text")
    if not isinstance(text, str):
        return b""
    if str(content.get("encoding", "")).lower() == "base64":
        return base64.b64decode(text, validate=False)
    return text.encode("utf-8", "surrogatepass")


def _size(e: dict) -> int:
    resp = object_member(e, "response")
    content = object_member(resp, "content")
    sent: list = e["_webSocketMessages"] if is_socket(e) else []
    msgs = _messages(e, content) or [m for m in sent if isinstance(m, dict)]
    if msgs:
        return sum(len(str(m.get("data", ""))) for m in msgs)
    try:
        return len(_body(content))
    except (binascii.Error, ValueError):
        size = content.get("size")
        return size if isinstance(size, int) else 0


def _fmt_size(n: int) -> str:
    if n < 1000:
        return f"{n} B"
    if n < 1_000_000:
        return f"{n / 1000:.0f} kB"
    return f"{n / 1_000_000:.1f} MB"


def describe_exchange(label: str, method, url: str, status, ctype: str, size: int) -> str:
    """One line naming a recorded exchange among several, secrets redacted:
    ``entry 3: POST https://… 200 text/event-stream, 12 kB``."""
    return f"{label}: {method or '?'} {redact_url(url)} {'?' if status is None else status} {ctype}, {_fmt_size(size)}"


def _describe(i: int, e: dict) -> str:
    req = object_member(e, "request")
    resp = object_member(e, "response")
    ctype = _content_type(e).split(";")[0].strip() or "?"
    # ``comment``: the capture's name when stream-inspector exported it; browsers leave it out.
    comment = e.get("comment")
    name = scrub_secrets(" ".join(comment.split())) if isinstance(comment, str) else ""
    # a long name keeps its end: the file name is what tells entries apart
    label = f"entry {i}: {name if len(name) <= 120 else '…' + name[-119:]}" if name else f"entry {i}"
    return describe_exchange(label, _str(req.get("method")), _url(e), resp.get("status", "?"), ctype, _size(e))


def _request(req, *, lists: bool = False) -> dict | None:
    if not isinstance(req, dict):
        return None
    body = None
    post = req.get("postData")
    if isinstance(post, dict) and isinstance(post.get("text"), str):
        try:
            body = loads(post["text"])
        except orjson.JSONDecodeError:
            body = post["text"]
    # A method or URL that is not a string (a hand-edited or hostile HAR) is read as absent.
    return {"method": _str(req.get("method")), "url": redact_url(_str(req.get("url")) or ""),
            "headers": redact_headers(_headers(req.get("headers"), lists=lists)), "body": body}


def _exported(e: dict, where: str) -> Capture:
    """An entry ``export --to har`` wrote: the capture exactly as exported (module docstring)."""
    cap = Capture(source_format="har", request_relative=e.get("_chunksFromRequest") is not False)
    req = e.get("request")
    if isinstance(req, dict) and _str(req.get("method")):
        cap.request = _request(req, lists=True)
    resp = object_member(e, "response")
    headers = redact_headers(_headers(resp.get("headers"), lists=True))
    status = resp.get("status")
    if headers or (isinstance(status, int) and not isinstance(status, bool) and status > 0):
        cap.response = {"status": status if isinstance(status, int) and status > 0 else None, "headers": headers}
    clock = Clock()  # times as a native capture's records: impossible ones clamped, S017
    for i, rec in enumerate(e["_chunks"]):
        try:
            item = read_record(rec)
        except ValueError as err:
            raise CaptureError(f"{where}: _chunks[{i}]: {err}") from None
        if not isinstance(item, Chunk):
            raise CaptureError(f"{where}: _chunks[{i}]: an end record belongs in _end")
        item.t = clock.check(item.t, f"_chunks[{i}]")
        cap.chunks.append(item)
    if e.get("_end") is not None:
        cap.end = read_end(e["_end"], f"{where}: _end")
        cap.end.t = clock.check(cap.end.t, "_end")
    cap.timing_notes = clock.notes()
    return cap


def _response(resp: dict, content: dict) -> dict:
    headers = redact_headers(_headers(resp.get("headers")))
    mime = content.get("mimeType")
    if isinstance(mime, str) and mime and not any(k.lower() == "content-type" for k in headers):
        headers["content-type"] = mime
    status = resp.get("status")
    return {"status": status if isinstance(status, int) and not isinstance(status, bool) else None,
            "headers": headers}


def _rebuild_sse(msgs: list) -> tuple[list[Chunk], list[str]]:
    """One SSE event per EventSource message (``eventName``, ``eventId``, ``data``), timed by ``time``.

    Times count from the first message (the HAR's clock for them is not the request's); impossible
    ones are clamped, with the S017 note returned beside the chunks.
    """
    chunks: list[Chunk] = []
    t0 = None
    clock = Clock()
    for i, m in enumerate(msgs):
        lines = []
        ev_name = m.get("eventName")
        if isinstance(ev_name, str) and ev_name and ev_name != "message":
            lines.append(f"event: {ev_name}")
        ev_id = m.get("eventId")
        if isinstance(ev_id, str) and ev_id:
            lines.append(f"id: {ev_id}")
        data = m.get("data")
        data = data if isinstance(data, str) else ("" if data is None else str(data))
        for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            lines.append(f"data: {line}")
        text = "\n".join(lines) + "\n\n"
        t = m.get("time")
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            t = float(t)
            if t0 is None:
                t0 = t if math.isfinite(t) else 0.0
            t = clock.check(round(t - t0, 6), f"_eventSourceMessages[{i}]")
        else:
            t = None
        chunks.append(Chunk(t, text.encode("utf-8", "replace")))
    return chunks, clock.notes()
