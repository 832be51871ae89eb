"""Every transport fault ``live`` promises to report, each against a server misbehaving on purpose.

What each fault becomes (inspector/net/live.py): no connection (refused, DNS, TLS) is a one-line
error and exit 2, with a recording that says why; an HTTP error status is S007 with its body; a
reset or a read timeout mid-stream is S012 with everything received before it kept in the report
and the recording; Ctrl+C is S012 ``cancelled``.
"""
from __future__ import annotations

import json
import signal
import socket

import pytest

from inspector.capture.load import load_path
from tests.e2e.conftest import (ANTHROPIC_OPENING, LOOPBACK, RawServer, run_cli, spawn, sse_event, wait_for,
                                write_request)

OPENING = b"".join(sse_event(e) for e in ANTHROPIC_OPENING)


def live(tmp_path, base_url: str, *extra: str, provider: str = "anthropic", fmt: str = "json"):
    req = write_request(tmp_path)
    return run_cli(["live", "--provider", provider, "--request", req, "--base-url", base_url,
                    "--format", fmt, *extra])


def codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"]]


def finding(report: dict, code: str) -> dict:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, (code, report["findings"])
    return found[0]


# ------------------------------------------------------------------ no connection at all
def test_connection_refused_is_one_line_error_exit_2(tmp_path):
    holder = socket.socket()
    holder.bind((LOOPBACK, 0))  # bound, never listening: connecting is refused, and nobody can take the port
    port = holder.getsockname()[1]
    rec = tmp_path / "refused.jsonl"
    try:
        code, out, err = live(tmp_path, f"http://{LOOPBACK}:{port}", "--record", str(rec))
    finally:
        holder.close()
    assert code == 2
    assert out == ""
    assert err.strip() == f"stream-inspector: live: connection refused by {LOOPBACK}:{port}"
    cap = load_path(rec)  # the recording says what happened: no response, ended reset
    assert cap.response is None and cap.chunks == []
    assert cap.end.kind == "reset" and "connection refused" in cap.end.error


def test_dns_failure_is_one_line_error(tmp_path, monkeypatch):
    # .invalid never resolves (RFC 6761 section 6.4): no connection is attempted anywhere.
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-TESTSECRET123")
    code, out, err = live(tmp_path, "https://nonexistent.invalid", "--timeout", "5")
    assert code == 2 and out == ""
    assert err.startswith("stream-inspector: live: DNS lookup failed for nonexistent.invalid")
    assert len(err.strip().splitlines()) == 1
    assert "TESTSECRET" not in err


def test_tls_error_is_one_line_error(tmp_path, raw_server):
    def plain_http(srv, conn, request):  # answers a TLS ClientHello in plain HTTP
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")

    srv = raw_server(plain_http)
    code, out, err = live(tmp_path, f"https://{LOOPBACK}:{srv.port}", "--timeout", "5")
    assert code == 2 and out == ""
    assert err.startswith(f"stream-inspector: live: TLS error talking to {LOOPBACK}:{srv.port}")
    assert len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ HTTP errors: S007 with the body
@pytest.mark.parametrize("status,reason,body", [
    (500, "Internal Server Error", {"error": {"type": "api_error", "message": "boom inside"}}),
    (529, "Overloaded", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    (401, "Unauthorized", {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}),
])
def test_http_error_status_shows_the_body(tmp_path, raw_server, status, reason, body):
    def answer(srv, conn, request):
        RawServer.head(conn, status, "application/json", reason)
        RawServer.chunk(conn, json.dumps(body).encode())
        RawServer.finish(conn)

    srv = raw_server(answer)
    rec = tmp_path / "err.jsonl"
    code, out, err = live(tmp_path, srv.url, "--record", str(rec))
    assert code == 1, err
    report = json.loads(out)
    s007 = finding(report, "S007")
    assert s007["message"].startswith(f"HTTP {status}: ")
    assert body["error"]["message"] in s007["message"]
    assert "S012" not in codes(report)
    cap = load_path(rec)
    assert cap.response["status"] == status
    assert json.loads(cap.body) == body
    assert cap.end.kind == "eof"


# ------------------------------------------------------------------ broken mid-stream: S012
def test_reset_mid_stream_keeps_what_arrived(tmp_path, raw_server):
    def reset_after_opening(srv, conn, request):
        RawServer.head(conn)
        RawServer.chunk(conn, OPENING)
        srv.hold(0.3)  # let the client read it: unread bytes are dropped by the kernel on RST
        RawServer.reset(conn)  # TCP RST in the middle of the tool call's arguments

    srv = raw_server(reset_after_opening)
    rec = tmp_path / "reset.jsonl"
    code, out, err = live(tmp_path, srv.url, "--record", str(rec))
    assert code == 1, err
    report = json.loads(out)
    s012 = finding(report, "S012")
    assert "(reset)" in s012["message"]
    assert "J005" in codes(report)  # the open tool call is flagged, not executed
    assert report["blocks"][0]["arguments"] == '{"body": "par'
    assert report["events"] == 3
    cap = load_path(rec)
    assert cap.body == OPENING and cap.end.kind == "reset"


def test_closed_mid_body_without_final_chunk_is_reset(tmp_path, raw_server):
    def close_early(srv, conn, request):
        RawServer.head(conn)
        RawServer.chunk(conn, OPENING)
        conn.shutdown(socket.SHUT_RDWR)  # orderly FIN, but the chunked body never terminated

    srv = raw_server(close_early)
    code, out, _ = live(tmp_path, srv.url)
    report = json.loads(out)
    assert "incomplete chunked read" in finding(report, "S012")["message"]
    assert code == 1


def test_stall_longer_than_timeout_is_timeout(tmp_path, raw_server):
    def stall(srv, conn, request):
        RawServer.head(conn)
        RawServer.chunk(conn, OPENING)
        srv.hold()  # then nothing, longer than --timeout

    srv = raw_server(stall)
    rec = tmp_path / "stall.jsonl"
    code, out, err = live(tmp_path, srv.url, "--timeout", "0.4", "--record", str(rec))
    assert code == 1, err
    report = json.loads(out)
    s012 = finding(report, "S012")
    assert "(timeout)" in s012["message"] and "--timeout" in s012["message"]
    assert report["events"] == 3
    cap = load_path(rec)
    assert cap.end.kind == "timeout" and cap.body == OPENING


def test_no_response_head_within_timeout(tmp_path, raw_server):
    srv = raw_server(lambda srv, conn, request: srv.hold())
    code, out, err = live(tmp_path, srv.url, "--timeout", "0.3")
    assert code == 2 and out == ""
    assert err.strip() == "stream-inspector: live: no response head within 0.3 s (--timeout)"


def test_ctrl_c_ends_as_cancelled_with_report_and_recording(tmp_path, raw_server):
    def stall(srv, conn, request):
        RawServer.head(conn)
        RawServer.chunk(conn, OPENING)
        srv.hold()

    srv = raw_server(stall)
    rec = tmp_path / "cancel.jsonl"
    proc = spawn(["live", "--provider", "anthropic", "--request", write_request(tmp_path), "--base-url", srv.url,
                  "--format", "json", "--record", str(rec)])
    try:
        wait_for(lambda: rec.exists() and rec.read_bytes().count(b"\n") >= 2, "the first chunk in the recording")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1, err
    report = json.loads(out)
    assert "(cancelled)" in finding(report, "S012")["message"]
    assert report["events"] == 3
    cap = load_path(rec)
    assert cap.end.kind == "cancelled" and cap.body == OPENING


# ------------------------------------------------------------------ usage errors before sending
def test_missing_key_for_public_api_is_one_line_error(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out, err = run_cli(["live", "--provider", "openai", "--request", write_request(tmp_path),
                              "--format", "json"])
    assert code == 2 and out == ""
    assert err.strip() == ("stream-inspector: live: no API key: set OPENAI_API_KEY "
                           "(or point --base-url at a local server)")


def test_bad_request_file_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run_cli(["live", "--provider", "ollama", "--request", str(bad), "--format", "json"])
    assert code == 2 and out == "" and err.startswith(f"stream-inspector: live: {bad}: not JSON")
    assert len(err.strip().splitlines()) == 1
