"""Hostile and damaged captures: every record checked at load with a reason, impossible times
flagged (S017) instead of giving nonsense durations, reads bounded (no FIFO, no device, a size cap),
and no command answering a malformed header with a traceback."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from inspector.capture.load import MAX_BYTES, CaptureError, load_all, load_bytes, load_path, read_limited
from inspector.cli import main
from inspector.feeds.run import run_capture
from tests.conftest import ROOT

HEAD = {"format": "stream-inspector-capture", "version": 1, "request": None,
        "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
EVENTS = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant",'
    '"content":[],"model":"x","stop_reason":null}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
]


def native(times, *, head=HEAD, sep="\n", end=None) -> bytes:
    lines = [json.dumps(head)] + [json.dumps({"t": t, "data": e}) for t, e in zip(times, EVENTS)]
    if end is not None:
        lines.append(json.dumps({"t": end, "end": "eof"}))
    return (sep.join(lines) + sep).encode()


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_line_endings_and_bom_are_read(sep, bom):
    cap = load_bytes(bom + native([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], sep=sep))
    assert cap.source_format == "native" and len(cap.chunks) == 6
    s = run_capture(cap)
    assert [f.code for f in s.findings] == [] and s.stop_reason == "end_turn"


def test_nan_in_a_complete_last_record_is_read_not_dropped_as_half_written():
    raw = native([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).decode().replace('"t": 0.6', '"t": NaN').encode()
    cap = load_bytes(raw)
    assert len(cap.chunks) == 6 and not cap.notes
    s = run_capture(cap)
    assert [f.code for f in s.findings] == ["S017"]
    assert "line 7" in s.findings[0].message and "nan" in s.findings[0].message


@pytest.mark.parametrize("times,why", [
    ([0.1, -0.2, 0.3, 0.4, 0.5, 0.6], "negative"),
    ([0.1, 0.2, 1e300, 0.4, 0.5, 0.6], "over"),
    ([0.1, 0.5, 0.2, 0.6, 0.7, 0.8], "earlier than"),
])
def test_impossible_times_are_one_finding_and_durations_stay_sane(times, why):
    s = run_capture(load_bytes(native(times, end=0.9)))
    s017 = [f for f in s.findings if f.code == "S017"]
    assert len(s017) == 1 and why in s017[0].message
    assert 0 <= s.duration_s <= 1.0


def test_a_truly_half_written_last_record_is_still_a_note():
    raw = native([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) + b'{"t": 0.7, "da'
    s = run_capture(load_bytes(raw))
    assert [f.code for f in s.findings] == ["S014"]


@pytest.mark.parametrize("response,reason", [
    ("ok", "'response' must be an object or null, not a string"),
    ({"status": "200"}, "'response.status' must be a whole number"),
    ({"status": 200, "headers": "text/event-stream"}, "'response.headers' must be an object"),
])
def test_malformed_header_is_a_one_line_error_with_the_reason(response, reason):
    with pytest.raises(CaptureError, match=reason.replace(".", r"\.").replace("(", r"\(")):
        load_bytes(native([0.1] * 6, head={**HEAD, "response": response}))


def test_headers_as_a_list_of_pairs_are_converted():
    head = {**HEAD, "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"]]}}
    cap = load_bytes(native([0.1] * 6, head=head))
    assert cap.response["headers"] == {"content-type": "text/event-stream"}


def test_a_bad_record_names_its_line_and_reason():
    raw = native([0.1] * 6).split(b"\n")
    raw[2] = b'{"t": "soon", "data": "x"}'
    with pytest.raises(CaptureError, match=r":3: 't' must be a number"):
        load_bytes(b"\n".join(raw))
    raw[2] = b'{"t": 0.1, "data": "x"'
    with pytest.raises(CaptureError, match=r":3: capture record is not JSON: .+"):
        load_bytes(b"\n".join(raw))


@pytest.mark.parametrize("cmd", ["check", "replay", "compare", "serve", "export"])
def test_no_command_answers_a_malformed_header_with_a_traceback(tmp_path, capsys, cmd):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(native([0.1] * 6, head={**HEAD, "response": "ok"}))
    argv = {"compare": [cmd, str(bad), str(bad)], "export": [cmd, str(bad), "--to", "har"]}.get(cmd, [cmd, str(bad)])
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in err and "'response' must be an object" in err


def test_fifo_and_devices_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        with pytest.raises(CaptureError, match="not a regular file"):
            load_path(path)


def test_size_cap_for_files_and_standard_input(tmp_path, capsys):
    p = tmp_path / "c.jsonl"
    p.write_bytes(native([0.1] * 6))
    with pytest.raises(CaptureError, match=r"over the 100 bytes limit \(--max-size \d+ reads it\)"):
        load_path(p, max_bytes=100)
    assert main(["check", "--max-size", "1K", str(p)]) == 0
    capsys.readouterr()
    proc = subprocess.run([sys.executable, "-m", "inspector", "check", "--max-size", "100", "-"], cwd=ROOT,
                          input=p.read_bytes(), capture_output=True)
    assert proc.returncode == 2 and b"more than 100 bytes, the size limit" in proc.stderr



class _Reads:
    """A binary file that records the size of each ``read`` asked of it."""

    def __init__(self, path) -> None:
        self.f = open(path, "rb")  # noqa: SIM115 - closed by the test
        self.asked: list[int] = []

    def fileno(self) -> int:
        return self.f.fileno()

    def read(self, n: int) -> bytes:
        self.asked.append(n)
        return self.f.read(n)


@pytest.mark.parametrize("stale", [0, 1, 500])
def test_a_file_is_read_with_a_buffer_of_its_size_not_of_the_limit(tmp_path, monkeypatch, stale):
    """``read_limited`` asks for the file's size plus one byte (asking for the 1 GiB limit allocates
    it first); a file that grew since its size was taken is read on to its end."""
    p = tmp_path / "c.sse"
    body = b"data: {}\n\n" * 100
    p.write_bytes(body)
    real = os.fstat  # reports ``stale`` bytes fewer than the file holds: it grew after its size was taken
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result((*real(fd)[:6], real(fd).st_size - stale, *real(fd)[7:])))
    told = len(body) - stale
    f = _Reads(p)
    try:
        assert read_limited(f, MAX_BYTES, name="c.sse") == body
    finally:
        f.f.close()
    assert f.asked == ([told + 1] if not stale else [told + 1, MAX_BYTES - told])
    g = _Reads(p)  # grown past the limit since its size was taken (or over it already): refused
    try:
        with pytest.raises(CaptureError, match="more than 999 bytes"):
            read_limited(g, len(body) - 1, name="c.sse")
    finally:
        g.f.close()


def test_loading_a_file_holds_it_once(tmp_path):
    """``load_all`` of a 2 MB SSE file (blank lines at its end) allocates the file's bytes once and
    little else: no whole-file copy after the read, no buffer of the 1 GiB limit before it."""
    import tracemalloc
    event = b'data: {"choices":[{"delta":{"content":"x"}}]}\n\n'
    p = tmp_path / "big.sse"
    p.write_bytes(event * (2_000_000 // len(event)) + b"\n\n\n")
    tracemalloc.start()
    try:
        [(_, cap)], _ = load_all(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cap.source_format == "sse" and len(cap.chunks[0].data) == p.stat().st_size
    assert peak < p.stat().st_size + 256 * 1024, peak


def test_a_reader_without_a_file_descriptor_is_read_to_the_limit():
    assert read_limited(io.BytesIO(b"data: {}\n\n"), 100, name="-") == b"data: {}\n\n"
    with pytest.raises(CaptureError, match="more than 5 bytes"):
        read_limited(io.BytesIO(b"data: {}\n\n"), 5, name="-")

def test_findings_never_name_an_event_the_stream_does_not_have(tmp_path):
    """S010 on an unterminated last event and S004 on a trailing comment point at real events."""
    body = "".join([EVENTS[0], EVENTS[5]]).rstrip("\n")
    s = run_capture(load_bytes(body.encode()))
    assert {f.code for f in s.findings} >= {"S010"}
    assert all(f.event is None or f.event < len(s.events) for f in s.findings)
    s = run_capture(load_bytes((EVENTS[0] + EVENTS[5] + ": ping").encode()))
    assert {"S004", "S010"} <= {f.code for f in s.findings}
    assert all(f.event is None or f.event < len(s.events) for f in s.findings)
