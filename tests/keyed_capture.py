"""A capture with a key-shaped string in every place a stream or its request carries wire text,
for the tests that hold "secrets never reach a file or the screen unmasked" for each sink.

Keys (Anthropic shape, random bodies): in a thinking block and a text block (each split over two
deltas), in tool arguments (split, and one written with a JSON ``\\u`` escape), as a tool name
(which V001 quotes), a JSON member name in tool arguments, a tool id, a ``stop_reason``, a value a schema violation quotes (V002), an
error message, a signature, the request's URL query (a parameter not named as a secret), a request
header not named as a secret (and one named by a key), and the request body (in a text, and as a member name)."""
from __future__ import annotations

import random

from tests.ui.capture_factory import native, sse

PLACES = ("text", "thinking", "args", "escaped", "member", "name", "id", "stop", "signature", "error", "url",
          "header", "header_name", "body", "body_member")


def keyed_capture(seed: int = 3, drop_event: int | None = None) -> tuple[str, dict[str, str]]:
    """``(native capture text, {place: the secret part of the key put there})``. ``drop_event``:
    leave that event out (a second, different stream of the same answer for diff and compare)."""
    rng = random.Random(seed)
    secret = {p: "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789") for _ in range(40))
              for p in PLACES}
    key = {p: "sk-ant-api03-" + s for p, s in secret.items()}
    key["escaped"] = "sk-\\u0061nt-api03-" + secret["escaped"]
    request = {"method": "POST", "url": "https://api.anthropic.com/v1/messages?note=" + key["url"],
               "headers": {"x-api-key": "[redacted]", "anthropic-version": "2023-06-01", "x-note": key["header"],
                           key["header_name"]: "1"},
               "body": {"model": "claude-x", "max_tokens": 1024, "stream": True,
                        "tools": [{"name": "save", "input_schema": {
                            "type": "object", "required": ["token"],
                            "properties": {"token": {"type": "string", "maxLength": 5}}}}],
                        "messages": [{"role": "user", "content": "my key is " + key["body"]}],
                        "metadata": {key["body_member"]: 1}}}

    def delta(i: int, kind: str, field: str, value: str) -> tuple[str, dict]:
        return "content_block_delta", {"type": "content_block_delta", "index": i,
                                       "delta": {"type": kind, field: value}}

    def block(i: int, content: dict) -> tuple[str, dict]:
        return "content_block_start", {"type": "content_block_start", "index": i, "content_block": content}

    def stop(i: int) -> tuple[str, dict]:
        return "content_block_stop", {"type": "content_block_stop", "index": i}

    events = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": [],
            "usage": {"input_tokens": 1}}}),
        block(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, "thinking_delta", "thinking", "the key " + key["thinking"][:15]),
        delta(0, "thinking_delta", "thinking", key["thinking"][15:] + " ok"),
        delta(0, "signature_delta", "signature", key["signature"]),
        stop(0),
        block(1, {"type": "text", "text": ""}),
        delta(1, "text_delta", "text", "Use " + key["text"][:18]),
        delta(1, "text_delta", "text", key["text"][18:] + " please."),
        stop(1),
        block(2, {"type": "tool_use", "id": key["id"], "name": "save", "input": {}}),
        delta(2, "input_json_delta", "partial_json", '{"token": "' + key["args"][:20]),
        delta(2, "input_json_delta", "partial_json", key["args"][20:] + '", "e": "' + key["escaped"] + '"}'),
        stop(2),
        block(3, {"type": "tool_use", "id": "toolu_2", "name": key["name"], "input": {}}),
        delta(3, "input_json_delta", "partial_json", '{"n": 1, "' + key["member"] + '": 2}'),
        stop(3),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": key["stop"]},
                           "usage": {"output_tokens": 3}}),
        ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "bad " + key["error"]}}),
        ("message_stop", {"type": "message_stop"})]
    if drop_event is not None:
        del events[drop_event]
    return native(request, [(0.1 * i, sse(n, p)) for i, (n, p) in enumerate(events)], 3.0), secret


def leaked(text: str, secret: dict[str, str], width: int = 10) -> list[str]:
    """The places whose key shows ``width`` characters of its secret part in ``text`` (also across
    a line break, and in JSON-escaped text)."""
    variants = (text, text.replace("\n", ""), text.replace("\\\\", "\\"))
    return [p for p, s in secret.items()
            if any(s[i:i + width] in v for v in variants for i in range(len(s) - width + 1))]
