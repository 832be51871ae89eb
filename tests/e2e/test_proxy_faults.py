"""``proxy`` against upstreams that misbehave on purpose, and what the client and the report see.

Each fault must reach the client as it happened (refused -> 502 with a JSON error; 500 -> the
same 500 and body; reset mid-stream -> the client's connection is cut too; read timeout -> cut)
and be a finding on the exchange (S007 / S012). Also: the request goes upstream unchanged
(method, path, query, headers, body: nothing added), a non-streamed JSON answer is shown but not
judged as a stream, a gzip or deflate stream reaches the client still compressed and is inspected
decoded (an unknown or cut-off encoding is passed through with a note, never a traceback),
``--record DIR`` writes one redacted capture per exchange, and the CLI prints one JSON line (or
a text report) per exchange.
"""
from __future__ import annotations

import gzip
import json
import signal
import socket
import zlib

import anthropic
import openai
import httpx
import pytest

from inspector.capture.load import load_path
from inspector.net.proxy.server import ProxyThread
from tests.e2e.conftest import (ANTHROPIC_OPENING, LOOPBACK, WAIT_S, answering, run_cli, spawn, sse_event,
                                wait_for)

OPENING = b"".join(sse_event(e) for e in ANTHROPIC_OPENING)
SECRET = "sk-ant-FAULTSECRET42"


def codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"]]


def one(report: dict, code: str) -> dict:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, (code, report["findings"])
    return found[0]


@pytest.fixture
def refused_port():
    holder = socket.socket()
    holder.bind((LOOPBACK, 0))  # bound, never listening: connecting is refused
    yield holder.getsockname()[1]
    holder.close()


# ------------------------------------------------------------------ faults
def test_refused_upstream_is_a_502_with_a_json_error_and_s012(refused_port, tmp_path):
    with ProxyThread(f"http://{LOOPBACK}:{refused_port}", record_dir=tmp_path) as px:
        r = httpx.post(px.url + "/v1/messages", json={"stream": True, "messages": []}, timeout=WAIT_S)
        [report] = px.wait_reports(1)
    assert r.status_code == 502
    assert r.headers["content-type"] == "application/json"
    err = r.json()["error"]
    assert err["type"] == "upstream_unreachable"
    assert f"connection refused by {LOOPBACK}:{refused_port}" in err["message"]
    assert report["status"] is None
    assert "connection refused" in one(report, "S012")["message"]
    [rec] = tmp_path.iterdir()
    assert rec.name == "001-POST-v1-messages.jsonl"
    cap = load_path(rec)
    assert cap.response is None and cap.end.kind == "reset"
    _, out, _ = run_cli(["check", "--format", "json", str(rec)])
    assert codes(json.loads(out)) == codes(report)


def test_refused_upstream_reaches_the_sdk_as_a_server_error(refused_port):
    with ProxyThread(f"http://{LOOPBACK}:{refused_port}") as px:
        client = anthropic.Anthropic(base_url=px.url, api_key=SECRET, max_retries=0, timeout=WAIT_S)
        with pytest.raises(anthropic.APIStatusError) as info:
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}], stream=True)
        px.wait_reports(1)
    assert info.value.status_code == 502
    assert "connection refused" in str(info.value)


def test_upstream_500_is_passed_through_and_is_s007(raw_server):
    body = b'{"type":"error","error":{"type":"api_error","message":"Internal server error"}}'

    def behave(srv, conn, request):
        srv.head(conn, 500, "application/json", reason="Internal Server Error", extra={"x-upstream": "yes"})
        srv.chunk(conn, body)
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url) as px:
        r = httpx.post(px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S)
        [report] = px.wait_reports(1)
    assert r.status_code == 500 and r.content == body and r.headers["x-upstream"] == "yes"
    assert report["status"] == 500 and report["streamed"] is True
    assert "HTTP 500" in one(report, "S007")["message"] and "Internal server error" in one(report, "S007")["message"]


def test_reset_mid_stream_cuts_the_client_too(raw_server, tmp_path):
    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, OPENING)
        srv.reset(conn)

    up = raw_server(behave)
    got = bytearray()
    with ProxyThread(up.url, record_dir=tmp_path) as px:
        with pytest.raises(httpx.RemoteProtocolError):
            with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S) as r:
                assert r.status_code == 200
                for part in r.iter_raw():
                    got.extend(part)
        [report] = px.wait_reports(1)
    assert bytes(got) == OPENING  # everything sent before the reset, then the cut
    assert "(reset)" in one(report, "S012")["message"]
    assert "J005" in codes(report)  # the tool call never closed: do not execute it
    assert report["blocks"][0]["arguments"] == '{"body": "par'
    cap = load_path(next(tmp_path.iterdir()))
    assert cap.body == OPENING and cap.end.kind == "reset"


def test_read_timeout_mid_stream_cuts_the_client_and_is_s012_timeout(raw_server):
    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, OPENING)
        srv.hold()

    up = raw_server(behave)
    with ProxyThread(up.url, timeout=0.5) as px:
        with pytest.raises(httpx.RemoteProtocolError):
            with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S) as r:
                for _ in r.iter_raw():
                    pass
        [report] = px.wait_reports(1)
    s012 = one(report, "S012")
    assert "(timeout)" in s012["message"] and "no bytes for 0.5 s" in s012["message"]


def test_client_leaving_mid_stream_ends_the_exchange_as_cancelled(raw_server):
    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, OPENING)
        srv.hold()

    up = raw_server(behave)
    with ProxyThread(up.url) as px:
        with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S) as r:
            next(r.iter_raw())
        # leaving the block closes the client's connection mid-body
        [report] = px.wait_reports(1)
    assert "(cancelled): client disconnected" in one(report, "S012")["message"]


def test_a_client_closing_right_after_the_last_event_leaves_a_whole_recording(raw_server, tmp_path):
    """The openai SDK closes its response once it has read ``data: [DONE]``, before the body's closing
    chunk: a proxy that cut the exchange there recorded a cancelled answer, which ``serve --match``
    then replayed as a broken one. Within the grace the upstream's own end is awaited."""
    chunks = [{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
              for delta, finish in (({"role": "assistant", "content": "hi"}, None), ({}, "stop"))]

    def behave(srv, conn, request):
        srv.head(conn)
        for c in chunks:
            srv.chunk(conn, b"data: " + json.dumps(c).encode() + b"\n\n")
        srv.chunk(conn, b"data: [DONE]\n\n")
        srv.hold(0.1)  # the closing chunk comes later than the client's close, within the grace
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url, record_dir=tmp_path) as px:
        client = openai.OpenAI(api_key="sk-test", base_url=px.url + "/v1", max_retries=0)
        text = "".join(c.choices[0].delta.content or "" for c in client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True))
        [report] = px.wait_reports(1)
    assert text == "hi"
    assert "S012" not in codes(report)
    [recording] = tmp_path.iterdir()
    assert load_path(recording).end.kind == "eof"


# ------------------------------------------------------------------ what goes through
def test_request_goes_upstream_unchanged(raw_server):
    payload = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"caf\xc3\xa9"}]}'

    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, b"event: ping\ndata: {\"type\": \"ping\"}\n\n")
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url + "/base") as px:
        with httpx.Client(timeout=WAIT_S) as c:
            req = c.build_request("POST", px.url + "/v1/messages?beta=true&key=QUERYSECRET", content=payload,
                                  headers={"x-api-key": SECRET, "anthropic-version": "2023-06-01",
                                           "x-custom": "Kept-As-Is", "content-type": "application/json"})
            c.send(req).read()
        [report] = px.wait_reports(1)
    raw = up.requests[0]
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /base/v1/messages?beta=true&key=QUERYSECRET HTTP/1.1"
    got = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        got[k.strip().lower().decode()] = v.strip().decode()
    assert got["x-api-key"] == SECRET and got["x-custom"] == "Kept-As-Is"
    assert got["host"] == f"{LOOPBACK}:{up.port}"
    assert body == payload and got["content-length"] == str(len(payload))
    # Nothing added: the client's headers, plus host and length, and nothing else.
    sent = {k.lower() for k in req.headers}
    assert set(got) - sent <= {"host", "content-length"}, set(got) - sent
    # ...and the secrets never reach the report or the stored request.
    assert "QUERYSECRET" not in json.dumps(report) and SECRET not in json.dumps(report)
    assert report["path"] == "/v1/messages?beta=true&key=[redacted]"


def test_a_bare_request_goes_upstream_with_nothing_added(raw_server):
    """A client that sends no Accept, Accept-Encoding, User-Agent or Content-Type gets none added on its
    way up (an added Accept-Encoding would get it a body coded in a way it never asked for)."""
    up = raw_server(answering(b"event: ping\ndata: {}\n\n"))
    with ProxyThread(up.url) as px:
        port = int(px.url.rsplit(":", 1)[1])
        with socket.create_connection((LOOPBACK, port), timeout=WAIT_S) as s:
            s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
            while s.recv(65536):
                pass
        px.wait_reports(1)
    head = up.requests[0].partition(b"\r\n\r\n")[0].split(b"\r\n")
    assert sorted(line.partition(b":")[0].lower() for line in head[1:]) == [b"content-length", b"host"], head


def test_json_answer_is_shown_not_linted(raw_server):
    body = b'{"data":[{"id":"m1","type":"model"}]}'

    def behave(srv, conn, request):
        srv.head(conn, 200, "application/json")
        srv.chunk(conn, body)
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url) as px:
        r = httpx.get(px.url + "/v1/models", timeout=WAIT_S)
        [report] = px.wait_reports(1)
    assert r.content == body
    assert report["streamed"] is False and report["findings"] == []
    assert report["body"] == body.decode() and report["status"] == 200 and report["method"] == "GET"
    assert report["content_type"] == "application/json" and report["duration_s"] is not None


TOOL_STREAM = OPENING + b"".join(sse_event(e) for e in [
    {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "is\"}"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
     "usage": {"output_tokens": 3}},
    {"type": "message_stop"}])
"""A complete, clean tool-call stream (``{"body": "paris"}``), for the content-encoding tests."""


def through_proxy_coded(raw_server, packed: bytes, encoding: str) -> tuple[httpx.Response, bytes, dict]:
    """``packed`` served with ``content-encoding: encoding`` in 50-byte chunks, through a proxy:
    the client's response, the raw bytes it got, the exchange's report."""
    def behave(srv, conn, request):
        srv.head(conn, extra={"content-encoding": encoding})
        for i in range(0, len(packed), 50):
            srv.chunk(conn, packed[i:i + 50])
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url) as px:
        with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S) as r:
            raw = b"".join(r.iter_raw())
        [report] = px.wait_reports(1)
    return r, raw, report


def test_gzip_stream_reaches_the_client_compressed_and_is_inspected_decoded(raw_server):
    packed = gzip.compress(TOOL_STREAM)
    r, raw, report = through_proxy_coded(raw_server, packed, "gzip")
    assert raw == packed and r.headers["content-encoding"] == "gzip"
    assert report["dialect"] == "anthropic-messages" and report["findings"] == []
    assert report["blocks"][0]["input"] == {"body": "paris"}


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS], ids=["zlib-wrapped", "raw"])
def test_deflate_in_both_forms_is_inspected_decoded(raw_server, wbits):
    # RFC 9110 says zlib-wrapped; some servers send raw DEFLATE: both decode, as in httpx.
    c = zlib.compressobj(wbits=wbits)
    packed = c.compress(TOOL_STREAM) + c.flush()
    r, raw, report = through_proxy_coded(raw_server, packed, "deflate")
    assert raw == packed and r.headers["content-encoding"] == "deflate"
    assert report["findings"] == [] and "note" not in report
    assert report["blocks"][0]["input"] == {"body": "paris"}


def test_unknown_encoding_is_passed_through_and_shown_encoded_not_inspected(raw_server):
    packed = b"\x1f\x9dnot really LZW" * 8
    r, raw, report = through_proxy_coded(raw_server, packed, "compress")
    assert raw == packed and r.headers["content-encoding"] == "compress"
    assert report["streamed"] is False and report["findings"] == []
    assert "content-encoding compress: encoded, not inspected" in report["note"]


def test_truncated_gzip_is_inspected_as_far_as_it_goes_with_a_note(raw_server, capfd):
    packed = gzip.compress(TOOL_STREAM)
    cut = packed[: len(packed) // 2]  # the HTTP body ends cleanly, the gzip member does not
    r, raw, report = through_proxy_coded(raw_server, cut, "gzip")
    assert raw == cut
    assert report["dialect"] == "anthropic-messages" and report["streamed"] is True
    assert "truncated" in report["note"] and "gzip" in report["note"]
    assert "Traceback" not in capfd.readouterr().err


def test_record_dir_has_one_redacted_capture_per_exchange_equal_to_the_report(raw_server, tmp_path):
    def behave(srv, conn, request):
        srv.head(conn, extra={"set-cookie": "session=COOKIESECRET"})
        srv.chunk(conn, OPENING)
        srv.finish(conn)

    up = raw_server(behave)
    rec_dir = tmp_path / "caps"
    rec_dir.mkdir()
    (rec_dir / "007-POST-old.jsonl").write_text("")  # numbering continues after existing captures
    with ProxyThread(up.url, record_dir=rec_dir) as px:
        for path in ("/v1/messages", "/v1/chat/completions"):
            httpx.post(px.url + path, json={"stream": True}, headers={"authorization": f"Bearer {SECRET}"},
                       timeout=WAIT_S).read()
        reports = px.wait_reports(2)
    names = sorted(p.name for p in rec_dir.iterdir())
    assert names == ["007-POST-old.jsonl", "008-POST-v1-messages.jsonl", "009-POST-v1-chat-completions.jsonl"]
    assert [r["exchange"] for r in reports] == [8, 9]
    for name, report in zip(names[1:], reports):
        text = (rec_dir / name).read_text()
        assert SECRET not in text and "COOKIESECRET" not in text
        code, out, _ = run_cli(["check", "--format", "json", str(rec_dir / name)])
        checked = json.loads(out)
        assert codes(checked) == codes(report) and checked["blocks"] == report["blocks"]
        assert report["record"] == str(rec_dir / name)


# ------------------------------------------------------------------ the command
def _start_cli(upstream: str, *extra: str):
    proc = spawn(["proxy", "--upstream", upstream, "--port", "0", *extra])
    line = proc.stderr.readline()  # "stream-inspector proxy on http://127.0.0.1:PORT -> ..."
    assert "stream-inspector proxy on http://127.0.0.1:" in line, line
    url = line.split(" on ", 1)[1].split(" ", 1)[0]
    return proc, url


def _stop(proc) -> tuple[str, str, int]:
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=WAIT_S)
    except Exception:
        proc.kill()
        raise
    return out, err, proc.returncode


def test_cli_json_prints_one_line_per_exchange_and_exits_1_on_errors(raw_server):
    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, OPENING)  # ends without message_stop: S003 + J005, errors
        srv.finish(conn)

    up = raw_server(behave)
    proc, url = _start_cli(up.url, "--format", "json")
    try:
        for _ in range(2):
            httpx.post(url + "/v1/messages", json={"stream": True}, timeout=WAIT_S).read()
    finally:
        out, err, code = _stop(proc)
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["exchange"] for d in lines] == [1, 2]
    assert all("J005" in codes(d) and d["dialect"] == "anthropic-messages" for d in lines)
    assert code == 1
    # Nothing else on stderr: no traceback, and no warning about an upstream client left open at exit.
    assert err.strip().splitlines() == ["stream-inspector proxy stopped"], err


def test_cli_text_prints_a_report_per_exchange(raw_server):
    def behave(srv, conn, request):
        srv.head(conn, 429, "application/json", reason="Too Many Requests")
        srv.chunk(conn, b'{"error":{"type":"rate_limit_error","message":"slow down"}}')
        srv.finish(conn)

    up = raw_server(behave)
    proc, url = _start_cli(up.url, "--format", "text")
    try:
        httpx.post(url + "/v1/messages", json={"stream": True}, timeout=WAIT_S).read()
        wait_for(lambda: proc.poll() is None, "proxy still running")
    finally:
        out, err, code = _stop(proc)
    assert out.startswith("#1 POST /v1/messages -> 429 application/json")
    assert "S007 http-error (error) HTTP 429" in out and "slow down" in out


def test_cli_rejects_a_bad_upstream_and_warns_when_not_on_loopback(monkeypatch):
    code, out, err = run_cli(["proxy", "--upstream", "ftp://example", "--format", "json"])
    assert code == 2 and "--upstream must be an http:// or https:// URL" in err

    import inspector.net.servers as servers_mod

    def refuse(host, port):  # never actually bind anything but loopback in tests
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(servers_mod, "bind_socket", refuse)
    code, out, err = run_cli(["proxy", "--upstream", "http://127.0.0.1:9", "--host", "0.0.0.0", "--format", "json"])
    assert code == 2
    assert "WARNING: the proxy listens on 0.0.0.0, not loopback" in err
    assert "cannot listen on 0.0.0.0:8787" in err


def test_ollama_native_stream_sent_as_application_json_is_linted(raw_server):
    """Ollama's /api/chat streams by default and may label the NDJSON application/json (RULES.md S007)."""
    lines = [{"model": "llama3", "message": {"role": "assistant", "content": "Hi"}, "done": False},
             {"model": "llama3", "message": {"role": "assistant", "content": "!"}, "done": True,
              "done_reason": "stop"}]

    def behave(srv, conn, request):
        srv.head(conn, 200, "application/json; charset=utf-8")
        for line in lines:
            srv.chunk(conn, json.dumps(line).encode() + b"\n")
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url) as px:
        httpx.post(px.url + "/api/chat", json={"model": "llama3", "messages": [{"role": "user", "content": "hi"}]},
                   timeout=WAIT_S).read()
        [report] = px.wait_reports(1)
    assert report["streamed"] is True and report["dialect"] == "ollama"
    assert report["blocks"][0]["text"] == "Hi!" and report["findings"] == []


# ------------------------------------------------------------------ a hang-up after the end marker (issue 23 item 12)
CHAT_DONE = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in [
    {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1,
     "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello there."}, "finish_reason": None}]},
    {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1,
     "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]) + b"data: [DONE]\n\n"


def test_an_sdk_closing_after_done_is_a_normal_end_not_cancelled(raw_server):
    """The upstream sends the whole stream and ``[DONE]`` but keeps its body open; openai-python stops
    reading at ``[DONE]`` and closes. The transport says ``cancelled``; the product says normal:
    no S012, no stderr line, and every label says the client closed after the end."""
    from inspector.net.proxy.reports import text_for
    from inspector.tui.widgets.exchange_list import ExchangeList

    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, CHAT_DONE)
        srv.hold()

    up = raw_server(behave)
    proc, url = _start_cli(up.url, "--format", "json")
    try:
        client = openai.OpenAI(base_url=url + "/v1", api_key="sk-done-test", max_retries=0, timeout=WAIT_S)
        with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as stream:
            assert stream.get_final_completion().choices[0].message.content == "Hello there."
        wait_for(lambda: len(up.requests) == 1, "the request upstream")
    finally:
        out, err, _ = _stop(proc)
    report = json.loads(out.splitlines()[0])
    assert codes(report) == []
    assert "cancelled" not in err and "POST /v1" not in err, err  # no line: nothing ended abnormally
    # The same exchange in-process: the TUI's status cell and detail, and the HTML overview.
    up2 = raw_server(behave)
    with ProxyThread(up2.url) as px:
        client = openai.OpenAI(base_url=px.url + "/v1", api_key="sk-done-test", max_retries=0, timeout=WAIT_S)
        with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as stream:
            stream.get_final_completion()
        px.wait_reports(1)
        ex = px.log.exchanges[0]
    assert ex.end.kind == "cancelled" and ex.session.ended  # what the transport did
    status = ExchangeList._cells_for(ex, 0.0, {})[3]
    assert status.plain == "200"
    assert "cancelled" not in text_for(ex)
    from inspector.model.capture import HUNG_UP_AFTER_END
    from inspector.report.html import _ended

    assert _ended(ex.session) == HUNG_UP_AFTER_END
