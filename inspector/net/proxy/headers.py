"""Header forwarding: which request and response fields cross the proxy (RFC 9110 section 7.6.1).

Connection-specific (hop-by-hop) fields describe one connection, not the message: they are
dropped both ways, with every field the ``Connection`` header names. ``content-length`` and
``content-encoding`` of a response stay: its body is passed on exactly as received.

Imports: ``inspector.net.serve`` (for ``HOP_BY_HOP``) only; pure functions.
"""
from __future__ import annotations

from inspector.net.serve import HOP_BY_HOP

_REQUEST_DROPPED = HOP_BY_HOP | {"host", "content-length"}
"""Not forwarded: connection-specific fields, ``host`` (httpx sets the upstream's) and
``content-length`` (httpx sets it from the body it sends, which is the body received)."""

_RESPONSE_DROPPED = HOP_BY_HOP
"""Not passed back: connection-specific fields (uvicorn frames the body itself). ``content-length``
and ``content-encoding`` stay: the body bytes are passed on exactly as received."""


def _connection_tokens(headers) -> set[bytes]:
    out: set[bytes] = set()
    for k, v in headers:
        if k.lower() == b"connection":
            out |= {t.strip().lower() for t in v.split(b",") if t.strip()}
    return out


def forward_request_headers(raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The client's request headers minus hop-by-hop fields (and those ``Connection`` names), host, length."""
    drop = _connection_tokens(raw)
    return [(k, v) for k, v in raw if k.lower().decode("latin-1") not in _REQUEST_DROPPED and k.lower() not in drop]


def forward_response_headers(raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers for the client: hop-by-hop fields dropped, names lower-cased."""
    drop = _connection_tokens(raw)
    out = []
    for k, v in raw:
        lk = k.lower()
        if lk.decode("latin-1") in _RESPONSE_DROPPED or lk in drop:
            continue
        out.append((lk, v))
    return out


def headers_dict(raw) -> dict:
    """``{lower-case name: value}`` from ``(name, value)`` pairs (bytes or str); a repeated name keeps
    every value (a list)."""
    out: dict = {}
    for k, v in raw:
        name = (k.decode("latin-1") if isinstance(k, bytes) else str(k)).lower()
        value = v.decode("latin-1") if isinstance(v, bytes) else str(v)
        if name in out:
            out[name] = (out[name] if isinstance(out[name], list) else [out[name]]) + [value]
        else:
            out[name] = value
    return out
