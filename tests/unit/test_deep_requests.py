"""What ``serve --match`` and the mitmproxy sink are sent, read without a crash: request bodies nested
deeper than ``MAX_DEPTH`` kept as text, never a RecursionError in the walks over parsed JSON (ignore
paths, redaction; RULES.md S019), and the sink's end records of the wrong JSON types."""
from __future__ import annotations

import base64
import json
import os
import time

import httpx
import pytest
import orjson

from inspector.feeds.exchanges.log import ExchangeLog
from inspector.net.conform.verdict import starts_anew
from inspector.net.proxy.mitm import MitmFeed
from inspector.net.replay.provider import MatchServerThread
from tests.unit.test_hostile_inputs import BODY, native_with_request

DEEP = b'{"messages":' + b"[" * 1000 + b"]" * 1000 + b"}"
"""Within orjson's 1 024 levels, far beyond Python's recursion limit for a walk."""


def test_serve_match_answers_a_deep_request_as_a_miss(tmp_path):
    (tmp_path / "a.jsonl").write_text(native_with_request("https://api.openai.com/v1/chat/completions"))
    with MatchServerThread(tmp_path, instant=True) as srv:
        r = httpx.post(srv.url + "/v1/chat/completions", content=DEEP,
                       headers={"content-type": "application/json"}, timeout=10)
    assert r.status_code == 400 and "serve --match" in r.text


def test_the_mitmproxy_sink_keeps_a_deep_request_body_as_text():
    log = ExchangeLog()
    feed = MitmFeed(log, None)
    feed.take(orjson.dumps({"ev": "begin", "id": "1", "method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                            "headers": [["content-type", "application/json"]],
                            "body": base64.b64encode(DEEP).decode(), "wall": 1.0}))
    assert feed.skipped == 0
    (ex,) = log.by_n.values()
    assert isinstance(ex.request["body"], str)


@pytest.mark.parametrize("end", [{"t": "soon"}, {"t": {}}, {"kind": "bogus"}, {"kind": []}, {"error": {"a": 1}}])
def test_the_mitmproxy_sink_reads_an_end_record_of_the_wrong_types(capsys, end):
    log = ExchangeLog()
    feed = MitmFeed(log, None)
    for rec in ({"ev": "begin", "id": "1", "method": "POST", "url": "https://api.anthropic.com/v1/messages",
                 "headers": [], "body": "", "wall": 1.0},
                {"ev": "head", "id": "1", "status": 200, "headers": [["content-type", "text/event-stream"]]},
                {"ev": "chunk", "id": "1", "t": 0.1, "data": base64.b64encode(BODY.encode()).decode()},
                {"ev": "end", "id": "1", "t": 0.3, "kind": "eof", **end}):
        feed.take(orjson.dumps(rec))
    assert "inspection failed" not in capsys.readouterr().err
    assert feed.skipped == 0 and [ex.session.ended for ex in log.by_n.values()]


@pytest.mark.parametrize("wall", [1e300, -1e300, 1e40, "soon", None, True])
def test_the_mitmproxy_sink_takes_now_for_a_wall_time_that_cannot_be_true(wall):
    log = ExchangeLog()
    feed = MitmFeed(log, None)
    feed.take(json.dumps({"ev": "begin", "id": "1", "method": "POST", "url": "https://h/v1/messages",
                          "headers": [], "body": "", "wall": wall}).encode())
    (ex,) = log.by_n.values()
    assert abs(ex.started_wall - time.time()) < 60  # time.localtime and OTLP's nanoseconds take it


HISTORY = b'{"messages":[{"role":"user","content":"x"},' + b"[" * 1000 + b"]" * 1000 + b"]}"


@pytest.mark.parametrize("first,nxt", [(DEEP, DEEP), (HISTORY, HISTORY), (HISTORY, HISTORY[:-2] + b",1]}")])
def test_conform_client_reads_a_deep_next_request_as_no_json_object(first, nxt):
    assert starts_anew(first, nxt) is False  # its history cannot be compared: not taken for a new conversation


def test_serve_match_answers_a_miss_when_a_recording_is_named_in_bytes_that_are_not_utf8(tmp_path):
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"\xff.jsonl"), "w") as f:
        f.write(native_with_request("https://api.openai.com/v1/chat/completions"))
    with MatchServerThread(tmp_path, instant=True) as srv:
        r = httpx.post(srv.url + "/v1/chat/completions", json={"model": "zzz", "messages": []}, timeout=10)
    assert r.status_code == 400 and "\\xff" in r.text
