"""Secrets of every maintained shape, and keys a stream splits across events, never reach a sink
(issue 24 item 5, issue 23 item 11).

A capture shared by a stranger holds its secrets unmasked (another tool wrote it): unknown key
headers, a ``?token=`` URL, AWS and GitHub keys in the streamed text, and an Anthropic key the
stream sends in two deltas. Every sink is read for each secret: ``check`` in every format, the
HTML and HAR exports, the OpenTelemetry span, a recording written from it, the TUI's event log
and event detail. Through the proxy, the credentials a client sends under header names the tool
does not know are masked in the recording and the report.
"""
from __future__ import annotations

import json

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.feeds.run import run_capture
from inspector.net.proxy.server import ProxyThread
from inspector.report.spans import span_for
from tests.e2e.conftest import ANTHROPIC_OPENING, WAIT_S, answering, run_cli, sse_event

AWS = "AKIAZ7XQ4MPLE3KEYID9"
GITHUB = "ghp_" + "Tz8Yx7Wv6Ut5Sr4Qp3On2Ml1Kj0Ih9Gf8Ed7"
GITHUB_PAT = "github_pat_11AAAA0000_" + "QwErTyUiOpAsDfGhJkLz0123456789"
SPLIT = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5" * 2  # 80+ characters after the type prefix
HEADER_KEYS = {"x-portkey-api-key": "pk-live-PORTKEY0123456789", "x-litellm-api-key": "litellm-SECRET-987654",
               "cf-aig-authorization": "Bearer cfaig_TOKEN_abcdef0123456789"}
QUERY_TOKEN = "qtok_ZXCVBNM0987654321"

SECRET_PARTS = [AWS[4:], GITHUB[4:], GITHUB_PAT[11:], SPLIT[7:27], SPLIT[27:60], SPLIT[60:],
                "PORTKEY0123456789", "SECRET-987654", "TOKEN_abcdef0123456789", QUERY_TOKEN]
"""What no sink may show (each key's type prefix may stay: ``AKIA[redacted]``)."""


def delta(text: str) -> dict:
    return {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}


EVENTS = [*ANTHROPIC_OPENING[:1], {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
          delta(f"AWS {AWS}, GitHub {GITHUB} and {GITHUB_PAT}. The Anthropic key: "),
          delta(SPLIT[:27]), delta(SPLIT[27:]), delta(" (rotate it)."),
          {"type": "content_block_stop", "index": 0},
          {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
          {"type": "message_stop"}]


def hostile_capture(tmp_path):
    """A native capture as another tool would write it: every secret in the clear, the split key's
    two deltas in two network chunks."""
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": f"https://gw.example/v1/messages?token={QUERY_TOKEN}",
                        "headers": {"content-type": "application/json", **HEADER_KEYS},
                        "body": {"model": "m-test", "stream": True, "messages": [{"role": "user", "content": "hi"}]}},
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    body = [sse_event(e).decode() for e in EVENTS]
    chunks = ["".join(body[:4]), body[4], "".join(body[5:])]  # the split key's deltas end chunk 1 and start chunk 2
    lines = [head] + [{"t": 0.1 * (i + 1), "data": c} for i, c in enumerate(chunks)] + [{"t": 0.5, "end": "eof"}]
    path = tmp_path / "shared.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def assert_masked(text: str, where: str) -> None:
    leaked = [s for s in SECRET_PARTS if s in text]
    assert not leaked, f"{where} shows {leaked}"


def test_the_hostile_capture_really_holds_the_secrets(tmp_path):
    raw = hostile_capture(tmp_path).read_text()
    assert all(s in raw for s in SECRET_PARTS[:3] + SECRET_PARTS[6:])
    session = run_capture(load_path(hostile_capture(tmp_path)))
    assert SPLIT in session.blocks[0].content  # the key is whole only once the deltas are joined


@pytest.mark.parametrize("fmt", ["json", "text", "github"])
def test_check_output_in_every_format(tmp_path, fmt):
    code, out, err = run_cli(["check", "--format", fmt, str(hostile_capture(tmp_path))])
    assert code in (0, 1), err
    assert_masked(out + err, f"check --format {fmt}")


def test_html_export_overview_blocks_and_every_raw_event(tmp_path):
    out = tmp_path / "report.html"
    code, _, err = run_cli(["export", "--to", "html", "-o", str(out), str(hostile_capture(tmp_path))])
    assert code == 0, err
    page = out.read_text()
    assert "event-table" in page
    assert_masked(page, "the HTML export")
    # the events are packed (gzip, base64) in the page: unpacked, the keys are masked there too
    from tests.unit.test_export import page_of

    events = json.dumps(page_of(page).event_data, ensure_ascii=False)
    assert "sk-ant-" in events  # the raw events are there, the key's type shows
    assert_masked(events, "the HTML export's raw events")


def test_har_export_headers_url_body_and_chunks(tmp_path):
    out = tmp_path / "shared.har"
    code, _, err = run_cli(["export", "--to", "har", "-o", str(out), str(hostile_capture(tmp_path))])
    assert code == 0, err
    har = out.read_text()
    assert_masked(har, "the HAR export")
    entry = json.loads(har)["log"]["entries"][0]
    assert {h["name"]: h["value"] for h in entry["request"]["headers"]}["x-portkey-api-key"] == "[redacted]"


def test_recording_written_from_it_and_the_otlp_span(tmp_path):
    cap = load_path(hostile_capture(tmp_path))
    rec = tmp_path / "again.jsonl"
    write_capture(cap, rec)
    assert_masked(rec.read_text(), "a recording")
    span = span_for(run_capture(cap), start=0.0, label=f"https://gw.example/x?token={QUERY_TOKEN}")
    assert_masked(json.dumps([span.name, span.attributes, [e.attributes for e in span.events]]), "the span")


async def test_tui_event_log_and_event_detail(tmp_path):
    pytest.importorskip("textual")
    from inspector.capture.redact import EventMasks
    from inspector.tui.app import make_app
    from inspector.tui.screens.finding_detail import event_text
    from inspector.tui.widgets.event_log import EventLog
    from tests.ui.conftest import playback, settle

    app = make_app(playback(hostile_capture(tmp_path), instant=True))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        log = app.query_one(EventLog)
        lines = [log._line_text(i).plain for i in range(len(app.feed.session.events))]
        shown = [event_text(log.shown_event(i)) for i in range(len(app.feed.session.events))]
    assert any("sk-ant-" in line for line in lines)  # the event that begins the key is there
    assert_masked("\n".join(lines), "the event log")
    assert_masked("\n".join(shown), "the event detail")
    masks = EventMasks(run_capture(load_path(hostile_capture(tmp_path))).events)
    assert_masked("\n".join(event_text(masks.shown(i)) for i in range(len(masks.events))), "a finding's event")


def test_proxy_masks_key_headers_it_does_not_know_by_name_and_a_token_parameter(raw_server, tmp_path):
    up = raw_server(answering(*(sse_event(e) for e in EVENTS)))
    with ProxyThread(up.url, record_dir=tmp_path) as px:
        r = httpx.post(f"{px.url}/v1/messages?token={QUERY_TOKEN}", headers=HEADER_KEYS, timeout=WAIT_S,
                       json={"model": "m-test", "stream": True, "messages": []}, trust_env=False)
        [report] = px.wait_reports(1)
    assert r.status_code == 200 and SPLIT[27:].encode() in r.content  # the client gets its bytes untouched
    assert HEADER_KEYS["x-portkey-api-key"].encode() in up.requests[0] and QUERY_TOKEN.encode() in up.requests[0]
    assert_masked(json.dumps(report), "the proxy's report")
    assert_masked(next(tmp_path.iterdir()).read_text(), "the proxy's recording")


def test_proxy_record_masks_a_key_in_chunks_cut_inside_a_multibyte_character(raw_server, tmp_path):
    """An upstream whose ``é`` is cut across two writes (each chunk alone is not UTF-8), a key in
    each chunk and a mixed-case ``Bearer`` credential: the recording holds none of them."""
    import time

    bearer = "Zq9Xw8Vu7Ts6Rq5Po4Nm3Lk2"
    text = f"café {SPLIT} and bEaReR {bearer} or é {AWS}"
    raw = f"event: content_block_delta\ndata: {json.dumps(delta(text), ensure_ascii=False)}\n\n".encode()
    cut = raw.index("é".encode()) + 1
    last = raw.rindex("é".encode()) + 1
    events = [sse_event(e) for e in EVENTS[:2]]

    def behave(srv, conn, request) -> None:
        srv.head(conn)
        for body in (b"".join(events) + raw[:cut], raw[cut:last], raw[last:], *(sse_event(e) for e in EVENTS[6:])):
            srv.chunk(conn, body)
            time.sleep(0.1)  # one read each: the proxy records each write as one chunk
        srv.finish(conn)

    up = raw_server(behave)
    with ProxyThread(up.url, record_dir=tmp_path) as px:
        r = httpx.post(f"{px.url}/v1/messages", timeout=WAIT_S, trust_env=False,
                       json={"model": "m-test", "stream": True, "messages": []})
        px.wait_reports(1)
    assert r.status_code == 200 and SPLIT.encode() in r.content  # the client gets its bytes untouched
    [path] = list(tmp_path.iterdir())
    records = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert any("b64" in rec for rec in records)  # the cut chunks were recorded as bytes
    written = path.read_bytes() + b"".join(c.data for c in load_path(path).chunks)
    leaked = [s for s in (SPLIT[7:], AWS[4:], bearer) if s.encode() in written]
    assert not leaked, f"the recording holds {leaked}"
