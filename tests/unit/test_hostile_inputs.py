"""Hostile inputs a stranger's capture or request carries, each survived as a finding or a one-line
error, never a crash (exit 3): impossible times in every reader of record times (S017, one clock:
``inspector.capture.clock``), URLs that ``urllib`` refuses, wrong JSON types for stop reasons,
self-referencing schemas, file names that are not UTF-8, deep JSON, NUL characters, 1xx statuses,
decoded bodies over their cap, long lists of streams."""
from __future__ import annotations

import json
import os
import random

import pytest

from inspector.capture.cassette import load_cassette
from inspector.capture.errors import SeveralStreams
from inspector.capture.load import load_bytes
from inspector.cli import main
from inspector.feeds.run import run_capture
from inspector.integrations.mcp_tools import Folder
from inspector.model.capture import Capture, Chunk, End
from inspector.model.digits import CAP
from inspector.providers.gemini.tools import json_schema as gemini_schema
from inspector.capture.redact import redact_url
from inspector.net.conform.mutate import NotApplicable, Spec as MutationSpec, all_names, apply
from inspector.net.replay.match import Ignore
from inspector.net.replay.recordings import recording_of
from inspector.net.serve import Served
from inspector.report import har
from tests.fuzz.mutate import CORPUS, hostile_case
from tests.unit.test_capture_validation import EVENTS

BODY = "".join(EVENTS)
ABSURD = [1e300, -1e300, 1e40, -5.0]


def exported_har(t: float) -> bytes:
    """An ``export --to har`` entry whose second chunk and end record carry time ``t``."""
    cap = Capture(chunks=[Chunk(0.1, BODY[:200].encode()), Chunk(0.2, BODY[200:].encode())], end=End(0.3, "eof"),
                  request_relative=True)
    doc = json.loads(har.render([(cap, None, None)]))
    entry = doc["log"]["entries"][0]
    entry["_chunks"][1]["t"] = t
    entry["_end"]["t"] = t
    return json.dumps(doc).encode()


def browser_har(t: float) -> bytes:
    """A browser's HAR whose EventSource messages carry times, the last one ``t``."""
    msgs = [{"time": 1.0 + i / 10, "eventName": e.split("\n")[0][7:], "data": e.split("\n")[1][6:]}
            for i, e in enumerate(EVENTS)]
    msgs[-1]["time"] = t
    entry = {"startedDateTime": "2026-01-01T00:00:00Z", "request": {"method": "POST", "url": "https://h/v1/messages"},
             "response": {"status": 200, "headers": [{"name": "content-type", "value": "text/event-stream"}],
                          "content": {"mimeType": "text/event-stream"}}, "_eventSourceMessages": msgs}
    return json.dumps({"log": {"entries": [entry]}}).encode()


@pytest.mark.parametrize("t", ABSURD)
@pytest.mark.parametrize("make", [exported_har, browser_har])
def test_impossible_har_times_are_clamped_and_one_s017(make, t):
    s = run_capture(load_bytes(make(t), name="x.har"))
    assert [f.code for f in s.findings if f.code == "S017"] == ["S017"]
    assert 0 <= s.duration_s <= 10


@pytest.mark.parametrize("t", ABSURD)
def test_export_of_a_har_with_impossible_times_writes_it(tmp_path, capsys, t):
    src = tmp_path / "in.har"
    src.write_bytes(exported_har(t))
    assert main(["export", str(src), "--to", "har", "-o", str(tmp_path / "out.har")]) == 0
    assert main(["export", str(src), "--to", "html", "-o", str(tmp_path / "out.html")]) == 0


def test_a_whole_number_time_too_large_for_a_float_is_clamped(tmp_path, capsys):
    src = tmp_path / "big.jsonl"
    head = '{"format":"stream-inspector-capture","version":1,"request":null,"response":null}'
    # NaN sends the record through Python's json, which reads the 400-digit whole number exactly
    src.write_text(f'{head}\n{{"t": NaN, "data": "x"}}\n{{"t": 1{"0" * 400}, "data": "data: 1\\n\\n"}}\n')
    assert main(["check", str(src)]) in (0, 1)
    assert "S017" in capsys.readouterr().out


@pytest.mark.parametrize("t", ABSURD)
def test_impossible_websocket_message_times_in_a_har_are_clamped(t):
    msgs = [{"type": "send", "time": 1.0, "opcode": 1, "data": '{"type":"response.create"}'},
            {"type": "receive", "time": t, "opcode": 1,
             "data": '{"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}'}]
    entry = {"startedDateTime": "2026-01-01T00:00:00Z", "request": {"method": "GET", "url": "wss://h/v1/responses"},
             "response": {"status": 101, "headers": []}, "_webSocketMessages": msgs}
    cap = load_bytes(json.dumps({"log": {"entries": [entry]}}).encode(), name="x.har")
    assert all(0 <= (m.t or 0) <= 1e6 for m in cap.messages or [])
    assert cap.timing_notes


BRACKETED = ["https://[REDACTED]@api.example/v1/messages", "https://user:***@api.example/v1/messages",
             "https://user:[redacted]@api.example/v1/messages?x=1", "https://[::1/v1/messages"]


def native_with_request(url: str, *, status: int = 200) -> str:
    """A native capture of ``BODY`` whose request went to ``url``."""
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": url, "headers": {}, "body": {"model": "m", "messages": []}},
            "response": {"status": status, "headers": {"content-type": "text/event-stream"}}}
    return json.dumps(head) + "\n" + json.dumps({"t": 0.1, "data": BODY}) + "\n"


@pytest.mark.parametrize("url", BRACKETED)
def test_urls_urllib_refuses_are_exported_and_served(tmp_path, capsys, url):
    src = tmp_path / "a.jsonl"
    src.write_text(native_with_request(url))
    for to in ("har", "html"):
        assert main(["export", str(src), "--to", to, "-o", str(tmp_path / f"out.{to}")]) == 0
    assert main(["check", "--format", "json", str(src)]) in (0, 1)
    recording = recording_of(Served("a", str(src), load_bytes(src.read_bytes()), 200, []), Ignore([]))
    assert recording is not None and recording.path == "/v1/messages"


@pytest.mark.parametrize("url,secret", [("https://user:hunter2@[::1/v1?key=zzz", "hunter2"),
                                        ("https://[x]:hunter2@h/x?key=zzz", "hunter2"),
                                        ("https://u@[h/x?api_key=zzz", "zzz")])
def test_a_password_or_key_in_a_url_urllib_refuses_is_still_masked(url, secret):
    out = redact_url(url)
    assert secret not in out and "zzz" not in out


ANSWERS = {
    "openai-chat": lambda v: {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": v}]},
    "anthropic": lambda v: {"id": "m", "type": "message", "role": "assistant", "model": "x",
                            "content": [{"type": "text", "text": "hi"}], "stop_reason": v},
    "ollama": lambda v: {"model": "m", "created_at": "x", "message": {"role": "assistant", "content": "hi"},
                         "done": True, "done_reason": v},
    "openai-responses": lambda v: {"id": "r", "object": "response", "status": v, "output": [
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]},
    "gemini": lambda v: {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": v}]},
    "cohere": lambda v: {"id": "x", "finish_reason": v, "message": {"role": "assistant",
                                                                    "content": [{"type": "text", "text": "hi"}]}},
}


@pytest.mark.parametrize("value", [["stop"], {"a": 1}, 5, [[]]])
@pytest.mark.parametrize("dialect", sorted(ANSWERS))
def test_a_stop_reason_of_the_wrong_type_in_an_answer_is_compared_not_a_crash(tmp_path, capsys, dialect, value):
    a = tmp_path / "answer.json"
    a.write_text(json.dumps(ANSWERS[dialect](value)))
    b = tmp_path / "b.sse"
    b.write_text(BODY)
    assert main(["diff", "--format", "json", str(a), str(b)]) == 1


@pytest.fixture
def undecodable(tmp_path):
    """A capture whose file name is not UTF-8 (byte 0xff), as Python sees it: a lone surrogate."""
    folder = tmp_path / "runs"
    folder.mkdir()
    path = os.path.join(os.fsencode(folder), b"\xff.sse")
    with open(path, "wb") as f:
        f.write(BODY.encode())
    return os.fsdecode(path), str(folder)


@pytest.mark.parametrize("argv", [
    ["check", "--format", "json", "{f}"], ["check", "--format", "json", "{d}"], ["check", "--format", "github", "{f}"],
    ["export", "--to", "har", "{f}"], ["export", "--to", "har", "{d}"], ["export", "--to", "html", "{f}"],
    ["diff", "--format", "json", "{f}", "{f}"], ["compare", "--format", "json", "{f}", "{f}"],
])
def test_a_file_name_that_is_not_utf8_is_written_escaped(undecodable, capsys, argv):
    f, d = undecodable
    code = main([a.replace("{f}", f).replace("{d}", d) for a in argv])
    out, err = capsys.readouterr()
    assert code in (0, 1) and "internal error" not in err
    assert "\\xff.sse" in out or "json" not in argv


@pytest.mark.parametrize("call", [
    lambda f: f.get_exchange("a\x00.sse"), lambda f: f.check_capture("a\x00.sse"),
    lambda f: f.diff_captures("a\x00.sse", "a.sse"), lambda f: f.diff_captures("a.sse", "\x00"),
    lambda f: f.get_exchange("~nobody\x00/a.sse"), lambda f: f.check_capture("/\x00"),
])
def test_mcp_tools_answer_a_name_with_a_nul_in_one_line(tmp_path, call):
    (tmp_path / "a.sse").write_text(BODY)
    answer = call(Folder(tmp_path))
    assert "not a file name (it holds a NUL character)" in answer and "\x00" not in answer


def test_the_several_streams_error_names_twenty_then_how_many_more(tmp_path, capsys):
    entry = {"request": {"method": "POST", "url": "https://h/v1/messages"},
             "response": {"status": 200, "headers": [{"name": "content-type", "value": "text/event-stream"}],
                          "content": {"mimeType": "text/event-stream", "text": BODY}}}
    src = tmp_path / "many.har"
    src.write_text(json.dumps({"log": {"entries": [entry] * 60}}))
    with pytest.raises(SeveralStreams) as e:
        load_bytes(src.read_bytes(), name="many.har")
    assert len(e.value.choices) == 60  # the TUI's picker offers them all
    message = str(e.value)
    assert "entry 19:" in message and "entry 20:" not in message and "and 40 more" in message


def test_the_several_streams_error_of_a_cassette_is_capped_too():
    interaction = {"request": {"method": "POST", "uri": "https://h/v1/messages"},
                   "response": {"status": {"code": 200}, "headers": {"Content-Type": ["text/event-stream"]},
                                "body": {"string": BODY}}}
    raw = json.dumps({"interactions": [interaction] * 25, "version": 1}).encode()
    with pytest.raises(SeveralStreams) as e:
        load_cassette(raw, name="c.json")
    assert "interaction 19:" in str(e.value) and "interaction 20:" not in str(e.value) and "and 5 more" in str(e.value)


@pytest.mark.parametrize("seed", [13, 41, 64, 148, 238, 498])
def test_serve_mutate_refuses_a_hostile_capture_in_one_line_never_crashes(tmp_path, seed):
    """Hostile variants of corpus captures (tests/fuzz: values of the wrong type, deep nesting) that
    every mutation once crashed on (TypeError, AttributeError, RecursionError)."""
    source = random.Random(seed).choice(CORPUS)
    path, _ = hostile_case(source, seed, tmp_path)
    cap = load_bytes(path.read_bytes())
    for name in all_names():
        try:
            apply("x", str(path), cap, MutationSpec(name))
        except NotApplicable as e:
            assert "\n" not in str(e)


def test_an_sse_retry_of_thousands_of_digits_is_read_capped():
    s = run_capture(load_bytes(("retry: " + "9" * 5000 + "\n" + BODY).encode(), name="r.sse"))
    assert s.dialect_name == "anthropic-messages"


def test_a_realtime_audio_placeholder_of_thousands_of_digits_is_read_capped():
    events = [{"type": "session.created", "session": {"id": "s"}},
              {"type": "response.created", "response": {"id": "r", "status": "in_progress", "output": []}},
              {"type": "response.output_item.added", "response_id": "r", "output_index": 0,
               "item": {"id": "i", "type": "message", "role": "assistant", "content": []}},
              {"type": "response.audio.delta", "response_id": "r", "item_id": "i", "output_index": 0,
               "content_index": 0, "delta": f"<audio: {'9' * 5000} bytes>"},
              {"type": "response.done", "response": {"id": "r", "status": "completed", "output": []}}]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
    run_capture(load_bytes(body.encode(), name="rt.sse"), dialect="openai-realtime")


@pytest.mark.parametrize("count", ["²", "9" * 5000])
def test_a_gemini_schema_count_written_as_odd_digits_is_judged_not_a_crash(count):
    from_gemini = gemini_schema({"type": "OBJECT", "properties": {"a": {"type": "STRING", "maxLength": count}}})
    assert from_gemini["properties"]["a"]["maxLength"] in (count, CAP)


def test_a_stream_number_of_thousands_of_digits_is_out_of_range_not_a_crash(tmp_path):
    entry = {"request": {"method": "POST", "url": "https://h/v1/messages"},
             "response": {"status": 200, "headers": [{"name": "content-type", "value": "text/event-stream"}],
                          "content": {"mimeType": "text/event-stream", "text": BODY}}}
    (tmp_path / "two.har").write_text(json.dumps({"log": {"entries": [entry, entry]}}))
    answer = Folder(tmp_path).get_exchange("two.har#" + "9" * 5000)
    assert "is out of range (the HAR has 2 entries" in answer


@pytest.mark.parametrize("end", ['{"t": 0.3, "end": "reset", "error": "boom \\ud800 \\udcff"}',
                                 '{"t": 0.3, "end": "close", "code": 1000, "reason": "bye \\ud800"}'])
def test_a_lone_surrogate_in_an_end_record_is_written_as_a_question_mark(tmp_path, capsys, end):
    """orjson refuses a ``\\ud800`` escape, so the record is read by Python's json, which keeps it."""
    src = tmp_path / "s.jsonl"
    src.write_text(native_with_request("https://api.anthropic.com/v1/messages") + end + "\n")
    assert main(["check", "--format", "json", str(src)]) in (0, 1)
    assert "boom ? ?" in capsys.readouterr().out or "close" in end
    for to in ("har", "html"):
        assert main(["export", str(src), "--to", to, "-o", str(tmp_path / f"out.{to}")]) == 0
    assert main(["diff", "--format", "json", str(src), str(src)]) == 0
