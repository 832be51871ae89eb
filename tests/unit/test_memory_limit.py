"""The memory limit (``--max-memory``): a capture of tiny events once took ~120 bytes of memory per byte
read, so the 1 GiB size limit let one file take 100 GiB. Reading stops at the limit with one line,
exit 2; the RSS reading is replaced by a fixed figure where the test needs one (no test waits for
the machine to fill up)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from inspector.capture import memory
from inspector.capture.errors import CaptureError
from inspector.capture.load import load_path
from inspector.capture.memory import MemoryLimitReached
from inspector.cli import check, main
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from inspector.report import har
from inspector.session.session import Session
from tests.helpers import sse

GIB = 1 << 30
TEXT = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                              "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}]
DELTA = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ab"}}
END = [{"type": "content_block_stop", "index": 0},
       {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
       {"type": "message_stop"}]


def answer(deltas: int) -> bytes:
    return sse(*TEXT) + sse(DELTA) * deltas + sse(*END)


@pytest.fixture
def big(tmp_path):
    """An answer of ~1 MB: past several of the session's checks (``memory.CHECK_BYTES``)."""
    p = tmp_path / "big.sse"
    p.write_bytes(answer(10_000))
    assert p.stat().st_size > 3 * memory.CHECK_BYTES
    return p


@pytest.fixture
def over(monkeypatch):
    """The process uses 10 GiB, by its own reading."""
    monkeypatch.setattr(memory, "rss", lambda: 10 * GIB)


def test_check_stops_at_the_memory_limit_with_one_line_and_exit_2(big, over, capsys):
    assert main(["check", "--format", "json", "--max-memory", "4G", str(big)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no report of half a capture
    assert err == (f"stream-inspector: {big}: over the memory limit: 10 GiB in use with part of it read, more than "
                   "reading may take (50 % of the 4 GiB limit; --max-memory raises it)\n")
    assert memory.limit() is None  # an in-process run leaves no limit behind


def test_under_the_limit_the_report_is_the_same(big, monkeypatch, capsys):
    monkeypatch.setattr(memory, "rss", lambda: 1 * GIB)
    assert main(["check", "--format", "json", "--max-memory", "4G", str(big)]) == 0
    with_limit = capsys.readouterr().out
    monkeypatch.setattr(memory, "rss", lambda: None)  # where nothing can be read, nothing is refused
    assert main(["check", "--format", "json", str(big)]) == 0
    assert capsys.readouterr().out == with_limit and json.loads(with_limit)["events"] == 10_005


def test_the_real_reading_refuses_a_limit_below_what_the_process_uses(big, capsys):
    used = memory.rss()
    if used is None:
        pytest.skip("no RSS reading on this platform")
    assert used > 1 << 20
    assert main(["check", "--max-memory", "1M", str(big)]) == 2
    assert "over the memory limit" in capsys.readouterr().err
    assert main(["check", "--format", "json", "--max-memory", "1T", str(big)]) == 0


def test_without_the_option_the_default_limit_holds(big, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(memory, "rss", lambda: seen.append(memory.limit()) or 0)
    assert main(["check", str(big)]) == 0
    assert seen and set(seen) == {memory.DEFAULT_LIMIT}
    assert memory.DEFAULT_LIMIT <= 4 * GIB


def test_the_worker_processes_get_the_limit(big, over):
    opts = check.Options("json", None, None, 10.0, {}, None, max_memory=4 * GIB)
    [[result]] = check.check_batch([check.Input(str(big), str(big), True)], opts)
    assert result.outcome.status == "unreadable" and result.problem.startswith(f"{big}: over the memory limit")
    assert memory.limit() is None


def test_sessions_with_no_limit_never_read_the_memory(monkeypatch):
    """``proxy``, ``live`` and library users set no limit: their sessions never pay for a reading."""
    monkeypatch.setattr(memory, "rss", lambda: pytest.fail("read with no limit set"))
    s = run_capture(Capture(chunks=[Chunk(None, answer(10_000))]))
    assert len(s.events) == 10_005


def test_the_session_checks_as_it_frames_one_huge_chunk_and_many_small_ones(over):
    for chunks in ([answer(10_000)], [sse(DELTA)] * 10_000):
        s = Session()
        with memory.limited(GIB), pytest.raises(MemoryLimitReached) as e:
            for c in chunks:
                s.feed(Chunk(None, c))
        assert e.value.name is None and str(e.value).startswith("over the memory limit: 10 GiB in use")
        assert len(s.events) < 10_000  # stopped early, not at the end


def test_a_native_capture_of_many_tiny_records_is_checked_while_it_is_read(tmp_path, over, capsys):
    p = tmp_path / "tiny.jsonl"
    head = {"format": "stream-inspector-capture", "version": 1, "request": None, "response": None}
    p.write_text(json.dumps(head) + "\n" + '{"t": 0.1, "data": "data:{}\\n\\n"}\n' * (memory.CHECK_RECORDS + 2))
    with memory.limited(GIB), pytest.raises(CaptureError, match=rf"^{p}: over the memory limit"):
        load_path(p)
    assert main(["check", "--max-memory", "1G", str(p)]) == 2
    assert capsys.readouterr().err.startswith(f"stream-inspector: {p}: over the memory limit")


def test_export_stops_at_the_limit_and_writes_nothing(big, over, tmp_path, capsys):
    page = tmp_path / "page.html"
    assert main(["export", str(big), "--to", "html", "-o", str(page), "--max-memory", "2G"]) == 2
    assert capsys.readouterr().err == (f"stream-inspector: export: {big}: over the memory limit: 10 GiB in use with "
                                       "part of it read, more than reading may take (50 % of the 2 GiB limit; "
                                       "--max-memory raises it)\n")
    assert not page.exists() and list(tmp_path.iterdir()) == [big]



@pytest.mark.parametrize("kind", ["prose", "native", "har", "json cassette", "yaml cassette"])
def test_a_body_split_or_parsed_whole_is_estimated_before_it_is_built(tmp_path, monkeypatch, capsys, kind):
    """Splitting a pasted body into lines, parsing a HAR or a cassette: built at once, out of reach of the
    checks, so estimated first from counts of lines and values (2-byte lines, 3-byte values)."""
    monkeypatch.setattr(memory, "rss", lambda: 400 << 20)  # 112 MiB under the half of 1 GiB reading may take
    n = 1_500_000  # over 120 MB of objects for 3 MB of text: over it
    native_head = '{"format": "stream-inspector-capture", "version": 1, "request": null, "response": null}\n'
    raw = {"prose": "Here is the stream:\n" + ":\n" * n,
           "native": native_head + "\n" * n,
           "har": '{"log": {"version": "1.2", "creator": {"name": "x"}, "entries": [' + "{}," * n + "{}]}}",
           "json cassette": '{"interactions": [' + "{}," * n + "{}]}",
           "yaml cassette": "interactions:\n" + "- {}\n" * (n // 10)}[kind]
    p = tmp_path / "big"
    p.write_text(raw)
    assert main(["check", "--max-memory", "1G", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stream-inspector: {p}: over the memory limit: 400 MiB in use and about ") and \
        "more to read it" in err
    small = tmp_path / "small"
    small.write_text(raw[:200_000].rsplit("\n", 1)[0] if kind in ("prose", "native") else raw[:50] + "]}}")
    main(["check", "--max-memory", "1G", str(small)])
    assert "over the memory limit" not in capsys.readouterr().err  # a small one is read (or refused as before)


def test_check_entry_all_lists_a_hars_entries_under_the_limit_too(tmp_path, monkeypatch, capsys):
    limits = []
    real = memory.reserve_parse
    monkeypatch.setattr(memory, "reserve_parse", lambda raw, name=None, **kw: limits.append(memory.limit())
                        or real(raw, name, **kw))
    p = tmp_path / "two.har"
    p.write_bytes(json.dumps({"log": {"version": "1.2", "entries": [
        {"request": {"method": "POST", "url": "https://a.test/v1/messages"},
         "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": answer(2).decode()}}}
    ] * 2}}).encode())
    assert main(["check", "--entry", "all", "--jobs", "1", "--max-memory", "3G", str(p)]) == 0
    assert capsys.readouterr().out.count(f"{p}#") >= 2
    assert limits == [3 * GIB] * 2  # the listing, then the check


def test_a_har_export_is_estimated_before_it_is_made_whole(big, tmp_path, monkeypatch, capsys):
    """The HAR is made whole after reading (~10 bytes of memory per body byte): it must fit in the
    limit before it starts. Here it would take 100 GB."""
    monkeypatch.setattr(memory, "rss", lambda: GIB)
    monkeypatch.setattr(har, "BYTE_COST", 100_000)
    out = tmp_path / "out.har"
    assert main(["export", str(big), "--to", "har", "-o", str(out), "--max-memory", "4G"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stream-inspector: export: {big}: over the memory limit: 1 GiB in use and about ")
    assert err.endswith(" more to write its HAR, more than the 4 GiB limit (--max-memory raises it)\n")
    assert not out.exists()
    monkeypatch.setattr(har, "BYTE_COST", 12)
    assert main(["export", str(big), "--to", "har", "-o", str(out), "--max-memory", "4G"]) == 0 and out.exists()


def test_a_websockets_responses_count_its_messages_once_in_the_har_estimate():
    """The responses of one socket share its one HAR entry: the estimate counted the socket again for
    each (200 responses of a 9.9 MB socket came to 21 GB and refused an export of 14 MB)."""
    socket = SimpleNamespace(messages=[SimpleNamespace(data=b"x" * 100)] * 10)
    one = har.render_cost([(SimpleNamespace(socket=socket, chunks=[]), None, None)])
    many = har.render_cost([(SimpleNamespace(socket=socket, chunks=[]), None, None)] * 200)
    assert one > 0 and many == one
