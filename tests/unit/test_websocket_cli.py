"""``check``, ``diff`` and ``export`` on WebSocket captures (README "WebSocket captures")."""
from __future__ import annotations

import json

import pytest

from inspector.capture.errors import SeveralStreams
from inspector.capture.load import load_all_bytes, load_native
from inspector.capture.recorder import write_capture
from inspector.cli.inputs import Input, streams
from inspector.cli.parser import build_parser
from inspector.feeds.opening import OpeningFeed
from inspector.feeds.replay import ReplayFeed
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from tests.e2e.conftest import run_cli
from tests.websocket import fixtures as fx


def write(tmp_path, name: str, ws: fx.Socket) -> str:
    path = tmp_path / name
    path.write_text(ws.text(), encoding="utf-8")
    return str(path)


def as_sse(ws_capture: Capture, path) -> str:
    """The same response's events over SSE (one event per message, named by its type): another carrier."""
    chunks = [Chunk(c.t, f"event: {json.loads(c.data)['type']}\ndata: {c.data.decode()}\n\n".encode())
              for c in ws_capture.chunks]
    write_capture(Capture(chunks=chunks, request={"method": "POST", "url": "https://api.openai.com/v1/responses",
                                                  "headers": {}, "body": {**ws_capture.request["body"], "stream": True}},
                          response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                          end=ws_capture.end, request_relative=True), path)
    return str(path)


def test_check_reports_each_response_of_the_socket(tmp_path):
    path = write(tmp_path, "ws.jsonl", fx.two_tool_rounds())
    code, out, err = run_cli(["check", path, "--format", "json"])
    assert code == 0, err
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["path"] for r in reports] == [f"{path}#0", f"{path}#1", f"{path}#2"]
    assert [[b["name"] for b in r["blocks"]] for r in reports] == [["get_sku_inventory"], ["get_supplier_eta"], [None]]


def test_check_fails_on_a_socket_dropped_mid_call(tmp_path):
    path = write(tmp_path, "ws.jsonl", fx.close_1006_mid_call())
    code, out, _ = run_cli(["check", path, "--format", "json"])
    assert code == 1
    assert {"S012", "J005"} <= {f["code"] for f in json.loads(out)["findings"]}


def test_a_websocket_response_and_the_same_answer_over_sse_are_equivalent(tmp_path):
    path = write(tmp_path, "ws.jsonl", fx.two_tool_rounds())
    exs = [cap for _, cap in load_all_bytes((tmp_path / "ws.jsonl").read_bytes(), name="ws")[0]]
    sse = as_sse(exs[0], tmp_path / "sse.jsonl")
    code, out, _ = run_cli(["diff", f"{path}#0", sse, "--format", "json"])
    assert code == 0 and json.loads(out)["equivalent"] is True
    other = as_sse(exs[1], tmp_path / "other.jsonl")
    code, out, _ = run_cli(["diff", f"{path}#0", other, "--format", "json"])
    assert code == 1 and json.loads(out)["equivalent"] is False


def test_export_html_of_one_response_and_har_of_the_socket(tmp_path):
    path = write(tmp_path, "rt.jsonl", fx.realtime_function_call())
    code, _, err = run_cli(["export", f"{path}#1", "--to", "html", "-o", str(tmp_path / "r.html")])
    assert code == 0, err
    page = (tmp_path / "r.html").read_text()
    assert "It is 18 degrees and clear in Paris." in page and "openai-realtime" in page
    code, _, err = run_cli(["export", path, "--to", "har", "-o", str(tmp_path / "rt.har")])
    assert code == 0, err
    entry, = json.loads((tmp_path / "rt.har").read_text())["log"]["entries"]
    assert entry["_resourceType"] == "websocket" and len(entry["_webSocketMessages"]) == 39


def test_export_html_of_a_whole_socket_asks_for_one_response(tmp_path):
    path = write(tmp_path, "ws.jsonl", fx.two_tool_rounds())
    code, out, err = run_cli(["export", path, "--to", "html", "-o", str(tmp_path / "x.html")])
    assert code == 2 and "name one stream as FILE#N" in err


def test_the_replay_viewer_offers_the_responses_and_opens_the_one_picked(tmp_path):
    path = write(tmp_path, "ws.jsonl", fx.two_tool_rounds())
    opening = OpeningFeed(path)
    with pytest.raises(SeveralStreams) as e:
        opening.open()
    assert [i for i, _ in e.value.choices] == [0, 1, 2]
    feed = opening.open(entry=1)
    assert "response 1" in feed.label
    feed.seek_event(10**9)
    assert [b.name for b in feed.session.blocks] == ["get_supplier_eta"]


def test_audio_is_a_size_unless_keep_audio_is_asked(tmp_path):
    path = write(tmp_path, "rt.jsonl", fx.realtime_function_call())
    for command in ("check", "replay", "export"):
        argv = [command, path, "--keep-audio"] + (["--to", "har"] if command == "export" else [])
        assert build_parser().parse_args(argv).keep_audio is True
    inp = Input(path, path, True)
    for keep in (False, True):  # what export reads (``inputs.streams``), as check and replay read it
        assert (fx.AUDIO.encode() in b"".join(c.data for c in streams(inp, keep_audio=keep)[1][1].chunks)) is keep
    code, _, err = run_cli(["check", path, "--keep-audio"])
    assert code == 0, err


def test_a_response_saved_from_the_viewer_reads_back_as_messages(tmp_path):
    """What the TUI's save writes for one response (``write_capture``: plain chunk records under the
    101 handshake) is still read one message per event, by check and by replay."""
    (_, ex), *_ = load_all_bytes(fx.two_tool_rounds().text().encode(), name="ws")[0]
    big = {"type": "response.output_text.delta", "delta": "z" * 70_000, "item_id": "x", "output_index": 0,
           "content_index": 0, "sequence_number": 99}
    ex.chunks.insert(3, Chunk(ex.chunks[2].t, json.dumps(big, indent=1).encode(), None))
    write_capture(ex, tmp_path / "saved.jsonl")
    saved = load_native((tmp_path / "saved.jsonl").read_bytes())
    assert saved.messages is None and saved.source_format == "native"
    ref, again = run_capture(ex), run_capture(saved)
    assert len(again.events) == len(ref.events)
    pb = ReplayFeed(saved)
    pb.seek_event(10**9)
    assert len(pb.session.events) == len(ref.events)
