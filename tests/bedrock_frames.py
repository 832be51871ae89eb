"""Build AWS Bedrock event-stream bodies shaped like real ones (tests and ``tests/corpus/bedrock``).

Real Bedrock messages carry the headers ``:event-type``, ``:content-type: application/json``,
``:message-type: event`` in that order, and every payload gets a padding member ``p`` (a prefix
of the alphabet of varying length); InvokeModelWithResponseStream wraps each Anthropic event as
``{"bytes": <base64>, "p": …}`` in a ``chunk`` event. Values here are made up.
"""
from __future__ import annotations

import base64
import itertools

import orjson

from inspector.framing.eventstream import encode_message

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_pads = itertools.count()


def reset() -> None:
    """Start the padding lengths over (each corpus case is built from a fresh start)."""
    global _pads
    _pads = itertools.count()


def pad() -> str:
    return ALPHABET[: 8 + (next(_pads) * 11) % 50]


def event(name: str, payload: dict, *, padded: bool = True) -> bytes:
    """One event message; ``payload`` gets Bedrock's ``p`` member unless ``padded`` is False."""
    body = {**payload, "p": pad()} if padded else payload
    return encode_message({":event-type": name, ":content-type": "application/json", ":message-type": "event"},
                          orjson.dumps(body))


def exception(kind: str, message: str) -> bytes:
    return encode_message({":exception-type": kind, ":content-type": "application/json",
                           ":message-type": "exception"}, orjson.dumps({"message": message}))


def chunk(inner: dict) -> bytes:
    """An InvokeModelWithResponseStream ``chunk`` holding one Anthropic event."""
    return event("chunk", {"bytes": base64.b64encode(orjson.dumps(inner)).decode()})


# ---- ConverseStream events
def message_start() -> bytes:
    return event("messageStart", {"role": "assistant"})


def text(idx: int, t: str) -> bytes:
    return event("contentBlockDelta", {"contentBlockIndex": idx, "delta": {"text": t}})


def tool_start(idx: int, name: str = "get_weather", tid: str = "tooluse_Q2xlYW5TdHJlYW0x") -> bytes:
    return event("contentBlockStart", {"contentBlockIndex": idx, "start": {"toolUse": {"toolUseId": tid, "name": name}}})


def tool_input(idx: int, fragment: str) -> bytes:
    return event("contentBlockDelta", {"contentBlockIndex": idx, "delta": {"toolUse": {"input": fragment}}})


def reasoning(idx: int, **member) -> bytes:
    return event("contentBlockDelta", {"contentBlockIndex": idx, "delta": {"reasoningContent": member}})


def stop(idx: int) -> bytes:
    return event("contentBlockStop", {"contentBlockIndex": idx})


def message_stop(reason: str | None = "end_turn") -> bytes:
    return event("messageStop", {"stopReason": reason} if reason is not None else {})


def metadata(inp: int = 412, out: int = 38) -> bytes:
    return event("metadata", {"usage": {"inputTokens": inp, "outputTokens": out, "totalTokens": inp + out},
                              "metrics": {"latencyMs": 812}})


# ---- Anthropic events (inside chunks)
def a_message_start(model: str = "claude-3-5-haiku-20241022") -> dict:
    return {"type": "message_start", "message": {
        "id": "msg_bdrk_01XyzAbCdEfGhIjKlMnOpQr", "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 412, "output_tokens": 1}}}


def a_text_block(idx: int, *parts: str) -> list[dict]:
    return [{"type": "content_block_start", "index": idx, "content_block": {"type": "text", "text": ""}},
            *({"type": "content_block_delta", "index": idx, "delta": {"type": "text_delta", "text": p}} for p in parts),
            {"type": "content_block_stop", "index": idx}]


def a_tool_block(idx: int, *fragments: str, name: str = "get_weather",
                 tid: str = "toolu_bdrk_01Q2xlYW5TdHJlYW0") -> list[dict]:
    return [{"type": "content_block_start", "index": idx,
             "content_block": {"type": "tool_use", "id": tid, "name": name, "input": {}}},
            *({"type": "content_block_delta", "index": idx, "delta": {"type": "input_json_delta", "partial_json": f}}
              for f in fragments),
            {"type": "content_block_stop", "index": idx}]


def a_end(reason: str = "end_turn") -> list[dict]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
             "usage": {"output_tokens": 38}},
            {"type": "message_stop", "amazon-bedrock-invocationMetrics": {
                "inputTokenCount": 412, "outputTokenCount": 38, "invocationLatency": 812, "firstByteLatency": 305}}]


def native(body: bytes, *, path: str, cuts: list[int] | None = None, end: str = "eof", t0: float = 0.3,
           step: float = 0.02) -> str:
    """A native capture of ``body`` as received over ``path``: ``b64`` records cut at ``cuts`` (byte
    offsets, e.g. inside a prelude), times from ``t0`` every ``step`` seconds."""
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": f"https://bedrock-runtime.us-east-1.amazonaws.com{path}",
                        "headers": {"content-type": "application/json", "authorization": "[redacted]"}, "body": None},
            "response": {"status": 200, "headers": {"content-type": "application/vnd.amazon.eventstream",
                                                    "x-amzn-requestid": "0d3c2b1a-0000-4000-8000-000000000000"}}}
    edges = [0, *sorted(c for c in (cuts or []) if 0 < c < len(body)), len(body)]
    lines = [orjson.dumps(head).decode()]
    t = t0
    for a, b in itertools.pairwise(edges):
        lines.append(orjson.dumps({"t": round(t, 3), "b64": base64.b64encode(body[a:b]).decode()}).decode())
        t += step
    lines.append(orjson.dumps({"t": round(t, 3), "end": end}).decode())
    return "\n".join(lines) + "\n"
