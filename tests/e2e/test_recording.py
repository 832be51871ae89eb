"""``live --record``: the native capture written as the stream arrives survives a SIGKILL.

Every record is one write() on an unbuffered file, so a process killed mid-stream leaves a capture
with every chunk received before the kill; ``check`` and ``replay`` read it (no ``end`` line: the
stream is judged as far as it got).
"""
from __future__ import annotations

import json
import signal

from inspector.capture.load import CaptureError, load_path
from tests.e2e.conftest import ANTHROPIC_OPENING, RawServer, run_cli, spawn, sse_event, wait_for, write_request


def _body(path) -> bytes | None:
    try:
        return load_path(path).body
    except CaptureError:  # not created yet
        return None


def test_sigkilled_recorder_leaves_a_capture_that_replays(tmp_path, raw_server):
    events = [sse_event(e) for e in ANTHROPIC_OPENING]
    more = [sse_event({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "input_json_delta", "partial_json": f"t{i} ✓ "}}) for i in range(5)]
    sent: list[bytes] = []

    def trickle(srv, conn, request):
        RawServer.head(conn)
        for piece in events + more:
            RawServer.chunk(conn, piece)
            sent.append(piece)
            srv.hold(0.02)
        srv.hold()  # stays open: the client is killed while waiting for more

    srv = raw_server(trickle)
    rec = tmp_path / "killed.jsonl"
    proc = spawn(["live", "--provider", "anthropic", "--request", write_request(tmp_path), "--base-url", srv.url,
                  "--format", "json", "--record", str(rec)])
    try:
        total = len(events) + len(more)
        wait_for(lambda: len(sent) == total and _body(rec) == b"".join(sent), "every chunk to reach the recording")
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGKILL

    cap = load_path(rec)
    assert cap.body == b"".join(sent)  # nothing lost
    assert cap.end is None  # killed: no end line, and no half line either
    assert cap.notes == []
    assert cap.request["headers"]["anthropic-version"] == "2023-06-01"
    assert cap.response["status"] == 200

    code, out, err = run_cli(["check", "--format", "json", str(rec)])
    report = json.loads(out)
    assert err == ""
    assert report["dialect"] == "anthropic-messages"
    assert report["events"] == total
    assert report["blocks"][0]["arguments"].startswith('{"body": "part0 ✓ t1 ✓ ')
    assert "J005" in [f["code"] for f in report["findings"]]  # still-open tool call: do not execute
    assert code == 1


def test_half_written_last_line_is_dropped_with_a_note(tmp_path, raw_server):
    """What a kill *during* a write would leave: the loader keeps every whole record."""
    def answer(srv, conn, request):
        RawServer.head(conn)
        for e in ANTHROPIC_OPENING:
            RawServer.chunk(conn, sse_event(e))
        RawServer.finish(conn)

    srv = raw_server(answer)
    rec = tmp_path / "cut.jsonl"
    code, _, _ = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                          "--base-url", srv.url, "--format", "json", "--record", str(rec)])
    whole = load_path(rec)
    with open(rec, "ab") as f:
        f.write(b'{"t": 9.5, "data": "event: content_block_del')
    cut = load_path(rec)
    assert cut.body == whole.body and cut.end is not None
    assert cut.notes and "half-written" in cut.notes[0]
    code, out, _ = run_cli(["check", "--format", "json", str(rec)])
    assert json.loads(out)["events"] == len(ANTHROPIC_OPENING)


def test_recording_replays_to_the_live_report(tmp_path, raw_server):
    """What ``live`` saw and what ``check`` later reads from the recording are the same stream."""
    def answer(srv, conn, request):
        RawServer.head(conn)
        body = b"".join(sse_event(e) for e in ANTHROPIC_OPENING)
        for i in range(0, len(body), 37):  # chunks that split events, lines and JSON
            RawServer.chunk(conn, body[i:i + 37])
        RawServer.finish(conn)

    srv = raw_server(answer)
    rec = tmp_path / "same.jsonl"
    code, out, _ = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                            "--base-url", srv.url, "--format", "json", "--record", str(rec)])
    live_report = json.loads(out)
    code2, out2, _ = run_cli(["check", "--format", "json", str(rec)])
    check_report = json.loads(out2)
    assert code == code2 == 1
    for key in ("dialect", "events", "duration_s", "ttfb_s", "stop_reason", "blocks", "findings"):
        assert check_report[key] == live_report[key], key
