"""serve --match: a three-turn tool conversation recorded once through the proxy, then served back by
request content (any order, any number of times), a departure answered 400 with its JSON path,
--record-missing, and a fault on one chosen turn."""
from __future__ import annotations

import copy
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai
import pytest

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk, End
from inspector.net.conform.mutate import MutateError
from inspector.net.proxy.server import ProxyThread
from inspector.net.replay.provider import MatchServerThread
from inspector.net.serve import ServerThread
from inspector.providers.conformers import CONFORMANCE
from tests.clients import openai_agent
from tests.dialect_answers import CallSpec, Spec, render

ANSWERS = [Spec(calls=[CallSpec("get_stock", {"symbol": "ACME"}, key="a1")]),
           Spec(calls=[CallSpec("convert_currency", {"amount": 100, "from": "EUR", "to": "BRL"}, key="b1")]),
           Spec(text="ACME trades at 12.50; 100 EUR is 610 BRL.", stop="end")]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """The openai SDK agent's three turns, recorded by the proxy in front of a rotating serve."""
    base = tmp_path_factory.mktemp("match")
    caps = [(f"turn{i + 1}", render("openai-chat", spec)) for i, spec in enumerate(ANSWERS)]
    rec = base / "rec"
    rec.mkdir()
    with ServerThread(caps, instant=True) as srv, ProxyThread(srv.url, timeout=10, record_dir=rec) as px:
        turns = openai_agent.run({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": px.url + "/v1"})
        px.wait_reports(3)
    assert turns == 3
    files = sorted(rec.iterdir())
    assert len(files) == 3
    return rec


def _requests(folder: Path) -> list[dict]:
    return [load_path(f).request["body"] for f in sorted(folder.iterdir())]


def _bodies(folder: Path) -> list[bytes]:
    return [load_path(f).body for f in sorted(folder.iterdir())]


def _post(url: str, body: dict) -> httpx.Response:
    return httpx.post(url + "/v1/chat/completions", json=body, timeout=10)


def test_out_of_order_and_repeated_requests_get_their_own_recording(recorded):
    reqs, bodies = _requests(recorded), _bodies(recorded)
    assert [len(r["messages"]) for r in reqs] == [1, 3, 5]
    with MatchServerThread(recorded, instant=True) as srv:
        for k in (2, 0, 1, 2, 0):
            r = _post(srv.url, reqs[k])
            assert r.status_code == 200
            assert r.content == bodies[k], k
        assert srv.provider.misses == []


def test_ids_and_volatile_fields_do_not_break_a_match(recorded):
    req = copy.deepcopy(_requests(recorded)[2])
    req["messages"][1]["tool_calls"][0]["id"] = "call_minted_by_client"
    req["messages"][2]["tool_call_id"] = "call_minted_by_client"
    req["metadata"], req["user"] = {"run": "42"}, "someone"
    with MatchServerThread(recorded, instant=True) as srv:
        assert _post(srv.url, req).content == _bodies(recorded)[2]


def test_the_openai_sdk_agent_runs_all_three_turns_against_the_recording(recorded):
    with MatchServerThread(recorded, instant=True) as srv:
        turns = openai_agent.run({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.url + "/v1"})
        assert turns == 3
        assert srv.provider.misses == []
        assert srv.provider.requests == 3


def test_a_changed_tool_result_gets_a_400_naming_the_closest_recording_and_the_path(recorded):
    req = copy.deepcopy(_requests(recorded)[2])
    req["messages"][4]["content"] = "failed"
    lines: list[str] = []
    third = sorted(recorded.iterdir())[2].stem
    with MatchServerThread(recorded, instant=True, log=lines.append) as srv:
        r = _post(srv.url, req)
        assert r.status_code == 400
        message = r.json()["error"]["message"]
        assert third in message and "(turn 3)" in message
        assert '$.messages[4].content: "failed" vs "ok"' in message
        assert any(message.endswith(line) for line in lines), lines
        # the official SDK raises its own error type with that message
        client = openai.OpenAI(api_key="sk-test", base_url=srv.url + "/v1", max_retries=0)
        with pytest.raises(openai.BadRequestError, match=re.escape('$.messages[4].content: "failed" vs "ok"')):
            client.chat.completions.create(**req)


def test_match_ignore_adds_a_path_to_ignore(recorded):
    req = dict(_requests(recorded)[0], temperature=0.3)
    with MatchServerThread(recorded, instant=True) as srv:
        r = _post(srv.url, req)
        assert r.status_code == 400 and "$.temperature: 0.3 vs (absent)" in r.json()["error"]["message"]
    with MatchServerThread(recorded, instant=True, ignore=["$.temperature"]) as srv:
        assert _post(srv.url, req).content == _bodies(recorded)[0]


def test_record_missing_forwards_records_then_serves_from_the_folder(recorded, tmp_path):
    folder = tmp_path / "new"
    folder.mkdir()
    req = _requests(recorded)[1]
    with MatchServerThread(recorded, instant=True) as upstream, \
            MatchServerThread(folder, instant=True, upstream=upstream.url) as srv:
        first = _post(srv.url, req)
        assert first.content == _bodies(recorded)[1]
        assert upstream.provider.requests == 1
        deadline = time.monotonic() + 5
        while not srv.provider.index.recordings and time.monotonic() < deadline:
            time.sleep(0.02)
        files = list(folder.iterdir())
        assert [f.name for f in files] == ["001-POST-v1-chat-completions.jsonl"]
        again = _post(srv.url, req)
        assert again.content == first.content
        assert upstream.provider.requests == 1  # served from the folder, not forwarded again
        assert len(srv.provider.misses) == 1


def _codes(body: bytes) -> set[str]:
    cap = Capture(chunks=[Chunk(None, body)], response={"status": 200, "headers": {
        "content-type": "text/event-stream"}}, end=End(None, "eof"))
    return {f.code for f in run_capture(cap).findings}


@pytest.mark.parametrize("target", ["2", "file"])
def test_a_mutation_on_turn_2_breaks_only_turn_2(recorded, target):
    reqs, bodies = _requests(recorded), _bodies(recorded)
    at = "2" if target == "2" else sorted(recorded.iterdir())[1].name
    close_early = CONFORMANCE["openai"].mutation("close-early")
    with MatchServerThread(recorded, instant=True, mutate=f"close-early@{at}") as srv:
        got = [_post(srv.url, r).content for r in reqs]
    assert got[0] == bodies[0] and got[2] == bodies[2]
    assert got[1] != bodies[1]
    assert close_early.codes <= _codes(got[1])
    assert not _codes(bodies[1]) & close_early.codes


def test_a_target_naming_no_recording_is_a_clear_error(recorded):
    with pytest.raises(MutateError, match=r"no recording is turn 7 \(turns here: 1, 2, 3\)"):
        MatchServerThread(recorded, mutate="close-early@7")
    with pytest.raises(MutateError, match="close-early does not apply to"):
        MatchServerThread(recorded, mutate="close-early@3")  # a text answer: no call to close early


def test_the_cli_serves_by_match_logs_a_miss_and_stops_once_every_recording_was_answered(recorded):
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--match", str(recorded), "--port", "0",
                             "--instant"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        url = re.search(r"on (http://127\.0\.0\.1:\d+)", first).group(1)
        reqs = _requests(recorded)
        bad = copy.deepcopy(reqs[2])
        bad["messages"][0]["content"] = "Quote ACME."
        assert _post(url, bad).status_code == 400
        for k in (1, 0, 2):
            assert _post(url, reqs[k]).status_code == 200
        proc.wait(timeout=20)
        out = proc.stdout.read()  # not communicate(): it would skip what readline() already buffered
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert "turn 1: POST /v1/chat/completions" in first + out
    assert '$.messages[0].content: "Quote ACME." vs "Quote ACME and convert 100 EUR to BRL."' in out
    assert "every recording answered once: stopping" in out


def test_serve_warns_once_when_a_request_asks_another_api_than_the_captures_dialect(tmp_path):
    lines: list[str] = []
    chat = render("openai-chat", ANSWERS[2])
    with ServerThread([("chat", chat)], instant=True, log=lines.append) as srv:
        for path in ("/v1/chat/completions", "/v1/responses", "/v1/responses"):
            assert httpx.post(srv.url + path, json={"model": "m", "input": "hi"}, timeout=10).status_code == 200
    warnings = [ln for ln in lines if ln.startswith("warning:")]
    assert warnings == ["warning: /v1/responses asks for the openai-responses API, but chat is a openai-chat "
                        "stream: the client will misread it (said once per capture)"]


def test_a_mutation_without_a_target_breaks_every_turn_it_applies_to(recorded):
    reqs, bodies = _requests(recorded), _bodies(recorded)
    with MatchServerThread(recorded, instant=True, mutate="close-early") as srv:
        got = [_post(srv.url, r).content for r in reqs]
        notes = srv.notes
    assert got[0] != bodies[0] and got[1] != bodies[1] and got[2] == bodies[2]  # turn 3 is text: nothing to close
    assert [n.split(" ", 2)[1] for n in notes] == ["(turn", "(turn"] and "turn 1" in notes[0] and "turn 2" in notes[1]


def test_another_method_or_a_body_that_is_not_json_is_a_miss_not_a_crash(recorded):
    with MatchServerThread(recorded, instant=True) as srv:
        r = httpx.get(srv.url + "/v1/models", timeout=10)
        assert r.status_code == 400 and "method: GET vs POST" in r.json()["error"]["message"]
        r = httpx.post(srv.url + "/v1/chat/completions", content=b"not json", timeout=10)
        assert r.status_code == 400 and '$: "not json" vs {' in r.json()["error"]["message"]
