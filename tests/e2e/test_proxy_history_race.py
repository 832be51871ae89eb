"""The official ``openai`` SDK chaining two requests back to back through ``proxy``: the second one's
history verdict is about the first answer (Q006 for the call it sends back mis-assembled), never
Q007, whenever the first exchange's end reaches the inspection.

The upstream (``serve``) sends the answer at once, then holds the body open after ``[DONE]`` (a
slow end): the SDK stops reading at ``[DONE]`` and sends its next request while the proxy is still
ending the first exchange, so the request can be inspected before the answer it continues has
ended in the log (``ExchangeLog``: the verdict waits for that end). An agent that acts on
``finish_reason`` sends it while the first stream is still open: always in that order, and the
second exchange ends first.
"""
from __future__ import annotations

import json

import pytest
from openai import OpenAI

from inspector.capture.load import load_path
from inspector.model.capture import Chunk, End
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.e2e.conftest import ROOT, WAIT_S, run_cli

HOLD_S = 2.0
"""How long the upstream keeps each body open after ``[DONE]``."""
MANGLED = '{"symbol": "ACME"}'
"""The first call's arguments as the agent sends them back (streamed: symbol, exchange and fields)."""


@pytest.fixture
def proxied(tmp_path):
    cap = load_path(ROOT / "inspector" / "data" / "captures" / "3-openai-parallel-tool-calls.jsonl")
    cap.chunks = [Chunk(0.001 * i, c.data) for i, c in enumerate(cap.chunks)]
    cap.end = End(0.001 * len(cap.chunks) + HOLD_S, "eof")
    with ServerThread([("tools", cap)]) as srv, ProxyThread(srv.url, timeout=WAIT_S, record_dir=tmp_path) as px:
        yield OpenAI(base_url=px.url + "/v1", api_key="sk-race-test", max_retries=0, timeout=WAIT_S), px


def assembled(events, calls: dict, *, until_finish: bool = False) -> None:
    """Read the streamed tool calls into ``calls`` (``{index: {"id", "name", "arguments"}}``), to
    ``[DONE]``, or ``until_finish``: to the chunk with ``finish_reason`` (the rest left unread)."""
    for ev in events:
        for ch in ev.choices:
            for tc in ch.delta.tool_calls or []:
                call = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                call["id"] = tc.id or call["id"]
                call["name"] += tc.function.name or ""
                call["arguments"] += tc.function.arguments or ""
            if until_finish and ch.finish_reason:
                return


def next_turn(question: list, calls: dict) -> list:
    """The history sent back: the first call with its arguments cut short (Q006), the tool results."""
    sent = [{"id": c["id"], "type": "function",
             "function": {"name": c["name"], "arguments": MANGLED if i == 0 else c["arguments"]}}
            for i, c in sorted(calls.items())]
    return [*question, {"role": "assistant", "content": None, "tool_calls": sent},
            *({"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls.values())]


def drain(stream) -> None:
    for _ in stream:
        pass


def verdicts(px: ProxyThread, pairs: int) -> list[tuple[int, list[str], int | None, str]]:
    """``(exchange, Q codes, continues, first Q message)`` of each second request."""
    out = []
    for r in sorted(px.wait_reports(2 * pairs, timeout=WAIT_S), key=lambda r: r["exchange"]):
        if r["exchange"] % 2 == 0:
            q = [f for f in r["findings"] if f["code"].startswith("Q")]
            out.append((r["exchange"], [f["code"] for f in q], r["continues"], q[0]["message"] if q else ""))
    return out


def test_a_request_sent_while_its_answer_is_still_open_is_judged_against_that_answer(proxied, tmp_path):
    client, px = proxied
    question = [{"role": "user", "content": "Quote ACME and convert 100 EUR to BRL."}]
    first = client.chat.completions.create(model="m", stream=True, messages=question)
    calls: dict = {}
    assembled(first, calls, until_finish=True)  # up to finish_reason: the calls are whole, [DONE] still to come
    drain(client.chat.completions.create(model="m", stream=True, messages=next_turn(question, calls)))
    drain(first)
    [(n, codes, continues, message)] = verdicts(px, 1)
    assert (n, codes, continues) == (2, ["Q006"], 1)
    assert message.startswith("vs exchange #1 (matched by tool call id): ")
    # `check --request` of exchange #1's recording with the request #2 sent: the same verdict
    one, two = px.log.by_n[1], px.log.by_n[2]
    request = tmp_path / "next.json"
    request.write_text(json.dumps(two.request["body"]))
    code, out, _ = run_cli(["check", "--format", "json", "--request", str(request), str(one.record_path)])
    checked = [f for f in json.loads(out)["findings"] if f["code"].startswith("Q")]
    assert [(f["code"], f["index"], "vs exchange #1 (matched by tool call id): " + f["message"]) for f in checked] == [
        (f.code, f.index, f.message) for f in two.findings if f.code.startswith("Q")]


def test_requests_sent_as_soon_as_done_is_read_are_never_judged_against_nothing(proxied):
    client, px = proxied
    for r in range(4):
        question = [{"role": "user", "content": f"Quote ACME and convert 100 EUR to BRL (round {r})."}]
        calls: dict = {}
        assembled(client.chat.completions.create(model="m", stream=True, messages=question), calls)
        drain(client.chat.completions.create(model="m", stream=True, messages=next_turn(question, calls)))
    assert [(codes, continues) for _, codes, continues, _ in verdicts(px, 4)] == [
        (["Q006"], n) for n in (1, 3, 5, 7)]
