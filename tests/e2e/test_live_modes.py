"""``live`` request building per provider, ``--compare-eager``, and the hand-off to the TUI."""
from __future__ import annotations

import json

import pytest

from inspector.net.live import LiveError, prepare
from tests.e2e.conftest import ANTHROPIC_OPENING, RawServer, run_cli, sse_event, write_request


def _body_of(raw_request: bytes) -> dict:
    return json.loads(raw_request.partition(b"\r\n\r\n")[2])


def _path_of(raw_request: bytes) -> str:
    return raw_request.split(b" ", 2)[1].decode()


def _answer(srv, conn, request):
    RawServer.head(conn)
    for e in ANTHROPIC_OPENING:
        RawServer.chunk(conn, sse_event(e))
    RawServer.finish(conn)


@pytest.mark.parametrize("provider,base,path,extra", [
    ("anthropic", "", "/v1/messages", {"stream": True}),
    ("openai", "/v1", "/v1/chat/completions", {"stream": True, "stream_options": {"include_usage": True}}),
    ("openai-responses", "", "/v1/responses", {"stream": True}),
    ("gemini", "", "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", {}),
    ("ollama", "", "/api/chat", {"stream": True}),
])
def test_each_provider_gets_its_endpoint_with_streaming_on(tmp_path, raw_server, provider, base, path, extra):
    srv = raw_server(_answer)
    body = {"model": "gemini-x" if provider == "gemini" else "m", "messages": [], "stream": False}
    code, out, err = run_cli(["live", "--provider", provider, "--request", write_request(tmp_path, body),
                              "--base-url", srv.url + base, "--format", "json"])
    assert out, err
    got = _body_of(srv.requests[0])
    assert _path_of(srv.requests[0]) == path
    want = {k: v for k, v in body.items() if not (provider == "gemini" and k in ("model", "stream"))}
    assert got == {**want, **extra}
    assert b"accept-encoding: identity" in srv.requests[0].lower()


def test_anthropic_headers_and_no_key_needed_locally():
    req = prepare("anthropic", {"model": "m"}, base_url="http://localhost:1234", env={})
    assert req.headers["anthropic-version"] == "2023-06-01" and "x-api-key" not in req.headers
    assert req.local
    with pytest.raises(LiveError, match="ANTHROPIC_API_KEY"):
        prepare("anthropic", {"model": "m"}, env={})
    with pytest.raises(LiveError, match='needs a "model"'):
        prepare("gemini", {"contents": []}, base_url="http://127.0.0.1:1", env={})
    assert prepare("openai", {}, base_url="http://10.0.0.5:8000/v1/", env={}).url == \
        "http://10.0.0.5:8000/v1/chat/completions"


def test_compare_eager_sends_both_variants_and_compares(tmp_path, raw_server):
    """``live --compare-eager`` is handed to ``inspector.net.eager`` (the compare helper's module)."""
    srv = raw_server(_answer)
    body = {"model": "m", "max_tokens": 64, "messages": [],
            "tools": [{"name": "save", "input_schema": {"type": "object"}}]}
    rec = tmp_path / "cmp.jsonl"
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path, body),
                              "--base-url", srv.url, "--format", "json", "--compare-eager", "--record", str(rec)])
    assert code == 0, err
    report = json.loads(out)
    assert {report["a"]["eager_input_streaming"], report["b"]["eager_input_streaming"]} == {"on", "off"}
    flags = sorted(_body_of(r)["tools"][0]["eager_input_streaming"] for r in srv.requests)
    assert flags == [False, True]
    assert len(list(tmp_path.glob("cmp.eager-*.jsonl"))) == 2


def test_compare_eager_needs_anthropic_and_tools(tmp_path):
    code, _, err = run_cli(["live", "--provider", "openai", "--request", write_request(tmp_path),
                            "--base-url", "http://127.0.0.1:9", "--compare-eager", "--format", "json"])
    assert code == 2 and "--provider anthropic" in err
    code, _, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                            "--base-url", "http://127.0.0.1:9", "--compare-eager", "--format", "json"])
    assert code == 2 and "tool" in err


def test_record_into_missing_directory_fails_before_sending(tmp_path, raw_server):
    srv = raw_server(_answer)
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                              "--base-url", srv.url, "--record", str(tmp_path / "no" / "such" / "f.jsonl")])
    assert code == 2 and "does not exist" in err
    assert srv.requests == []


def test_tui_format_hands_live_feeds_to_make_app(tmp_path, raw_server, monkeypatch):
    pytest.importorskip("textual")
    app_mod = pytest.importorskip("inspector.cli.live")
    srv = raw_server(_answer)
    seen = {}

    class FakeApp:
        def run(self):
            return 0

    def fake_make_app(*feeds, title=None, theme=None, **kw):
        seen.update(feeds=feeds, title=title, theme=theme)
        return FakeApp()

    monkeypatch.setattr(app_mod, "make_app", fake_make_app)
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                              "--base-url", srv.url])
    assert code == 0, err
    (feed,) = seen["feeds"]
    assert feed.label == f"{srv.url}/v1/messages" and not feed.restartable  # never re-sent by a restart key
    assert seen["title"] == f"live: {srv.url}/v1/messages"
    assert srv.requests == []  # nothing is sent until the app plays the feed
