"""Cassette shapes real vcrpy does not write in the e2e tests: Ruby VCR's layout, vcrpy's Python tags,
``version:`` first, a deflate body, standard input; detection by content, never by name."""
from __future__ import annotations

import base64
import io
import json
import sys
import zlib

import pytest
import yaml

from inspector.capture.load import looks_like_cassette
from inspector.capture.load import CaptureError, load_all, load_all_bytes, load_bytes
from inspector.cli import main
from tests.helpers import sse

BODY = sse({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                 "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}},
           {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}},
           {"type": "message_stop"})


def vcr_yaml(body, *, headers=None, extra: str = "") -> bytes:
    data = {"interactions": [{
        "request": {"method": "POST", "uri": "https://api.anthropic.com/v1/messages?key=abc123",
                    "body": '{"model": "claude-x", "stream": true}',
                    "headers": {"x-api-key": ["sk-ant-secret"], "content-type": ["application/json"]}},
        "response": {"status": {"code": 200, "message": "OK"},
                     "headers": headers or {"Content-Type": ["text/event-stream"]}, "body": {"string": body}}}],
        "version": 1}
    return (extra + yaml.safe_dump(data)).encode()


def test_heads_and_body_come_back_redacted():
    cap = load_bytes(vcr_yaml(BODY.decode()), name="c.yaml")
    assert cap.source_format == "cassette" and cap.body == BODY
    assert cap.request["headers"]["x-api-key"] == "[redacted]" and "abc123" not in cap.request["url"]
    assert cap.request["body"] == {"model": "claude-x", "stream": True}
    assert cap.response["status"] == 200 and cap.entry.startswith("interaction 0: POST https://api.anthropic.com")


def test_ruby_vcr_layout_and_base64_bodies():
    doc = {"http_interactions": [{
        "request": {"method": "post", "uri": "https://api.openai.com/v1/chat/completions",
                    "body": {"encoding": "UTF-8", "string": "{}"}, "headers": {}},
        "response": {"status": {"code": 200, "message": "OK"}, "headers": {"Content-Type": ["text/event-stream"]},
                     "body": {"encoding": "ASCII-8BIT", "base64_string": base64.b64encode(BODY).decode()}}}],
        "recorded_with": "VCR 6.2.0"}
    raw = yaml.safe_dump(doc).encode()
    assert looks_like_cassette(raw)
    assert load_bytes(raw).body == BODY


def test_vcrpy_python_tags_are_plain_values_never_objects(tmp_path):
    raw = vcr_yaml("x").replace(b"body: '{\"model\"", b"body: !!python/str '{\"model\"")
    raw += b"extra: !!python/tuple [1, 2]\n"
    assert load_bytes(raw).request["body"] == {"model": "claude-x", "stream": True}
    marker = tmp_path / "pwned"
    evil = f"interactions:\n- !!python/object/apply:os.system ['touch {marker}']\nversion: 1\n".encode()
    with pytest.raises(CaptureError, match="no streamed response in the cassette"):
        load_bytes(evil)
    assert not marker.exists()


def test_version_first_and_comments_still_detected_and_json_too():
    raw = b"# recorded by vcrpy\nversion: 1\ninteractions:\n" + vcr_yaml(BODY.decode()).split(b"interactions:\n", 1)[1]
    assert looks_like_cassette(raw) and load_bytes(raw).body == BODY
    as_json = json.dumps(yaml.safe_load(vcr_yaml(BODY.decode()))).encode()
    assert load_bytes(as_json).source_format == "cassette"
    assert not looks_like_cassette(b'{"log": {"entries": []}}') and not looks_like_cassette(b"data: {}\n\n")


def test_deflate_body_is_decoded_and_an_unknown_coding_is_a_clear_error():
    raw = vcr_yaml(zlib.compress(BODY), headers={"Content-Type": ["text/event-stream"], "Content-Encoding": ["deflate"]})
    assert load_bytes(raw).body == BODY
    br = vcr_yaml(b"\x0b\x01\x80", headers={"Content-Type": ["text/event-stream"], "Content-Encoding": ["br"]})
    with pytest.raises(CaptureError, match="body is br-encoded; only gzip and deflate"):
        load_bytes(br, name="b.yaml")


def gzip_of(data: bytes) -> bytes:
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return z.compress(data) + z.flush()


def test_a_gzip_bomb_is_refused_by_its_ratio_with_a_clear_error():
    bomb = gzip_of(BODY + b": " + b" " * (64 << 20))  # 64 MiB of padding in about 64 kB
    raw = vcr_yaml(bomb, headers={"Content-Type": ["text/event-stream"], "Content-Encoding": ["gzip"]})
    with pytest.raises(CaptureError, match=r"b.yaml#0: gzip body decodes to more than .* times its .* coded bytes"):
        load_bytes(raw, name="b.yaml")
    small = vcr_yaml(gzip_of(BODY + b": " + b" " * 100_000),  # past 200x, under the floor: no bomb
                     headers={"Content-Type": ["text/event-stream"], "Content-Encoding": ["gzip"]})
    assert load_bytes(small).body.startswith(BODY)


def test_decoded_bodies_of_one_cassette_share_one_cap(monkeypatch):
    monkeypatch.setattr("inspector.capture.cassette.MAX_DECODED", 3 * len(BODY))
    one = yaml.safe_load(vcr_yaml(gzip_of(BODY), headers={"Content-Type": ["text/event-stream"],
                                                          "Content-Encoding": ["gzip"]}))
    one["interactions"] *= 4  # each body within the cap, the four of them over it
    with pytest.raises(CaptureError, match=r"c.yaml#3: gzip body decodes to more than .* \(the cassette.s decoded bodies are capped"):
        load_all_bytes(yaml.safe_dump(one).encode(), name="c.yaml")



def test_bodies_stored_plain_leave_the_decoded_cap_alone(monkeypatch):
    """The cap is on what decoding makes: four plain bodies before a gzip one use none of it."""
    monkeypatch.setattr("inspector.capture.cassette.MAX_DECODED", 2 * len(BODY))
    plain = yaml.safe_load(vcr_yaml(BODY.decode()))["interactions"]
    coded = yaml.safe_load(vcr_yaml(gzip_of(BODY), headers={"Content-Type": ["text/event-stream"],
                                                            "Content-Encoding": ["gzip"]}))
    coded["interactions"] = plain * 4 + coded["interactions"]
    streams, _ = load_all_bytes(yaml.safe_dump(coded).encode(), name="c.yaml")
    assert len(streams) == 5 and streams[4][1].body.startswith(BODY)

def test_entry_suffix_and_all_streams(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_bytes(vcr_yaml(BODY.decode()))
    streams, skipped = load_all(p)
    assert [n for n, _ in streams] == [f"{p}#0"] and skipped == 0
    assert [n for n, _ in load_all(f"{p}#0")[0]] == [f"{p}#0"]
    streams, _ = load_all_bytes(p.read_bytes(), name="<stdin>")
    assert [n for n, _ in streams] == ["<stdin>#0"]


def test_check_reads_a_cassette_on_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(vcr_yaml(BODY.decode()))))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert main(["check", "-"]) == 0
    assert capsys.readouterr().out.startswith("<stdin>#0: anthropic-messages, 3 events")


def test_a_request_body_nested_too_deep_is_kept_as_text_and_exported(tmp_path, capsys):
    data = yaml.safe_load(vcr_yaml(BODY))
    data["interactions"][0]["request"]["body"] = '{"messages":' + "[" * 1000 + "]" * 1000 + "}"
    src = tmp_path / "deep.yaml"
    src.write_text(yaml.safe_dump(data))
    assert isinstance(load_bytes(src.read_bytes()).request["body"], str)
    assert main(["export", str(src), "--to", "har", "-o", str(tmp_path / "out.har")]) == 0


def test_a_yaml_whole_number_of_thousands_of_digits_is_kept_as_text(tmp_path, capsys):
    big = "9" * 5000
    src = tmp_path / "big.yaml"
    src.write_text(vcr_yaml(BODY).decode().replace("code: 200", f"code: {big}")
                   .replace("- text/event-stream", f"- text/event-stream\n      X-Count:\n      - {big}"))
    assert main(["check", "--format", "json", str(src)]) in (0, 1)
    assert main(["export", str(src), "--to", "har", "-o", str(tmp_path / "out.har")]) == 0
