"""``compare``: per-tool timing, pairing, sentences, the JSON/text output, scrubbing state, eager runs.

The bundled pair (``inspector/data/captures/eager-*.jsonl``) is built by ``tests/eager_pair.py``;
its times are asserted here against what that builder put in, not against copied output.
"""
from __future__ import annotations

import json

import httpx
import orjson
import pytest

from inspector.cli import main
from inspector.capture.bundled import bundled_pair
from inspector.compare import (Pair, StreamAt, ToolTiming, block_at, compare_captures, eager_setting,
                               initial_cursor, pair_tools, render_text)
from inspector.capture.load import load_path
from inspector.cli.live import run_compare_eager
from inspector.net.eager import eager_variants, record_paths
from inspector.net.live import LiveError
from tests import eager_pair as built
from tests.helpers import sse, timed


def _run_json(capsys, *argv) -> dict:
    code = main(["compare", *argv, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


# ------------------------------------------------------------------------------ bundled pair
def test_bundled_pair_is_what_the_builder_makes():
    a, b = bundled_pair()
    assert a.read_text(encoding="utf-8") == built.buffered()
    assert b.read_text(encoding="utf-8") == built.streamed()


def test_bundled_pair_requests_differ_only_in_the_flag_and_hold_no_secret():
    a, b = (load_path(p) for p in bundled_pair())
    assert a.request["headers"]["x-api-key"] == "[redacted]" == b.request["headers"]["x-api-key"]
    ta, tb = a.request["body"]["tools"], b.request["body"]["tools"]
    assert [t["eager_input_streaming"] for t in ta] == [False]
    assert [t["eager_input_streaming"] for t in tb] == [True]
    strip = [{k: v for k, v in t.items() if k != "eager_input_streaming"} for t in ta]
    assert strip == [{k: v for k, v in t.items() if k != "eager_input_streaming"} for t in tb]
    assert {k: v for k, v in a.request["body"].items() if k != "tools"} == \
        {k: v for k, v in b.request["body"].items() if k != "tools"}


def test_compare_json_on_the_bundled_pair_reports_both_first_argument_bytes_and_the_gap(capsys):
    a, b = bundled_pair()
    d = _run_json(capsys, str(a), str(b))
    assert set(d) == {"a", "b", "pairs", "summary"}
    ta, tb = d["a"]["tools"][0], d["b"]["tools"][0]
    assert d["a"]["eager_input_streaming"] == "off" and d["b"]["eager_input_streaming"] == "on"
    assert ta["name"] == tb["name"] == "write_file"
    assert ta["started_s"] == pytest.approx(built.BUFFERED_TOOL_START)
    assert ta["first_arg_byte_s"] == pytest.approx(built.BUFFERED_FIRST_ARG_BYTE)
    assert ta["last_arg_byte_s"] == pytest.approx(built.BUFFERED_LAST_ARG_BYTE)
    assert tb["started_s"] == pytest.approx(built.STREAMED_TOOL_START)
    assert tb["first_arg_byte_s"] == pytest.approx(built.STREAMED_FIRST_ARG_BYTE)
    assert tb["last_arg_byte_s"] == pytest.approx(built.STREAMED_LAST_ARG_BYTE)
    pair = d["pairs"][0]
    assert (pair["a"], pair["b"]) == (0, 0)
    assert pair["first_arg_byte_gap_s"] == pytest.approx(built.BUFFERED_FIRST_ARG_BYTE - built.STREAMED_FIRST_ARG_BYTE)
    assert pair["same_arguments"] is True
    n = len(built.ARGUMENTS.encode("utf-8"))
    assert ta["arg_bytes"] == tb["arg_bytes"] == n
    # the buffered run: a 12 s silence then everything late (T003); the eager run: steady, no T003
    assert ta["max_gap_s"] == pytest.approx(built.BUFFERED_FIRST_ARG_BYTE - built.BUFFERED_TOOL_START)
    assert ta["max_gap_at_s"] == pytest.approx(built.BUFFERED_TOOL_START)
    assert ta["late_share"] == 1.0 and ta["buffered"] is True and "T003" in ta["findings"]
    assert tb["max_gap_s"] == pytest.approx(built.STREAMED_PAUSE)
    assert tb["late_share"] < 0.5 and tb["buffered"] is False and tb["findings"] == []
    assert tb["deltas"] > 10 * ta["deltas"]
    first = d["summary"][0]
    assert "11.90 s later in A (eager streaming off)" in first
    assert any("one late burst (T003)" in s and s.startswith("A's") for s in d["summary"])
    assert any(s.startswith("B streamed its arguments") for s in d["summary"])


def test_compare_text_states_the_difference_and_tabulates(capsys):
    a, b = bundled_pair()
    assert main(["compare", str(a), str(b), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "- First argument byte 11.90 s later in A" in out
    rows = [line for line in out.splitlines() if "#0 write_file" in line]
    assert len(rows) == 2 and rows[0].startswith("A") and rows[1].startswith("B")
    assert "12.80" in rows[0] and "0.90" in rows[1]


@pytest.mark.parametrize("content", [None, b"", b"   \n"])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content):
    a, _ = bundled_pair()
    bad = tmp_path / "bad.jsonl"
    if content is not None:
        bad.write_bytes(content)
    assert main(["compare", str(a), str(bad), "--format", "json"]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    assert len(err.err.strip().splitlines()) == 1 and "compare" in err.err


def test_broken_native_capture_is_one_line(tmp_path, capsys):
    a, _ = bundled_pair()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "stream-inspector-capture", "version": 1}\n{"t": "x", "data": ""}\n{"t": 1}\n')
    assert main(["compare", str(bad), str(a), "--format", "text"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


# ------------------------------------------------------------------------------ measures
def _tool_stream(name: str, frags: list[tuple[float, str]], *, index: int = 1, start: float = 1.0,
                 stop: float | None = None, end: float = 20.0, extra: list | None = None):
    """A request-relative Anthropic capture with one tool block at ``index``."""
    ev = [(0.5, sse({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                          "model": "x", "content": [], "stop_reason": None}}))]
    ev.append((start, sse({"type": "content_block_start", "index": index, "content_block": {
        "type": "tool_use", "id": f"toolu_{name}", "name": name, "input": {}}})))
    for t, f in frags:
        ev.append((t, sse({"type": "content_block_delta", "index": index,
                           "delta": {"type": "input_json_delta", "partial_json": f}})))
    if stop is not None:
        ev.append((stop, sse({"type": "content_block_stop", "index": index})))
    ev += extra or []
    return timed(*ev, end=(end, "eof"))


def test_empty_delta_is_not_the_first_argument_byte_and_the_wait_counts_as_a_gap():
    cap = _tool_stream("f", [(1.0, ""), (15.0, '{"a":'), (15.2, '1}')], stop=15.3)
    cmp = compare_captures(cap, cap)
    t = cmp.a.tools[0]
    assert t.first_arg_byte_s == 15.0 and t.last_arg_byte_s == 15.2
    assert t.wait_s == pytest.approx(14.0)
    assert t.max_gap_s == pytest.approx(14.0) and t.max_gap_at_s == 1.0
    assert t.deltas == 3 and t.arg_bytes == 7
    assert t.late_share == 1.0 and t.buffered and t.findings == ["T003"]
    assert t.status == "complete"


def test_never_closed_block_runs_to_the_end_of_the_stream():
    cap = _tool_stream("f", [(2.0, '{"a":')], stop=None, end=6.0)
    t = compare_captures(cap, cap).a.tools[0]
    assert t.closed_s is None and t.stream_s == pytest.approx(5.0)
    assert t.max_gap_s == pytest.approx(4.0) and t.max_gap_at_s == 2.0
    assert "J005" in t.findings and t.status == "partial"
    assert any("J005" in s and "do not execute" in s for s in compare_captures(cap, cap).summary)


def test_invalid_eager_arguments_are_said_honestly():
    off = _tool_stream("f", [(12.0, '{"a": 1}')], stop=12.1, end=12.2)
    on = _tool_stream("f", [(1.1, '{"a": '), (1.2, "tru"), (1.3, "x}")], stop=1.4, end=1.5)
    on.request = {"body": {"tools": [{"name": "f", "eager_input_streaming": True}]}}
    cmp = compare_captures(off, on)
    assert cmp.b.tools[0].status == "invalid" and "J001" in cmp.b.tools[0].findings
    assert any(s.startswith("B's arguments ended invalid (J001") and "eager streaming may deliver invalid JSON" in s
               for s in cmp.summary)
    assert cmp.pairs[0].same_arguments is False


def test_untimed_inputs_compare_content_only(tmp_path):
    raw = (sse({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                    "model": "x", "content": []}})
           + sse({"type": "content_block_start", "index": 0, "content_block": {
               "type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}})
           + sse({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                                                                       "partial_json": '{"a": 1}'}})
           + sse({"type": "content_block_stop", "index": 0}))
    p = tmp_path / "pasted.sse"
    p.write_bytes(raw)
    cmp = compare_captures(load_path(p), load_path(p))
    d = cmp.to_dict()
    assert d["a"]["timed"] is False and d["a"]["duration_s"] is None
    assert d["a"]["tools"][0]["first_arg_byte_s"] is None and d["a"]["tools"][0]["arg_bytes"] == 8
    assert d["pairs"][0]["first_arg_byte_gap_s"] is None and d["pairs"][0]["same_arguments"] is True
    assert any("Neither stream carries timing" in s for s in cmp.summary)


def test_no_tool_blocks_is_said():
    cap = timed((0.3, sse({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                               "model": "x", "content": []}})), end=(1.0, "eof"))
    cmp = compare_captures(cap, cap)
    assert cmp.pairs == [] and cmp.to_dict()["pairs"] == []
    assert any("Neither stream has a tool block" in s for s in cmp.summary)
    assert "tool" in render_text(cmp)


@pytest.mark.parametrize("request_, expected", [
    (None, None),
    ({"body": {}}, None),
    ({"body": {"tools": [{"name": "a", "eager_input_streaming": True}]}}, "on"),
    ({"body": {"tools": [{"name": "a", "eager_input_streaming": False}]}}, "off"),
    ({"body": {"tools": [{"name": "a"}]}}, "default"),
    ({"body": {"tools": [{"name": "a", "eager_input_streaming": True},
                         {"type": "web_search_20250305", "name": "web_search"}]}}, "on"),
    ({"body": {"tools": [{"type": "web_search_20250305", "name": "web_search"}]}}, None),
    ({"body": {"tools": [{"name": "a", "eager_input_streaming": True}, {"name": "b"}]}}, "mixed"),
    ({"headers": {"anthropic-beta": "fine-grained-tool-streaming-2025-05-14"}, "body": {"tools": [{"name": "a"}]}},
     "on"),
    ({"headers": {"Anthropic-Beta": "fine-grained-tool-streaming-2025-05-14"},
      "body": {"tools": [{"name": "a", "eager_input_streaming": False}]}}, "off"),
])
def test_eager_setting_reads_the_request(request_, expected):
    assert eager_setting(request_) == expected


# ------------------------------------------------------------------------------ pairing
def _t(index: int, name: str | None) -> ToolTiming:
    return ToolTiming(index=index, block_index=index, id=None, name=name, kind="tool_use", started_s=None,
                      first_arg_byte_s=None, last_arg_byte_s=None, closed_s=None, wait_s=None, stream_s=None,
                      max_gap_s=None, max_gap_at_s=None, arg_bytes=0, deltas=0, late_share=None, status=None,
                      buffered=False, findings=[])


def _shape(pairs: list[Pair]) -> list[tuple]:
    return [(p.name, None if p.a is None else p.a.index, None if p.b is None else p.b.index, p.matched_by)
            for p in pairs]


def test_pairing_by_position_when_the_names_agree():
    a = [_t(0, "search"), _t(1, "fetch")]
    b = [_t(0, "search"), _t(1, "fetch")]
    assert _shape(pair_tools(a, b)) == [("search", 0, 0, "name"), ("fetch", 1, 1, "name")]


def test_pairing_follows_names_when_the_order_differs():
    a = [_t(0, "search"), _t(1, "fetch")]
    b = [_t(0, "fetch"), _t(1, "search")]
    assert _shape(pair_tools(a, b)) == [("search", 0, 1, "name"), ("fetch", 1, 0, "name")]


def test_pairing_repeated_names_in_order_then_leftovers_by_position():
    a = [_t(0, "read"), _t(1, "read"), _t(2, "write"), _t(3, "edit")]
    b = [_t(0, "read"), _t(1, "grep"), _t(2, "read"), _t(3, "read")]
    assert _shape(pair_tools(a, b)) == [("read", 0, 0, "name"), ("read", 1, 2, "name"), ("write", 2, 1, "position"),
                                        ("edit", 3, 3, "position")]


def test_pairing_leaves_the_surplus_alone():
    assert _shape(pair_tools([_t(0, "a"), _t(1, "b")], [_t(0, "b")])) == [("a", 0, None, None), ("b", 1, 0, "name")]
    assert _shape(pair_tools([], [_t(0, "a")])) == [("a", None, 0, None)]


def test_different_tools_pair_by_position_and_a_surplus_block_stands_alone():
    a = _tool_stream("write", [(1.2, "{}")], stop=1.3, end=2.0)
    b = _tool_stream("read", [(5.2, "{}")], stop=5.3, end=6.0)
    cmp = compare_captures(a, b)
    d = cmp.to_dict()["pairs"]
    assert [(p["name"], p["a"], p["b"], p["matched_by"]) for p in d] == [("write", 0, 0, "position")]
    assert d[0]["first_arg_byte_gap_s"] == pytest.approx(-4.0) and d[0]["same_arguments"] is True
    assert any("different tools, paired by position" in s for s in cmp.summary)
    assert any("later in B" in s for s in cmp.summary)
    extra = [(9.0, sse({"type": "content_block_start", "index": 2, "content_block": {
        "type": "tool_use", "id": "toolu_2", "name": "grep", "input": {}}})),
             (9.1, sse({"type": "content_block_stop", "index": 2}))]
    b2 = _tool_stream("read", [(5.2, "{}")], stop=5.3, end=10.0, extra=extra)
    cmp = compare_captures(a, b2)
    d = cmp.to_dict()["pairs"]
    assert [(p["name"], p["a"], p["b"], p["matched_by"]) for p in d] == [("write", 0, 0, "position"),
                                                                         ("grep", None, 1, None)]
    assert d[1]["first_arg_byte_gap_s"] is None and d[1]["same_arguments"] is None
    assert any("tool block 1 of B (grep) has no counterpart in A" in s for s in cmp.summary)


# ------------------------------------------------------------------------------ scrubbing
def test_stream_at_feeds_forward_rebuilds_backward_and_closes_at_the_end():
    a, b = (load_path(p) for p in bundled_pair())
    cmp = compare_captures(a, b)
    at = StreamAt(b)
    tool = cmp.b.tools[0]
    s1 = at.at(3.0)
    n1 = len(block_at(s1, tool).content)
    s2 = at.at(6.0)
    assert s2 is s1 and len(block_at(s2, tool).content) > n1 > 0
    assert block_at(s2, tool).status == "partial" and not s2.closed
    s3 = at.at(0.5)
    assert s3 is not s1 and block_at(s3, tool) is None
    s4 = at.at(100.0)
    assert s4.closed and block_at(s4, tool).status == "complete"
    assert block_at(s4, tool).content == built.ARGUMENTS
    # the buffered run at the same moment: the block is open, with no argument bytes yet
    sa = StreamAt(a).at(6.0)
    blk = block_at(sa, cmp.a.tools[0])
    assert blk is not None and blk.content == "" and not blk.closed
    times = at.times()
    assert times == sorted(set(times)) and times[-1] == pytest.approx(b.end.t)


def test_initial_cursor_sits_between_the_first_argument_bytes():
    a, b = (load_path(p) for p in bundled_pair())
    t = initial_cursor(compare_captures(a, b))
    assert built.STREAMED_FIRST_ARG_BYTE < t < built.BUFFERED_FIRST_ARG_BYTE


# ------------------------------------------------------------------------------ live --compare-eager
def test_eager_variants_set_the_flag_on_client_tools_only():
    body = {"model": "m", "tools": [{"name": "a", "input_schema": {}},
                                    {"type": "web_search_20250305", "name": "web_search"},
                                    {"type": "custom", "name": "b", "eager_input_streaming": False}]}
    on, off = eager_variants(body)
    assert [t.get("eager_input_streaming") for t in on["tools"]] == [True, None, True]
    assert [t.get("eager_input_streaming") for t in off["tools"]] == [False, None, False]
    assert body["tools"][0] == {"name": "a", "input_schema": {}}  # not modified
    with pytest.raises(LiveError):
        eager_variants({"model": "m"})
    with pytest.raises(LiveError):
        eager_variants({"tools": [{"type": "web_search_20250305", "name": "web_search"}]})


def test_record_paths():
    assert record_paths(None) == (None, None)
    assert record_paths("runs/x.jsonl") == ("runs/x.eager-off.jsonl", "runs/x.eager-on.jsonl")


class _Args:
    provider = "anthropic"
    base_url = "http://127.0.0.1:9"
    timeout = 5.0
    dialect = None
    stall = 10.0
    theme = None

    def __init__(self, request: str, fmt: str, record: str | None = None) -> None:
        self.request, self.format, self.record = request, fmt, record


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self):
        for c in self.chunks:
            yield c


def _mock_anthropic(seen: list):
    """Answers each request with the bundled capture matching its eager_input_streaming flag."""
    a, b = (load_path(p) for p in bundled_pair())

    def handler(request: httpx.Request) -> httpx.Response:
        body = orjson.loads(request.content)
        seen.append((body, dict(request.headers)))
        cap = b if body["tools"][0]["eager_input_streaming"] else a
        return httpx.Response(200, headers={"content-type": "text/event-stream"},
                              stream=_Chunks([c.data for c in cap.chunks]))

    return httpx.MockTransport(handler)


def test_run_compare_eager_sends_both_variants_and_compares(tmp_path, capsys):
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"model": "claude-x", "max_tokens": 100, "tools": built.TOOLS,
                               "messages": [{"role": "user", "content": "hi"}]}))
    seen: list = []
    rec = tmp_path / "run.jsonl"
    code = run_compare_eager(_Args(str(req), "json", str(rec)), transport=_mock_anthropic(seen))
    out = capsys.readouterr().out
    assert code == 0
    d = json.loads(out)
    assert sorted(b["tools"][0]["eager_input_streaming"] for b, _ in seen) == [False, True]
    assert all(b["stream"] is True for b, _ in seen)
    assert d["a"]["eager_input_streaming"] == "off" and d["b"]["eager_input_streaming"] == "on"
    assert d["a"]["tools"][0]["deltas"] < d["b"]["tools"][0]["deltas"]
    assert d["pairs"][0]["same_arguments"] is True
    assert d["a"]["path"].endswith("run.eager-off.jsonl") and d["b"]["path"].endswith("run.eager-on.jsonl")
    for name in ("run.eager-off.jsonl", "run.eager-on.jsonl"):
        assert load_path(tmp_path / name).chunks  # recorded as they arrived


def test_run_compare_eager_refuses_other_providers_and_toolless_requests(tmp_path, capsys):
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"model": "m", "messages": []}))
    args = _Args(str(req), "json")
    assert run_compare_eager(args) == 2
    assert "tool" in capsys.readouterr().err
    args.provider = "openai"
    assert run_compare_eager(args) == 2
    assert "anthropic" in capsys.readouterr().err


def test_run_compare_eager_without_a_response_is_one_line(tmp_path, capsys):
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"model": "m", "tools": built.TOOLS, "messages": []}))

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    assert run_compare_eager(_Args(str(req), "text"), transport=httpx.MockTransport(refuse)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "eager off" in err[0]


def test_compare_and_eager_modules_do_not_load_textual():
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = ("import sys\nsys.modules['httpx._main'] = None\n"
            "import inspector.compare, inspector.net.eager\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""
