"""``proxy`` between the official SDKs and ``serve``: bytes pass untouched, reports equal ``check``.

Real HTTP on 127.0.0.1 only: SDK -> proxy (``ProxyThread``, uvicorn in a background thread) ->
``serve`` (``ServerThread``, corpus captures, ``instant``). The SDK's HTTP client is given a
transport that keeps the raw body bytes it received, which must equal a direct read of ``serve``;
the SDK must assemble the tool call; the proxy's report for the exchange must equal ``check`` on
the same capture (blocks and findings, times aside). Then the request-history (Q) checks: a
client sending back a truncated tool input gets Q006 on its next exchange.
"""
from __future__ import annotations

import json

import anthropic
import httpx
import openai
import pytest

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS
from tests.e2e.conftest import WAIT_S, report_shape, run_cli

CASES = ["anthropic-doc-tool-call.sse", "openai-parallel-indexed.sse", "anthropic-max-tokens-open-tool.sse",
         "http-429-json-body.jsonl", "llm-rosetta-86-responses-missing-item-id.sse",
         "ollama-python-279-toolcall-as-content-ndjson.ndjson", "anthropic-split-utf8-crlf.jsonl"]
ANTHROPIC_KEY = "sk-ant-PROXYTESTSECRET"


def sdk_http():
    """The HTTP package the installed SDKs are built on (recent SDKs use ``httpx2``, a fork of httpx)."""
    try:
        import httpx2

        return httpx2
    except ImportError:
        return httpx


def tee_client(bodies: list[bytearray]):
    """An SDK-compatible HTTP client whose transport keeps every response body's raw bytes (not decoded)."""
    hx = sdk_http()

    class TeeTransport(hx.HTTPTransport):
        def handle_request(self, request):
            resp = super().handle_request(request)
            kept = bytearray()
            bodies.append(kept)
            inner = resp.stream

            class Tee(hx.SyncByteStream):
                def __iter__(self):
                    for part in inner:
                        kept.extend(part)
                        yield part

                def close(self):
                    inner.close()

            return hx.Response(resp.status_code, headers=resp.headers, stream=Tee(), extensions=resp.extensions)

    return hx.Client(transport=TeeTransport(), timeout=WAIT_S)


def direct_bytes(url: str, body: dict | None = None) -> bytes:
    """The raw body ``serve`` sends, read without the proxy."""
    with httpx.stream("POST", url, json=body or {"stream": True}, timeout=WAIT_S) as r:
        return b"".join(r.iter_raw())


shape = report_shape


def check_report(path, *extra: str) -> dict:
    code, out, err = run_cli(["check", "--format", "json", *extra, str(path)])
    assert err == ""
    return json.loads(out)


@pytest.fixture(scope="module")
def upstream():
    with ServerThread([SHARED_CORPUS / c for c in CASES], instant=True) as srv:
        yield srv


@pytest.fixture
def proxy(upstream):
    with ProxyThread(upstream.url, timeout=WAIT_S) as px:
        yield px


def test_anthropic_sdk_gets_serves_bytes_and_assembles_the_tool_call(upstream, proxy):
    name = "anthropic-doc-tool-call"
    bodies: list[bytearray] = []
    client = anthropic.Anthropic(base_url=f"{proxy.url}/{name}", api_key=ANTHROPIC_KEY, max_retries=0,
                                 http_client=tee_client(bodies))
    with client.messages.stream(model="claude-case", max_tokens=256,
                                messages=[{"role": "user", "content": "weather in Porto Alegre?"}]) as stream:
        message = stream.get_final_message()
    tool = [b for b in message.content if b.type == "tool_use"]
    assert len(tool) == 1 and tool[0].id == "toolu_01PoA7q" and tool[0].name == "get_weather"
    assert tool[0].input == {"location": "Porto Alegre, RS"}
    assert message.stop_reason == "tool_use"

    assert bytes(bodies[0]) == direct_bytes(upstream.url_for(name) + "/v1/messages")
    [report] = proxy.wait_reports(1)
    assert report["exchange"] == 1 and report["method"] == "POST" and report["status"] == 200
    assert report["path"] == f"/{name}/v1/messages" and report["streamed"] is True
    assert shape(report) == shape(check_report(SHARED_CORPUS / f"{name}.sse"))
    # The key never reaches the exchange's stored request (the SDK sends it as x-api-key or authorization).
    stored = proxy.log.exchanges[0].request["headers"]
    assert ANTHROPIC_KEY not in json.dumps(stored) and "[redacted]" in stored.values()


def test_openai_sdk_gets_serves_bytes_and_assembles_parallel_calls(upstream, proxy):
    name = "openai-parallel-indexed"
    bodies: list[bytearray] = []
    client = openai.OpenAI(base_url=f"{proxy.url}/{name}/v1", api_key="sk-PROXYTESTSECRET", max_retries=0,
                           http_client=tee_client(bodies))
    tools = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
             for n in ("get_stock", "get_fx")]
    with client.chat.completions.stream(model="m-case", messages=[{"role": "user", "content": "prices"}],
                                        tools=tools) as stream:
        completion = stream.get_final_completion()
    calls = completion.choices[0].message.tool_calls
    assert [(c.id, c.function.name, json.loads(c.function.arguments)) for c in calls] == [
        ("call_A1", "get_stock", {"symbol": "ACME"}), ("call_B2", "get_fx", {"pair": "EURBRL"})]

    assert bytes(bodies[0]) == direct_bytes(upstream.url_for(name) + "/v1/chat/completions")
    [report] = proxy.wait_reports(1)
    assert report["path"] == f"/{name}/v1/chat/completions"
    assert shape(report) == shape(check_report(SHARED_CORPUS / f"{name}.sse"))


@pytest.mark.parametrize("capture", [c for c in CASES if c not in ("anthropic-doc-tool-call.sse",
                                                                   "openai-parallel-indexed.sse")])
def test_report_equals_check_for_other_dialects_and_faults(upstream, proxy, capture):
    """Responses, Ollama NDJSON, an open tool at max_tokens, a 429, split UTF-8: same bytes, same report."""
    name = capture.rsplit(".", 1)[0]
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    via = direct_bytes(f"{proxy.url}/{name}/v1/x", body)
    assert via == direct_bytes(upstream.url_for(name) + "/v1/x", body)
    [report] = proxy.wait_reports(1)
    assert shape(report) == shape(check_report(SHARED_CORPUS / capture))


def test_truncated_tool_input_sent_back_gets_q006_on_the_next_exchange(upstream, proxy, tmp_path):
    """Turn 1 streams a tool call; turn 2 sends it back with the input cut short (a client keeping only
    the first fragments): the second exchange's report has Q006, pointing at exchange #1."""
    name = "anthropic-doc-tool-call"
    client = anthropic.Anthropic(base_url=f"{proxy.url}/{name}", api_key=ANTHROPIC_KEY, max_retries=0,
                                 timeout=WAIT_S)
    question = {"role": "user", "content": "weather in Porto Alegre?"}
    with client.messages.stream(model="claude-case", max_tokens=256, messages=[question]) as stream:
        first = stream.get_final_message()
    tool = next(b for b in first.content if b.type == "tool_use")
    history = [question,
               {"role": "assistant", "content": [{"type": "text", "text": "Let me look that up."},
                                                 {"type": "tool_use", "id": tool.id, "name": tool.name,
                                                  "input": {"location": "Por"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool.id, "content": "21 C"}]}]
    with client.messages.stream(model="claude-case", max_tokens=256, messages=history) as stream:
        stream.get_final_message()
    one, two = proxy.wait_reports(2)
    assert [f["code"] for f in one["findings"]] == []
    q = [f for f in two["findings"] if f["code"].startswith("Q")]
    assert [f["code"] for f in q] == ["Q006"]
    assert q[0]["message"].startswith("vs exchange #1 (matched by tool call id): ")
    assert "Porto Alegre" in q[0]["message"] and q[0]["index"] == 1 and q[0]["t"] == 0.0
    assert two["continues"] == 1
    # The same verdict as `check --request` on the first capture with the request the proxy stored.
    stored = proxy.log.exchanges[1].request["body"]
    assert stored["messages"] == history
    req = tmp_path / "next.json"
    req.write_text(json.dumps(stored))
    expected = check_report(SHARED_CORPUS / f"{name}.sse", "--request", str(req))
    assert [(f["code"], f["index"], f["message"]) for f in expected["findings"]] == [
        (f["code"], f["index"], f["message"].split(": ", 1)[1]) for f in q]


def test_correct_history_raises_no_q_finding(upstream, proxy, tmp_path):
    name = "anthropic-doc-tool-call"
    url = f"{proxy.url}/{name}/v1/messages"
    question = {"role": "user", "content": "weather?"}
    direct_bytes(url, {"stream": True, "messages": [question]})
    history = [question,
               {"role": "assistant", "content": [{"type": "text", "text": "Let me look that up."},
                                                 {"type": "tool_use", "id": "toolu_01PoA7q", "name": "get_weather",
                                                  "input": {"location": "Porto Alegre, RS"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01PoA7q", "content": "x"}]}]
    direct_bytes(url, {"stream": True, "messages": history})
    _, two = proxy.wait_reports(2)
    assert [f["code"] for f in two["findings"]] == [] and two["continues"] == 1


def test_first_request_keeps_only_history_only_q_rules(upstream, proxy):
    """With no earlier exchange, an empty text block is still Q002, but no id can be called unknown (Q003):
    the history continues an answer this session never saw, said once (Q007)."""
    history = [{"role": "user", "content": [{"type": "text", "text": ""}]},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_never", "name": "f", "input": {}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_never", "content": "x"}]}]
    direct_bytes(f"{proxy.url}/anthropic-doc-tool-call/v1/messages", {"stream": True, "messages": history})
    [report] = proxy.wait_reports(1)
    assert [f["code"] for f in report["findings"]] == ["Q007", "Q002"]
    assert report["continues"] is None


def test_conversation_is_matched_by_tool_id_not_just_recency(tmp_path):
    """Two conversations interleave on one path: the request is checked against the exchange whose
    tool id it carries (#1), not the most recent one on that path (#2, another conversation)."""
    caps = [SHARED_CORPUS / "anthropic-doc-tool-call.sse", SHARED_CORPUS / "anthropic-max-tokens-open-tool.sse"]
    with ServerThread(caps, instant=True) as srv, ProxyThread(srv.url, timeout=WAIT_S) as px:
        url = f"{px.url}/v1/messages"  # no capture name in the path: serve answers with each capture in turn
        direct_bytes(url, {"stream": True, "messages": [{"role": "user", "content": "a"}]})
        direct_bytes(url, {"stream": True, "messages": [{"role": "user", "content": "b"}]})
        history = [{"role": "user", "content": "a"},
                   {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01PoA7q", "name": "get_weather",
                                                      "input": {"location": "Porto Alegre, RS"}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01PoA7q",
                                                 "content": "x"}]}]
        direct_bytes(url, {"stream": True, "messages": history})
        reports = px.wait_reports(3)
    assert [r["exchange"] for r in reports] == [1, 2, 3]
    assert reports[2]["continues"] == 1
    assert not [f for f in reports[2]["findings"] if f["code"].startswith("Q")]
