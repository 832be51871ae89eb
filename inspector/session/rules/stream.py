"""S rules judged by the session itself: S005 event-name-mismatch, S007 http-error, S012 connection-lost.

The framing rules (S001, S009, S010, S011, S013) come from the decoders as ``FramingIssue``s;
S002 is judged when an event's data is parsed; S003, S004, S006 and S008 need the dialect.
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from inspector.capture.redact import clipped
from inspector.model.capture import close_word, normal_end
from inspector.model.websocket import is_upgrade

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.events import EventRecord
    from inspector.session.session import Session

FRAMING_SILENCED_BY_HTTP_ERROR = frozenset({"S002", "S003", "S010"})
"""RULES.md S010: framing rules are not judged on a body already reported under S007."""

STREAM_TYPES = ("text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl",
                "application/vnd.amazon.eventstream")
OLLAMA_JSON = "application/json"
"""Ollama's native API may answer ``application/json`` for an NDJSON stream (RULES.md S007)."""


def content_type(session: "Session") -> str:
    """The response's content type, lower case (empty without a response head)."""
    headers = (session.response or {}).get("headers") or {}
    for k, v in headers.items():
        if k.lower() == "content-type":
            return str(v).lower()
    return ""


def upgraded(session: "Session") -> bool:
    """The response head is a WebSocket handshake's answer: the body is messages (``is_upgrade``)."""
    return is_upgrade(session.response)


def check_response_head(session: "Session") -> None:
    """S007 (first half): mark a response whose status or content type says it is not a stream.

    The finding itself is reported at the end, when the body can be shown in its message.
    """
    if not session.response:
        return
    status = session.response.get("status")
    ctype = content_type(session)
    if isinstance(status, int) and status >= 400:
        session.http_error = True
    elif ctype and not any(s in ctype for s in STREAM_TYPES) and OLLAMA_JSON not in ctype:
        session.http_error = True


def _body_excerpt(session: "Session") -> str:
    text = session.body_head.decode("utf-8", "replace").strip()
    return clipped(text, 500)


def check_end(session: "Session", end: "End") -> None:
    """S007 (reported with the body), S012 connection-lost."""
    resp = session.response
    if resp:
        status = resp.get("status")
        ctype = content_type(session)
        body = _body_excerpt(session) or "(empty body)"
        if isinstance(status, int) and status >= 400:
            session.report("S007", f"HTTP {status}: {body}", event=False)
        elif session.http_error:
            session.report("S007", f"content-type {ctype!r} is not a stream: {body}", event=False)
        elif session.json_body:
            session.report("S007", f"content-type {ctype!r} is not a stream for {session.dialect_name}: {body}",
                           event=False)
    # A client hanging up after the end marker is a normal end (``normal_end``): the SDKs do that
    # (openai-python stops reading at `[DONE]` and closes before the server ends its body).
    if not normal_end(end, session.ended):
        if end.kind == "close":
            session.report("S012", f"transport ended abnormally (WebSocket {close_word(end)})", event=False)
            return
        detail = f": {end.error}" if end.error else ""
        session.report("S012", f"transport ended abnormally ({end.kind}){detail}", event=False)


def _array_stream(session: "Session") -> bool:
    """The body is a JSON array its dialect reads as a stream whatever its content type says
    (``Dialect.array_body``: Gemini's ``streamGenerateContent`` without ``alt=sse``, which Vertex's REST
    transport answers with ``application/json``, PROTOCOLS.md §8)."""
    return (session.dialect is not None and session.dialect.array_body
            and session.body_head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["))


def decide_json_body(session: "Session") -> None:
    """S007 for ``application/json`` outside a dialect that streams with it (``Dialect.json_content_type``:
    Ollama), decided once the dialect is known.

    Framing findings already reported on that body are withdrawn (RULES.md S010: framing rules
    are not judged on a body reported under S007). A Gemini JSON array is a stream whatever its
    content type (``Dialect.array_body``): a content-type S007 marked at the head is withdrawn for it.
    """
    if not session.response:
        return
    if _array_stream(session):
        status = session.response.get("status")
        if not (isinstance(status, int) and status >= 400):
            session.http_error = False
        return
    if session.http_error:
        return
    if OLLAMA_JSON in content_type(session) and not (session.dialect is not None and session.dialect.json_content_type):
        session.http_error = session.json_body = True
        session.findings[:] = [f for f in session.findings if f.code not in FRAMING_SILENCED_BY_HTTP_ERROR]


def check_event_name(session: "Session", ev: "EventRecord") -> None:
    """S005: the SSE ``event:`` field differs from the payload's ``type`` (Anthropic, Responses)."""
    if not ev.named or not isinstance(ev.payload, dict):
        return
    typ = ev.payload.get("type")
    if isinstance(typ, str) and typ != ev.name:
        session.report("S005", f"SSE event name {ev.name!r} but payload type {typ!r} "
                       "(SDKs dispatch on the event name)")
