"""No API key value reaches a recording, a report, an error line or the server's log.

Each test first proves the key really went over the wire (the local server received it), so
"not in the output" means redaction worked, not that the key was never there.
"""
from __future__ import annotations

import json

import pytest

from inspector.capture.load import load_path
from inspector.net.serve import ServerThread
from tests.e2e.conftest import ANTHROPIC_OPENING, RawServer, run_cli, sse_event, write_request

SECRET = "sk-ant-TESTSECRET123"


def _answer(srv, conn, request):
    RawServer.head(conn, extra={"set-cookie": f"session={SECRET}"})
    for e in ANTHROPIC_OPENING:
        RawServer.chunk(conn, sse_event(e))
    RawServer.finish(conn)


@pytest.mark.parametrize("provider,env,header", [
    ("anthropic", "ANTHROPIC_API_KEY", b"x-api-key: " + SECRET.encode()),
    ("openai", "OPENAI_API_KEY", b"authorization: Bearer " + SECRET.encode()),
    ("openai-responses", "OPENAI_API_KEY", b"authorization: Bearer " + SECRET.encode()),
    ("gemini", "GEMINI_API_KEY", b"x-goog-api-key: " + SECRET.encode()),
])
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_key_is_sent_but_never_written_or_printed(tmp_path, raw_server, monkeypatch, provider, env, header, fmt):
    monkeypatch.setenv(env, SECRET)
    srv = raw_server(_answer)
    rec = tmp_path / "rec.jsonl"
    code, out, err = run_cli(["live", "--provider", provider, "--request", write_request(tmp_path),
                              "--base-url", srv.url, "--format", fmt, "--record", str(rec)])
    assert header.lower() in srv.requests[0].lower()  # the key went over the wire
    assert out and code in (0, 1)
    for text in (out, err, rec.read_text()):
        assert SECRET not in text
        assert "TESTSECRET" not in text
    cap = load_path(rec)
    secret_headers = {k: v for k, v in cap.request["headers"].items()
                      if k in ("x-api-key", "authorization", "x-goog-api-key")}
    assert list(secret_headers.values()) == ["[redacted]"]
    assert cap.response["headers"]["set-cookie"] != f"session={SECRET}"
    # and the recording replays without the key showing up in its report either
    code, out, err = run_cli(["check", "--format", fmt, str(rec)])
    assert SECRET not in out + err


def test_key_not_in_serve_log_or_error_lines(tmp_path, monkeypatch, corpus):
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    log: list[str] = []
    with ServerThread([corpus / "http-429-json-body.jsonl"], instant=True, log=log.append) as srv:
        code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                                  "--base-url", srv.url, "--format", "json"])
    assert json.loads(out)["findings"]
    assert log and not any(SECRET in line for line in log)
    assert SECRET not in out + err
    # failures before any response mention host and port only
    code, out, err = run_cli(["live", "--provider", "anthropic", "--request", write_request(tmp_path),
                              "--base-url", "http://127.0.0.1:9/", "--format", "json"])
    assert code == 2 and SECRET not in out + err


def _screen_text(svg: str) -> str:
    """The characters of a Textual SVG screenshot, in order (tags dropped, entities decoded)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", svg.split("</style>")[-1])).replace("\xa0", " ")


async def test_key_not_on_screen_in_the_live_tui(tmp_path, raw_server, monkeypatch):
    pytest.importorskip("textual")
    app_mod = pytest.importorskip("inspector.tui.app")
    from inspector.net.live import live_source
    from inspector.feeds.live import LiveFeed

    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    srv = raw_server(_answer)
    rec = tmp_path / "tui.jsonl"
    feed = LiveFeed(live_source("anthropic", {"model": "m-test", "messages": []}, base_url=srv.url, record=rec),
                    label="live")
    app = app_mod.make_app(feed, title="live")
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(200):  # bounded: ~10 s
            if feed.finished:
                break
            await pilot.pause(0.05)
        assert feed.finished
        await pilot.pause(0.2)
        screen = _screen_text(app.export_screenshot())
    assert SECRET.encode() in srv.requests[0]
    assert "anthropic-messages" in screen and "J005" in screen  # the stream is on screen...
    assert SECRET not in screen and "TESTSECRET" not in screen  # ...the key is not
    assert SECRET not in rec.read_text()
