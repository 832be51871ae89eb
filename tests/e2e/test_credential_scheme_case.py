"""HTTP credentials whose scheme word is not written ``Basic``/``Bearer`` are masked too (RFC 9110
§11.1: the scheme name is case-insensitive), and prose with the word ``basic`` is left alone.

A capture shared by a stranger quotes ``authorization: basic …`` in the streamed text (a curl
command the model writes); ``check`` in every format and a recording written from it must not show
the credential, while ``basic information`` and ``Basic usage`` stay as they are.
"""
from __future__ import annotations

import json

import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from tests.e2e.conftest import ANTHROPIC_OPENING, run_cli, sse_event

CREDENTIALS = {"basic": "dXNlcjpodW50ZXIy", "BASIC": "YWxpY2U6czNjcmV0LXBhc3M=", "bAsIc": "Ym9iOnRvcC1zZWNyZXQx",
               "Basic\t": "Y2Fyb2w6cGFzc3dvcmQxMjM=", "bearer": "Zq9Xw8Vu7Ts6Rq5Po4Nm3Lk2",
               "BEARER": "Jh8Gf7Ed6Cb5Az4Yx3Wv2Ut1"}
"""Scheme as written (with the white space after it when not a space) -> its credential."""
PROSE = "basic information, Basic usage, BASIC settings and basic\tauthentication; basically classic"
"""Ordinary words after the scheme word: never masked (none is base64 of printable ``user:password``)."""


def delta(text: str) -> dict:
    return {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}


def capture(tmp_path):
    said = " ".join(f"-H 'authorization: {scheme}{'' if scheme.endswith(chr(9)) else ' '}{cred}'"
                    for scheme, cred in CREDENTIALS.items())
    events = [ANTHROPIC_OPENING[0],
              {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
              delta(f"Run curl {said}. "), delta(PROSE), {"type": "content_block_stop", "index": 0},
              {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
              {"type": "message_stop"}]
    head = {"format": "stream-inspector-capture", "version": 1,
            "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {},
                        "body": {"model": "m-test", "stream": True, "messages": []}},
            "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    body = "".join(sse_event(e).decode() for e in events)
    path = tmp_path / "schemes.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [head, {"t": 0.1, "data": body}, {"t": 0.2, "end": "eof"}]))
    return path


def assert_masked(text: str, where: str) -> None:
    leaked = [c for c in CREDENTIALS.values() if c in text]
    assert not leaked, f"{where} shows {leaked}"


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_check_masks_every_spelling_of_the_scheme_and_keeps_the_prose(tmp_path, fmt):
    path = capture(tmp_path)
    assert all(c in path.read_text() for c in CREDENTIALS.values())
    code, out, err = run_cli(["check", "--format", fmt, str(path)])
    assert code in (0, 1), err
    assert_masked(out + err, f"check --format {fmt}")
    if fmt == "json":
        [text] = [b["text"] for b in json.loads(out)["blocks"]]
        assert PROSE in text
        for scheme in CREDENTIALS:
            assert f"{scheme.strip()} [redacted]" in text  # the word as written


def test_a_recording_written_from_it(tmp_path):
    rec = tmp_path / "again.jsonl"
    write_capture(load_path(capture(tmp_path)), rec)
    assert_masked(rec.read_text(), "a recording")
    assert PROSE.split("\t")[0] in rec.read_text() and PROSE.split("\t")[1] in rec.read_text()
