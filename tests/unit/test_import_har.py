"""HAR import: the streamed entry is found, several need --entry, bodies and heads come back redacted."""
from __future__ import annotations

import base64
import json

import pytest

from inspector.capture.load import CaptureError, load_bytes
from inspector.capture.redact import redact_headers, redact_url
from inspector.cli import main
from inspector.feeds.run import run_capture
from tests.helpers import sse

CHAT = sse(
    '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}',
    '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
    "[DONE]").decode()
RESPONSES = sse(
    {"type": "response.created", "sequence_number": 0, "response": {"id": "r", "status": "in_progress", "output": []}},
    {"type": "response.completed", "sequence_number": 1, "response": {"id": "r", "status": "completed", "output": []}}).decode()


def entry(url, body, *, ctype="text/event-stream", status=200, b64=False, method="POST", req_headers=None, **extra):
    content = {"size": len(body or ""), "mimeType": ctype}
    if body is not None:
        content["text"] = base64.b64encode(body.encode()).decode() if b64 else body
        if b64:
            content["encoding"] = "base64"
    return {
        "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 120,
        "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1",
                    "headers": req_headers or [{"name": "Authorization", "value": "Bearer sk-secret"},
                                               {"name": "Content-Type", "value": "application/json"}],
                    "postData": {"mimeType": "application/json", "text": '{"stream": true, "messages": []}'}},
        "response": {"status": status, "statusText": "OK", "httpVersion": "HTTP/1.1",
                     "headers": [{"name": "Content-Type", "value": ctype},
                                 {"name": "Set-Cookie", "value": "session=abc"}],
                     "content": content},
        **extra,
    }


def har(*entries) -> bytes:
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                               "entries": list(entries)}}).encode()


PAGE = entry("https://example.test/index.html", "<html></html>", ctype="text/html", method="GET")


def test_single_streamed_entry_is_used_and_redacted():
    cap = load_bytes(har(PAGE, entry("https://api.example.test/v1/chat/completions?key=AIzaSECRET", CHAT)))
    assert cap.source_format == "har" and cap.body == CHAT.encode()
    assert cap.request["method"] == "POST" and cap.request["url"].endswith("?key=[redacted]")
    assert cap.request["headers"]["Authorization"] == "[redacted]" and cap.request["body"] == {"stream": True, "messages": []}
    assert cap.response == {"status": 200, "headers": {"Content-Type": "text/event-stream", "Set-Cookie": "[redacted]"}}
    assert "sk-secret" not in repr(cap) and "AIzaSECRET" not in repr(cap)
    s = run_capture(cap)
    assert s.dialect_name == "openai-chat" and not s.findings


def test_base64_body():
    cap = load_bytes(har(entry("https://api.example.test/v1/responses", RESPONSES, b64=True)))
    assert cap.body == RESPONSES.encode()
    assert run_capture(cap).stop_reason == "completed"


def test_two_streams_need_entry_and_both_import():
    raw = har(entry("https://api.example.test/v1/chat/completions", CHAT), PAGE,
              entry("https://api.example.test/v1/responses", RESPONSES))
    with pytest.raises(CaptureError) as e:
        load_bytes(raw, name="x.har")
    lines = str(e.value).splitlines()  # a readable list: one streamed entry per line, then how to pick
    assert lines[0] == "x.har: 2 streamed responses in the HAR:"
    assert lines[1].startswith("  entry 0: POST https://api.example.test/v1/chat/completions 200 text/event-stream")
    assert lines[2].startswith("  entry 2: POST https://api.example.test/v1/responses")
    assert lines[3] == "pick one as x.har#N or with --entry N (check --entry all checks each of them)"
    assert "entry 1" not in str(e.value)
    first = run_capture(load_bytes(raw, entry=0))
    second = run_capture(load_bytes(raw, entry=2))
    assert (first.dialect_name, second.dialect_name) == ("openai-chat", "openai-responses")


def test_entry_flag_through_check(tmp_path, capsys):
    p = tmp_path / "two.har"
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", CHAT), entry("https://a.test/v1/responses", RESPONSES)))
    assert main(["check", str(p)]) == 2
    assert "or with --entry N" in capsys.readouterr().err
    assert main(["check", "--format", "json", "--entry", "1", str(p)]) == 0
    assert json.loads(capsys.readouterr().out)["dialect"] == "openai-responses"


def test_check_entry_all_checks_each_streamed_entry_as_a_capture_of_its_own(tmp_path, capsys):
    p = tmp_path / "three.har"
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", CHAT), PAGE,
                      entry("https://a.test/v1/responses", RESPONSES)))
    one = tmp_path / "one.sse"
    one.write_text(CHAT)
    assert main(["check", "--format", "json", "--entry", "all", str(p), str(one)]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["path"], r["dialect"]) for r in reports] == [
        (f"{p}#0", "openai-chat"), (f"{p}#2", "openai-responses"), (str(one), "openai-chat")]
    # text: a summary over the entries, exit 1 when one of them has an error finding
    broken = CHAT.replace('"finish_reason":"stop"', '"finish_reason":null').replace("data: [DONE]\n\n", "")
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", broken), entry("https://a.test/v1/responses",
                                                                                RESPONSES)))
    assert main(["check", "--entry", "all", str(p)]) == 1
    out = capsys.readouterr().out
    assert f"{p}#0: openai-chat" in out and f"{p}#1: openai-responses" in out and "S003" in out
    # near miss: a number still reads one entry; a word other than all is a usage error
    assert main(["check", "--format", "json", "--entry", "1", str(p)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1
    with pytest.raises(SystemExit) as e:
        main(["check", "--entry", "every", str(p)])
    assert e.value.code == 2


def test_size_in_listing():
    big = CHAT + ":" + "x" * 12000 + "\n"
    with pytest.raises(CaptureError, match=r"12 kB"):
        load_bytes(har(entry("https://a.test/1", big), entry("https://a.test/2", CHAT)))


def test_event_source_messages_rebuild_the_stream_with_timing():
    msgs = [{"time": 100.5, "eventName": "message", "eventId": "", "data": '{"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0}]}'},
            {"time": 112.0, "eventName": "message", "eventId": "",
             "data": '{"candidates":[{"content":{"parts":[{"text":"b"}]},"finishReason":"STOP","index":0}]}'}]
    e = entry("https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse", None,
              _eventSourceMessages=msgs)
    cap = load_bytes(har(e))
    assert [c.t for c in cap.chunks] == [0.0, 11.5]
    s = run_capture(cap)
    assert s.dialect_name == "gemini" and s.blocks[0].content == "ab"
    assert [f.code for f in s.findings] == ["T001"]
    assert cap.notes == []
    e["response"]["content"]["text"] = "data: {}\n\n"
    assert "EventSource" in load_bytes(har(e)).notes[0]


def test_ndjson_entry_and_ollama_json():
    nd = '{"model":"m","created_at":"x","message":{"role":"assistant","content":"hi"},"done":false}\n' \
         '{"model":"m","created_at":"x","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n'
    for ctype, url in (("application/x-ndjson", "http://localhost:11434/api/chat"),
                       ("application/json; charset=utf-8", "http://localhost:11434/api/chat")):
        s = run_capture(load_bytes(har(PAGE, entry(url, nd, ctype=ctype))))
        assert s.dialect_name == "ollama" and not s.findings


@pytest.mark.parametrize("raw,why", [
    (b'{"log": {"creator": {}, "entries": 5}}', "no log.entries"),
    (b'{"log": {"creator": {}, "entries": [', "not valid HAR JSON"),
    (har(PAGE), "no streamed response"),
    (har(entry("https://a.test/x", "")), "no response body"),
])
def test_bad_hars_are_one_line_errors(raw, why):
    with pytest.raises(CaptureError, match=why) as e:
        load_bytes(raw)
    assert "\n" not in str(e.value)


def test_entry_out_of_range_and_non_stream_entry_on_request():
    raw = har(PAGE, entry("https://a.test/v1/chat", CHAT))
    with pytest.raises(CaptureError, match="out of range"):
        load_bytes(raw, entry=5)
    err = har(entry("https://a.test/v1/messages", '{"error":{"type":"overloaded_error"}}', ctype="application/json", status=529))
    s = run_capture(load_bytes(err, entry=0))
    assert "S007" in [f.code for f in s.findings]


def test_redact_helpers():
    assert redact_headers({"X-Api-Key": "k", "x-goog-api-key": "g", "Cookie": "c", "Accept": "a"}) == {
        "X-Api-Key": "[redacted]", "x-goog-api-key": "[redacted]", "Cookie": "[redacted]", "Accept": "a"}
    assert redact_headers(None) == {}
    assert redact_url("https://h/p?alt=sse&key=SECRET#f") == "https://h/p?alt=sse&key=[redacted]#f"
    assert redact_url("https://u:pw@h/p?monkey=1") == "https://u:[redacted]@h/p?monkey=1"
    assert redact_url("https://h/p") == "https://h/p"


def test_check_entry_all_reads_and_parses_the_har_once_not_once_per_entry(tmp_path, capsys, monkeypatch):
    # Each entry read on its own re-read and re-parsed the whole file: 1 000 entries of 14 MB took 196 s.
    from inspector.capture import load

    reads = []
    real = load._read_file
    monkeypatch.setattr(load, "_read_file", lambda path, max_bytes: reads.append(path) or real(path, max_bytes))
    p = tmp_path / "many.har"
    p.write_bytes(har(*[entry(f"https://a.test/v1/chat/completions?n={i}", CHAT) for i in range(12)], PAGE))
    assert main(["check", "--format", "json", "--jobs", "1", "--entry", "all", str(p)]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["path"] for r in reports] == [f"{p}#{i}" for i in range(12)]
    assert len(reads) <= 2  # the listing, then every entry from one read


@pytest.mark.parametrize("command", [["check"], ["export", "--to", "html"], ["diff", "--format", "text"],
                                     ["compare", "--format", "text"], ["replay"]])
def test_several_streams_are_listed_one_a_line_with_a_way_to_pick_that_the_command_takes(
        tmp_path, capsys, command):
    """The list of a HAR's streams reaches stderr as lines (not ``\\n`` written out), and names the
    ``FILE#N`` form, which every command takes (``diff`` and ``compare`` have no ``--entry``)."""
    p = tmp_path / "two.har"
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", CHAT), entry("https://a.test/v1/responses", RESPONSES)))
    paths = [str(p), str(p)] if command[0] in ("diff", "compare") else [str(p)]
    assert main([*command, *paths]) == 2
    err = capsys.readouterr().err
    assert "\\n" not in err
    lines = err.strip().splitlines()
    assert lines[1].startswith("  entry 0: POST https://a.test/v1/chat/completions")
    assert lines[2].startswith("  entry 1: POST https://a.test/v1/responses")
    assert f"{p}#N" in lines[3]


def test_a_har_entry_cannot_add_lines_to_the_list(tmp_path, capsys):
    p = tmp_path / "two.har"
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", CHAT, method="POST\nentry 9: \x1b[31mfake"),
                      entry("https://a.test/v1/responses", RESPONSES)))
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and len(err.strip().splitlines()) == 4


def test_check_entry_all_of_a_har_whose_name_is_no_utf8(tmp_path, capsys):
    """Each entry's report is named as ``--entry N`` names it (the bad bytes as \\xNN), not a crash of the JSON writer."""
    p = tmp_path.joinpath(b"caf\xe9.har".decode("utf-8", "surrogateescape"))
    p.write_bytes(har(entry("https://a.test/v1/chat/completions", CHAT), entry("https://a.test/v1/responses", RESPONSES)))
    assert main(["check", "--format", "json", "--jobs", "1", "--entry", "all", str(p)]) == 0
    paths = [json.loads(line)["path"] for line in capsys.readouterr().out.splitlines()]
    assert [x.rsplit("/", 1)[1] for x in paths] == ["caf\\xe9.har#0", "caf\\xe9.har#1"]
