"""``gateway`` as a user runs it (a real process, real HTTP on 127.0.0.1, the official ``openai`` SDK as
the client) around a small translating gateway (``tests/gateway/toy.py``: Chat in front, Anthropic
behind) whose faults are chosen per request, in front of a mock provider whose answers can be
broken (``serve --mutate``'s mutations). Every pairing decision and every hop is produced on purpose.
LiteLLM's proxy, the real gateway, is in ``test_conform_litellm.py`` (one LiteLLM per test session).
"""
from __future__ import annotations

import contextlib
import json
import signal
import socket
import threading
from pathlib import Path

import httpx
import orjson
import pytest
from openai import AuthenticationError, OpenAI

from inspector.net.conform.mutate import Spec, apply
from inspector.net.serve import MockProvider, Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from tests.e2e.conftest import ROOT, run_cli, spawn, wait_for
from tests.gateway import toy

CAPTURE = ROOT / "inspector" / "data" / "captures" / "1-anthropic-tool-call.jsonl"
SYSTEM = "You are a weather assistant for Portuguese cities."


class Upstream(MockProvider):
    """The bundled Anthropic tool call for every request; broken by the mutation named in the request."""

    def choose(self, scope, body: bytes) -> Served:
        served = self.served[0]
        text = body.decode("utf-8", "replace")
        for name in ("finish-stop", "drop-index"):
            if f"[{name}]" in text:
                mc = apply(served.name, served.source, served.capture, Spec(name))
                return Served(mc.name, served.source, mc.capture, served.status, served.headers, mc.pauses)
        return served


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ask(client: OpenAI, text: str, history: list | None = None) -> tuple[str, list]:
    """One streamed request as an agent sends it (``history`` after the user's text); the text and
    tool calls it assembled."""
    stream = client.chat.completions.create(model="claude", stream=True, max_tokens=256,
                                            messages=[{"role": "system", "content": SYSTEM},
                                                      {"role": "user", "content": text}, *(history or [])])
    out, calls = "", {}
    for ev in stream:
        for ch in ev.choices:
            out += ch.delta.content or ""
            for tc in ch.delta.tool_calls or []:
                calls.setdefault(tc.index, "")
                calls[tc.index] += tc.function.arguments or ""
    return out, list(calls.values())


@contextlib.contextmanager
def gateway_process(gateway_url: str, upstream_url: str, back_port: int, record: Path):
    """``stream-inspector gateway … --format json --record RECORD`` as a real process; yields
    ``(front base URL for the openai SDK, stop)``; ``stop()`` sends Ctrl+C and returns the pair reports.
    Its stdout is read all along (a full pipe would hold the gateway's loop up)."""
    front_port = free_port()
    proc = spawn(["gateway", "--gateway-url", gateway_url, "--upstream", upstream_url, "--port", str(front_port),
                  "--back-port", str(back_port), "--format", "json", "--record", str(record)])
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    banner = proc.stderr.readline()
    assert f"front tap http://127.0.0.1:{front_port}" in banner, banner + proc.stderr.read()

    def up() -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", front_port)) == 0

    wait_for(up, "the front tap")

    def stop() -> list[dict]:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        reader.join(10)  # stdout is the reader's alone (communicate() would race it for lines)
        err = proc.stderr.read()
        assert proc.returncode in (0, 1), err
        return [json.loads(line) for line in lines]

    try:
        yield f"http://127.0.0.1:{front_port}/v1", stop
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def gateway_run(tmp_path):
    """(front URL, stop() → list of pair reports, record dir) around the toy gateway."""
    record = tmp_path / "pairs"
    back_port = free_port()
    upstream = BackgroundServer(asgi_app(Upstream(load_served([str(CAPTURE)]), instant=True))).start()
    gw = BackgroundServer(toy.make_app(f"http://127.0.0.1:{back_port}")).start()
    try:
        with gateway_process(gw.url, upstream.url, back_port, record) as (front, stop):
            yield front, stop, record
    finally:
        gw.stop()
        upstream.stop()


def test_gateway_pairs_both_sides_and_names_the_hop(gateway_run):
    front, stop, record = gateway_run
    client = OpenAI(base_url=front, api_key="sk-client-test", max_retries=0)
    text, calls = ask(client, "Compare the weather in Lisbon and Porto.")
    assert text.startswith("I'll check") and json.loads(calls[0])["locations"][0]["city"] == "Lisbon"
    # the client's next request sends that tool call back with other arguments (a mis-assembly: Q006)
    history = [{"role": "assistant", "content": text, "tool_calls": [{
        "id": "toolu_01WeatherDemo", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"locations": [{"city": "Lisbon"}]}'}}]},
        {"role": "tool", "tool_call_id": "toolu_01WeatherDemo", "content": "Lisbon 18 C, Porto 15 C"}]
    ask(client, "Compare the weather in Lisbon and Porto.", history)
    ask(client, "Compare the weather in Lisbon and Porto. [finish-stop]")  # the provider's defect
    _, mangled = ask(client, "Compare the weather in Lisbon and Porto, please. [mangle]")  # the gateway's
    assert mangled[0] and not mangled[0].endswith("}")
    ask(client, "What about Faro? [cached]")
    ask(client, "And Braga, if you would? [retry]")
    with pytest.raises(AuthenticationError):
        ask(client, "Anything for Coimbra? [refuse]")
    plain = httpx.post(front + "/chat/completions", timeout=10, json={
        "model": "claude", "stream": True, "messages": [{"role": "user", "content": "Weather in Lisbon and Porto? [plain]"}]})
    assert plain.headers["content-type"].startswith("application/json")
    pairs = stop()  # in the order they were decided: a front-only pair waits out its grace
    assert sorted(p["pair"] for p in pairs) == list(range(1, 9))
    pairs.sort(key=lambda p: p["front"]["exchange"])
    for p in pairs:
        assert set(p) >= {"pair", "status", "matched_by", "score", "reason", "front", "back", "retries", "equivalent",
                          "hops", "attributed", "diff", "record"}
    assert [p["status"] for p in pairs] == ["paired", "paired", "paired", "paired", "front only", "paired",
                                            "front only", "paired"], [
        (p["status"], p["front"] and p["front"]["exchange"], p["back"] and p["back"]["exchange"], p["score"]) for p in pairs]
    clean, sent_back, upstream_bug, gateway_bug, cached, retried, refused, not_streamed = pairs

    # a clean translation: equivalent, and the normalisations that made it so are said
    assert clean["matched_by"] == "time and request content" and clean["score"] == 1.0
    assert clean["equivalent"] is True and clean["hops"] == {"upstream": [], "gateway": [], "client": []}
    assert clean["front"]["dialect"] == "openai-chat" and clean["back"]["dialect"] == "anthropic-messages"
    norms = clean["diff"]["normalisations"]
    assert 'stop reasons mapped across dialects: "tool_use" ≈ "tool_calls" (tool)' in norms
    assert any(n.startswith("text joined across blocks") or n.startswith("dialects differ") for n in norms)

    # client: its next request carried the tool call back with other arguments; the gateway translated it as is
    assert sent_back["front"]["q_findings"] == ["Q006"] and sent_back["hops"]["client"] == ["Q006"]
    assert sent_back["hops"]["gateway"] == [] and sent_back["equivalent"] is True
    (q,) = [f for f in sent_back["attributed"] if f["hop"] == "client"]
    assert q["message"].startswith("Q006: vs exchange #1 (matched by tool call id)")

    # upstream: Anthropic end_turn after a tool call; passed on by the gateway as finish_reason stop
    assert upstream_bug["hops"]["upstream"] == ["A007"] and upstream_bug["hops"]["gateway"] == []
    (a007,) = [f for f in upstream_bug["attributed"] if f["what"] == "A007"]
    assert a007["hop"] == "upstream" and a007["message"].endswith("(passed on as C003)")
    assert upstream_bug["equivalent"] is True, upstream_bug["diff"]["differences"]  # the gateway translated faithfully what it was given

    # gateway: it cut the arguments in translation; upstream was clean
    assert gateway_bug["hops"]["upstream"] == []
    assert "arguments-differ" in gateway_bug["hops"]["gateway"]
    assert gateway_bug["equivalent"] is False
    diff = gateway_bug["diff"]
    (args,) = [d for d in diff["differences"] if d["kind"] == "arguments-differ"]
    assert args["path"].startswith("@") and "not JSON on B" in args["message"]

    # pairing decisions, visible
    assert cached["back"] is None and "cached answer" in cached["reason"] and cached["diff"] is None
    assert retried["back"]["exchange"] == retried["retries"][0]["exchange"] + 1
    assert any(f["what"] == "retried" and f["hop"] == "upstream" for f in retried["attributed"])
    assert refused["front"]["status"] == 401 and "HTTP 401" in refused["reason"]

    # a non-streamed answer in front: compared as a whole answer, said so, timing and stream findings aside
    assert not_streamed["front"]["streamed"] is False and not_streamed["equivalent"] is True
    assert not_streamed["diff"]["b"]["streamed"] is False
    assert "stream findings not compared: one side is a non-streamed answer" in not_streamed["diff"]["notes"]

    # --record: each pair's captures and report together; diff replays the comparison
    folders = sorted(p.name for p in Path(record).glob("pair-*"))
    assert folders == [f"pair-{n:03d}" for n in range(1, 9)]
    assert retried["record"].endswith(f"pair-{retried['pair']:03d}") and cached["record"].endswith(f"{cached['pair']:03d}")
    assert sorted(p.name for p in Path(retried["record"]).iterdir()) == [
        "back.jsonl", "front.jsonl", "pair.json", f"retry-{retried['retries'][0]['exchange']}.jsonl"]
    assert sorted(p.name for p in Path(cached["record"]).iterdir()) == ["front.jsonl", "pair.json"]
    mangled_dir = Path(gateway_bug["record"])
    assert orjson.loads((mangled_dir / "pair.json").read_bytes())["hops"] == gateway_bug["hops"]
    code, out, _ = run_cli(["diff", str(mangled_dir / "back.jsonl"), str(mangled_dir / "front.jsonl"), "--format", "json"])
    assert code == 1 and [d["kind"] for d in json.loads(out)["differences"]] == [d["kind"] for d in diff["differences"]]
    code, _, _ = run_cli(["diff", clean["back"]["record"], clean["front"]["record"], "--format", "text"])
    assert code == 0
