"""``serve`` and clients that leave: noticed within a chunk in every mode, logged once, nobody else held back.

Issue 17: under ``--instant`` a client that left got the rest of the capture written into its dead
socket (one asyncio log line per chunk) while every other client waited for that to finish.
"""
from __future__ import annotations

import json
import logging
import socket
import threading

import httpx
import pytest

from inspector.model.capture import Capture, Chunk, End
from inspector.net.conform.mutate import parse_specs, served_variants
from inspector.net.serve import ServerThread, load_served, make_asgi_app
from inspector.net.servers import BackgroundServer
from tests.e2e.conftest import WAIT_S, wait_for

PING = b"event: ping\ndata: {\"type\": \"ping\"}\n\n"
BIG = 60_000
"""Chunks in the long answer: far more than a client that leaves after the first reads."""


def capture(chunks: int, t=None) -> Capture:
    return Capture(chunks=[Chunk(t, PING) for _ in range(chunks)],
                   response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(t, "eof"), source_format="native", request_relative=True)


def leave_after_first_bytes(url: str) -> None:
    """A raw client: send the request, read the first body bytes, close the socket."""
    host, port = url.removeprefix("http://").split("/", 1)[0].split(":")
    path = "/" + url.split("/", 3)[3] if url.count("/") > 2 else "/"
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-length: 2\r\n\r\n{{}}".encode())
        got = b""
        while b"\r\n\r\n" not in got or b"event: " not in got.split(b"\r\n\r\n", 1)[1]:
            part = s.recv(4096)
            assert part, "closed before the first event"
            got += part


@pytest.mark.parametrize("untimed", [False, True], ids=["instant", "untimed"])
def test_client_leaving_an_instant_answer_is_logged_once_and_stops_it(untimed, caplog):
    lines: list[str] = []
    cap = capture(BIG, None if untimed else 0.0)
    with caplog.at_level(logging.WARNING, logger="asyncio"), \
            ServerThread([("big", cap), ("small", capture(3))], instant=not untimed, log=lines.append) as srv:
        leave_after_first_bytes(srv.url_for("big") + "/v1/messages")
        # another client is answered in full, and the one that left is stopped, not played out
        r = httpx.post(srv.url_for("small") + "/v1/messages", json={}, timeout=WAIT_S, trust_env=False)
        assert r.content == PING * 3
        wait_for(lambda: any("-> big" in line for line in lines), "the log line of the client that left")
    big = [line for line in lines if "-> big" in line]
    assert len(big) == 1, big
    assert "client left after" in big[0]
    sent = int(big[0].split("client left after ", 1)[1].split()[0])
    assert sent < BIG
    assert not [r for r in caplog.records if "socket.send" in r.getMessage()]


def test_a_client_reading_an_instant_fire_hose_does_not_hold_others_back():
    """While one client drains an enormous --instant answer as fast as it can, another one is answered
    in full: the fire hose yields to the loop after every chunk."""
    huge = 400_000
    with ServerThread([("hose", capture(huge, 0.0)), ("small", capture(3))], instant=True) as srv:
        stop = threading.Event()
        received = [0]
        started = threading.Event()

        def drink() -> None:
            with httpx.stream("POST", srv.url_for("hose") + "/v1/messages", json={}, timeout=WAIT_S,
                              trust_env=False) as r:
                for part in r.iter_raw():
                    received[0] += len(part)
                    started.set()
                    if stop.is_set():
                        return

        t = threading.Thread(target=drink, daemon=True)
        t.start()
        assert started.wait(WAIT_S)
        r = httpx.post(srv.url_for("small") + "/v1/messages", json={}, timeout=WAIT_S, trust_env=False)
        still_streaming = received[0] < huge * len(PING)
        stop.set()
        t.join(WAIT_S)
    assert r.content == PING * 3
    assert still_streaming, "the small answer only came after the whole fire hose"


def anthropic_capture(deltas: int) -> Capture:
    def ev(obj: dict) -> bytes:
        return f"event: {obj['type']}\ndata: {json.dumps(obj)}\n\n".encode()

    chunks = [ev({"type": "message_start", "message": {"id": "msg_d", "type": "message", "role": "assistant",
                                                       "model": "m", "content": [], "stop_reason": None,
                                                       "stop_sequence": None, "usage": {}}}),
              ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})]
    chunks += [ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "w "}})] * deltas
    chunks += [ev({"type": "content_block_stop", "index": 0}), ev({"type": "message_stop"})]
    return Capture(chunks=[Chunk(0.0, c) for c in chunks],
                   response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(0.0, "eof"), source_format="native", request_relative=True)


def test_mutated_instant_answer_notices_a_client_that_left(caplog):
    """``serve --mutate … --instant`` plays mutated captures through the same player: one line, stopped early."""
    served, mutated, _ = served_variants(load_served([("big", anthropic_capture(20_000))]), parse_specs("no-stop-event"))
    assert mutated
    lines: list[str] = []
    with caplog.at_level(logging.WARNING, logger="asyncio"), \
            BackgroundServer(make_asgi_app(served, instant=True, log=lines.append)) as srv:
        leave_after_first_bytes(f"{srv.url}/{served[0].name}/v1/messages")
        wait_for(lambda: lines, "the log line")
    assert len(lines) == 1 and "client left after" in lines[0], lines
    assert int(lines[0].split("client left after ", 1)[1].split()[0]) < 20_000
    assert not [r for r in caplog.records if "socket.send" in r.getMessage()]
