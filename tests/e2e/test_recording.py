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
        wait_for(lambda: len(sent) == total and _body(rec) == b"".join(sent), "every chunk to reach the recording", timeout=60)  # a loaded machine starts `live` slowly
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


CHAT_ID_REPEATED = [
    {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1, "choices": [{"index": 0, "delta": {
        "role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                             "function": {"name": "f", "arguments": "{\"a\""}}]}}]},
    {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1, "choices": [{"index": 0, "delta": {
        "tool_calls": [{"index": 0, "id": "call_1", "function": {"arguments": ": 1}"}}]}}]},
    {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1,
     "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
]


def test_a_finding_points_at_the_same_capture_line_live_and_from_the_recording(tmp_path, raw_server):
    """Issue 23 item 14: one definition of a line, the capture line (RULES.md preamble). Live, a
    finding points at the line its chunk has in the recording, which is what ``check`` says later;
    and the proxy's report agrees with ``check`` of the proxy's recording."""
    from inspector.net.proxy.server import ProxyThread

    def answer(srv, conn, request):
        RawServer.head(conn)
        RawServer.chunk(conn, b": keep-alive\n\n")  # a chunk before the events: body and capture lines part
        for c in CHAT_ID_REPEATED:
            RawServer.chunk(conn, b"data: " + json.dumps(c).encode() + b"\n\n")
        RawServer.chunk(conn, b"data: [DONE]\n\n")
        RawServer.finish(conn)

    srv = raw_server(answer)
    rec = tmp_path / "lines.jsonl"
    _, out, _ = run_cli(["live", "--provider", "openai", "--request", write_request(tmp_path),
                         "--base-url", srv.url, "--format", "json", "--record", str(rec)])
    live = [(f["code"], f["event"], f["line"]) for f in json.loads(out)["findings"]]
    _, out2, _ = run_cli(["check", "--format", "json", str(rec)])
    checked = [(f["code"], f["event"], f["line"]) for f in json.loads(out2)["findings"]]
    assert ("C012", 1, 4) in checked  # the 2nd event is in the 3rd chunk record: line 4 of the file
    assert live == checked

    (tmp_path / "rec").mkdir()
    with ProxyThread(srv.url, record_dir=tmp_path / "rec") as px:
        import httpx

        httpx.post(px.url + "/v1/chat/completions", json={"stream": True}, timeout=10).read()
        [report] = px.wait_reports(1)
    [recorded] = (tmp_path / "rec").iterdir()
    _, out3, _ = run_cli(["check", "--format", "json", str(recorded)])
    assert [(f["code"], f["line"]) for f in report["findings"]] == \
        [(f["code"], f["line"]) for f in json.loads(out3)["findings"]]
