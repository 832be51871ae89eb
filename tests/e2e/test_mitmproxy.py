"""The mitmproxy addon: real ``mitmdump`` (regular mode, 127.0.0.1, its CA generated in a temporary
confdir) in its own cached environment (``uvx``: mitmproxy's pins cannot share this project's lock),
the real Anthropic SDK trusting that CA, and ``serve`` over HTTPS (a ``trustme`` certificate) behind
it. The addon's sink, in this project's environment, reports and records each streamed exchange
as ``proxy`` does. Skipped only when mitmproxy cannot be installed (no ``uvx``, no package index)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading

import anthropic
import httpx2
import pytest
import trustme
import uvicorn

from inspector.capture.load import load_path
from inspector.net.serve import load_served, make_asgi_app
from tests.conftest import ROOT, SHARED_CORPUS
from tests.e2e.conftest import LOOPBACK, wait_for
from tests.e2e.test_otlp import Receiver

MITMDUMP = ["uvx", "--from", "mitmproxy", "mitmdump"]
CLEAN = SHARED_CORPUS / "anthropic-doc-tool-call.sse"
EARLY_STOP = SHARED_CORPUS / "anthropic-stop-before-json-complete.sse"
KEY = "sk-ant-api03-mitmtest" + "W" * 30


@pytest.fixture(scope="module")
def mitmdump():
    """The mitmdump command, installed once into uv's cache (skip when that cannot be done)."""
    if shutil.which("uvx") is None:
        pytest.skip("uvx is not installed: mitmproxy needs its own environment")
    try:
        done = subprocess.run([*MITMDUMP, "--version"], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"mitmproxy cannot be installed here: {e}")
    if done.returncode != 0 or "Mitmproxy" not in done.stdout:
        pytest.skip(f"mitmproxy cannot be installed here: {done.stderr.strip()[-300:]}")
    return MITMDUMP


@pytest.fixture()
def https_serve(tmp_path):
    """``serve`` over HTTPS on 127.0.0.1 with a trustme certificate: (base URL, CA file)."""
    ca = trustme.CA()
    cert = ca.issue_cert(LOOPBACK)
    key, chain, ca_file = tmp_path / "key.pem", tmp_path / "chain.pem", tmp_path / "upstream-ca.pem"
    cert.private_key_pem.write_to_path(str(key))
    cert.cert_chain_pems[0].write_to_path(str(chain))
    ca.cert_pem.write_to_path(str(ca_file))
    sock = socket.socket()
    sock.bind((LOOPBACK, 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(make_asgi_app(load_served([CLEAN, EARLY_STOP]), instant=True), host=LOOPBACK, port=port,
                            ssl_keyfile=str(key), ssl_certfile=str(chain), log_level="error", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "the HTTPS mock provider")
    yield f"https://{LOOPBACK}:{port}", ca_file
    server.should_exit = True
    thread.join(10)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def test_mitmdump_addon_reports_records_and_traces_every_streamed_response(mitmdump, https_serve, tmp_path):
    upstream, upstream_ca = https_serve
    confdir, rec = tmp_path / "mitm", tmp_path / "recordings"
    port = _free_port()
    addon = subprocess.run([sys.executable, "-m", "inspector", "mitmproxy-addon"], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout.strip()
    sink = f"{sys.executable} -m inspector"
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env["PYTHONPATH"] = str(ROOT)  # the sink runs from the project's environment, wherever mitmdump's cwd is
    receiver = Receiver().__enter__()
    env["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.url
    proc = subprocess.Popen([*mitmdump, "--mode", "regular", "--listen-host", LOOPBACK, "--listen-port", str(port),
                             "-q", "--set", f"confdir={confdir}", "--set", f"ssl_verify_upstream_trusted_ca={upstream_ca}",
                             "-s", addon, "--set", f"stream_inspector={sink}",
                             "--set", f"stream_inspector_args=--format json --otlp --record {rec}"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ca = confdir / "mitmproxy-ca-cert.pem"
        wait_for(lambda: ca.exists() and _listening(port), "mitmdump to listen", timeout=120)
        http = httpx2.Client(proxy=f"http://{LOOPBACK}:{port}", verify=ssl.create_default_context(cafile=str(ca)),
                             timeout=30)
        for name in (CLEAN.stem, EARLY_STOP.stem):
            client = anthropic.Anthropic(base_url=f"{upstream}/{name}", api_key=KEY, http_client=http, max_retries=0)
            with client.messages.stream(model="claude-mitm", max_tokens=9,
                                        messages=[{"role": "user", "content": "hi"}]) as s:
                s.until_done()
        assert client.models  # a plain JSON answer is not streamed: nothing for the sink
        wait_for(lambda: len(list(rec.glob("*.jsonl"))) == 2 and all(
            load_path(p).end is not None for p in rec.glob("*.jsonl")), "two finished recordings", timeout=60)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        receiver.__exit__()
    reports = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(reports) == 2, (out, err)
    clean, early = reports
    assert clean["dialect"] == "anthropic-messages" and clean["findings"] == [] and clean["stop_reason"] == "tool_use"
    assert [(f["code"], f["event"]) for f in early["findings"]] == [("J002", 4), ("A005", 5)]
    recordings = sorted(rec.glob("*.jsonl"))
    assert [p.name for p in recordings] == ["001-POST-anthropic-doc-tool-call-v1-messages.jsonl",
                                            "002-POST-anthropic-stop-before-json-complete-v1-messages.jsonl"]
    cap = load_path(recordings[1])
    assert cap.body == EARLY_STOP.read_bytes() and cap.end.kind == "eof"
    assert cap.request["headers"]["authorization"] == "[redacted]"
    assert KEY not in out + err + "".join(p.read_text() for p in recordings)
    # --otlp: one span per exchange, as proxy sends them.
    assert sorted(s["attributes"]["gen_ai.request.model"] for s in receiver.spans) == ["claude-mitm"] * 2
    codes = sorted(e["attributes"]["stream_inspector.finding.code"] for s in receiver.spans for e in s["events"])
    assert codes == ["A005", "J002"]


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((LOOPBACK, port)) == 0
