"""A key inside a base64 attachment of the request (a ``.env`` file sent as a document) never reaches
a recording, the HTML export or the HAR: Bedrock Converse's ``source.bytes``, Anthropic's ``source``
of ``"type": "base64"``, Gemini's ``inlineData``, a ``data:…;base64,`` URL. An image stays as it was."""
from __future__ import annotations

import base64
import json

import httpx

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.net.proxy.server import ProxyThread
from tests.e2e.conftest import ANTHROPIC_OPENING, WAIT_S, answering, run_cli, sse_event
from tests.e2e.test_bedrock_secrets import AWS, KEY, revealed

ENV = f"ANTHROPIC_API_KEY={KEY}\nAWS_ACCESS_KEY_ID={AWS}\n".encode()
DOC = base64.b64encode(ENV).decode()
PNG = base64.b64encode(bytes(range(256)) * 4).decode()
"""Bytes of no text: left byte for byte."""
BODY = {"model": "m-test", "stream": True, "messages": [
    {"role": "user", "content": [
        {"type": "document", "source": {"type": "base64", "media_type": "text/plain", "data": DOC}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"document": {"format": "txt", "name": "env", "source": {"bytes": DOC}}},
        {"inlineData": {"mimeType": "text/plain", "data": DOC}},
        {"type": "file", "file": {"filename": ".env", "file_data": f"data:text/plain;base64,{DOC}"}}]}]}
SECRETS = (KEY[7:], AWS[4:])


def assert_masked(text: str, where: str) -> None:
    seen = revealed(text)
    leaked = [s for s in SECRETS if s in seen]
    assert not leaked, f"{where} shows {leaked}"


def capture(tmp_path):
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {}, "body": BODY},
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    lines = [head, {"t": 0.1, "data": sse_event(ANTHROPIC_OPENING[0]).decode()}, {"t": 0.2, "end": "eof"}]
    path = tmp_path / "attached.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_recording_the_html_export_and_the_har(tmp_path):
    path = capture(tmp_path)
    assert all(s in revealed(path.read_text()) for s in SECRETS)
    rec = tmp_path / "again.jsonl"
    write_capture(load_path(path), rec)
    assert_masked(rec.read_text(), "a recording")
    body = json.loads(rec.read_text().splitlines()[0])["request"]["body"]
    assert body["messages"][0]["content"][1]["source"]["data"] == PNG
    assert b"ANTHROPIC_API_KEY=sk-ant-[redacted]" in base64.b64decode(body["messages"][0]["content"][0]["source"]["data"])
    for to in ("html", "har"):
        out = tmp_path / f"r.{to}"
        code, _, err = run_cli(["export", "--to", to, "-o", str(out), str(path)])
        assert code == 0, err
        assert_masked(out.read_text(), f"the {to} export")


def test_proxy_record(raw_server, tmp_path):
    up = raw_server(answering(sse_event(ANTHROPIC_OPENING[0])))
    with ProxyThread(up.url, record_dir=tmp_path) as px:
        r = httpx.post(f"{px.url}/v1/messages", json=BODY, timeout=WAIT_S, trust_env=False)
        px.wait_reports(1)
    assert r.status_code == 200 and DOC.encode() in up.requests[0]  # the upstream gets the document as sent
    [rec] = list(tmp_path.iterdir())
    assert_masked(rec.read_text(), "the proxy's recording")
