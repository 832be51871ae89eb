"""Secrets inside AWS Bedrock's base64 ``chunk.bytes`` never reach a sink: InvokeModelWithResponseStream
wraps each Anthropic event as ``{"bytes": "<base64 of its JSON>"}``, so a scrub of the text sees only
base64 while every reader decodes it.

A capture as another tool would write it: a key whole in one delta, a key the stream sends in two
deltas, an AWS key in a tool call's arguments, a credential the client sent; its network chunks
cut inside base64 values (also inside a base64 quantum). Every sink is decoded all the way down
(record, frame, ``bytes``) and searched: ``check`` in every format, the HTML and HAR exports, a
recording written from it, the TUI's event log and raw bytes, and ``proxy --record`` in front of
``serve``. A recording must still decode exactly as the capture does (the same events and findings,
no broken frame), the key's type readable.
"""
from __future__ import annotations

import base64
import json
import re

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.feeds.run import run_capture
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from inspector.report.json import report_dict
from tests import bedrock_frames as f
from tests.e2e.conftest import WAIT_S, report_shape, run_cli

KEY = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5"
SPLIT = "sk-ant-api03-" + "Qw9Er8Ty7Ui6Op5Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0" * 2
AWS = "AKIAZ7XQ4MPLE3KEYID9"
SENT = "brk-ABSK-zq8W7x6V5u4T3s2R1q0P"
"""A Bedrock API key of no maintained shape: masked only because the proxy forwarded it."""
SECRETS = [KEY[7:], SPLIT[9:30], SPLIT[30:60], SPLIT[60:], AWS[4:]]
"""What no sink may show (the split key's first delta is ``sk-ant-ap``: its type and two characters)."""


def body() -> bytes:
    f.reset()
    events = [f.a_message_start(), *f.a_text_block(0, f"Your key: {KEY}. The other one: ", SPLIT[:9], SPLIT[9:],
                                                     f". Sent to us: {SENT}."),
              *f.a_tool_block(1, '{"aws_key": "', AWS, '"}'), *f.a_end()]
    return b"".join(f.chunk(e) for e in events)


def capture(tmp_path):
    """The capture, each network chunk cut inside a base64 value at another offset in its quantum."""
    raw = body()
    starts = [m.end() for m in re.finditer(rb'"bytes":"', raw)]
    cuts = [s + 9 + k for k, s in enumerate(starts)]  # 9, 10, 11, 12... characters into each value
    path = tmp_path / "bedrock.jsonl"
    path.write_text(f.native(raw, path="/model/m/invoke-with-response-stream", cuts=cuts))
    return path


def revealed(data: bytes | str, depth: int = 0) -> str:
    """``data`` and everything its base64 runs decode to, all the way down, as one text."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    found = [text]
    if depth < 3:
        for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", text):
            core = run.rstrip("=")
            decoded = base64.b64decode(core[:len(core) - len(core) % 4 if len(core) % 4 == 1 else len(core)]
                                       + "=" * (-len(core) % 4))
            found.append(revealed(decoded, depth + 1))
    return "\n".join(found)


def assert_masked(data: bytes | str, where: str, also: tuple[str, ...] = ()) -> None:
    seen = revealed(data)
    leaked = [s for s in (*SECRETS, *also) if s in seen]
    assert not leaked, f"{where} shows {leaked}"


def reading(session) -> dict:
    """What ``check`` reads in a capture, a masked key written as one ``[redacted]`` after ``sk-``
    (a recording pads it with ``*`` to the key's length, and masks a key whose first delta ends
    ``sk-ant-ap`` from after ``sk-``: it may be an OpenAI key, the scrubber cannot wait to know)."""
    shape = json.dumps(report_shape(report_dict("x", session)))
    shape = re.sub(r"\[redacted\]\*+", "[redacted]", shape)
    return json.loads(re.sub(r"sk-(?:ant-)?(?:\*|\[redacted\])+", "sk-[redacted]", shape))


def body_of(path) -> bytes:
    """A recording's body: its chunks joined (a value is cut across them)."""
    return load_path(path).body


def test_the_capture_really_holds_the_secrets_where_a_scrub_of_its_text_cannot_see_them(tmp_path):
    path = capture(tmp_path)
    assert not any(s in path.read_text() for s in SECRETS)
    assert all(s in revealed(body_of(path)) for s in SECRETS)
    session = run_capture(load_path(path))
    assert SPLIT in session.blocks[0].content and len(load_path(path).chunks) > 10


@pytest.mark.parametrize("fmt", ["json", "text", "github"])
def test_check_output_in_every_format(tmp_path, fmt):
    code, out, err = run_cli(["check", "--format", fmt, str(capture(tmp_path))])
    assert code in (0, 1), err
    assert_masked(out + err, f"check --format {fmt}")


def test_a_recording_written_from_it_is_masked_and_reads_as_the_capture_does(tmp_path):
    path = capture(tmp_path)
    rec = tmp_path / "again.jsonl"
    write_capture(load_path(path), rec)
    assert_masked(body_of(rec), "the recording's body")
    assert_masked(rec.read_text(), "the recording's records")
    assert len(body_of(rec)) == len(body_of(path))
    again, before = run_capture(load_path(rec)), run_capture(load_path(path))
    assert [(e.name, e.t) for e in again.events] == [(e.name, e.t) for e in before.events]
    assert reading(again) == reading(before)
    assert "sk-ant-[redacted]" in again.blocks[0].content  # the key's type still shows


def test_html_and_har_exports(tmp_path):
    from tests.unit.test_export import page_of

    path = capture(tmp_path)
    html, har = tmp_path / "r.html", tmp_path / "r.har"
    for to, out in (("html", html), ("har", har)):
        code, _, err = run_cli(["export", "--to", to, "-o", str(out), str(path)])
        assert code == 0, err
    assert_masked(html.read_text(), "the HTML export")
    assert_masked(json.dumps(page_of(html.read_text()).event_data), "the HTML export's raw events")
    entry = json.loads(har.read_text())["log"]["entries"][0]
    assert_masked(base64.b64decode(entry["response"]["content"]["text"]), "the HAR's body")
    chunks = b"".join(base64.b64decode(c["b64"]) if "b64" in c else c["data"].encode() for c in entry["_chunks"])
    assert_masked(chunks, "the HAR's chunks")
    assert len(chunks) == len(body_of(path))


async def test_tui_event_log_and_raw_bytes(tmp_path):
    pytest.importorskip("textual")
    from inspector.tui.app import make_app
    from inspector.tui.screens.event_detail import EventDetailScreen
    from inspector.tui.widgets.event_log import EventLog
    from inspector.tui.widgets.text_page import TextPage
    from tests.ui.conftest import playback, settle

    app = make_app(playback(capture(tmp_path), instant=True))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        log = app.query_one(EventLog)
        n = len(app.feed.session.events)
        lines = "\n".join(log._line_text(i).plain for i in range(n))
        pages = []
        for i in range(n):
            log.focus()
            log.center_on(i)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EventDetailScreen)
            pages.append(app.screen.query_one(TextPage).text())
            await pilot.press("escape")
            await pilot.pause()
    assert "sk-ant-" in lines  # the event log summarises the decoded events
    assert_masked(lines, "the event log")
    hexes = "".join(b for page in pages for b in re.findall(r"^[0-9a-f]{8}  ((?:[0-9a-f]{2} ?)+)", page, re.M))
    assert_masked(bytes.fromhex(hexes.replace(" ", "")), "the raw bytes")
    assert_masked("\n".join(pages), "the event detail")


def test_proxy_record_in_front_of_serve(tmp_path):
    served = capture(tmp_path)
    (tmp_path / "rec").mkdir()
    with ServerThread([served]) as srv, ProxyThread(srv.url, record_dir=tmp_path / "rec", timeout=WAIT_S) as px:
        r = httpx.post(f"{px.url}/{served.stem}/model/m/invoke-with-response-stream", json={"messages": []},
                       headers={"authorization": f"Bearer {SENT}"}, timeout=WAIT_S, trust_env=False)
        [report] = px.wait_reports(1)
    assert r.status_code == 200 and r.content == body()  # the client gets its bytes untouched
    assert_masked(json.dumps(report), "the proxy's report", also=(SENT,))
    [rec] = list((tmp_path / "rec").iterdir())
    assert_masked(body_of(rec), "the proxy's recording", also=(SENT,))
    assert len(body_of(rec)) == len(body())
    again = run_capture(load_path(rec))
    assert reading(again) == reading(run_capture(load_path(served)))
