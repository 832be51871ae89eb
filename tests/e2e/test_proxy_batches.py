"""The proxy relays what arrived together in one write (issue 32 item 4), and nothing else changes.

An upstream that writes many chunks at once (a fast stream: one SSE event per chunk, many per
socket read) reaches the client in fewer, larger writes; the client's body is byte for byte the
upstream's, the recording still has one record per upstream chunk (the same lines as when each
chunk was written alone), the report equals ``check`` of that recording, a client that stops
reading holds the upstream back, and a client that leaves mid-burst ends the exchange.
"""
from __future__ import annotations

import gzip
import json
import socket
import time

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import Recorder
from inspector.net.proxy.server import ProxyThread
from tests.e2e.conftest import ANTHROPIC_OPENING, LOOPBACK, WAIT_S, run_cli, sse_event, wait_for
from tests.e2e.test_proxy_bounds import OPENING, Endless

N = 400


def deltas(n: int) -> list[bytes]:
    """``n`` text deltas, one event each; the last one for a block that never started (a finding)."""
    out = [sse_event({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                                                                           "partial_json": f"{i:04d}"}})
           for i in range(n - 1)]
    out.append(sse_event({"type": "content_block_delta", "index": 7,
                          "delta": {"type": "text_delta", "text": "orphan"}}))
    return out


def burst(pieces: list[bytes], extra: dict | None = None):
    """An upstream writing every piece as its own HTTP chunk, all in one ``sendall``."""
    def behave(srv, conn, request) -> None:
        srv.head(conn, extra=extra)
        conn.sendall(b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n")
    return behave


def split(data: bytes, n: int) -> list[bytes]:
    size = max(1, len(data) // n)
    return [data[i:i + size] for i in range(0, len(data), size)]


@pytest.mark.parametrize("coding", ["identity", "gzip"])
def test_a_burst_is_relayed_in_fewer_writes_byte_for_byte_and_recorded_chunk_by_chunk(raw_server, tmp_path,
                                                                                        coding):
    plain = [OPENING, *deltas(N)]
    sent = plain if coding == "identity" else split(gzip.compress(b"".join(plain)), N)
    up = raw_server(burst(sent, {"content-encoding": "gzip"} if coding == "gzip" else None))
    rec_dir = tmp_path / "rec"
    rec_dir.mkdir()
    with ProxyThread(up.url, record_dir=rec_dir) as px:
        parts: list[bytes] = []
        with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                          trust_env=False) as r:
            parts.extend(r.iter_raw())  # one part per HTTP chunk the proxy wrote (or less)
        [report] = px.wait_reports(1)
    assert b"".join(parts) == b"".join(sent)  # the client's bytes are the upstream's, still coded
    assert len(parts) < len(sent) / 2  # what arrived together left together

    [path] = rec_dir.iterdir()
    cap = load_path(path)
    if coding == "identity":
        assert [c.data for c in cap.chunks] == sent  # one record per upstream chunk, as before
    assert cap.body == b"".join(plain)
    assert cap.end.kind == "eof"
    times = [c.t for c in cap.chunks]
    assert times == sorted(times)

    # The lines are those a recorder writing each chunk alone writes (timestamps aside).
    alone = tmp_path / "alone.jsonl"
    with Recorder(alone, cap.request, cap.response) as rec:
        for c in cap.chunks:
            rec.chunk(c.t, c.data)
        rec.write_end(cap.end)
    assert alone.read_bytes() == path.read_bytes()

    _, out, _ = run_cli(["check", "--format", "json", str(path)])
    checked = json.loads(out)
    assert report["events"] == checked["events"] == N + len(ANTHROPIC_OPENING)
    assert report["findings"] and report["findings"] == checked["findings"]
    assert report["blocks"] == checked["blocks"]


def test_a_client_that_stops_reading_holds_the_upstream_back(raw_server):
    hose = Endless()
    up = raw_server(hose)
    with ProxyThread(up.url) as px:
        sock = socket.create_connection((LOOPBACK, int(px.url.rsplit(":", 1)[1])), timeout=WAIT_S)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        body = b'{"stream": true}'
        sock.sendall(b"POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\n\r\n%s" % (len(body), body))
        wait_for(lambda: hose.sent > 1000, "the hose to flow")

        def settled() -> bool:  # every buffer on the way is full: the upstream can write no more
            before = hose.sent
            time.sleep(0.5)
            return hose.sent == before

        wait_for(settled, "the upstream to be held back")
        held_at_settle = hose.sent
        time.sleep(0.5)
        # Not read ahead without bound while the client reads nothing: the hose writes megabytes a
        # second when let; a late catch-up of deferred inspection may free room for a few KiB more.
        assert hose.sent - held_at_settle < 64 * 1024
        held = hose.sent
        got = bytearray()
        deadline = time.monotonic() + WAIT_S
        while (not got or hose.sent == held) and time.monotonic() < deadline:  # reading lets it flow again
            part = sock.recv(65536)
            if len(got) < 1_000_000:
                got += part
        assert hose.sent > held
        body = bytes(got).split(b"\r\n\r\n", 1)[1]
        dechunked = bytearray()
        while True:  # the complete chunks received so far, in order
            size_line, sep, rest = body.partition(b"\r\n")
            if not sep or not size_line:
                break
            size = int(size_line, 16)
            if len(rest) < size + 2:
                break
            dechunked += rest[:size]
            body = rest[size + 2:]
        delta = bytes(dechunked[len(OPENING):len(OPENING) + 200])
        assert dechunked.startswith(OPENING) and delta.startswith(b"event: content_block_delta")
        assert bytes(dechunked[len(OPENING):]) == (delta[:delta.index(b"\n\n") + 2] * len(dechunked))[
            :len(dechunked) - len(OPENING)]  # whole events, in order, none lost or doubled
        sock.close()
        [report] = px.wait_reports(1)
    assert hose.closed.wait(WAIT_S)  # the client left: the upstream connection was closed too
    s012 = [f for f in report["findings"] if f["code"] == "S012"]
    assert s012 and "client disconnected" in s012[0]["message"]


def test_a_chunk_inspected_in_pieces_keeps_its_capture_line(raw_server, tmp_path):
    """A chunk longer than the sink's ``PIECE`` is inspected in pieces (fairness), yet it is one record:
    a finding after it points at the same capture line as ``check`` of the recording says."""
    big = b"".join(deltas(200)[:-1])  # ~20 KB in one chunk: five pieces
    orphan = deltas(1)[-1]
    up = raw_server(burst([OPENING, big, orphan]))
    rec_dir = tmp_path / "rec"
    rec_dir.mkdir()
    with ProxyThread(up.url, record_dir=rec_dir) as px:
        httpx.post(px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S, trust_env=False).read()
        [report] = px.wait_reports(1)
    [path] = rec_dir.iterdir()
    assert [c.data for c in load_path(path).chunks] == [OPENING, big, orphan]
    _, out, _ = run_cli(["check", "--format", "json", str(path)])
    checked = json.loads(out)
    lines = [f["line"] for f in report["findings"] if f["line"] is not None]
    assert lines and 4 in lines  # the orphan delta is the third chunk record: line 4 after the header
    assert report["findings"] == checked["findings"]
