"""The AWS event-stream decoder, with botocore's own parser as the oracle.

botocore (``botocore.eventstream.EventStreamBuffer``) decodes the same bytes; ours must give the
same messages, whatever the chunking, and where botocore stops (a bad CRC raises, a truncated
message is silently dropped) ours must say where and go on.
"""
from __future__ import annotations

import random
import struct
import zlib

import pytest
from botocore.eventstream import ChecksumMismatch, EventStreamBuffer

from inspector.framing import choose_decoder
from inspector.framing.eventstream import EventStreamDecoder, encode_message, parse_headers
from inspector.framing.ndjson import NDJSONDecoder
from inspector.framing.sse import SSEDecoder
from inspector.model.frames import Frame, FramingIssue
from tests import bedrock_frames as f


def _decode(body: bytes, pieces: list[int] | None = None) -> list:
    d = EventStreamDecoder()
    out, i = [], 0
    for n in pieces or [len(body)]:
        out += d.feed(body[i:i + n], float(i))
        i += n
    out += d.feed(body[i:], float(i)) if i < len(body) else []
    return out + d.close()


def _botocore(body: bytes) -> list[tuple[str, bytes]]:
    buf = EventStreamBuffer()
    buf.add_data(body)
    out = []
    for m in buf:
        kind = m.headers.get(":message-type")
        name = m.headers.get(":exception-type") if kind == "exception" else m.headers.get(":event-type")
        out.append((name, m.payload))
    return out


def _frames(items) -> list[tuple[str, bytes]]:
    return [(x.event, x.data.encode()) for x in items if isinstance(x, Frame)]


def _turn() -> bytes:
    return b"".join([f.message_start(), f.text(0, "Hé"), f.text(0, "llo 👋"), f.stop(0), f.tool_start(1),
                     f.tool_input(1, '{"a": '), f.tool_input(1, "1}"), f.stop(1), f.message_stop("tool_use"),
                     f.metadata(), f.exception("throttlingException", "slow down")])


def test_same_messages_as_botocore_and_positions():
    body = _turn()
    items = _decode(body)
    assert not [x for x in items if isinstance(x, FramingIssue)]
    assert _frames(items) == _botocore(body)
    offsets = [x.offset for x in items]
    assert offsets[0] == 0
    for a, b in zip(offsets, offsets[1:]):
        assert struct.unpack_from("!I", body, a)[0] == b - a  # each frame starts where the last ended
    assert all(x.line is None and x.named for x in items)


@pytest.mark.parametrize("seed", range(40))
def test_any_chunking_gives_the_same_frames(seed):
    """Splits land inside preludes, headers and payloads; only the times may differ."""
    body = _turn()
    rng = random.Random(seed)
    pieces = [rng.randint(1, 1 + seed % 30) for _ in range(len(body))]
    whole = [(x.event, x.data, x.offset) for x in _decode(body)]
    split = [(x.event, x.data, x.offset) for x in _decode(body, pieces)]
    assert split == whole


def test_every_header_type_matches_botocore():
    headers = (b"\x01a\x00" b"\x01b\x01" b"\x01c\x02\xff" b"\x01d\x03\x01\x00" b"\x01e\x04\x00\x00\x01\x00"
               b"\x01f\x05" + struct.pack("!q", -5) + b"\x01g\x06\x00\x03xyz" b"\x01h\x07\x00\x02hi"
               b"\x01i\x08" + struct.pack("!q", 1700000000000) + b"\x01j\x09" + bytes(range(16)))
    payload = b'{"x": 1}'
    total = 16 + len(headers) + len(payload)
    prelude = struct.pack("!II", total, len(headers))
    prelude += struct.pack("!I", zlib.crc32(prelude))
    msg = prelude + headers + payload
    msg += struct.pack("!I", zlib.crc32(msg))
    buf = EventStreamBuffer()
    buf.add_data(msg)
    oracle = next(iter(buf)).headers
    ours = parse_headers(headers)
    assert set(ours) == set(oracle)
    for k in ours:
        assert ours[k] == oracle[k] or k == "i", k  # botocore turns a timestamp into a datetime
    assert _decode(msg)[0].data == '{"x": 1}'


def test_a_bad_message_crc_is_reported_at_its_offset_and_the_rest_decoded():
    frames = [f.message_start(), f.text(0, "A"), f.text(0, "B"), f.stop(0)]
    bad = bytearray(frames[1])
    bad[-6] ^= 1
    body = frames[0] + bytes(bad) + frames[2] + frames[3]
    buf = EventStreamBuffer()
    buf.add_data(body)
    with pytest.raises(ChecksumMismatch):
        list(buf)  # botocore: the stream is dead here
    items = _decode(body)
    issues = [x for x in items if isinstance(x, FramingIssue)]
    assert [(i.code, i.offset) for i in issues] == [("S015", len(frames[0]))]
    assert "message CRC mismatch" in issues[0].message and f"{len(frames[1])} bytes skipped" in issues[0].message
    frames_out = [x for x in items if isinstance(x, Frame)]
    assert [x.event for x in frames_out] == ["messageStart", "contentBlockDelta", "contentBlockStop"]
    assert '"B"' in frames_out[1].data


def test_a_bad_prelude_is_skipped_to_the_next_valid_prelude():
    frames = [f.message_start(), f.text(0, "A"), f.stop(0)]
    bad = bytearray(frames[1])
    bad[3] ^= 0x40  # the total length
    body = frames[0] + bytes(bad) + frames[2]
    items = _decode(body)
    issue = next(x for x in items if isinstance(x, FramingIssue))
    assert issue.code == "S015" and issue.offset == len(frames[0]) and "prelude CRC mismatch" in issue.message
    assert f"next valid message at byte {len(frames[0]) + len(frames[1])}" in issue.message
    assert [x.event for x in items if isinstance(x, Frame)] == ["messageStart", "contentBlockStop"]
    # the same wherever the chunks are cut
    for n in (1, 2, 5, 13):
        assert [(type(x).__name__, x.offset) for x in _decode(body, [n] * len(body))] == \
               [(type(x).__name__, x.offset) for x in items]


def test_impossible_lengths_with_a_right_prelude_crc_are_corrupt():
    head = struct.pack("!II", 20, 10)  # headers longer than the message can hold
    body = head + struct.pack("!I", zlib.crc32(head)) + b"\x00" * 8 + f.stop(0)
    items = _decode(body)
    assert items[0].code == "S015" and "impossible lengths" in items[0].message
    assert [x.event for x in items if isinstance(x, Frame)] == ["contentBlockStop"]


def test_garbage_to_the_end_is_one_finding():
    body = f.message_start() + b"\x00garbage that never resyncs \x01\x00"
    items = _decode(body)
    issues = [x for x in items if isinstance(x, FramingIssue)]
    assert len(issues) == 1 and issues[0].code == "S015" and "no valid message follows" in issues[0].message


@pytest.mark.parametrize("cut", [5, 11, 40, 3])
def test_a_truncated_message_is_reported_with_what_is_missing(cut):
    last = f.metadata()
    body = f.message_start() + last[:cut]
    assert [name for name, _ in _botocore(body)] == ["messageStart"]  # botocore: silent about the rest
    items = _decode(body)
    issue = items[-1]
    assert issue.code == "S016" and issue.offset == len(body) - cut
    if cut < 12:
        assert f"{cut} of its 12 bytes" in issue.message
    else:
        assert f"{len(last) - cut} missing" in issue.message


def test_invalid_utf8_in_a_payload_is_s001_once():
    bad = encode_message({":event-type": "contentBlockDelta", ":message-type": "event"}, b'{"t": "\xff"}')
    items = _decode(bad + bad)
    assert [x.code for x in items if isinstance(x, FramingIssue)] == ["S001"]
    assert "\ufffd" in items[1].data


def test_error_messages_without_a_payload_say_their_code():
    msg = encode_message({":message-type": "error", ":error-code": "InternalFailure",
                          ":error-message": "boom"}, b"")
    (frame,) = _decode(msg)
    assert frame.event == "error" and '"InternalFailure"' in frame.data and "boom" in frame.data


def test_choose_decoder_by_content_type_and_first_byte():
    es = "application/vnd.amazon.eventstream"
    assert isinstance(choose_decoder(es, b"{"), EventStreamDecoder)
    sniff = choose_decoder("", b"\x00")  # 12 bytes decide, whatever the chunks that bring them
    body = f.message_start()
    assert [sniff.feed(body[i:i + 1], 0.0) for i in range(11)] == [[]] * 11
    assert sniff.feed(body[11:], 1.0)[0].event == "messageStart" and isinstance(sniff.inner, EventStreamDecoder)
    garbage = choose_decoder("", b"\x00")
    garbage.feed(bytes(range(40)), 0.0)
    assert isinstance(garbage.inner, SSEDecoder)
    assert isinstance(choose_decoder("text/event-stream", b"\x00"), SSEDecoder)
    assert isinstance(choose_decoder("", b"{"), NDJSONDecoder)
    assert isinstance(choose_decoder("", b"data: x"), SSEDecoder)
