"""Recorder (native capture writer) and redaction: round trips, flushing, secrets."""
from __future__ import annotations

import orjson
import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import Recorder
from inspector.capture.records import chunk_record
from inspector.capture.redact import REDACTED, redact_headers, redact_url

SECRET = "sk-ant-TESTSECRET123"


def _lines(path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_header_chunks_and_end_round_trip_exact_bytes(tmp_path):
    p = tmp_path / "c.jsonl"
    chunks = [b"event: a\ndata: {\"x\": \"\xc3", b"\xa9\"}\n\n", b"\xff\xfe not utf-8", "é ✓\n".encode()]
    with Recorder(p, {"method": "POST", "url": "http://x/v1", "headers": {}, "body": {"a": 1}},
                  {"status": 200, "headers": {"content-type": "text/event-stream"}}) as rec:
        for i, c in enumerate(chunks):
            rec.chunk(0.1 * i, c)
        rec.end("reset", 0.5, "peer closed")
    cap = load_path(p)
    assert [c.data for c in cap.chunks] == chunks
    assert [c.t for c in cap.chunks] == [0.0, 0.1, 0.2, 0.3]  # microseconds
    assert (cap.end.kind, cap.end.t, cap.end.error) == ("reset", 0.5, "peer closed")
    assert cap.response["status"] == 200 and cap.request["body"] == {"a": 1}
    kinds = [next(k for k in ("data", "b64", "end") if k in rec) for rec in _lines(p)[1:]]
    assert kinds == ["b64", "b64", "b64", "data", "end"]  # a UTF-8 character split over chunks goes as b64


def test_a_batch_of_chunks_is_written_as_the_same_lines_in_one_write(tmp_path):
    """``write_chunks`` (the proxy's batches, issue 32): the lines ``chunk`` writes one by one,
    a key cut in two across the batch masked as across two calls, empty chunks skipped, one write."""
    chunks = [(0.1, b'data: {"text":"key sk-ant-api03-'), (0.2, b""), (0.3, b'abcdefghijklmnopqrstuvwxyz"}\n\n'),
              (0.4, b"\xff not utf-8"), (0.5, "é ✓\n".encode())]
    one, batch = tmp_path / "one.jsonl", tmp_path / "batch.jsonl"
    with Recorder(one) as rec:
        for t, data in chunks:
            rec.chunk(t, data)
    with Recorder(batch) as rec:
        writes = []
        real = rec._f.write
        rec._f.write = lambda b: writes.append(bytes(b)) or real(b)
        rec.write_chunks(chunks)
        rec._f.write = real
        assert rec.chunks == 4
    assert len(writes) == 1 and writes[0].count(b"\n") == 4
    assert batch.read_bytes() == one.read_bytes()
    assert b"abcdefghijklmnop" not in batch.read_bytes()


def test_chunk_record_prefers_data_for_valid_utf8():
    assert chunk_record(1.0, "ok ✓".encode()) == {"t": 1.0, "data": "ok ✓"}
    assert chunk_record(None, b"\x80") == {"t": None, "b64": "gA=="}


def test_each_record_is_on_disk_as_soon_as_it_is_written(tmp_path):
    p = tmp_path / "c.jsonl"
    rec = Recorder(p, None, None)
    assert p.read_bytes().endswith(b"\n") and len(_lines(p)) == 1
    rec.chunk(0.25, b"data: 1\n\n")
    assert _lines(p)[-1] == {"t": 0.25, "data": "data: 1\n\n"}  # read through another handle: no buffering
    rec.chunk(0.3, b"")  # empty reads are not chunks
    assert len(_lines(p)) == 2
    rec.close(0.4)
    assert _lines(p)[-1]["end"] == "cancelled"  # abandoned before an end: says so
    rec.close()  # idempotent


def test_end_is_written_once_and_checked():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "c.jsonl"
        with Recorder(p) as rec:
            with pytest.raises(ValueError):
                rec.end("exploded", 1.0)
            rec.end("eof", 1.0)
            rec.end("reset", 2.0)
            rec.chunk(3.0, b"late")
        assert [r.get("end") for r in _lines(p)[1:]] == ["eof"]


def test_secrets_in_request_and_response_headers_and_url_are_redacted(tmp_path):
    p = tmp_path / "c.jsonl"
    request = {"method": "POST", "url": f"https://h/v1beta/m:streamGenerateContent?alt=sse&key={SECRET}",
               "headers": {"X-Api-Key": SECRET, "authorization": f"Bearer {SECRET}", "x-goog-api-key": SECRET,
                           "api-key": SECRET, "Cookie": f"s={SECRET}", "anthropic-version": "2023-06-01"},
               "body": {"model": "m"}}
    response = {"status": 200, "headers": {"set-cookie": [f"a={SECRET}", "b=2"], "content-type": "text/event-stream"}}
    Recorder(p, request, response).close()
    raw = p.read_text()
    assert SECRET not in raw
    head = _lines(p)[0]
    assert head["request"]["url"] == f"https://h/v1beta/m:streamGenerateContent?alt=sse&key={REDACTED}"
    assert head["request"]["headers"]["anthropic-version"] == "2023-06-01"
    assert head["request"]["headers"]["X-Api-Key"] == REDACTED
    assert head["response"]["headers"]["set-cookie"] in (REDACTED, [REDACTED, REDACTED])
    assert request["headers"]["X-Api-Key"] == SECRET  # the caller's dict is not modified


@pytest.mark.parametrize("url,want", [
    ("https://h/p?key=abc", "https://h/p?key=[redacted]"),
    ("https://h/p?alt=sse&KEY=abc#frag", "https://h/p?alt=sse&KEY=[redacted]#frag"),
    ("https://h/p?monkey=abc&key=x", "https://h/p?monkey=abc&key=[redacted]"),
    ("https://user:pw@h/p", "https://user:[redacted]@h/p"),
    ("http://127.0.0.1:8765/v1/messages", "http://127.0.0.1:8765/v1/messages"),
    (None, None),
])
def test_redact_url(url, want):
    assert redact_url(url) == want


def test_redact_headers_is_case_insensitive_and_keeps_others():
    assert redact_headers({"Authorization": "Bearer x", "Accept": "text/event-stream"}) == \
        {"Authorization": REDACTED, "Accept": "text/event-stream"}
    assert redact_headers(None) == {}


def test_a_write_error_stops_recording_but_not_the_stream(tmp_path, monkeypatch, capsys):
    """live: a recording that fails (disk full) says so once; the inspected stream goes on."""
    from inspector.net import live

    rec = Recorder(tmp_path / "c.jsonl")

    def full(*_):
        raise OSError(28, "No space left on device")

    assert live._record(rec, full, 1.0, b"x") is None
    assert "recording to" in capsys.readouterr().err and rec._f.closed


def test_a_key_echoed_in_a_body_or_error_never_reaches_the_file(tmp_path):
    from inspector.capture.recorder import Recorder

    p = tmp_path / "echo.jsonl"
    rec = Recorder(p, {"method": "POST", "url": "http://127.0.0.1/v1/messages", "headers": {}, "body": None},
                   {"status": 401, "headers": {"content-type": "application/json"}})
    rec.chunk(0.1, b'{"error": {"message": "Incorrect API key provided: sk-ant-TESTSECRET123"}}')
    rec.end("reset", 0.2, "upstream said: invalid x-api-key sk-ant-TESTSECRET123")
    rec.close()
    text = p.read_text()
    assert "TESTSECRET123" not in text and "sk-ant-[redacted]" in text


def test_finding_messages_mask_keys():
    from inspector.session.session import Session

    f = Session().report_at("S007", "HTTP 401: bad key sk-proj-abcdefghijklmnopqrstuvwx", event=None, line=None, t=None)
    assert "abcdefghij" not in f.message and "[redacted]" in f.message
