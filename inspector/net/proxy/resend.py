"""Send a proxied request again, through the proxy (the proxy list's ``R``): does the fault reproduce?

Why this module exists: a stream broke once; the question is whether it breaks again with the
same request. Sending it through the proxy itself (not straight upstream) makes the answer a new
exchange in the list, inspected like the first. The recorded request has its credentials
redacted, so the credential header is filled from the provider's key variable
(``inspector.feeds.exchanges.curl.key_variable``) when it is set, and left out otherwise (a local
upstream needs none; a real provider then answers 401, which the list shows).
"""
from __future__ import annotations

import json
import os

import httpx

from inspector.capture.redact import is_secret_name
from inspector.feeds.exchanges.curl import SKIPPED, key_variable

TIMEOUT = httpx.Timeout(30.0, read=300.0)
"""Seconds to connect and between two reads (a stream may stall: that is what is being tried)."""


def resend_request(ex, proxy_url: str) -> str:
    """Send ``ex``'s method, path, headers and body to ``proxy_url`` (the proxy's own address), read
    the whole answer and return ``"HTTP <status>, <n> bytes"``. Raises ``ValueError`` when the body
    was released from memory, ``httpx.HTTPError`` (an ``OSError``-like failure) when sending fails."""
    req = ex.request or {}
    body = req.get("body")
    if not ex.request_body_held:
        raise ValueError("its body was released from memory (proxy --keep); the recording has it")
    key = os.environ.get(key_variable(ex))
    headers = []
    for name, value in (req.get("headers") or {}).items():
        low = str(name).lower()
        if low in SKIPPED:
            continue
        for one in value if isinstance(value, list) else [value]:
            if is_secret_name(low):
                if key:
                    headers.append((name, f"Bearer {key}" if low == "authorization" else key))
                continue
            headers.append((name, str(one)))
    content = None if body is None else body.encode() if isinstance(body, str) else json.dumps(body).encode()
    size = 0
    with httpx.Client(timeout=TIMEOUT) as client:
        with client.stream(ex.method, proxy_url.rstrip("/") + ex.target, headers=headers, content=content) as r:
            for piece in r.iter_raw():
                size += len(piece)
    return f"HTTP {r.status_code}, {size:,} bytes"
