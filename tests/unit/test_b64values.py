"""Secrets inside base64 ``"bytes"`` values (AWS Bedrock's chunks) are masked in any cut of the body
(``b64values``, ``records.masked_bytes``), a body with none comes back byte for byte, the framing
stays valid, and no body, however broken, makes the masking raise or change the body's length."""
from __future__ import annotations

import base64
import random

import orjson
import pytest

from inspector.capture.b64values import StreamValues, mask_b64, mask_b64_values
from inspector.capture.records import chunk_record, masked_bytes, pending_record, read_record
from inspector.capture.redact import ChunkScrubber, mask_in_place
from inspector.framing.eventstream import EventStreamDecoder, encode_message
from inspector.model.frames import FramingIssue
from tests import bedrock_frames as f
from tests.e2e.test_bedrock_secrets import AWS, KEY, SECRETS, SPLIT, body, revealed


def recorded(raw: bytes, cuts: list[int]) -> bytes:
    """``raw`` cut at ``cuts`` and recorded chunk by chunk as the recorder does, read back joined."""
    scrubber, out = ChunkScrubber(), []
    edges = [0, *sorted(set(cuts)), len(raw)]
    for a, b in zip(edges, edges[1:]):
        if b > a:
            out.append(read_record(chunk_record(0.0, raw[a:b], scrubber)).data)
    pending = pending_record(scrubber)
    if pending is not None:
        out.append(read_record(pending).data)
    return b"".join(out)


def decoded(raw: bytes) -> tuple[list[str], list[str]]:
    """The frames' data and the framing issues' codes of an event-stream body."""
    dec = EventStreamDecoder()
    items = dec.feed(raw) + dec.close()
    return ([i.data for i in items if not isinstance(i, FramingIssue)],
            [i.code for i in items if isinstance(i, FramingIssue)])


def clean_body() -> bytes:
    f.reset()
    events = [f.a_message_start(), *f.a_text_block(0, "The weather in Lisbon: sunny, ", "21 degrees."),
              *f.a_tool_block(1, '{"city": "Lis', 'bon"}'), *f.a_end()]
    return b"".join(f.chunk(e) for e in events)


@pytest.mark.parametrize("seed", range(40))
def test_any_cut_of_a_body_with_secrets_is_masked_and_still_decodes(seed):
    rng = random.Random(seed)
    raw = body()
    cuts = rng.sample(range(1, len(raw)), rng.randint(1, 60))
    out = recorded(raw, cuts)
    assert len(out) == len(raw)
    leaked = [s for s in SECRETS if s in revealed(out)]
    assert not leaked, (cuts, leaked)
    frames, issues = decoded(out)
    assert not issues and len(frames) == len(decoded(raw)[0])  # every CRC written anew where bytes changed
    texts = [base64.b64decode(orjson.loads(d)["bytes"]) for d in frames]
    assert all(orjson.loads(t) for t in texts)  # every event still JSON
    assert any(b"[redacted]" in t for t in texts) and any(b"sk-" in t for t in texts)  # the key's type shows


@pytest.mark.parametrize("seed", range(40))
def test_a_body_without_a_secret_is_recorded_byte_for_byte_in_any_cut(seed):
    rng = random.Random(seed)
    raw = clean_body()
    assert recorded(raw, rng.sample(range(1, len(raw)), rng.randint(1, 60))) == raw
    assert masked_bytes(raw, ChunkScrubber(), final=True) == raw


def test_a_chunk_cut_inside_a_quantum_leaves_its_last_characters_to_the_next_record():
    raw = body()
    at = raw.index(b'"bytes":"') + 9 + 6  # 6 characters into the first value: 2 wait
    scrubber = ChunkScrubber()
    first = read_record(chunk_record(0.1, raw[:at], scrubber)).data
    assert first == raw[:at - 2]
    second = read_record(chunk_record(0.2, raw[at:], scrubber)).data
    assert len(first) + len(second) == len(raw) and pending_record(scrubber) is None


def test_the_body_ending_inside_a_quantum_leaves_a_last_record():
    raw = body()
    at = raw.index(b'"bytes":"') + 9 + 7
    scrubber = ChunkScrubber()
    first = read_record(chunk_record(0.1, raw[:at], scrubber))
    last = read_record(pending_record(scrubber))
    assert first.data + last.data == raw[:at] and last.t == 0.1


def test_a_key_split_across_two_events_is_masked_in_each():
    raw = body()
    out = masked_bytes(raw, ChunkScrubber(), final=True)
    texts = [base64.b64decode(orjson.loads(d)["bytes"]).decode() for d in decoded(out)[0]]
    joined = "".join(texts)
    assert SPLIT[9:] not in joined and SPLIT[:7] in joined and AWS[4:] not in joined and KEY[7:] not in joined


def test_whole_values_in_a_text():
    inner = orjson.dumps({"type": "content_block_delta", "delta": {"type": "text_delta", "text": f"key {KEY}"}})
    value = base64.b64encode(inner).decode()
    text = f'{{"bytes":"{value}","p":"abc"}}'
    out = mask_b64_values(text, mask_in_place)
    assert len(out) == len(text) and KEY[7:] not in revealed(out)
    assert b"sk-ant-[redacted]" in base64.b64decode(orjson.loads(out)["bytes"])
    clean = f'{{"bytes":"{base64.b64encode(b"{}").decode()}"}}'
    assert mask_b64_values(clean, mask_in_place) is clean and mask_b64_values("no values", mask_in_place) == "no values"


HOSTILE_VALUES = [
    base64.b64encode(f"key {KEY}".encode()).decode().replace("/", "\\/"),  # escaped slashes: valid JSON
    base64.b64encode(f"key {KEY}".encode()).decode()[:-3] + "!" + "abc",  # a stray character
    base64.b64encode(f"key {KEY}".encode()).decode()[:20] + "=" + base64.b64encode(f"x {KEY}".encode()).decode(),
    "\\u0041" + base64.b64encode(f"key {KEY}".encode()).decode()[1:],  # an escaped letter
    base64.b64encode(f"key {KEY}".encode()).decode()[:-1],  # cut: not a multiple of 4
]


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_a_value_that_is_no_plain_base64_hides_what_it_decodes_to(value):
    shown = mask_b64(value, mask_in_place)
    assert len(shown) == len(value) and KEY[7:] not in revealed(shown)
    assert KEY[7:] not in revealed(orjson.loads(f'"{shown}"'))
    payload = f'{{"bytes":"{value}"}}'.encode()
    raw = encode_message({":event-type": "chunk"}, payload)
    for cut in range(1, len(raw)):
        out = recorded(raw, [cut])
        assert len(out) == len(raw) and not decoded(out)[1], cut
        assert KEY[7:] not in revealed(orjson.loads(decoded(out)[0][0])["bytes"]), cut


@pytest.mark.parametrize("seed", range(30))
def test_broken_bodies_never_raise_and_keep_their_length(seed):
    rng = random.Random(seed)
    raw = bytearray(body())
    for _ in range(rng.randint(1, 8)):  # flip, drop or insert bytes anywhere (frames, CRCs, base64)
        at = rng.randrange(len(raw))
        kind = rng.random()
        if kind < 0.4:
            raw[at] = rng.randrange(256)
        elif kind < 0.7:
            del raw[at:at + rng.randint(1, 40)]
        else:
            raw[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
    raw = bytes(raw[:rng.randint(1, len(raw))])
    out = recorded(raw, rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(0, 30))))
    assert len(out) == len(raw)
    values = StreamValues(mask_in_place)
    assert len(values.feed(raw) + values.flush()) == len(raw)
    assert len(mask_b64_values(raw.decode("latin-1"), mask_in_place)) == len(raw)


def test_a_value_after_a_broken_prelude_or_inside_a_header_is_masked_too():
    """A decoder looks for the next valid message after a prelude with impossible lengths (S015),
    and that message may carry a key: the masking goes on there, framing or not. Its CRC is not
    written anew (the framing is no longer followed): the recording shows it as corrupt too."""
    inner = base64.b64encode(orjson.dumps({"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "text_delta", "text": f"key {KEY}"}})).decode()
    message = encode_message({":event-type": "chunk"}, f'{{"bytes":"{inner}"}}'.encode())
    broken = b"\x00\x00\x00\x05" + b"\x00" * 8  # a total of 5 bytes: no message is that short
    in_header = encode_message({":event-type": "chunk", "x": f'"bytes":"{inner}"'}, b"{}")
    for raw in (broken + message, in_header, in_header + message):
        for cut in range(1, len(raw), 7):
            out = recorded(raw, [cut])
            assert len(out) == len(raw) and KEY[7:] not in revealed(out), cut
    assert decoded(broken + message)[0] and not decoded(recorded(broken + message, [30]))[0]  # see below
