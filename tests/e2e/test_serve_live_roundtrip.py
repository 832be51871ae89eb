"""``serve`` + ``live --format json`` give the same report as ``check`` on the same capture.

The capture goes out over real HTTP on 127.0.0.1 (status, headers, chunks re-timed, the way it
ended) and comes back through httpx, timestamped on arrival. Blocks and findings must be equal;
times must agree within a tolerance after undoing the speed-up. Long captures are played faster
(``--speed``) with the stall threshold scaled the same way, so timing rules fire on both sides.
"""
from __future__ import annotations

import json

import httpx
import pytest

from inspector.net.serve import ServerThread
from inspector.providers import provider_for_dialect
from tests.e2e.conftest import TIME_FIELDS, report_shape, run_cli, write_request



def live_provider(dialect: str) -> str:
    """The ``live --provider`` that asks for ``dialect`` (the registry's owner; an unknown body: anthropic)."""
    record = provider_for_dialect(dialect)
    return record.name if record is not None else "anthropic"


CASES = [
    # timed native captures: stalls, bursts, a reset, an HTTP error, UTF-8 split across chunks
    "anthropic-buffered-stall-burst.jsonl",
    "antigravity-1905-gemini-functioncall-blob-after-stall.jsonl",
    "litellm-38926-include-usage-args-burst.jsonl",
    "openai-truncated-mid-arguments.jsonl",
    "http-429-json-body.jsonl",
    "anthropic-split-utf8-crlf.jsonl",
    "llamacpp-fragments-multi-event-chunks.jsonl",
    # raw SSE / NDJSON text as pasted in bug reports (untimed)
    "anthropic-doc-tool-call.sse",
    "anthropic-max-tokens-open-tool.sse",
    "anthropic-bom.sse",
    "openai-parallel-indexed.sse",
    "llm-rosetta-86-responses-missing-item-id.sse",
    "lens-49-gemini-second-call-args-on-index0.sse",
    "ollama-python-279-toolcall-as-content-ndjson.ndjson",
    "term-llm-955-anthropic-eof-without-message-stop.sse",
]

STALL_S = 20.0
"""Stall threshold in recorded seconds for both sides (large enough that loopback jitter never fires it)."""
PLAY_S = 0.8
"""Longest wall time one capture may take to play."""
SLACK_S = 0.3
"""How far (wall seconds) a live time may be from the recorded time divided by the speed-up."""


def _times(report: dict) -> list[tuple[str, float | None]]:
    out = [("duration_s", report["duration_s"]), ("ttfb_s", report["ttfb_s"])]
    for i, b in enumerate(report["blocks"]):
        out += [(f"blocks[{i}].{k}", b[k]) for k in TIME_FIELDS]
    out += [(f"findings[{i}].t", f["t"]) for i, f in enumerate(report["findings"])]
    return out


def _shape(report: dict) -> dict:
    return report_shape(report, dialect=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tests.conftest import SHARED_CORPUS

    srv = ServerThread([SHARED_CORPUS / name for name in CASES]).start()
    # Warm up both ends once (first-request imports would otherwise land in the first timed case).
    httpx.post(srv.url_for("anthropic-doc-tool-call") + "/v1/messages", json={}, timeout=10).raise_for_status()
    yield srv
    srv.stop()


@pytest.mark.parametrize("name", CASES)
def test_live_report_equals_check_report(name, server, corpus, tmp_path):
    path = corpus / name
    code, out, err = run_cli(["check", "--format", "json", "--stall", str(STALL_S), str(path)])
    expected = json.loads(out)
    duration = expected["duration_s"] or 0.0
    speed = max(1.0, duration / PLAY_S)
    srv = server
    srv.provider.speed = speed
    provider = live_provider(expected["dialect"])
    req = write_request(tmp_path, {"model": "m-test", "messages": []})
    live_code, live_out, live_err = run_cli(
        ["live", "--provider", provider, "--request", req, "--base-url", srv.url_for(path.stem),
         "--format", "json", "--stall", str(STALL_S / speed), "--timeout", "20"])
    assert live_err == ""
    got = json.loads(live_out)

    assert live_code == code
    if expected["dialect"] != "unknown":  # with nothing to sniff, live falls back on the endpoint's dialect
        assert got["dialect"] == expected["dialect"]
    assert _shape(got) == _shape(expected)
    assert [f["code"] for f in got["findings"]] == [f["code"] for f in expected["findings"]]
    # Times: request-relative on both sides; the served copy ran `speed` times faster. The slack is
    # wall time on the live side (loopback latency plus the client working through a burst).
    for (label, want), (_, have) in zip(_times(expected), _times(got)):
        if want is None:  # untimed capture: check has no times, live has real (tiny) ones
            continue
        assert have is not None, label
        assert abs(have - want / speed) <= SLACK_S, f"{label}: live {have:.3f} s vs check {want:.3f} s / {speed:.1f}"


def test_ended_abruptly_capture_reaches_live_as_reset(server, corpus, tmp_path):
    """The recorded `end: reset` is reproduced on the wire: live sees the body cut short (S012)."""
    server.provider.speed = 100.0
    req = write_request(tmp_path)
    code, out, _ = run_cli(["live", "--provider", "openai", "--request", req, "--format", "json",
                            "--base-url", server.url_for("openai-truncated-mid-arguments")])
    report = json.loads(out)
    s012 = [f for f in report["findings"] if f["code"] == "S012"]
    assert len(s012) == 1 and "(reset)" in s012[0]["message"]
    assert "peer closed connection" in s012[0]["message"]
    assert code == 1
