"""Tests for inspector.framing.ndjson: one Frame per non-blank line, positions, framing issues."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.frames import Frame, FramingIssue
from inspector.framing.ndjson import NDJSONDecoder


def decode(*chunks: bytes, close_t: float | None = None) -> list:
    dec = NDJSONDecoder()
    out: list = []
    for i, chunk in enumerate(chunks):
        out += dec.feed(chunk, float(i))
    out += dec.close(close_t)
    return out


def frames(items: list) -> list[tuple]:
    return [(f.event, f.data, f.named, f.line, f.offset) for f in items if isinstance(f, Frame)]


def codes(items: list) -> list[str]:
    return [i.code for i in items if isinstance(i, FramingIssue)]


def untimed(items: list) -> list[tuple]:
    return [("F", i.data, i.line, i.offset) if isinstance(i, Frame)
            else ("I", i.code, i.message, i.line, i.offset) for i in items]


def test_each_non_blank_line_is_a_message_frame():
    items = decode(b'{"a":1}\n\n  \n{"done":true}\n')
    assert frames(items) == [("message", '{"a":1}', False, 1, 0), ("message", '{"done":true}', False, 4, 12)]
    assert codes(items) == []


def test_crlf_is_stripped_even_when_split_across_chunks():
    items = decode(b'{"a":1}\r', b'\n{"b":2}\r\n')
    assert frames(items) == [("message", '{"a":1}', False, 1, 0), ("message", '{"b":2}', False, 2, 9)]
    assert codes(items) == []


def test_lone_cr_is_line_content_not_a_terminator():
    assert frames(decode(b"a\rb\n")) == [("message", "a\rb", False, 1, 0)]


def test_frame_time_is_the_chunk_holding_the_lf():
    dec = NDJSONDecoder()
    assert dec.feed(b'{"a":', 1.0) == []
    assert [f.t for f in dec.feed(b"1}\n", 2.5)] == [2.5]


def test_unterminated_last_line_is_shown_then_s010():
    items = decode(b'{"a":1}\n{"b":', b"2}", close_t=9.0)
    assert frames(items) == [("message", '{"a":1}', False, 1, 0), ("message", '{"b":2}', False, 2, 8)]
    assert isinstance(items[-1], FramingIssue) and isinstance(items[-2], Frame)
    assert (items[-1].code, items[-1].line, items[-1].offset, items[-1].t) == ("S010", 2, 8, 9.0)
    assert items[-2].t == 9.0


def test_trailing_whitespace_without_newline_is_not_s010():
    assert codes(decode(b'{"a":1}\n  ')) == []


def test_bom_is_stripped_and_reported_even_when_split():
    items = decode(b"\xef\xbb", b'\xbf{"a":1}\n')
    assert codes(items) == ["S009"]
    assert frames(items) == [("message", '{"a":1}', False, 1, 3)]


def test_invalid_utf8_reported_once_with_offset():
    items = decode(b'{"a":1}\n{"b":"\xff"}\n{"c":"\xfe"}\n')
    assert codes(items) == ["S001"]
    issue = next(i for i in items if isinstance(i, FramingIssue))
    assert (issue.line, issue.offset) == (2, 14)
    assert frames(items)[1][1] == '{"b":"\ufffd"}'


def test_mixed_lf_and_crlf_reported_once():
    items = decode(b"{}\n{}\r\n{}\n")
    assert codes(items) == ["S011"]
    assert [(i.line, i.offset) for i in items if isinstance(i, FramingIssue)] == [(2, 3)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"{}", b'{"a":"\xc3\xa9"}', b"\n", b"\r\n", b"\r", b" ", b"\xff",
                                 b"\xef\xbb\xbf"]), max_size=30),
       st.lists(st.integers(0, 300), max_size=8))
def test_split_anywhere_changes_nothing(tokens: list[bytes], points: list[int]):
    body = b"".join(tokens)
    cuts = sorted({p % (len(body) + 1) for p in points})
    chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    assert untimed(decode(*chunks)) == untimed(decode(body))
