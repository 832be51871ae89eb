"""Bedrock over real HTTP on 127.0.0.1: ``serve`` answers botocore's own Bedrock client (its
event-stream parser reads our frames back), the proxy inspects what passes through it, and
``live --provider bedrock`` signs with SigV4 (checked by recomputing the signature here)."""
from __future__ import annotations

import hashlib
import hmac
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, urlsplit

import botocore.session
import orjson
import pytest
from botocore.config import Config
from botocore.exceptions import EventStreamError

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from inspector.report.json import report_dict
from tests import bedrock_frames as f
from tests.conftest import BEDROCK_CORPUS
from tests.e2e.conftest import report_shape, run_cli

MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0"
FAKE = {"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE0000000000", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        "AWS_REGION": "us-east-1"}


@pytest.fixture
def aws_env(monkeypatch, tmp_path):
    """Made-up credentials, no AWS config files, no instance metadata lookups (nothing leaves 127.0.0.1)."""
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK", "AWS_ENDPOINT_URL",
              "AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(k, raising=False)
    for k, v in FAKE.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def _client(url: str):
    return botocore.session.get_session().create_client(
        "bedrock-runtime", region_name="us-east-1", endpoint_url=url,
        aws_access_key_id=FAKE["AWS_ACCESS_KEY_ID"], aws_secret_access_key=FAKE["AWS_SECRET_ACCESS_KEY"],
        config=Config(retries={"max_attempts": 1}, read_timeout=10, connect_timeout=5))


def test_botocore_reads_a_served_converse_capture_as_check_does(aws_env):
    path = BEDROCK_CORPUS / "converse-tool-clean.jsonl"
    report = report_dict("x", run_capture(load_path(path)))
    with ServerThread([path], instant=True) as srv:
        resp = _client(srv.url_for("converse-tool-clean")).converse_stream(
            modelId=MODEL, messages=[{"role": "user", "content": [{"text": "Weather in Paris?"}]}])
        assert resp["ResponseMetadata"]["HTTPHeaders"]["content-type"] == "application/vnd.amazon.eventstream"
        events = list(resp["stream"])
    assert [next(iter(e)) for e in events] == ["messageStart", "contentBlockDelta", "contentBlockDelta",
                                               "contentBlockStop", "contentBlockStart", "contentBlockDelta",
                                               "contentBlockDelta", "contentBlockDelta", "contentBlockStop",
                                               "messageStop", "metadata"]
    text = "".join(e["contentBlockDelta"]["delta"].get("text", "") for e in events if "contentBlockDelta" in e)
    args = "".join(e["contentBlockDelta"]["delta"]["toolUse"]["input"] for e in events
                   if "contentBlockDelta" in e and "toolUse" in e["contentBlockDelta"]["delta"])
    start = next(e["contentBlockStart"]["start"]["toolUse"] for e in events if "contentBlockStart" in e)
    blocks = {b["kind"]: b for b in report["blocks"]}
    assert text == blocks["text"]["text"]
    assert args == blocks["tool_use"]["arguments"]
    assert (start["toolUseId"], start["name"]) == (blocks["tool_use"]["id"], blocks["tool_use"]["name"])
    assert events[-2]["messageStop"]["stopReason"] == report["stop_reason"]
    assert events[-1]["metadata"]["usage"]["outputTokens"] == 38


def test_botocore_reads_a_served_raw_anthropic_body(aws_env):
    """A ``curl -o`` body (no recorded head) goes out as ``application/vnd.amazon.eventstream``."""
    path = BEDROCK_CORPUS / "bedrock-anthropic-text-clean.bin"
    with ServerThread([path], instant=True) as srv:
        resp = _client(srv.url).invoke_model_with_response_stream(
            modelId=MODEL, body=orjson.dumps({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 50,
                                              "messages": [{"role": "user", "content": "Hi"}]}))
        assert resp["ResponseMetadata"]["HTTPHeaders"]["content-type"] == "application/vnd.amazon.eventstream"
        inner = [orjson.loads(e["chunk"]["bytes"]) for e in resp["body"]]
    assert [e["type"] for e in inner][0] == "message_start" and inner[-1]["type"] == "message_stop"
    assert "".join(e["delta"]["text"] for e in inner if e["type"] == "content_block_delta") == "Hello! How can I help?"


def test_botocore_raises_where_check_reports_s015(aws_env):
    path = BEDROCK_CORPUS / "converse-s015-bad-message-crc.jsonl"
    with ServerThread([path], instant=True) as srv:
        stream = _client(srv.url).converse_stream(modelId=MODEL, messages=[
            {"role": "user", "content": [{"text": "Hi"}]}])["stream"]
        seen = []
        with pytest.raises(Exception) as info:
            for e in stream:
                seen.append(next(iter(e)))
    assert seen == ["messageStart"]
    assert "Checksum" in type(info.value).__name__ or "checksum" in str(info.value).lower()
    assert not isinstance(info.value, EventStreamError)


def test_botocore_raises_the_in_stream_exception(aws_env):
    path = BEDROCK_CORPUS / "converse-s006-exception.jsonl"
    with ServerThread([path], instant=True) as srv:
        stream = _client(srv.url).converse_stream(modelId=MODEL, messages=[
            {"role": "user", "content": [{"text": "Hi"}]}])["stream"]
        with pytest.raises(EventStreamError) as info:
            list(stream)
    assert info.value.response["Error"]["Code"] == "modelStreamErrorException"


# ---------------------------------------------------------------------------------------------- live
def _sigv4(method: str, path: str, query: str, headers: dict, body: bytes, secret: str) -> tuple[str, str]:
    """(the SigV4 signature of a request as received, computed here independently of botocore from
    AWS's "Create a signed AWS API request" steps; the signature the request carries)."""
    auth = headers["authorization"]
    fields = dict(p.strip().split("=", 1) for p in auth.split(" ", 1)[1].split(","))
    signed = fields["SignedHeaders"].split(";")
    scope = fields["Credential"].split("/", 1)[1]
    date, region, service, _ = scope.split("/")
    # non-S3 services: the path's segments are URI-encoded once more
    canonical_path = "/".join(quote(seg, safe="-_.~") for seg in path.split("/"))
    canonical = "\n".join([method, canonical_path, query,
                           "".join(f"{h}:{' '.join(headers[h].split())}\n" for h in signed),
                           ";".join(signed), hashlib.sha256(body).hexdigest()])
    to_sign = "\n".join(["AWS4-HMAC-SHA256", headers["x-amz-date"], scope,
                         hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest(), fields["Signature"]


class _Recorder(BaseHTTPRequestHandler):
    seen: list = []
    body = b""

    def do_POST(self):  # noqa: N802 (http.server's naming)
        data = self.rfile.read(int(self.headers.get("content-length", "0")))
        self.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, data))
        self.send_response(200)
        self.send_header("content-type", "application/vnd.amazon.eventstream")
        self.send_header("content-length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


@pytest.fixture
def upstream():
    _Recorder.seen = []
    _Recorder.body = b"".join([f.message_start(), f.text(0, "Hi"), f.stop(0), f.message_stop(), f.metadata()])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}", _Recorder.seen
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("provider,operation", [("bedrock", "invoke-with-response-stream"),
                                                ("bedrock-converse", "converse-stream")])
def test_live_signs_with_sigv4_and_reads_the_stream(aws_env, upstream, tmp_path, provider, operation):
    url, seen = upstream
    if provider == "bedrock":
        _Recorder.body = b"".join(f.chunk(e) for e in [f.a_message_start(), *f.a_text_block(0, "Hi"), *f.a_end()])
    req = tmp_path / "req.json"
    body = {"model": MODEL, "messages": [{"role": "user", "content": [{"text": "Hi"}]}]}
    req.write_bytes(orjson.dumps(body))
    code, out, err = run_cli(["live", "--provider", provider, "--request", str(req), "--base-url", url,
                              "--format", "json"])
    assert code == 0, err
    report = orjson.loads(out.splitlines()[0])
    assert report["dialect"] == ("bedrock-converse" if provider == "bedrock-converse" else "bedrock-anthropic")
    assert report["findings"] == []
    assert report["blocks"][0]["text"] == "Hi"
    ((path, headers, sent),) = seen
    assert urlsplit(path).path == f"/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/{operation}"
    assert headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE0000000000/")
    assert "/us-east-1/bedrock/aws4_request" in headers["authorization"]
    ours, theirs = _sigv4("POST", urlsplit(path).path, "", headers, sent, FAKE["AWS_SECRET_ACCESS_KEY"])
    assert ours == theirs
    sent_body = orjson.loads(sent)
    assert "model" not in sent_body and "stream" not in sent_body
    if provider == "bedrock":
        assert sent_body["anthropic_version"] == "bedrock-2023-05-31"


def test_live_without_credentials_is_one_line(aws_env, monkeypatch, tmp_path):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    req = tmp_path / "req.json"
    req.write_bytes(orjson.dumps({"model": MODEL, "messages": []}))
    code, out, err = run_cli(["live", "--provider", "bedrock-converse", "--request", str(req), "--format", "json"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no AWS credentials" in err and "AWS_ACCESS_KEY_ID" in err


def test_live_with_a_bedrock_api_key_sends_it_as_a_bearer_token(aws_env, monkeypatch, upstream, tmp_path):
    url, seen = upstream
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-abc123")
    req = tmp_path / "req.json"
    req.write_bytes(orjson.dumps({"model": MODEL, "messages": []}))
    code, out, err = run_cli(["live", "--provider", "bedrock-converse", "--request", str(req), "--base-url", url,
                              "--format", "json"])
    assert code == 0, err
    ((_, headers, _),) = seen
    assert headers["authorization"] == "Bearer bedrock-api-key-abc123"


# --------------------------------------------------------------------------------------------- proxy
def test_proxy_inspects_a_bedrock_stream_it_passes_to_botocore(aws_env):
    path = BEDROCK_CORPUS / "converse-tool-clean.jsonl"
    with ServerThread([path], instant=True) as srv, ProxyThread(srv.url, timeout=10) as px:
        stream = _client(f"{px.url}/converse-tool-clean").converse_stream(
            modelId=MODEL, messages=[{"role": "user", "content": [{"text": "Weather in Paris?"}]}])["stream"]
        events = list(stream)
        [report] = px.wait_reports(1)
    assert events[-2]["messageStop"]["stopReason"] == "tool_use"
    assert report["streamed"] is True and report["dialect"] == "bedrock-converse"
    assert report_shape(report) == report_shape(report_dict(str(path), run_capture(load_path(path))))


def test_proxy_signs_sigv4_requests_again_for_its_upstream(aws_env, upstream):
    url, seen = upstream
    with ProxyThread(url, timeout=10) as px:
        events = list(_client(px.url).converse_stream(
            modelId=MODEL, messages=[{"role": "user", "content": [{"text": "Hi"}]}])["stream"])
        px.wait_reports(1)
    assert [next(iter(e)) for e in events][-1] == "metadata"
    ((path, headers, sent),) = seen
    assert headers["host"] == urlsplit(url).netloc  # what AWS checks the signature against
    ours, theirs = _sigv4("POST", urlsplit(path).path, "", headers, sent, FAKE["AWS_SECRET_ACCESS_KEY"])
    assert ours == theirs
