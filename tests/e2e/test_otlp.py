"""``--otlp``: spans reach a real OTLP/HTTP receiver on 127.0.0.1, decoded with ``opentelemetry-proto``.

The receiver is a plain HTTP server that accepts ``POST /v1/traces`` (protobuf, as the official
exporter sends it) and decodes each body as an ``ExportTraceServiceRequest``. ``check``, ``live``,
``proxy`` and ``run`` send through the official SDK (the ``otel`` extra, a dev dependency). A
collector that is down costs one warning line, never the inspection.
"""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

pytest.importorskip("opentelemetry.sdk")
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (  # noqa: E402
    ExportMetricsServiceRequest, ExportMetricsServiceResponse)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (  # noqa: E402
    ExportTraceServiceRequest, ExportTraceServiceResponse)

from inspector.net.otlp import ExchangeSpans, OtlpSender, traces_endpoint  # noqa: E402
from inspector.net.proxy.server import ProxyThread  # noqa: E402
from inspector.net.serve import ServerThread  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.e2e.conftest import LOOPBACK, WAIT_S, spawn, wait_for  # noqa: E402

BUNDLED = ROOT / "inspector" / "data" / "captures"


def _value(v):
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


def attrs(items) -> dict:
    return {kv.key: _value(kv.value) for kv in items}


class Receiver:
    """An OTLP/HTTP traces and metrics endpoint on 127.0.0.1: ``spans`` holds every decoded span as a
    dict, ``points`` every metric data point as ``(metric name, attributes, value)``."""

    def __init__(self) -> None:
        self.spans: list[dict] = []
        self.points: list[tuple[str, dict, float]] = []
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _metrics(self, body: bytes) -> bytes:
                req = ExportMetricsServiceRequest()
                req.ParseFromString(body)
                for rm in req.resource_metrics:
                    for sm in rm.scope_metrics:
                        for m in sm.metrics:
                            data = getattr(m, m.WhichOneof("data"))
                            for dp in data.data_points:
                                value = dp.sum if m.WhichOneof("data") == "histogram" else (
                                    dp.as_int if dp.WhichOneof("value") == "as_int" else dp.as_double)
                                outer.points.append((m.name, attrs(dp.attributes), value))
                return ExportMetricsServiceResponse().SerializeToString()

            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                outer.requests.append({"path": self.path, "headers": dict(self.headers)})
                if self.path == "/v1/metrics":
                    return self._answer(self._metrics(body))
                req = ExportTraceServiceRequest()
                req.ParseFromString(body)
                for rs in req.resource_spans:
                    resource = attrs(rs.resource.attributes)
                    for ss in rs.scope_spans:
                        for sp in ss.spans:
                            outer.spans.append({
                                "name": sp.name, "kind": sp.kind, "attributes": attrs(sp.attributes),
                                "resource": resource, "start": sp.start_time_unix_nano, "end": sp.end_time_unix_nano,
                                "status": sp.status.code, "trace_id": sp.trace_id.hex(),
                                "parent": sp.parent_span_id.hex(), "flags": sp.flags,
                                "events": [{"name": e.name, "t": e.time_unix_nano, "attributes": attrs(e.attributes)}
                                           for e in sp.events]})
                self._answer(ExportTraceServiceResponse().SerializeToString())

            def _answer(self, out: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((LOOPBACK, 0), Handler)
        self.url = f"http://{LOOPBACK}:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


def env_for(receiver: Receiver, **extra) -> dict:
    return {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_EXPORTER_OTLP_HEADERS": "x-team=agents", **extra}


def run_cli(argv: list[str], env: dict, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    proc = spawn(argv, env=env)
    out, err = proc.communicate(timeout=180)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_check_sends_one_span_per_file_with_genai_attributes_and_finding_events(receiver):
    files = [BUNDLED / "1-anthropic-tool-call.jsonl", BUNDLED / "2-anthropic-stall-and-early-stop.jsonl",
             BUNDLED / "3-openai-parallel-tool-calls.jsonl"]
    p = run_cli(["check", "--otlp", "--format", "json", "--jobs", "2", *map(str, files)], env_for(receiver))
    assert p.returncode in (0, 1) and "Traceback" not in p.stderr, p.stderr
    reports = [json.loads(line) for line in p.stdout.splitlines()]
    wait_for(lambda: len(receiver.spans) == 3, "3 spans")
    traces = [r for r in receiver.requests if r["path"] == "/v1/traces"]
    assert traces and traces[0]["headers"].get("x-team") == "agents"
    by_source = {s["attributes"]["stream_inspector.source"]: s for s in receiver.spans}
    assert set(by_source) == {str(f) for f in files}
    first = by_source[str(files[0])]
    a = first["attributes"]
    assert first["name"] == "chat claude-sonnet-4-5" and first["kind"] == 3  # SPAN_KIND_CLIENT
    assert first["resource"]["service.name"] == "stream-inspector"
    assert (a["gen_ai.operation.name"], a["gen_ai.provider.name"], a["gen_ai.system"]) == ("chat", "anthropic", "anthropic")
    assert a["gen_ai.request.model"] == "claude-sonnet-4-5" and a["gen_ai.request.max_tokens"] == 1024
    assert a["gen_ai.response.finish_reasons"] == [reports[0]["stop_reason"]]
    assert a["gen_ai.usage.input_tokens"] > 0 and a["gen_ai.usage.output_tokens"] > 0
    assert a["gen_ai.response.time_to_first_chunk"] == pytest.approx(reports[0]["ttfc_s"])
    assert a["server.address"] == "api.anthropic.com" and a["server.port"] == 443
    assert first["end"] - first["start"] == pytest.approx(reports[0]["duration_s"] * 1e9, rel=1e-6)
    # One span event per finding: code, name, severity, event, block index, at the time it fired.
    second, rep = by_source[str(files[1])], reports[1]
    assert rep["findings"]
    events = [e for e in second["events"] if e["name"] == "stream_inspector.finding"]
    assert [e["attributes"]["stream_inspector.finding.code"] for e in events] == [f["code"] for f in rep["findings"]]
    for e, f in zip(events, rep["findings"]):
        ea = e["attributes"]
        assert (ea["stream_inspector.finding.name"], ea["stream_inspector.finding.severity"]) == (f["name"], f["severity"])
        assert ea.get("stream_inspector.finding.event") == f["event"]
        assert ea.get("stream_inspector.finding.block_index") == f["index"]
        if f["t"] is not None:
            assert e["t"] - second["start"] == pytest.approx(f["t"] * 1e9, abs=2e3)
    assert second["attributes"]["stream_inspector.findings.error"] == sum(f["severity"] == "error" for f in rep["findings"])
    chat = by_source[str(files[2])]["attributes"]
    assert chat["gen_ai.provider.name"] == "openai" and chat["gen_ai.response.finish_reasons"] == ["tool_calls"]


def test_proxy_exchanges_become_spans_and_an_http_error_is_an_error_span(receiver, corpus):
    sender = OtlpSender(traces_endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}))
    with ServerThread([corpus / "anthropic-doc-tool-call.sse", corpus / "http-429-json-body.jsonl"], instant=True) as srv:
        with ProxyThread(srv.url) as px:
            px.log.listeners.append(ExchangeSpans(sender))
            with httpx.Client(timeout=WAIT_S) as client:
                client.post(f"{px.url}/anthropic-doc-tool-call/v1/messages",
                            json={"model": "claude-proxy", "max_tokens": 50, "temperature": 0.5, "stream": True,
                                  "messages": []})
                client.post(f"{px.url}/http-429-json-body/v1/messages", json={"model": "claude-proxy", "stream": True,
                                                                               "messages": []})
            px.wait_reports(2)
    sender.close()
    wait_for(lambda: len(receiver.spans) == 2, "2 spans")
    ok, limited = sorted(receiver.spans, key=lambda s: s["attributes"]["stream_inspector.source"])
    assert ok["attributes"]["gen_ai.request.temperature"] == 0.5 and ok["attributes"]["gen_ai.request.stream"] is True
    assert ok["attributes"]["http.response.status_code"] == 200 and "error.type" not in ok["attributes"]
    assert ok["attributes"]["server.address"] == LOOPBACK and ok["status"] != 2
    assert limited["attributes"]["error.type"] == "429" and limited["status"] == 2  # STATUS_CODE_ERROR
    assert "S007" in [e["attributes"]["stream_inspector.finding.code"] for e in limited["events"]]


def test_live_and_run_send_their_exchanges(receiver, corpus, tmp_path):
    with ServerThread([corpus / "anthropic-doc-tool-call.sse"], instant=True) as srv:
        req = tmp_path / "req.json"
        req.write_text(json.dumps({"model": "claude-live", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}))
        p = run_cli(["live", "--provider", "anthropic", "--request", str(req), "--base-url", srv.url_for("anthropic-doc-tool-call"),
                     "--format", "json", "--otlp"], env_for(receiver, ANTHROPIC_API_KEY="sk-ant-otlp-test-000000"))
        assert p.returncode == 0, p.stderr
        agent = tmp_path / "agent.py"
        agent.write_text(textwrap.dedent('''
            import anthropic
            c = anthropic.Anthropic(api_key="sk-ant-otlp-test-000000", max_retries=0, timeout=10)
            with c.messages.stream(model="claude-run", max_tokens=64, messages=[{"role": "user", "content": "x"}]) as s:
                s.get_final_message()
        '''))
        p = run_cli(["run", "--format", "json", "--otlp", "--upstream", f"anthropic={srv.url_for('anthropic-doc-tool-call')}",
                     "--", sys.executable, str(agent)], env_for(receiver))
        assert p.returncode == 0, p.stderr
    wait_for(lambda: len(receiver.spans) == 2, "2 spans")
    models = sorted(s["attributes"]["gen_ai.request.model"] for s in receiver.spans)
    assert models == ["claude-live", "claude-run"]
    assert all(s["attributes"]["gen_ai.response.finish_reasons"] == ["tool_use"] for s in receiver.spans)


def test_a_proxy_stopped_by_sigterm_exports_its_span_and_metrics_first(receiver, corpus):
    """SIGTERM stops ``proxy`` as Ctrl+C does: the last collection of metrics (exported every 10 s
    otherwise) and the queued spans are sent (``OtlpSender.close``) before the process ends by the
    signal. Before, uvicorn raised SIGTERM again once stopped and the process died with them."""
    with ServerThread([corpus / "anthropic-doc-tool-call.sse"], instant=True) as srv:
        proc = spawn(["proxy", "--upstream", srv.url_for("anthropic-doc-tool-call"), "--port", "0", "--format", "json",
                      "--otlp"], env=env_for(receiver))
        try:
            url = proc.stderr.readline().split(" on ", 1)[1].split(" ", 1)[0]
            with httpx.Client(trust_env=False, timeout=WAIT_S) as client:
                client.post(f"{url}/v1/messages", json={"model": "claude-sigterm", "max_tokens": 50, "stream": True,
                                                        "messages": [{"role": "user", "content": "x"}]})
            assert json.loads(proc.stdout.readline())["exchange"] == 1  # ended and reported: its span is queued
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == -signal.SIGTERM, err
    assert "Traceback" not in err, err
    assert [s["attributes"]["gen_ai.request.model"] for s in receiver.spans] == ["claude-sigterm"]
    durations = [p for p in receiver.points if p[0] == "gen_ai.client.operation.duration"]
    assert durations and durations[0][1]["gen_ai.request.model"] == "claude-sigterm", receiver.points


def test_a_collector_that_is_down_is_one_warning_and_the_check_goes_on():
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        down = s.getsockname()[1]  # closed again: nothing listens there
    p = run_cli(["check", "--otlp", str(BUNDLED / "1-anthropic-tool-call.jsonl")],
                {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://{LOOPBACK}:{down}", "OTEL_EXPORTER_OTLP_TIMEOUT": "1"})
    assert p.returncode == 0 and "1-anthropic-tool-call.jsonl: anthropic-messages" in p.stdout
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "warning: OTLP: could not send" in lines[0] and "the inspection goes on" in lines[0]


def test_without_the_sdk_otlp_is_a_one_line_error():
    code = ("import sys\n"
            "sys.modules['opentelemetry.sdk.trace'] = None\n"  # as if the otel extra were not installed
            "from inspector.cli import main\n"
            f"sys.exit(main(['check', '--otlp', {str(BUNDLED / '1-anthropic-tool-call.jsonl')!r}]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [
        "stream-inspector: --otlp needs the OpenTelemetry SDK and OTLP exporter: "
        "pip install 'stream-inspector[otel]' (from a checkout: uv sync --extra otel)"]


def test_the_endpoint_follows_the_standard_variables():
    assert traces_endpoint({}) == "http://localhost:4318/v1/traces"
    assert traces_endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"}) == "http://c:4318/v1/traces"
    assert traces_endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
                            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://t.example/otlp/traces"}) == \
        "https://t.example/otlp/traces"


TRACE_ID, AGENT_SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
KEYLIKE = "sk-ant-api03-" + "Q" * 40


def test_proxy_span_joins_the_agents_trace_and_carries_content_and_metrics(receiver, corpus, monkeypatch):
    """A request with a W3C traceparent: the proxy's span is its child; with content capture on, the
    messages ride on the span, secrets masked; metrics reach /v1/metrics."""
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    sender = OtlpSender(traces_endpoint())
    with ServerThread([corpus / "anthropic-stop-before-json-complete.sse", corpus / "anthropic-doc-tool-call.sse"],
                      instant=True) as srv:
        with ProxyThread(srv.url) as px:
            px.log.listeners.append(ExchangeSpans(sender))
            with httpx.Client(timeout=WAIT_S) as client:
                client.post(f"{px.url}/anthropic-stop-before-json-complete/v1/messages",
                            headers={"traceparent": f"00-{TRACE_ID}-{AGENT_SPAN}-01", "tracestate": "agent=1"},
                            json={"model": "claude-traced", "max_tokens": 50, "stream": True, "system": "be brief",
                                  "messages": [{"role": "user", "content": f"my key is {KEYLIKE}"}]})
                client.post(f"{px.url}/anthropic-doc-tool-call/v1/messages",
                            json={"model": "claude-untraced", "stream": True, "messages": []})
            px.wait_reports(2)
    sender.close()
    wait_for(lambda: len(receiver.spans) == 2, "2 spans")
    spans = {s["attributes"]["gen_ai.request.model"]: s for s in receiver.spans}
    traced, untraced = spans["claude-traced"], spans["claude-untraced"]
    assert (traced["trace_id"], traced["parent"]) == (TRACE_ID, AGENT_SPAN)
    assert untraced["parent"] == "" and untraced["trace_id"] != TRACE_ID
    inp = json.loads(traced["attributes"]["gen_ai.input.messages"])
    assert inp[0] == {"role": "system", "parts": [{"type": "text", "content": "be brief"}]}
    assert inp[1]["role"] == "user" and inp[1]["parts"][0]["content"].startswith("my key is ")
    assert KEYLIKE not in traced["attributes"]["gen_ai.input.messages"]
    out = json.loads(traced["attributes"]["gen_ai.output.messages"])
    assert out == [{"role": "assistant", "finish_reason": "tool_use", "parts": [
        {"type": "tool_call", "id": "toolu_01Early", "name": "search_docs", "arguments": '{"query": "refund pol'}]}]
    wait_for(lambda: any(n == "stream_inspector.findings" for n, _, _ in receiver.points), "metrics")
    findings = {(a["code"], a["gen_ai.provider.name"]): v for n, a, v in receiver.points if n == "stream_inspector.findings"}
    assert findings == {("J002", "anthropic"): 1, ("A005", "anthropic"): 1}
    durations = [a for n, a, _ in receiver.points if n == "gen_ai.client.operation.duration"]
    assert {a["gen_ai.request.model"] for a in durations} == {"claude-traced", "claude-untraced"}


def test_content_stays_off_spans_unless_asked_for(receiver, corpus):
    sender = OtlpSender(traces_endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}))
    with ServerThread([corpus / "anthropic-doc-tool-call.sse"], instant=True) as srv, ProxyThread(srv.url) as px:
        px.log.listeners.append(ExchangeSpans(sender))
        httpx.post(f"{px.url}/v1/messages", json={"model": "m", "stream": True,
                                                  "messages": [{"role": "user", "content": "private"}]})
        px.wait_reports(1)
    sender.close()
    wait_for(lambda: len(receiver.spans) == 1, "1 span")
    assert not any(k.startswith(("gen_ai.input", "gen_ai.output")) for k in receiver.spans[0]["attributes"])


def test_every_provider_has_its_semconv_name(receiver):
    from tests.conftest import BEDROCK_CORPUS

    files = [BEDROCK_CORPUS / "bedrock-anthropic-text-clean.bin", BUNDLED / "4-openai-compatible-quirks.jsonl"]
    converse = sorted(BEDROCK_CORPUS.glob("converse-*.jsonl"))[:1]
    p = run_cli(["check", "--otlp", "--jobs", "1", *map(str, files + converse)], env_for(receiver))
    assert "Traceback" not in p.stderr, p.stderr
    wait_for(lambda: len(receiver.spans) == len(files + converse), "spans")
    names = {s["attributes"]["stream_inspector.source"]: s["attributes"]["gen_ai.provider.name"] for s in receiver.spans}
    assert names[str(files[0])] == "aws.bedrock"
    assert all(names[str(c)] == "aws.bedrock" for c in converse) and converse
    assert names[str(files[1])] == "openai"


def test_check_sends_the_span_of_a_capture_whose_numbers_are_past_64_bits(receiver, tmp_path):
    """OTLP's integers are 64-bit: a request's ``max_tokens: 1e30`` or a usage count of 10^20 is sent
    as the largest one, not an encoding error that loses the span."""
    events = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                    "content": [], "usage": {"input_tokens": 10**20, "output_tokens": 1}}},
              {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1e30}},
              {"type": "message_stop"}]
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {},
                        "body": {"model": "x", "max_tokens": 1e30, "seed": -10**19, "messages": []}},
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    src = tmp_path / "big.jsonl"
    src.write_text(json.dumps(head) + "\n" + json.dumps({"t": 0.1, "data": body}) + "\n")
    p = run_cli(["check", "--otlp", str(src)], env_for(receiver))
    assert p.returncode in (0, 1) and "Traceback" not in p.stderr, p.stderr
    wait_for(lambda: len(receiver.spans) == 1, "1 span")
    a = receiver.spans[0]["attributes"]
    assert a["gen_ai.request.max_tokens"] == 2**63 - 1 and a["gen_ai.request.seed"] == -(2**63)
    assert a["gen_ai.usage.input_tokens"] == 2**63 - 1
