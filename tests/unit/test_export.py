"""``export --to html|har``: the page holds every block, finding and event; the HAR round trip is exact.

The HTML is parsed with the standard library's ``html.parser`` (as a browser would build the
tree, minus rendering) and checked against the session ``check`` builds from the same capture.
The HAR is read back by the importer ``check`` uses and compared with the original capture:
chunks (bytes and times), request, response head, end.
"""
from __future__ import annotations

import base64
import gzip
import json
from html.parser import HTMLParser

import pytest

from inspector.capture.load import CaptureError, load_bytes, load_path
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk, End
from inspector.report import har, html
from inspector.report.export import export_text, write_export
from inspector.report.json import report_dict
from inspector.session.advice import advice_for
from tests.conftest import ROOT, corpus_cases
from tests.helpers import sse

BUNDLED = sorted((ROOT / "inspector" / "data" / "captures").glob("*.jsonl"))
CAPTURES = [c for _, c, _ in corpus_cases()] + BUNDLED
SECRET_KEY = "sk-ant-api03-EXPORTSECRET0123456789abcdef"


class Page(HTMLParser):
    """The parts of an exported page the tests look at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.findings: list[dict] = []
        self.blocks: list[dict] = []
        self.events: list[int] = []
        self.external: list[str] = []
        self.texts: list[str] = []
        self._pre: list[str] | None = None
        self._pres: list[str] = []
        self._stack: list[str] = []
        self._in_style = False
        self._in_data = False
        self.data: list[list[str]] = []
        """The text of each ``script.event-data`` then ``script#event-names``, as the page's script reads it."""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        classes = (a.get("class") or "").split()
        if tag == "tr" and "finding" in classes:
            self.findings.append(a)
        if tag == "article" and "block" in classes:
            self.blocks.append(a)
        if tag == "tr" and "event" in classes:
            self.events.append(int(a["data-event"]))
        self._in_data = tag == "script" and ("event-data" in classes or a.get("id") == "event-names")
        if self._in_data:
            self.data.append([])
        for key in ("src", "srcset", "action", "data", "poster"):
            if key in a:
                self.external.append(f"{tag} {key}={a[key]}")
        if "href" in a and not a["href"].startswith("#"):
            self.external.append(f"{tag} href={a['href']}")
        if tag in ("link", "iframe", "img", "object", "embed"):
            self.external.append(tag)
        if tag == "pre" and "content" in classes:
            self._pre = []
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "pre" and self._pre is not None:
            self._pres.append("".join(self._pre))
            self._pre = None
        self._in_style = False
        self._in_data = False

    def handle_data(self, data):
        if self._in_data:
            self.data[-1].append(data)
            return
        if self._pre is not None:
            self._pre.append(data)
        if self._in_style and ("url(" in data or "@import" in data):
            self.external.append("css url/import")
        self.texts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    @property
    def event_data(self) -> dict:
        """``{"events": [[t, line, name, keepalive, summary, data], …], "names": […]}``, or {}."""
        if not self.data:
            return {}
        *batches, names = ("".join(parts) for parts in self.data)
        events = [e for b in batches for e in json.loads(gzip.decompress(base64.b64decode(b)))]
        return {"events": events, "names": json.loads(names)}


def page_of(text: str) -> Page:
    p = Page()
    p.feed(text)
    p.close()
    return p


@pytest.mark.skipif(not CAPTURES, reason="no captures")
@pytest.mark.parametrize("path", CAPTURES, ids=[p.name for p in CAPTURES])
def test_html_holds_every_block_finding_and_event(path):
    cap = load_path(path)
    s = run_capture(cap)
    page = page_of(html.render(path.name, s, cap))
    assert page.external == []  # self-contained: nothing fetched
    assert {"overview", "findings", "blocks", "timeline", "events"} <= page.ids
    data = page.event_data
    assert [(t, line, data["names"][name], data_) for t, line, name, _, _, data_ in data.get("events", [])] == \
        [(ev.t, ev.line, ev.name, ev.data) for ev in s.events]
    assert [f["data-code"] for f in page.findings] == [f.code for f in s.findings]
    assert [f["data-event"] for f in page.findings] == ["" if f.event is None else str(f.event) for f in s.findings]
    assert [int(b["data-pos"]) for b in page.blocks] == [b.pos for b in s.blocks]
    for b in s.blocks:  # the content as assembled (secrets aside, none in the corpus)
        assert (b.content or b.empty_shown or "(empty)") in page._pres
    text = page.text
    for f in s.findings:
        assert f.message in text
        first_para = advice_for(f.code).split("\n\n")[0].replace("`", "")
        assert first_para in text


def test_html_shows_the_parsed_arguments_and_the_timeline_marks_findings():
    cap = load_path(ROOT / "inspector" / "data" / "captures" / "2-anthropic-stall-and-early-stop.jsonl")
    s = run_capture(cap)
    out = html.render("stall", s, cap)
    assert s.findings and out.count('class="mark ') == sum(1 for f in s.findings if f.t is not None)
    complete = [b for b in s.blocks if b.tool and b.status == "complete"]
    for b in complete:
        assert json.dumps(b.input, indent=2, ensure_ascii=False) in page_of(out)._pres


def har_of(cap: Capture) -> Capture:
    return load_bytes(har.render([(cap, None, None)]).encode(), name="export.har")


@pytest.mark.skipif(not CAPTURES, reason="no captures")
@pytest.mark.parametrize("path", CAPTURES, ids=[p.name for p in CAPTURES])
def test_har_round_trip_is_exact(path):
    cap = load_path(path)
    back = har_of(cap)
    assert [(c.t, c.data) for c in back.chunks] == [(c.t, c.data) for c in cap.chunks]
    assert (back.request, back.response, back.end, back.request_relative) == \
        (cap.request, cap.response, cap.end, cap.request_relative)
    # The same bytes and times make the same report; only what points into the original file
    # differs (its line numbers, and S014 for prose around a pasted stream, which the HAR lacks).
    a, b = (report_dict("x", run_capture(c)) for c in (cap, back))
    for r in (a, b):
        r["findings"] = [{k: v for k, v in f.items() if k != "line"} for f in r["findings"] if f["code"] != "S014"]
    assert a == b
    # And a HAR written from the HAR is the same file.
    assert har.render([(back, None, None)]) == har.render([(cap, None, None)])


def test_har_entry_is_plain_har_for_other_tools():
    cap = load_path(ROOT / "inspector" / "data" / "captures" / "1-anthropic-tool-call.jsonl")
    doc = json.loads(har.render([(cap, None, None)]))
    assert doc["log"]["version"] == "1.2" and doc["log"]["creator"]["name"] == "stream-inspector"
    e = doc["log"]["entries"][0]
    for key in ("startedDateTime", "time", "request", "response", "cache", "timings"):
        assert key in e
    assert e["response"]["content"]["text"].encode() == cap.body
    assert e["response"]["content"]["mimeType"].startswith("text/event-stream")
    assert e["timings"]["wait"] == pytest.approx(cap.chunks[0].t * 1000)
    assert [c["t"] for c in e["_chunks"]] == [c.t for c in cap.chunks] and e["_end"]["end"] == cap.end.kind


def test_har_reads_binary_chunks_missing_heads_and_abnormal_ends_back():
    cap = Capture(chunks=[Chunk(0.25, b"data: {\"a\": \"\xc3"), Chunk(0.5, b"\xa9\"}\n\n"), Chunk(0.75, b"\xff\xfe")],
                  end=End(0.9, "reset", "peer closed"), source_format="native", request_relative=True)
    back = har_of(cap)
    assert [(c.t, c.data) for c in back.chunks] == [(c.t, c.data) for c in cap.chunks]
    assert back.request is None and back.response is None and back.end == cap.end
    doc = json.loads(har.render([(cap, None, None)]))
    assert doc["log"]["entries"][0]["response"]["content"]["encoding"] == "base64"


@pytest.mark.parametrize("bad,why", [
    ([{"t": "soon", "data": "x"}], "'t' must be a number"),
    ([{"t": 0.1, "b64": "@@@"}], "'b64' is not valid base64"),
    ([{"t": 0.1, "end": "eof"}], "belongs in _end"),
    (["x"], "not an object"),
])
def test_a_broken_chunks_field_is_a_one_line_capture_error(bad, why):
    doc = json.loads(har.render([(Capture(chunks=[Chunk(0.1, b"data: 1\n\n")]), None, None)]))
    doc["log"]["entries"][0]["_chunks"] = bad
    with pytest.raises(CaptureError, match=why):
        load_bytes(json.dumps(doc).encode(), name="x.har")


def secret_capture() -> Capture:
    body = (b'event: message_start\ndata: {"type": "message_start", "message": {"id": "m", "role": "assistant", '
            b'"content": [], "model": "m"}}\n\nevent: error\ndata: {"type": "error", "error": {"type": "x", '
            b'"message": "bad key ' + SECRET_KEY.encode() + b'"}}\n\n')
    return Capture(chunks=[Chunk(0.1, body)], source_format="native", request_relative=True,
                   request={"method": "POST", "url": "https://api.example.test/v1/messages?key=AIzaSyEXPORTSECRET000000000000000000",
                            "headers": {"x-api-key": SECRET_KEY, "authorization": f"Bearer {SECRET_KEY}"},
                            "body": {"model": "m", "messages": [{"role": "user", "content": f"my key is {SECRET_KEY}"}]}},
                   response={"status": 200, "headers": {"content-type": "text/event-stream", "set-cookie": "s=1"}})


@pytest.mark.parametrize("to", ["html", "har"])
def test_secrets_stay_redacted_in_every_export(to):
    cap = secret_capture()
    out = export_text(to, "secret", cap, run_capture(cap))
    assert "EXPORTSECRET" not in out and "s=1" not in out
    assert "[redacted]" in out


def test_write_export_is_what_the_tui_calls(tmp_path):
    cap = load_path(BUNDLED[0])
    write_export(tmp_path / "x.html", "html", "x", cap, run_capture(cap))
    assert page_of((tmp_path / "x.html").read_text()).event_data["events"]
    with pytest.raises(ValueError):
        export_text("pdf", "x", cap, run_capture(cap))


def test_cli_writes_stdout_or_a_file_and_reports_bad_input(capsys, tmp_path):
    # Imported here: importing the CLI installs its start-up Ctrl+C handler (exit at once), which
    # only a finished ``main`` replaces; the other tests never run it.
    from inspector.cli import main

    src = str(BUNDLED[0])
    assert main(["export", src, "--to", "har"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out)["log"]["entries"][0]["_chunks"]
    target = tmp_path / "page.html"
    assert main(["export", src, "--to", "html", "-o", str(target)]) == 0
    assert "wrote" in capsys.readouterr().err and target.read_text().startswith("<!DOCTYPE html>")
    # A folder gives one HAR with an entry per capture, in name order.
    assert main(["export", str(ROOT / "inspector" / "data" / "captures"), "--to", "har", "-o", str(tmp_path / "all.har")]) == 0
    entries = json.loads((tmp_path / "all.har").read_text())["log"]["entries"]
    assert len(entries) == len(BUNDLED)
    capsys.readouterr()
    for argv, why in ([[src, src, "--to", "html"], "one page per capture"],
                      [[str(tmp_path / "nope.sse"), "--to", "html"], "no such file"],
                      [[src, "--to", "har", "-o", str(tmp_path / "missing" / "x.har")], "cannot write"]):
        assert main(["export", *argv]) == 2
        err = capsys.readouterr().err
        assert why in err and len(err.strip().splitlines()) == 1


def test_har_of_a_folder_holds_the_captures_only_each_named(capsys, tmp_path):
    # A corpus folder: each capture beside its ``.expect.json``. Only captures become entries, and
    # each entry keeps its file name so that the HAR picker lists lines that can be told apart.
    from inspector.cli import main

    src = ROOT / "tests" / "corpus" / "bedrock"
    cases = sorted(p for p in src.iterdir() if p.suffix in (".jsonl", ".bin"))[:4]
    folder = tmp_path / "corpus"
    folder.mkdir()
    for p in cases:
        (folder / p.name).write_bytes(p.read_bytes())
        expect = p.with_suffix(".expect.json")
        (folder / expect.name).write_bytes(expect.read_bytes())
    assert main(["export", str(folder), "--to", "har", "-o", str(tmp_path / "c.har")]) == 0
    err = capsys.readouterr().err
    assert "skipped 4 files that hold no stream capture" in err and len(err.strip().splitlines()) == 2  # + "wrote"
    entries = json.loads((tmp_path / "c.har").read_text())["log"]["entries"]
    assert [e["comment"] for e in entries] == [str(folder / p.name) for p in cases]
    assert all(e["request"]["url"] or e["response"]["status"] or e["_chunks"] for e in entries)
    # Read back, the picker names each entry.
    from inspector.capture.errors import SeveralStreams
    with pytest.raises(SeveralStreams) as info:
        load_path(tmp_path / "c.har")
    lines = [line for _, line in info.value.choices]
    assert len(set(lines)) == len(lines) == len(cases)
    # a name past 120 characters keeps its end (xdist's temporary folders are long)
    assert all(line.startswith(f"entry {i}: ") and f"{p.name}: " in line for i, (line, p) in enumerate(zip(lines, cases)))
    # A folder holding no capture at all is an error, not an empty HAR.
    only = tmp_path / "expects"
    only.mkdir()
    (only / "a.expect.json").write_text('{"findings": []}\n')
    assert main(["export", str(only), "--to", "har"]) == 2
    assert "no stream capture in" in capsys.readouterr().err


def test_html_shows_a_calls_declared_schema_and_its_violation():
    case = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string.jsonl"
    cap = load_path(case)
    page = html.render(case.name, run_capture(cap), cap)
    assert '<pre class="content schema">' in page and "&quot;kinds&quot;: {" in page
    assert ('<p class="bad violation" data-code="V002" data-path="$.kinds">$.kinds: '
            "&#x27;[&quot;dataset&quot;]&#x27; is not of type &#x27;array&#x27; (type)</p>") in page
    near = ROOT / "tests" / "corpus" / "vrules" / "datus-1365-chat-list-argument-sent-as-string-near-miss.jsonl"
    cap = load_path(near)
    page = html.render(near.name, run_capture(cap), cap)
    assert '<pre class="content schema">' in page and "violation" not in page


def test_html_names_an_undeclared_call():
    case = ROOT / "tests" / "corpus" / "vrules" / "openhands-5111-anthropic-undeclared-tool.jsonl"
    cap = load_path(case)
    page = html.render(case.name, run_capture(cap), cap)
    assert ('<p class="bad violation" data-code="V001">&#x27;execute_python&#x27; is not a function the request '
            "declared</p>") in page


# ------------------------------------------------------------------ issue 27 item 6
def test_the_page_is_named_after_the_file_never_its_path_and_counts_in_plurals():
    cap = load_path(ROOT / "inspector" / "data" / "captures" / "2-anthropic-stall-and-early-stop.jsonl")
    s = run_capture(cap)
    for typed in ("/home/alice/bugs/run.jsonl", "C:\\Users\\alice\\run.jsonl", "../alice/run.jsonl", "run.jsonl"):
        out = html.render(typed, s, cap)
        assert "alice" not in out
        assert "<title>run.jsonl · stream-inspector</title>" in out and "<h1>run.jsonl</h1>" in out
    assert html.page_name("cassette.yaml#2") == "cassette.yaml#2"
    out = html.render("x", s, cap)
    assert '<span class="badge error">2 errors</span>' in out and '<span class="badge warning">1 warning</span>' in out


def test_the_page_is_made_in_pieces_and_weighs_about_what_the_capture_weighs(tmp_path):
    from inspector.capture.recorder import write_capture
    from tests.ui.capture_factory import big_capture

    path = tmp_path / "big.jsonl"
    write_capture(big_capture(deltas=5_000), path)
    cap = load_path(path)
    s = run_capture(cap)
    pieces = [len(p.encode()) for p in html.chunks(path.name, s, cap)]
    total = sum(pieces)
    # no piece is the page: it streams to its file, the events a batch at a time
    assert len(pieces) > len(s.events) / html.EVENT_BATCH and max(pieces) < total / 1.5
    assert total <= 1.5 * path.stat().st_size
    data = page_of("".join(html.chunks(path.name, s, cap))).event_data
    assert len(data["events"]) == len(s.events)


def test_event_data_cannot_close_its_script_element():
    body = sse({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": [], "model": "m"}},
               {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
               {"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": "</script><script>alert(1)</script><!--"}})
    cap = load_bytes(body)
    out = html.render("x", run_capture(cap), cap)
    assert "<script>alert" not in out and "</script><!--" not in out  # escaped in the blocks, packed in the events
    assert page_of(out).event_data["events"][2][5].endswith("</script><script>alert(1)</script><!--\"}}")
    assert "<" not in html._json(["</script><!--"])  # and a name (unpacked) cannot close its element either


def test_a_failed_export_leaves_the_file_that_was_there_and_no_part_file(tmp_path, monkeypatch):
    cap = load_path(BUNDLED[0])
    s = run_capture(cap)
    target = tmp_path / "page.html"
    target.write_text("the earlier page")

    def broken(*args, **kwargs):
        yield "<!DOCTYPE html><html>"
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(html, "chunks", broken)
    with pytest.raises(OSError):
        write_export(target, "html", "x", cap, s)
    assert target.read_text() == "the earlier page" and [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_an_export_gets_the_permissions_a_new_file_gets(tmp_path):
    import os
    import stat

    cap = load_path(BUNDLED[0])
    target = tmp_path / "page.html"
    umask = os.umask(0o022)
    try:
        write_export(target, "html", "x", cap, run_capture(cap))
    finally:
        os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


@pytest.mark.parametrize("name,kind", [("page.html", "html"), ("page.HTM", "html"), ("runs.har", "har")])
def test_without_to_the_format_is_read_from_the_output_name(tmp_path, capsys, name, kind):
    from inspector.cli import main

    target = tmp_path / name
    assert main(["export", str(BUNDLED[0]), "-o", str(target)]) == 0
    assert f"({kind}, 1 capture)" in capsys.readouterr().err
    text = target.read_text()
    assert text.startswith("<!DOCTYPE html>") if kind == "html" else json.loads(text)["log"]["version"] == "1.2"


@pytest.mark.parametrize("argv", [[], ["-o", "notes.txt"]])
def test_without_to_and_no_telling_name_it_asks_for_to(tmp_path, capsys, argv):
    from inspector.cli import main

    assert main(["export", str(BUNDLED[0]), *argv]) == 2
    err = capsys.readouterr().err
    assert "--to html or --to har" in err and len(err.strip().splitlines()) == 1
