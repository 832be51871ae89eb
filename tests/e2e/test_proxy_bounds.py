"""``proxy`` over long runs (issue 17): nothing grows without bound, nothing the client got is lost.

- Ended exchanges beyond ``--keep`` / ``--keep-bytes`` are released to a summary (the list keeps
  status, counts, model) and read back from the recording when opened; a large request body is
  dropped as soon as its exchange ends.
- An endless upstream is closed when the client leaves (one log line, no line per unsent chunk),
  and cut at ``--max-bytes`` / ``--max-duration`` with an end that names the limit.
- A coded body counts its decoded bytes against ``--max-bytes``, and a decompression bomb is cut
  by its ratio (issue 24 item 6), in ``proxy`` and in ``live``.
- Record before forward: the recording holds every chunk before the client gets it (checked at
  each send, and after a SIGKILL of the real process).
"""
from __future__ import annotations

import json
import logging
import signal
import threading

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.feeds.exchanges.feed import ExchangeFeed
from inspector.feeds.exchanges.log import REQUEST_BODY_KEEP
from inspector.net.limits import StreamLimits
from inspector.net.proxy.reports import EndLines
from inspector.net.proxy.server import ProxyThread
from inspector.net.servers import BackgroundServer
from tests.e2e.conftest import (ANTHROPIC_OPENING, WAIT_S, run_cli, spawn, sse_event,
                                write_request)
from tests.helpers import gzip_bomb

OPENING = b"".join(sse_event(e) for e in ANTHROPIC_OPENING)
DELTA = sse_event({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "input_json_delta", "partial_json": "xxxxxxxx"}})
CLOSE = b"".join(sse_event(e) for e in ({"type": "content_block_stop", "index": 0},
                                        {"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                                         "usage": {"output_tokens": 3}},
                                        {"type": "message_stop"}))


def one(report: dict, code: str) -> dict:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, (code, report["findings"])
    return found[0]


def whole_stream(srv, conn, request) -> None:
    srv.head(conn)
    srv.chunk(conn, OPENING)
    srv.chunk(conn, DELTA)
    srv.chunk(conn, CLOSE)
    srv.finish(conn)


class Endless:
    """An upstream that streams deltas until its client's connection breaks (``closed`` is then set)."""

    def __init__(self, pause: float = 0.0) -> None:
        self.pause = pause
        self.closed = threading.Event()
        self.sent = 0

    def __call__(self, srv, conn, request) -> None:
        srv.head(conn)
        srv.chunk(conn, OPENING)
        try:
            while not srv.stopping.is_set():
                srv.chunk(conn, DELTA)
                self.sent += 1
                if self.pause:
                    srv.hold(self.pause)
        except OSError:
            self.closed.set()


def post(url: str, **kw) -> httpx.Response:
    return httpx.post(url + "/v1/messages", json=kw.pop("json", {"stream": True}), timeout=WAIT_S,
                      trust_env=False, **kw)


# ---------------------------------------------------------------- bounded memory
def test_ended_exchanges_beyond_keep_are_released_to_a_summary_and_read_back_from_the_recording(raw_server,
                                                                                                  tmp_path):
    up = raw_server(whole_stream)
    with ProxyThread(up.url, record_dir=tmp_path, keep=2) as px:
        for _ in range(5):
            assert post(px.url).content == OPENING + DELTA + CLOSE
        reports = px.wait_reports(5)
        exchanges = list(px.log.exchanges)
    assert [ex.released for ex in exchanges] == [True, True, True, False, False]
    for ex, report in zip(exchanges, reports):
        counts: dict = {}
        for f in report["findings"]:
            counts[f["severity"]] = counts.get(f["severity"], 0) + 1
        assert ex.counts() == counts  # the list still shows what it showed
        assert ex.status == 200 and ex.end.kind == "eof" and ex.model == "m-test"
    old = exchanges[0]
    assert old.session is None and old.held_bytes == 0 and old.summary["events"] == reports[0]["events"]
    feed = ExchangeFeed(old)  # opening it reads the recording back
    assert len(feed.session.events) == reports[0]["events"]
    assert [b.kind for b in feed.session.blocks] == [b["kind"] for b in reports[0]["blocks"]]


def test_keep_bytes_releases_the_oldest_and_a_large_request_body_is_dropped_when_its_exchange_ends(raw_server):
    up = raw_server(whole_stream)
    per_exchange = len(OPENING + DELTA + CLOSE)
    big = {"stream": True, "model": "m-big", "messages": [{"role": "user", "content": "x" * (REQUEST_BODY_KEEP + 10)}]}
    with ProxyThread(up.url, keep=100, keep_bytes=per_exchange * 2 + 100) as px:
        for _ in range(4):
            post(px.url)
        post(px.url, json=big)
        px.wait_reports(5)
        exchanges = list(px.log.exchanges)
    assert [ex.released for ex in exchanges[:3]] == [True, True, True]
    assert not exchanges[3].released
    last = exchanges[4]
    # the big request body is gone from memory, whatever was kept of the exchange
    assert "released from memory" in last.request["body"] and last.body == {"stream": True}
    assert last.model == "m-test"  # from the answer, kept after the body went


# ---------------------------------------------------------------- clients leaving, endless upstreams
def test_client_leaving_an_endless_upstream_closes_it_with_one_log_line(raw_server, caplog):
    endless = Endless()
    up = raw_server(endless)
    lines: list[str] = []
    with caplog.at_level(logging.WARNING, logger="asyncio"), ProxyThread(up.url) as px:
        px.endpoint.log = lines.append
        px.log.listeners.append(EndLines(lines.append))  # what headless `proxy` prints on stderr
        with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                          trust_env=False) as r:
            for i, _ in enumerate(r.iter_raw()):
                if i == 20:
                    break
        [report] = px.wait_reports(1)
        assert endless.closed.wait(WAIT_S), "the upstream connection was left open"
    assert "(cancelled): client disconnected" in one(report, "S012")["message"]
    assert len(lines) == 1 and "cancelled (client disconnected)" in lines[0], lines
    assert not [r for r in caplog.records if "socket.send" in r.getMessage()]


def test_max_bytes_cuts_an_endless_stream_with_an_end_that_names_the_limit(raw_server, tmp_path):
    endless = Endless()
    up = raw_server(endless)
    got = bytearray()
    with ProxyThread(up.url, record_dir=tmp_path, limits=StreamLimits(max_bytes=20_000)) as px:
        with pytest.raises(httpx.RemoteProtocolError):  # the client's body is cut, not ended
            with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                              trust_env=False) as r:
                for part in r.iter_raw():
                    got.extend(part)
        [report] = px.wait_reports(1)
        assert endless.closed.wait(WAIT_S)
    assert 20_000 - len(DELTA) < len(got) <= 20_000
    s012 = one(report, "S012")["message"]
    assert "(cancelled)" in s012 and "--max-bytes 19.5 KiB" in s012
    cap = load_path(next(tmp_path.iterdir()))
    assert cap.body == bytes(got) and cap.end.kind == "cancelled" and "--max-bytes" in cap.end.error


def test_max_duration_cuts_a_trickle_that_never_ends(raw_server):
    endless = Endless(pause=0.02)
    up = raw_server(endless)
    with ProxyThread(up.url, limits=StreamLimits(max_bytes=None, max_duration=0.3)) as px:
        with pytest.raises(httpx.RemoteProtocolError):
            with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                              trust_env=False) as r:
                for _ in r.iter_raw():
                    pass
        [report] = px.wait_reports(1)
    assert "(cancelled): cut at --max-duration 0.3 s" in one(report, "S012")["message"]


@pytest.mark.parametrize("option, text", [(["--max-bytes", "10K"], "--max-bytes 10 KiB"),
                                          (["--max-duration", "0.3"], "--max-duration 0.3 s")])
def test_live_limits_end_an_endless_stream_with_the_limit_named(raw_server, tmp_path, option, text):
    up = raw_server(Endless(pause=0.005))
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                              "--base-url", up.url, "--format", "json", *option])
    report = json.loads(out)
    assert code == 1, err
    assert text in one(report, "S012")["message"]


# ---------------------------------------------------------------- decompression bombs
def bomb_server(packed: bytes):
    def behave(srv, conn, request) -> None:
        srv.head(conn, extra={"content-encoding": "gzip"})
        for i in range(0, len(packed), 16384):
            srv.chunk(conn, packed[i:i + 16384])
        srv.finish(conn)
    return behave


def test_proxy_counts_decoded_bytes_against_max_bytes(raw_server, tmp_path):
    packed = gzip_bomb(30, OPENING)  # 30 MB decoded from ~30 KB coded: far under --max-bytes 1M as sent
    up = raw_server(bomb_server(packed))
    with ProxyThread(up.url, record_dir=tmp_path, limits=StreamLimits(max_bytes=1_000_000)) as px:
        with pytest.raises(httpx.RemoteProtocolError):  # cut, as any body past --max-bytes
            with httpx.stream("POST", px.url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                              trust_env=False) as r:
                for _ in r.iter_raw():
                    pass
        [report] = px.wait_reports(1)
    s012 = one(report, "S012")["message"]
    assert "(cancelled): cut: content-encoding gzip: the decoded body passed --max-bytes 1000000 bytes" in s012
    rec = next(tmp_path.iterdir())
    assert rec.stat().st_size < 1_300_000  # the recording holds at most --max-bytes of decoded body
    assert load_path(rec).end.kind == "cancelled"


def test_live_cuts_a_decompression_bomb_by_its_ratio(raw_server, tmp_path):
    up = raw_server(bomb_server(gzip_bomb(60, OPENING)))  # 60 MB: under the default --max-bytes 64 MiB
    rec = tmp_path / "bomb.jsonl"
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                              "--base-url", up.url, "--format", "json", "--record", str(rec)])
    report = json.loads(out)
    assert code == 1, err
    assert "times its coded size (a decompression bomb" in one(report, "S012")["message"]
    assert rec.stat().st_size < 8_000_000


# ---------------------------------------------------------------- record before forward
def test_each_chunk_is_in_the_recording_before_the_client_is_sent_it(raw_server, tmp_path):
    up = raw_server(whole_stream)
    px = ProxyThread(up.url, record_dir=tmp_path)
    seen: list[bool] = []

    async def checked(scope, receive, send):
        async def send_checked(msg):
            if msg["type"] == "http.response.body" and msg.get("body"):
                recorded = load_path(next(tmp_path.iterdir())).body
                seen.append(recorded.endswith(msg["body"]))
            await send(msg)

        await px.endpoint(scope, receive, send_checked)

    with BackgroundServer(checked) as srv:
        assert post(srv.url).content == OPENING + DELTA + CLOSE
        px.wait_reports(1)
    assert seen and all(seen)  # the three chunks arrive together: sent as one write (issue 32) or one by one


def test_sigkilled_proxy_recording_holds_every_chunk_the_client_received(raw_server, tmp_path):
    up = raw_server(Endless(pause=0.002))
    rec = tmp_path / "rec"
    proc = spawn(["proxy", "--upstream", up.url, "--port", "0", "--format", "json", "--record", str(rec)])
    got = bytearray()
    try:
        line = proc.stderr.readline()
        url = line.split(" on ", 1)[1].split(" ", 1)[0]
        with pytest.raises(httpx.HTTPError):
            with httpx.stream("POST", url + "/v1/messages", json={"stream": True}, timeout=WAIT_S,
                              trust_env=False) as r:
                for i, part in enumerate(r.iter_raw()):
                    got.extend(part)
                    if i == 30:
                        proc.send_signal(signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=WAIT_S)
    assert proc.returncode == -signal.SIGKILL
    cap = load_path(next(rec.iterdir()))
    assert len(got) > len(OPENING)
    assert cap.body[:len(got)] == bytes(got)  # every byte the client got was recorded first
