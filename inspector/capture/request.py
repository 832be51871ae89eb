"""Read a request body from a file (``check --request``, ``live --request``).

Accepts a request body, a ``{"method", "url", "headers", "body"}`` record (as a native capture
header or a HAR entry stores it), or a native capture whose header holds the request.
"""
from __future__ import annotations

import orjson

from inspector.capture.load import NATIVE_FORMAT, CaptureError

_RECORD_KEYS = ("method", "url", "headers")


def load_request_body(path) -> dict:
    """The request body in the file at ``path`` (a JSON object).

    Raises ``CaptureError`` with a one-line message when the file is missing, unreadable, not
    JSON, or not an object.
    """
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise CaptureError(f"{path}: no such request file") from None
    except IsADirectoryError:
        raise CaptureError(f"{path}: is a directory, not a request file") from None
    except OSError as e:
        raise CaptureError(f"{path}: cannot read request: {e.strerror or e}") from None
    raw = raw.lstrip(b"\xef\xbb\xbf")
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        first = raw.split(b"\n", 1)[0]
        try:
            header = orjson.loads(first)
        except orjson.JSONDecodeError:
            raise CaptureError(f"{path}: request is not JSON: {e}") from None
        if not (isinstance(header, dict) and header.get("format") == NATIVE_FORMAT):
            raise CaptureError(f"{path}: request is not JSON: {e}") from None
        body = header.get("request")
    if not isinstance(body, dict):
        raise CaptureError(f"{path}: request must be a JSON object")
    if isinstance(body.get("body"), dict) and any(k in body for k in _RECORD_KEYS):
        body = body["body"]
    return body
