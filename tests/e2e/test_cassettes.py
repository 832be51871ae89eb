"""VCR cassettes as input: files written by real vcrpy (YAML, JSON, a gzip body kept as ``!!binary``)
while real clients talked to ``serve`` on 127.0.0.1, read by ``check``, ``export``, ``diff`` and the
replay loader exactly as the captures they came from."""
from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anthropic
import httpx
import openai
import pytest
import vcr
import yaml

from inspector.capture.errors import SeveralStreams
from inspector.capture.load import CaptureError, load_all, load_path
from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS
from tests.e2e.conftest import run_cli

TOOL = SHARED_CORPUS / "anthropic-doc-tool-call.sse"
EARLY_STOP = SHARED_CORPUS / "anthropic-stop-before-json-complete.sse"
CHAT = SHARED_CORPUS / "openai-parallel-indexed.sse"
KEY = "sk-ant-api03-cassettesecret0123456789abcdef"


class _Plain(BaseHTTPRequestHandler):
    """127.0.0.1 server for what ``serve`` does not send: a JSON answer (not streamed) and an SSE
    body sent gzip-encoded (``/gzip``)."""

    sse = b""

    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("content-length") or 0))
        if self.path.endswith("/gzip"):
            body, extra = gzip.compress(self.sse), [("content-type", "text/event-stream"), ("content-encoding", "gzip")]
        else:
            body, extra = b'{"id":"x","object":"list","data":[]}', [("content-type", "application/json")]
        self.send_response(200)
        for k, v in extra + [("content-length", str(len(body)))]:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


@pytest.fixture()
def plain():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Plain)
    _Plain.sse = TOOL.read_bytes()
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def record(path: Path, plain: str, serializer: str = "yaml") -> None:
    """Three streams (Anthropic SDK, raw httpx, OpenAI SDK) and one plain JSON answer, recorded by
    vcrpy against ``serve`` on 127.0.0.1."""
    with ServerThread([TOOL, EARLY_STOP, CHAT], instant=True) as srv, \
            vcr.use_cassette(str(path), record_mode="once", serializer=serializer):
        client = anthropic.Anthropic(base_url=srv.url_for(TOOL.stem), api_key=KEY)
        with client.messages.stream(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]) as s:
            s.until_done()
        httpx.post(f"{plain}/v1/models", json={"q": 1}).raise_for_status()
        httpx.post(srv.url_for(EARLY_STOP.stem) + "/v1/messages", json={"stream": True},
                   headers={"x-api-key": KEY}).raise_for_status()
        oa = openai.OpenAI(base_url=srv.url_for(CHAT.stem) + "/v1", api_key=KEY)
        for _ in oa.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True):
            pass


def reports(out: str) -> dict[str, dict]:
    return {r["path"]: r for r in map(json.loads, out.splitlines())}


def codes_of(report: dict) -> list[tuple[str, int | None]]:
    return [(f["code"], f.get("event")) for f in report["findings"]]


@pytest.mark.parametrize("serializer", ["yaml", "json"])
def test_check_reads_each_streamed_interaction_as_the_capture_it_came_from(tmp_path, plain, serializer):
    cas = tmp_path / f"run.{serializer}"
    record(cas, plain, serializer)
    code, out, err = run_cli(["check", "--format", "json", str(cas)])
    got = reports(out)
    assert list(got) == [f"{cas}#0", f"{cas}#2", f"{cas}#3"]
    assert f"{cas}: 1 interaction not streamed, skipped" in err
    for name, source in ((f"{cas}#0", TOOL), (f"{cas}#2", EARLY_STOP), (f"{cas}#3", CHAT)):
        _, direct, _ = run_cli(["check", "--format", "json", str(source)])
        assert codes_of(got[name]) == codes_of(json.loads(direct)), name
    assert ("J002", 4) in codes_of(got[f"{cas}#2"])
    assert code == 1
    assert KEY not in out + err


def test_a_gzip_body_vcrpy_kept_as_binary_is_decoded(tmp_path, plain):
    cas = tmp_path / "gz.yaml"
    with vcr.use_cassette(str(cas), record_mode="once"):
        r = httpx.post(f"{plain}/v1/messages/gzip", json={"stream": True})
        assert r.text == TOOL.read_text()
    assert "!!binary" in cas.read_text()
    cap = load_path(f"{cas}#0")
    assert cap.body == TOOL.read_bytes()
    assert not any(k.lower() == "content-encoding" for k in cap.response["headers"])
    code, out, _ = run_cli(["check", str(cas)])
    assert code == 0 and f"{cas}#0: anthropic-messages, 14 events" in out


def test_export_diff_and_replay_take_one_interaction_or_all(tmp_path, plain):
    cas = tmp_path / "run.yaml"
    record(cas, plain)
    code, out, _ = run_cli(["export", str(cas), "--to", "har"])
    har = json.loads(out)
    assert code == 0 and len(har["log"]["entries"]) == 3
    assert KEY not in out
    urls = [e["request"]["url"] for e in har["log"]["entries"]]
    assert [u.split("/")[3] for u in urls] == [TOOL.stem, EARLY_STOP.stem, CHAT.stem]
    code, _, err = run_cli(["export", str(cas), "--to", "html"])
    assert code == 2 and "FILE#N" in err
    code, out, _ = run_cli(["export", f"{cas}#2", "--to", "html"])
    assert code == 0 and "search_docs" in out
    # diff: the recorded stream against its source is equivalent; two different ones are not.
    code, out, _ = run_cli(["diff", "--format", "json", f"{cas}#0", str(TOOL)])
    assert code == 0, out
    code, _, _ = run_cli(["diff", "--format", "json", f"{cas}#0", f"{cas}#2"])
    assert code == 1
    # replay reads through the same loader: several streams ask for one, by #N or --entry.
    with pytest.raises(SeveralStreams) as e:
        load_path(cas)
    assert [i for i, _ in e.value.choices] == [0, 2, 3] and f"{cas}#N" in str(e.value)
    assert load_path(cas, entry=3).entry.startswith("interaction 3: POST http://127.0.0.1:")
    with pytest.raises(CaptureError, match="out of range"):
        load_path(f"{cas}#9")


def test_a_cassette_folder_is_walked_like_captures_on_every_core(tmp_path, plain):
    folder = tmp_path / "cassettes"
    (folder / "nested").mkdir(parents=True)
    record(folder / "a.yaml", plain)
    data = yaml.safe_load((folder / "a.yaml").read_text())
    for i in range(6):
        (folder / "nested" / f"b{i}.yaml").write_text(yaml.safe_dump(data))
    only_plain = {"interactions": [data["interactions"][1]], "version": 1}
    (folder / "plain.yaml").write_text(yaml.safe_dump(only_plain))
    (folder / "README.md").write_text("cassettes of the agent tests\n")
    one = run_cli(["check", "--format", "json", "--jobs", "1", str(folder)])
    two = run_cli(["check", "--format", "json", "--jobs", "2", str(folder)])
    assert one == two
    code, out, err = one
    assert len(out.splitlines()) == 7 * 3
    # a walked cassette with no stream is skipped like any non-capture: named in the one skipped line
    assert (f"skipped 2 files that hold no stream capture: {folder / 'README.md'}, {folder / 'plain.yaml'} "
            "(name one to see why)") in err
    assert code == 1
    # Named one by one, a cassette without a stream is an error (exit 2), as any non-capture is.
    code, _, err = run_cli(["check", str(folder / "plain.yaml")])
    assert code == 2 and "no streamed interaction" in err


def test_broken_cassettes_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("interactions:\n- request: {uri: http://x}\n  response: [\n")
    with pytest.raises(CaptureError, match="not a readable cassette"):
        load_all(bad)
    gz = tmp_path / "gz.yaml"
    gz.write_text(yaml.safe_dump({"version": 1, "interactions": [{
        "request": {"method": "POST", "uri": "http://x/v1/messages", "body": None, "headers": {}},
        "response": {"status": {"code": 200, "message": "OK"},
                     "headers": {"Content-Type": ["text/event-stream"], "Content-Encoding": ["gzip"]},
                     "body": {"string": b"not gzip"}}}]}))
    code, _, err = run_cli(["check", str(gz)])
    assert code == 2 and f"{gz}#0: gzip body does not decode" in err
