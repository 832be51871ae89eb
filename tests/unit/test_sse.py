"""Tests for inspector.framing.sse: WHATWG event-stream parsing, positions, S-rule framing issues."""
from __future__ import annotations

import base64
import json
import random
import time
from pathlib import Path

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from httpx_sse import EventSource

from inspector.model.frames import Comment, Frame, FramingIssue, unnamed_frames
from inspector.framing.sse import SSEDecoder
from tests.conftest import SHARED_CORPUS

CORPUS = SHARED_CORPUS


def decode(*chunks: bytes, close_t: float | None = None) -> list:
    """Feed ``chunks`` (chunk i arrives at t=i) then close."""
    dec = SSEDecoder()
    out: list = []
    for i, chunk in enumerate(chunks):
        out += dec.feed(chunk, float(i))
    out += dec.close(close_t)
    return out


def split(body: bytes, points: list[int]) -> list[bytes]:
    cuts = sorted({p % (len(body) + 1) for p in points})
    return [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]


def frames(items: list) -> list[tuple]:
    return [(f.event, f.data, f.id, f.retry, f.named, f.line, f.offset)
            for f in items if isinstance(f, Frame)]


def events(items: list) -> list[tuple]:
    return [(f.event, f.data, f.id, f.retry) for f in items if isinstance(f, Frame)]


def codes(items: list) -> list[str]:
    return [i.code for i in items if isinstance(i, FramingIssue)]


def untimed(items: list) -> list[tuple]:
    """Everything but the arrival time, for split-invariance checks."""
    out = []
    for i in items:
        if isinstance(i, Frame):
            out.append(("F", i.event, i.data, i.id, i.retry, i.named, i.line, i.offset))
        elif isinstance(i, Comment):
            out.append(("C", i.text, i.line, i.offset))
        else:
            out.append(("I", i.code, i.message, i.line, i.offset))
    return out


# -- BOM (S009) --------------------------------------------------------------------------

def test_bom_is_stripped_first_event_kept_and_reported():
    items = decode(b"\xef\xbb\xbfevent: a\ndata: 1\n\ndata: 2\n\n")
    assert isinstance(items[0], FramingIssue) and items[0].code == "S009"
    assert (items[0].line, items[0].offset) == (1, 0)
    assert frames(items) == [("a", "1", "", None, True, 1, 3), ("message", "2", "", None, False, 4, 21)]
    assert codes(items) == ["S009"]


def test_bom_split_across_chunks():
    items = decode(b"\xef", b"\xbb", b"\xbfdata: x\n\n")
    assert codes(items) == ["S009"]
    assert frames(items) == [("message", "x", "", None, False, 1, 3)]


def test_only_one_bom_is_stripped_and_bom_prefix_alone_is_not_a_bom():
    items = decode(b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n")
    assert codes(items) == ["S009"] and frames(items) == []  # field is "\ufeffdata": ignored
    items = decode(b"\xef\xbb")  # 2 bytes, never completed: plain (invalid) bytes
    assert codes(items) == ["S001", "S010"]


# -- line endings ------------------------------------------------------------------------

def test_cr_only_line_endings():
    items = decode(b"event: a\rdata: 1\r\rdata: 2\r\r")
    assert frames(items) == [("a", "1", "", None, True, 1, 0), ("message", "2", "", None, False, 4, 18)]
    assert codes(items) == []


def test_crlf_split_across_chunks_is_one_terminator_and_dispatch_is_not_delayed():
    dec = SSEDecoder()
    first = dec.feed(b"data: a\r\n\r", 1.0)
    # The CR ending the chunk already ends the blank line: the event is out now.
    assert frames(first) == [("message", "a", "", None, False, 1, 0)]
    assert first[0].t == 1.0
    rest = dec.feed(b"\ndata: b\r", 2.0) + dec.feed(b"\n\r", 3.0) + dec.feed(b"\n", 4.0) + dec.close()
    # No phantom blank lines from the LF halves, no S011: every terminator was a CRLF.
    assert frames(rest) == [("message", "b", "", None, False, 3, 11)]
    assert rest[0].t == 3.0
    assert codes(first + rest) == []


def test_mixed_line_endings_reported_once_where_second_kind_appears():
    items = decode(b"data: 1\n\ndata: 2\r\n\r\ndata: 3\r\rdata: 4\n\n")
    assert codes(items) == ["S011"]
    issue = next(i for i in items if isinstance(i, FramingIssue))
    assert (issue.line, issue.offset) == (3, 9)
    assert "LF" in issue.message and "CRLF" in issue.message
    assert [e[1] for e in events(items)] == ["1", "2", "3", "4"]


def test_uniform_crlf_is_not_mixed():
    assert codes(decode(b"data: 1\r\n\r\ndata: 2\r\n\r\n")) == []


def test_s011_for_cr_decided_by_next_chunk():
    items = decode(b"data: 1\n\ndata: 2\r", b"\r")
    assert [type(i).__name__ for i in items] == ["Frame", "FramingIssue", "Frame"]
    issue = items[1]
    assert (issue.code, issue.line, issue.offset, issue.t) == ("S011", 3, 9, 1.0)
    assert "CR first at line 3" in issue.message
    assert [e[1] for e in events(items)] == ["1", "2"]


# -- UTF-8 -------------------------------------------------------------------------------

def test_utf8_character_split_across_chunks_changes_nothing():
    body = "data: é€😀\n\n".encode()
    whole = decode(body)
    bytewise = decode(*[body[i:i + 1] for i in range(len(body))])
    assert events(whole) == [("message", "é€😀", "", None)]
    assert untimed(bytewise) == untimed(whole)
    assert codes(whole) == []


def test_invalid_utf8_reported_once_with_byte_offset():
    items = decode(b"data: ok\n\ndata: a\xffb\n\ndata: \xc3\n\n")
    assert codes(items) == ["S001"]
    issue = next(i for i in items if isinstance(i, FramingIssue))
    assert (issue.line, issue.offset) == (3, 17)
    assert "17" in issue.message
    assert [e[1] for e in events(items)] == ["ok", "a\ufffdb", "\ufffd"]


# -- fields ------------------------------------------------------------------------------

def test_comments_are_items_and_do_not_dispatch_or_move_the_event_start():
    items = decode(b": hello\n:no-space\ndata: x\n: mid\n\n")
    comments = [(c.text, c.line, c.offset) for c in items if isinstance(c, Comment)]
    assert comments == [("hello", 1, 0), ("no-space", 2, 8), ("mid", 4, 26)]
    assert frames(items) == [("message", "x", "", None, False, 3, 18)]
    assert [type(i).__name__ for i in items] == ["Comment", "Comment", "Comment", "Frame"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [(b"retry: 3000", 3000), (b"retry:0", 0), (b"retry: +5", None), (b"retry:  5", None),
     (b"retry: 1_000", None), (b"retry: 5s", None), (b"retry:", None),
     ("retry: ５".encode(), None), (b"retry: -1", None)],
)
def test_retry_only_when_all_ascii_digits(line: bytes, expected: int | None):
    assert events(decode(line + b"\ndata: x\n\n")) == [("message", "x", "", expected)]


def test_retry_belongs_to_its_event_block_only():
    got = events(decode(b"retry: 10\ndata: a\n\ndata: b\n\n"))
    assert [e[3] for e in got] == [10, None]


def test_id_is_sticky_nul_ignored_and_empty_id_resets():
    items = decode(b"id: 1\ndata: a\n\ndata: b\n\nid: x\x00y\ndata: c\n\nid\ndata: d\n\nid: 2\ndata: e\n\n")
    assert [e[2] for e in events(items)] == ["1", "1", "1", "", "2"]


def test_event_without_data_fires_nothing_and_resets_type():
    items = decode(b"event: ping\n\nid: 7\n\n: keepalive\n\ndata: x\n\n")
    assert frames(items) == [("message", "x", "7", None, False, 7, 33)]
    assert codes(items) == []


def test_multiple_data_lines_join_with_lf_and_empty_data_fires():
    items = decode(b"data: a\ndata:\ndata: b\n\ndata\n\ndata:\n\n")
    assert [e[1] for e in events(items)] == ["a\n\nb", "", ""]


def test_field_value_colon_and_space_handling_and_unknown_fields():
    items = decode(b"data:x\ndata:  two\ndata: a: b\nfoo: bar\nevent:\n\n")
    assert frames(items) == [("message", "x\n two\na: b", "", None, False, 1, 0)]


def test_event_position_is_first_field_line():
    items = decode(b": c\n\nevent: e\n: c\nid: 1\ndata: x\n\n")
    assert frames(items) == [("e", "x", "1", None, True, 3, 5)]


def test_frame_time_is_the_chunk_that_completed_it():
    dec = SSEDecoder()
    assert dec.feed(b"data: a\n", 1.0) == []
    items = dec.feed(b"\ndata: b\n", 2.0)
    assert [f.t for f in items] == [2.0]
    items = dec.close()
    assert [(type(i).__name__, i.t) for i in items] == [("Frame", 2.0), ("FramingIssue", 2.0)]
    dec = SSEDecoder()
    dec.feed(b"data: z", 1.0)
    assert [i.t for i in dec.close(5.0)] == [5.0, 5.0]


# -- S010 --------------------------------------------------------------------------------

def test_unterminated_final_event_is_shown_then_s010():
    items = decode(b"data: 1\n\ndata: 2")
    assert events(items) == [("message", "1", "", None), ("message", "2", "", None)]
    assert isinstance(items[-2], Frame) and isinstance(items[-1], FramingIssue)
    assert (items[-1].code, items[-1].line, items[-1].offset) == ("S010", 3, 9)


def test_event_missing_final_blank_line_is_shown_with_s010():
    items = decode(b"event: done\ndata: {}\n")
    assert frames(items) == [("done", "{}", "", None, True, 1, 0)]
    assert codes(items) == ["S010"]


def test_unterminated_comment_is_s010_without_frame():
    items = decode(b"data: 1\n\n: bye")
    assert codes(items) == ["S010"] and len(frames(items)) == 1


def test_properly_terminated_stream_has_no_s010():
    assert codes(decode(b"data: 1\n\n")) == []
    assert codes(decode(b"data: 1\n\nevent: ping\n")) == []  # no data pending: nothing lost
    assert decode(b"") == []


# -- S013 --------------------------------------------------------------------------------

def test_undelimited_json_data_lines_are_split_and_reported_once():
    body = b'data: {"a": 1}\ndata: {"b": [2]}\ndata: [DONE]\n'
    items = decode(body)
    assert frames(items) == [
        ("message", '{"a": 1}', "", None, False, 1, 0),
        ("message", '{"b": [2]}', "", None, False, 2, 15),
        ("message", "[DONE]", "", None, False, 3, 32),
    ]
    assert codes(items) == ["S013"]  # no S010: the last line ended with a newline
    issue = items[1]
    assert (issue.code, issue.line, issue.offset) == ("S013", 2, 15)
    assert untimed(decode(*[body[i:i + 1] for i in range(len(body))])) == untimed(items)


def test_undelimited_without_final_newline_still_s010():
    items = decode(b"data: {}\ndata: {}")
    assert codes(items) == ["S013", "S010"] and len(frames(items)) == 2


def test_undelimited_event_data_pairs_split_at_the_event_line():
    items = decode(b"event: a\ndata: {}\nid: 9\nevent: b\ndata: [1]\n\n")
    assert frames(items) == [("a", "{}", "", None, True, 1, 0), ("b", "[1]", "9", None, True, 3, 18)]
    assert codes(items) == ["S013"]


def test_fields_after_data_then_blank_line_stay_with_the_event():
    items = decode(b"data: {}\nevent: late\nid: 3\n\n")
    assert frames(items) == [("late", "{}", "3", None, True, 1, 0)]
    assert codes(items) == []


def test_no_split_when_buffer_or_new_line_is_not_a_complete_value():
    items = decode(b'data: {\ndata: "a": 1\ndata: }\n\ndata: hello\ndata: {}\n\ndata: {}\ndata: x\n\n')
    assert [e[1] for e in events(items)] == ['{\n"a": 1\n}', "hello\n{}", "{}\nx"]
    assert codes(items) == []


def test_multiline_json_buffer_then_json_object_line_splits():
    items = decode(b'data: {\ndata: "a": 1}\ndata: {"b": 2}\n\n')
    assert [e[1] for e in events(items)] == ['{\n"a": 1}', '{"b": 2}']
    assert codes(items) == ["S013"]


def test_scalar_lines_join_as_the_spec_says():
    # RULES.md S013 (v2): only object or array lines count; joining scalars is the spec's behaviour.
    items = decode(b'data: {\ndata: "a": 1}\ndata: 2\n\ndata:1\ndata:2\n\n')
    assert [e[1] for e in events(items)] == ['{\n"a": 1}\n2', "1\n2"]
    assert codes(items) == []


# -- robustness --------------------------------------------------------------------------

def test_twenty_megabyte_line_is_linear():
    payload = b"x" * 20_000_000
    body = b"data: " + payload + b"\n\n"
    dec = SSEDecoder()
    start = time.perf_counter()
    out: list = []
    for i in range(0, len(body), 16_384):  # ~1200 chunks: a quadratic join would copy ~12 GB
        out += dec.feed(body[i:i + 16_384], None)
    out += dec.close()
    elapsed = time.perf_counter() - start
    assert len(out) == 1 and len(out[0].data) == len(payload)
    assert elapsed < 3.0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 400), max_size=8))
def test_never_raises_and_split_never_changes_items(body: bytes, points: list[int]):
    assert untimed(decode(*split(body, points))) == untimed(decode(body))


_TOKENS = [b"data:", b"data: ", b"event: e", b"id: 1", b"retry: 5", b": c", b"{}", b"[DONE]",
           b'{"a":', b"}", b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\xff", "é".encode(), b"x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=40), st.lists(st.integers(0, 400), max_size=10))
def test_split_invariance_on_sse_like_bytes(tokens: list[bytes], points: list[int]):
    body = b"".join(tokens)
    assert untimed(decode(*split(body, points))) == untimed(decode(body))


# -- oracle: httpx-sse on well-formed streams --------------------------------------------

_value = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=12)


def _complete(text: str) -> bool:
    if text == "[DONE]":
        return True
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


@st.composite
def well_formed(draw) -> tuple[bytes, int]:
    eol = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        fields = [("data", v) for v in draw(st.lists(_value, min_size=1, max_size=3))]
        data = [v for _, v in fields]
        # Keep out what S013 deliberately splits: complete values joined by more data lines.
        assume(not any(_complete("\n".join(data[:k])) and _complete(data[k]) for k in range(1, len(data))))
        extra = draw(st.lists(st.one_of(
            st.tuples(st.just("event"), _value), st.tuples(st.just("id"), _value),
            st.tuples(st.just("retry"), st.integers(0, 10**6).map(str)),
            st.tuples(st.just(":"), _value), st.tuples(st.just("foo"), _value)), max_size=3))
        for name, value in draw(st.permutations(fields + extra)):
            sep = draw(st.sampled_from([": ", ":"])) if name != ":" else " "
            lines.append(f"{name}{sep}{value}" if name != ":" else f":{sep}{value}")
        lines.append("")
    ends = [draw(st.sampled_from(["\n", "\r\n"])) if eol == "mixed" else eol for _ in lines]
    return "".join(ln + e for ln, e in zip(lines, ends)).encode(), len(lines)


def oracle(chunks: list[bytes]) -> list[tuple]:
    response = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter(chunks))
    return [(e.event, e.data, e.id, e.retry) for e in EventSource(response).iter_sse()]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(well_formed(), st.lists(st.integers(0, 2000), max_size=8))
def test_matches_httpx_sse_on_well_formed_streams(stream: tuple[bytes, int], points: list[int]):
    body, _ = stream
    ours = decode(body)
    assert events(ours) == oracle([body])
    assert set(codes(ours)) <= {"S011"}
    chunks = split(body, points)
    assert frames(decode(*chunks)) == frames(ours)
    assert oracle(chunks) == events(ours)


# -- corpus ------------------------------------------------------------------------------

def _corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.sse"))


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.stem)
def test_corpus_split_anywhere_gives_same_frames(path: Path):
    body = path.read_bytes()
    whole = decode(body)
    assert frames(whole), "every corpus stream has events"
    rng = random.Random(path.name)
    for _ in range(20):
        points = [rng.randrange(len(body) + 1) for _ in range(rng.randrange(1, 12))]
        assert untimed(decode(*split(body, points))) == untimed(whole)
    assert untimed(decode(*[body[i:i + 1] for i in range(len(body))])) == untimed(whole)


_FRAMING = {"S001", "S009", "S010", "S011", "S013"}


def _expected_framing(path: Path) -> tuple[set[str], set[str]]:
    """(required, allowed) framing codes from the case's .expect.json (nested list = any of)."""
    expect = json.loads(path.with_name(path.name.rsplit(".", 1)[0] + ".expect.json").read_text())
    flags = [] if expect.get("clean") is True else expect.get("flags", [])
    required = {f for f in flags if isinstance(f, str)} & _FRAMING
    allowed = required | ({c for f in flags if isinstance(f, list) for c in f} & _FRAMING)
    return required, allowed | {"S011"}  # info: allowed anywhere, as the corpus judge allows info


def _event_stream_captures() -> list[Path]:
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        head = json.loads(path.read_text().split("\n", 1)[0])
        if "text/event-stream" in ((head.get("response") or {}).get("headers") or {}).get("content-type", ""):
            out.append(path)
    return out


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.stem)
def test_corpus_framing_codes_match_expectations(path: Path):
    required, allowed = _expected_framing(path)
    got = set(codes(decode(path.read_bytes())))
    assert required <= got <= allowed


@pytest.mark.parametrize("path", _event_stream_captures(), ids=lambda p: p.stem)
def test_corpus_captures_recorded_chunking(path: Path):
    records = [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()]
    chunks = [(r["data"].encode() if "data" in r else base64.b64decode(r["b64"]), r["t"])
              for r in records if "data" in r or "b64" in r]
    dec = SSEDecoder()
    items: list = []
    for chunk, t in chunks:
        items += dec.feed(chunk, t)
    items += dec.close()
    required, allowed = _expected_framing(path)
    assert required <= set(codes(items)) <= allowed
    assert untimed(items) == untimed(decode(b"".join(c for c, _ in chunks)))
    times = [f.t for f in items if isinstance(f, Frame)]
    assert times == sorted(times) and None not in times


def test_fast_path_and_line_path_agree_on_mixed_line_endings():
    # The fast path takes whole LF events; a CRLF part goes line by line: S011 lands at the same place
    # whatever the chunking (the chunk holding only LF events is read by the fast path).
    body = b'data: {"a":1}\r\n\r\n' + b'event: x\ndata: {"b":2}\n\n' * 3 + b'data: {"c":3}\r\n\r\n'
    whole = decode(body)
    for cut in range(1, len(body)):
        assert untimed(decode(body[:cut], body[cut:])) == untimed(whole), cut
    assert codes(whole) == ["S011"]


# -- the data-only bulk path (``_data_only``) against the line path -------------------------

def _line_path(*chunks: bytes) -> list:
    """``decode`` with the fast path off: every line through the WHATWG line machinery."""
    dec = SSEDecoder()
    dec._fast = lambda data, t, out: data  # type: ignore[method-assign]  # the oracle: no fast path
    out: list = []
    for i, chunk in enumerate(chunks):
        out += dec.feed(chunk, float(i))
    return out + dec.close()


_DATA_ONLY = [b'data: {"a":1}\n\n', b"data:x\n\n", b"data: \n\n", b"data:\n\n", b"data:  two spaces\n\n",
              b'data: {"choices":[]}\n\n', b"data: [DONE]\n\n"]
"""Events of the bulk path's shape, and the near misses below (each must go the exact way)."""
_NEAR = [b"\n", b"\n\n", b"data", b"data\n\n", b"Data: x\n\n", b"data : x\n\n", b": c\n\n", b"event: e\n",
         b"id: 1\n", b"retry: 5\n", b"data: a\ndata: b\n\n", b"data: x\n", b"\r", b"\r\n", "é".encode(), b"\xff",
         b"\x00", b"{}\n\n", b"\xef\xbb\xbf", b"x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_DATA_ONLY), st.sampled_from(_NEAR)), max_size=30),
       st.lists(st.integers(0, 600), max_size=6))
def test_data_only_events_in_one_pass_match_the_line_path(tokens: list[bytes], points: list[int]):
    body = b"".join(tokens)
    chunks = split(body, points)
    assert decode(*chunks) == _line_path(*chunks)  # every field, the times too
    assert decode(body) == _line_path(body)


@pytest.mark.parametrize("body", [
    b"data: a\ndata: b\n\ndata: c\n\n",  # a second data line: one event "a\nb", not two
    b"x\n\ndata: a\n\n",  # the first line no ``data:`` line (an unknown field, ignored)
    b"data: a\n\n: c\n\ndata: b\n\n",  # a comment between
    b"data: a\n\n\n\ndata: b\n\n",  # a stray blank line
    b"data: a\n\nevent: e\ndata: b\n\n",  # a named event
    b'data: a\n\n{"error": {"code": 1}}\n\ndata: b\n\n',  # bare JSON (an error body without ``data:``)
])
def test_near_misses_of_the_data_only_shape_go_the_exact_way(body: bytes):
    assert decode(body) == _line_path(body)


def _counted(monkeypatch, path: str) -> list[int]:
    """How many events each call of the bulk path ``path`` of ``inspector.framing.sse`` framed (-1: refused)."""
    import inspector.framing.sse as sse

    taken: list[int] = []
    real = getattr(sse, path)

    def counting(*args):
        got = real(*args)
        taken.append(-1 if got is None else len(got))
        return got

    monkeypatch.setattr(sse, path, counting)
    return taken


def test_data_only_chunks_take_the_one_pass_path(monkeypatch):
    taken = _counted(monkeypatch, "_data_only")
    body = b"".join(b'data: {"i":%d}\n\n' % i for i in range(50))
    chunks = split(body, [len(body) // 3, 2 * len(body) // 3])
    assert decode(*chunks) == _line_path(*chunks)
    assert sum(n for n in taken if n > 0) >= 45  # all but the events cut by a chunk's end


# -- the named-event bulk path (``_named_only``) against the line path -----------------------

_NAMED_ONLY = [b'event: e\ndata: {"a":1}\n\n', b"event:e\ndata:x\n\n", b"event: content_block_delta\ndata: \n\n",
               b"event:\ndata:x\n\n", b"event: \ndata: y\n\n", b"event:  two\ndata:  two\n\n",
               b"event: a:b\ndata: c:d\n\n", b"event: message\ndata: [DONE]\n\n", b"event: e\ndata:\n\n"]
"""Events of the named bulk path's shape (empty names, a space kept, colons in the name); the near misses
below, and those of the data-only path, must go the exact way."""
_NAMED_NEAR = [b"event: e\n", b"event: e\n\n", b"event: e\ndata: a\ndata: b\n\n", b"event: e\nid: 1\ndata: x\n\n",
               b"event: e\ndata: x\nevent: f\n\n", b"event: e\r\ndata: x\r\n\r\n", b"event: \xc3\xa9\ndata: x\n\n",
               b"event: e\ndata: \xc3\xa9\n\n", b"Event: e\ndata: x\n\n", b"event: e\nData: x\n\n",
               b"event: e\ndata x\n\n", b"event", b"data: x\n\n", b"event:e\ndata:{}\n\n{}\n\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_NAMED_ONLY), st.sampled_from(_NAMED_NEAR), st.sampled_from(_NEAR)),
                max_size=30),
       st.lists(st.integers(0, 600), max_size=6))
def test_named_events_in_one_pass_match_the_line_path(tokens: list[bytes], points: list[int]):
    body = b"".join(tokens)
    chunks = split(body, points)
    assert decode(*chunks) == _line_path(*chunks)  # every field, the times too
    assert decode(body) == _line_path(body)


@pytest.mark.parametrize("body", [
    b"event: a\ndata: 1\n\nevent: b\ndata: 2\ndata: 3\n\n",  # a second data line
    b"event: a\ndata: 1\n\n: ping\n\nevent: b\ndata: 2\n\n",  # a comment between
    b"event: a\ndata: 1\n\n\n\nevent: b\ndata: 2\n\n",  # a stray blank line
    b"event: a\ndata: 1\n\ndata: 2\n\n",  # an unnamed event after a named one
    b"event: a\nid: 7\ndata: 1\n\nevent: b\ndata: 2\n\n",  # an id line (sticky: the next event has it too)
    b"event: a\ndata: 1\n\nevent: b\nretry: 5\ndata: 2\n\n",  # a retry line
    b"event: a\ndata: 1\n\nevent: b\n\nevent: c\ndata: 3\n\n",  # an event with no data (fires nothing)
    b"event: a\ndata: 1\n\nevent: b\ndata: 2\nevent: c\ndata: 3\n\n",  # a pasted event with no blank line
])
def test_near_misses_of_the_named_shape_go_the_exact_way(body: bytes):
    assert decode(body) == _line_path(body)
    for cut in range(1, len(body)):
        assert decode(body[:cut], body[cut:]) == _line_path(body[:cut], body[cut:]), cut


@pytest.mark.parametrize("space", [b" ", b""])
def test_named_chunks_take_the_one_pass_path(monkeypatch, space):
    """With or without the optional space after ``data:``."""
    taken = _counted(monkeypatch, "_named_only")
    body = b"".join(b'event: %s\ndata:%s{"i":%d}\n\n' % (b"abc"[i % 3:i % 3 + 1], space, i) for i in range(50))
    chunks = split(body, [len(body) // 3, 2 * len(body) // 3])
    assert decode(*chunks) == _line_path(*chunks)
    assert sum(n for n in taken if n > 0) >= 45  # all but the events cut by a chunk's end


def test_unnamed_frames_are_what_frames_init_makes():
    """The data-only path's frames, made without ``Frame.__init__``, equal the ones it makes: every field
    set alike (a field one of them forgets fails here: ``Record``'s ``==`` reads every slot)."""
    values, offsets = ["{}", "[DONE]", "", " x"], [0, 10, 24, 32]
    made = unnamed_frames(values, iter(offsets), 3, "id-1", 0.5)
    assert made == [Frame("message", v, "id-1", None, False, 3 + 2 * k, o, 0.5)
                    for k, (v, o) in enumerate(zip(values, offsets))]
    assert [f.payload for f in made] == [None] * 4
