"""``serve``: what a client sees on the wire (status, headers, bytes, how the body ends), and the CLI."""
from __future__ import annotations

import signal
import socket

import httpx
import pytest

from inspector.model.capture import Capture, Chunk, End
from inspector.net.serve import ServerThread, response_headers
from inspector.net.servers import is_loopback
from tests.e2e.conftest import spawn

SSE = b"event: ping\ndata: {\"type\": \"ping\"}\n\n"


def native(status=200, headers=None, chunks=((0.0, SSE),), end=("eof", 0.0)) -> Capture:
    return Capture(chunks=[Chunk(t, d) for t, d in chunks], response={"status": status, "headers": headers or {}},
                   end=End(end[1], end[0]), source_format="native", request_relative=True)


def test_status_and_headers_as_recorded_minus_hop_by_hop():
    cap = native(529, {"Content-Type": "application/json", "request-id": "req_1", "Content-Length": "999",
                       "Transfer-Encoding": "chunked", "Connection": "keep-alive", "date": "x",
                       "content-encoding": "gzip", "x-api-key": "[redacted]"}, chunks=((0.0, b'{"e": 1}'),))
    with ServerThread([("o", cap)], instant=True) as srv:
        r = httpx.post(srv.url + "/v1/messages", json={"stream": True})
    assert r.status_code == 529
    assert r.headers["content-type"] == "application/json"
    assert r.headers["request-id"] == "req_1"
    assert r.content == b'{"e": 1}'
    assert r.headers.get("content-length") is None and r.headers.get("content-encoding") is None
    assert r.headers.get("x-api-key") is None
    assert r.headers.get("date") != "x"


def test_raw_sse_text_serves_its_bytes_as_event_stream(corpus):
    path = corpus / "anthropic-doc-tool-call.sse"
    with ServerThread([path], instant=True) as srv:
        r = httpx.get(srv.url + "/anything")  # GET works too
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/event-stream"
    assert r.content == path.read_bytes()


def test_ndjson_text_serves_as_ndjson(corpus):
    with ServerThread([corpus / "ollama-python-279-toolcall-as-content-ndjson.ndjson"], instant=True) as srv:
        r = httpx.post(srv.url + "/api/chat", json={})
    assert r.headers["content-type"] == "application/x-ndjson"


def test_chunks_arrive_as_separate_network_chunks():
    parts = [b"data: {\"a\": 1}\n", b"\n", b"data: [DO", b"NE]\n\n"]
    cap = native(headers={"content-type": "text/event-stream"},
                 chunks=[(0.05 * i, p) for i, p in enumerate(parts)], end=("eof", 0.2))
    with ServerThread([("c", cap)], speed=2.0) as srv:
        with httpx.stream("POST", srv.url, json={}) as r:
            got = list(r.iter_raw())
    assert got == parts  # paced apart, so no two are coalesced


def test_path_picks_a_capture_and_other_paths_rotate():
    caps = [("one", native(chunks=((0, b"data: 1\n\n"),))), ("two", native(chunks=((0, b"data: 2\n\n"),)))]
    with ServerThread(caps, instant=True) as srv:
        with httpx.Client() as c:
            picked = [c.post(f"{srv.url}/two/v1/chat/completions", json={}).content for _ in range(2)]
            rotated = [c.post(f"{srv.url}/v1/chat/completions", json={}).content for _ in range(3)]
        assert srv.requests == 5
    assert picked == [b"data: 2\n\n"] * 2
    assert rotated == [b"data: 1\n\n", b"data: 2\n\n", b"data: 1\n\n"]


@pytest.mark.parametrize("kind", ["reset", "timeout", "cancelled"])
def test_abnormal_end_breaks_the_body_after_the_chunks(kind):
    cap = native(headers={"content-type": "text/event-stream"}, chunks=((0, SSE),), end=(kind, 0.05))
    with ServerThread([("x", cap)]) as srv:
        got = []
        with pytest.raises(httpx.RemoteProtocolError, match="incomplete chunked read"):
            with httpx.stream("POST", srv.url, json={}) as r:
                for data in r.iter_raw():
                    got.append(data)
        assert b"".join(got) == SSE


def test_client_leaving_early_does_not_stop_the_server():
    cap = native(headers={"content-type": "text/event-stream"}, chunks=[(0, SSE), (30, SSE)], end=("eof", 30))
    with ServerThread([("slow", cap)]) as srv:
        with httpx.stream("POST", srv.url, json={}) as r:
            first = next(r.iter_raw())
        assert first == SSE
        with httpx.stream("POST", srv.url, json={}) as r:  # a second client is served at once
            assert next(r.iter_raw()) == SSE


def test_response_headers_for_a_head_without_content_type_stay_without():
    assert response_headers(native(headers={"x-a": "1"})) == [(b"x-a", b"1")]
    assert (b"content-type", b"text/event-stream") in response_headers(Capture(chunks=[Chunk(None, SSE)]))


def test_is_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")


# ------------------------------------------------------------------ the command
def test_serve_command_prints_url_answers_and_stops_on_ctrl_c(corpus):
    proc = spawn(["serve", str(corpus / "anthropic-doc-tool-call.sse"), str(corpus / "openai-parallel-indexed.sse"),
                  "--port", "0", "--instant"])
    try:
        first = proc.stdout.readline()
        assert first.startswith("serving 2 captures on http://127.0.0.1:")
        url = first.split()[-1]
        r = httpx.post(f"{url}/openai-parallel-indexed/v1/chat/completions", json={}, timeout=10)
        assert r.status_code == 200 and b"call_B2" in r.content
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "POST /openai-parallel-indexed/v1/chat/completions -> openai-parallel-indexed" in out
    assert out.rstrip().endswith("stopped")
    assert "Traceback" not in err


def test_serve_warns_loudly_off_loopback_and_fails_cleanly(corpus):
    proc = spawn(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--host", "nonexistent.invalid"])
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "WARNING: serving on nonexistent.invalid, not loopback" in err
    assert "cannot listen on nonexistent.invalid" in err and "Traceback" not in err


def test_serve_busy_port_and_bad_capture_are_one_line_errors(corpus, tmp_path):
    from tests.e2e.conftest import run_cli

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        code, out, err = run_cli(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--port", str(port)])
    assert code == 2 and err.startswith(f"stream-inspector: serve: cannot listen on 127.0.0.1:{port}")
    code, out, err = run_cli(["serve", str(tmp_path / "missing.jsonl")])
    assert code == 2 and err.strip() == f"stream-inspector: {tmp_path / 'missing.jsonl'}: no such file"


def test_serve_without_loop_stops_after_every_capture_was_answered(corpus):
    proc = spawn(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--port", "0", "--instant"])
    try:
        url = proc.stdout.readline().split()[-1]
        r = httpx.post(f"{url}/v1/messages", json={}, timeout=10)
        assert r.status_code == 200 and b"message_stop" in r.content
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "every capture served once: stopping" in out


def test_serve_with_loop_keeps_answering(corpus):
    proc = spawn(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--port", "0", "--instant", "--loop"])
    try:
        url = proc.stdout.readline().split()[-1]
        for _ in range(3):
            assert httpx.post(f"{url}/v1/messages", json={}, timeout=10).status_code == 200
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("given,said", [
    ("-", "serve: standard input (-) cannot be answered again and again: save it to a file and serve that"),
    ("DIR", "serve: DIR is a folder: name its captures (serve DIR/*.jsonl) or replay a recording with --match DIR"),
])
def test_serve_says_what_it_takes_instead_of_stdin_or_a_folder(tmp_path, given, said):
    from tests.e2e.conftest import run_cli

    folder = tmp_path / "recs"
    folder.mkdir()
    arg = str(folder) if given == "DIR" else given
    code, _, err = run_cli(["serve", arg, "--port", "0"])
    assert code == 2 and err.strip() == "stream-inspector: " + said.replace("DIR", arg)
