"""Masking gaps: a ``Bearer`` credential in any case (RFC 9110 §11.1: the scheme is
case-insensitive), and keys in bytes that are not UTF-8 on their own (a multibyte character cut by
a read boundary, an AWS event-stream frame, a binary WebSocket message) never reach a record."""
from __future__ import annotations

import base64
import json

import pytest

from inspector.capture.keyshapes import maybe_key
from inspector.capture.load import load_path
from inspector.capture.recorder import redact_request
from inspector.capture.records import chunk_record, masked_bytes, read_record, ws_record
from inspector.capture.redact import ChunkScrubber, scrub_secrets
from inspector.framing.eventstream import EventStreamDecoder, encode_message
from inspector.model.frames import FramingIssue
from inspector.report.har import entry

TOKEN = "abcdefghijklmnopqrstuvwx"
KEY = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5"
SECRET = KEY[7:]
CASES = ["bEaReR", "BEARER", "bearer", "BeArEr", "beArer", "BEARer"]


def recorded(records: list[dict]) -> bytes:
    """The bytes a list of chunk records reads back as."""
    return b"".join(read_record(r).data for r in records)  # type: ignore[union-attr]


def leaks(data: bytes, *secrets: str) -> list[str]:
    return [s for s in secrets if s.encode() in data]


@pytest.mark.parametrize("word", CASES)
def test_bearer_in_any_case_is_masked_in_text(word):
    text = f"x {word} {TOKEN} y"
    assert maybe_key(text)
    assert scrub_secrets(text) == f"x {word} [redacted] y"


@pytest.mark.parametrize("word", CASES)
def test_bearer_in_any_case_is_masked_in_a_header_not_named_secret(word):
    req = redact_request({"method": "POST", "url": "https://x.example/v1",
                          "headers": {"x-forwarded-credential-hint": "n/a", "x-debug": f"{word} {TOKEN}"}})
    assert TOKEN not in json.dumps(req)


@pytest.mark.parametrize("cut", [3, 6, 7, 10])
def test_bearer_in_any_case_split_across_chunks(cut):
    text = f"authorization: bEaReR {TOKEN} done\n"
    at = text.index("bEaReR") + cut
    s = ChunkScrubber()
    out = s.scrub(text[:at]) + s.scrub(text[at:])
    assert TOKEN[4:] not in out and "done" in out


def test_bearer_in_any_case_inside_a_long_run_of_deltas():
    """A piece of 64 text deltas (``ChunkScrubber._run``'s fast path) holding a mixed-case credential."""
    def event(text: str) -> str:
        return ('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
                '"delta":{"type":"text_delta","text":' + json.dumps(text) + "}}\n\n")
    piece = "".join(event("word ") for _ in range(40)) + event(f"use bEaReR {TOKEN} now") + \
        "".join(event("more ") for _ in range(23))
    s = ChunkScrubber()
    s.scrub("".join(event("warm ") for _ in range(64)))
    out = s.scrub(piece)
    assert TOKEN not in out and "use bEaReR [redacted] now" in out


def test_a_delta_ending_in_a_mixed_case_scheme_is_followed_into_the_next():
    def event(text: str) -> str:
        return 'data: {"delta":{"text":' + json.dumps(text) + "}}\n\n"
    s = ChunkScrubber()
    out = s.scrub(event("token: bEaReR ")) + s.scrub(event(TOKEN + " ok"))
    assert TOKEN not in out


@pytest.mark.parametrize("where", ["start", "end"])
def test_key_in_a_chunk_cut_inside_a_multibyte_character(where):
    raw = f'data: {{"text":"é {KEY} ü"}}\n\n'.encode()
    cut = raw.index(b"\xc3") + 1 if where == "start" else raw.rindex(b"\xc3") + 1
    s = ChunkScrubber()
    records = [chunk_record(0.1, raw[:cut], s), chunk_record(0.2, raw[cut:], s)]
    assert any("b64" in r for r in records)  # the chunk holding the key is not UTF-8 on its own
    data = recorded(records)
    assert not leaks(data, SECRET) and b"sk-ant-[redacted]" in data
    assert data.replace(b"sk-ant-[redacted]", KEY.encode()) == raw  # every other byte kept


def test_key_split_across_chunks_that_are_not_utf8():
    raw = f'data: {{"text":"é {KEY} ü"}}\n\n'.encode()
    a, b, c = raw.index(b"\xc3") + 1, raw.index(KEY.encode()) + 20, raw.rindex(b"\xc3") + 1
    s = ChunkScrubber()
    records = [chunk_record(0.1, part, s) for part in (raw[:a], raw[a:b], raw[b:c], raw[c:])]
    assert sum("b64" in r for r in records) >= 3
    assert not leaks(recorded(records), KEY[7:20], KEY[20:])


def test_key_in_a_text_websocket_message_that_is_not_utf8():
    rec = ws_record(0.1, "recv", f"é {KEY}".encode()[1:])
    assert "b64" in rec and not leaks(base64.b64decode(rec["b64"]), SECRET)


def test_key_in_a_binary_websocket_message_masked_in_the_same_length():
    data = b"\x00\x01\xff" + f"key {KEY}".encode() + b"\xfe"
    out = base64.b64decode(ws_record(0.1, "recv", data, binary=True)["b64"])
    assert not leaks(out, SECRET) and len(out) == len(data) and out[:3] == data[:3] and out[-1:] == b"\xfe"


def _messages(*texts: str) -> bytes:
    return b"".join(encode_message({":event-type": "contentBlockDelta", ":message-type": "event"},
                                   json.dumps({"delta": {"text": t}}).encode()) for t in texts)


def _decoded(body: bytes) -> list:
    d = EventStreamDecoder()
    return d.feed(body) + d.close()


@pytest.mark.parametrize("size", [7, 37, 4096])
def test_event_stream_chunks_are_masked_and_their_messages_reframed(size):
    body = _messages("hello", f"the key {KEY} here", "é bye")
    s = ChunkScrubber()
    out = recorded([chunk_record(0.1, body[i:i + size], s) for i in range(0, len(body), size)])
    assert not leaks(out, SECRET) and len(out) == len(body)
    items = _decoded(out)
    assert not [i for i in items if isinstance(i, FramingIssue)]  # prelude lengths and CRCs still right
    texts = [json.loads(i.data)["delta"]["text"] for i in items]
    assert texts[0] == "hello" and texts[2] == "é bye" and texts[1].startswith("the key sk-")
    assert texts[1].endswith(" here")  # a key cut by a chunk boundary shows less of its type prefix


def test_a_corrupt_event_stream_message_stays_corrupt_when_masked():
    body = bytearray(_messages(f"the key {KEY} here", "next"))
    first = int.from_bytes(body[:4], "big")
    body[first - 1] ^= 0xFF  # the first message's CRC was wrong on the wire
    out = recorded([chunk_record(0.1, bytes(body), ChunkScrubber())])
    assert not leaks(out, SECRET)
    items = _decoded(out)
    assert [i.code for i in items if isinstance(i, FramingIssue)] == ["S015"]
    assert [json.loads(i.data)["delta"]["text"] for i in items if not isinstance(i, FramingIssue)] == ["next"]


def test_masked_bytes_leaves_bytes_without_a_secret_alone():
    data = b"\xe2\x82 plain text \xff"
    assert masked_bytes(data) is data and masked_bytes(data, ChunkScrubber()) is data


def test_har_export_masks_binary_bodies_and_chunks(tmp_path):
    body = _messages(f"the key {KEY} here", "bye")
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": "https://bedrock.example/model/m/converse-stream", "headers": {}},
            "response": {"status": 200, "headers": {"content-type": "application/vnd.amazon.eventstream"}}}
    lines = [head, {"t": 0.1, "b64": base64.b64encode(body[:50]).decode()},
             {"t": 0.2, "b64": base64.b64encode(body[50:]).decode()}, {"t": 0.3, "end": "eof"}]
    path = tmp_path / "shared.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    har = entry(load_path(path))
    content = har["response"]["content"]
    assert content["encoding"] == "base64"
    whole = base64.b64decode(content["text"])
    assert not leaks(whole, SECRET) and not [i for i in _decoded(whole) if isinstance(i, FramingIssue)]
    assert not leaks(recorded(har["_chunks"]), SECRET)
