"""The recording scrub's recurring cut and key-prefix test in C (``inspector/capture/_runscan.c``)
answer as the Python (``redact.recurring_cut``, ``keyshapes.maybe_key``) does, on generated pieces made of what matters to it: the opening and the
closing and fragments of them, quotes, backslashes and escaped ones, control characters, non-ASCII
and astral characters, surrogates (a text read with ``surrogateescape``), key prefixes, empty bodies,
a piece beginning or ending inside a value. It is built wherever a C compiler is (a silent build
failure in CI shows here), the scrubber uses it, and no input makes it crash."""
from __future__ import annotations

import shlex
import shutil
import sysconfig

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from inspector.capture import redact
from inspector.capture.keyshapes import PREFIXES, maybe_key
from inspector.capture.records import chunk_line
from tests.unit.test_scrub_runs import _chat, _raw

native = redact._runscan
"""The C scanner, or None when it was not built (then only ``test_the_c_scanner_is_built_where_a_compiler_is`` runs)."""
built = pytest.mark.skipif(native is None, reason="the C scanner was not built (no C compiler): the Python cut runs")

FRAMES = [
    ('"text":"', '}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
                 '"delta":{"type":"text_delta",'),
    ('"content":"', '},"finish_reason":null}]}\n\ndata: {"id":"c","choices":[{"index":0,"delta":{'),
    ('"text" : "', ', "x": "\\"", '),            # spaced, a backslash and an escaped quote between values
    ('"delta":"', ""),                           # values back to back: the closing is one quote
    ('"t":"', '"t":"'),                          # the text between values is the opening itself
    ('"a":"', '"a":"a":"'),                      # ... and an opening overlapping it
    ('"é":"', "中😀\\"),                          # non-ASCII and astral in the needles, a backslash
    ('"text":"', '\\'),                          # a closing that a backslash before it may escape
]
"""Openings and the text after a value up to the next opening (``after``; the closing is ``'"' + after``)."""

PIECES = ["a", "word ", "sk-", "sk", "-ant-", "AKIA", "Bearer ", '"', "\\", "\\\\", '\\"', "\\\\\\", "\\u00",
          "\x00", "\x1f", "\n", "\x7f", "é", "ÿ", "中", "\u2028", "😀", "\U0010ffff", "\udc80", ":", " ", "}"]
"""What a body (or the text around the run) is made of."""


@st.composite
def pieces(draw):
    """(text, opening, closing): a run of values of one frame, broken here and there, or fragments at random."""
    opening, after = draw(st.sampled_from(FRAMES))
    closing = '"' + after
    frags = PIECES + [opening, closing, opening[:3], opening[2:], closing[:4], closing[-3:], closing + opening]
    body = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)
    if draw(st.booleans()):
        text = "".join(draw(st.lists(st.sampled_from(frags), max_size=40)))
    else:
        bodies = draw(st.lists(body, min_size=0, max_size=12))
        head = draw(st.sampled_from(["", "data: {", 'x"y', opening[:-1], closing, "\\", "é"]))
        last = draw(body) + draw(st.sampled_from(["", '"', closing, closing[:5], '"}}\n\n', "\\"]))
        text = head + "".join(opening + b + closing for b in bodies) + opening + last
        cut_at = draw(st.integers(0, 3))  # a piece cut out of a longer stream
        if cut_at == 1:
            text = text[draw(st.integers(0, len(text))):]
        elif cut_at == 2:
            text = text[:draw(st.integers(0, len(text)))]
        elif cut_at == 3:  # one fragment somewhere inside
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(frags)) + text[i:]
    return text, opening, closing


def both(text: str, opening: str, closing: str, between: bytes | None):
    return native.recurring_cut(text, opening, closing, between), redact.recurring_cut(text, opening, closing, between)


@built
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces(), st.booleans())
@example(('"text":"a"x"text":"b"x"text":"c', '"text":"', '"x'), True)
@example(('"text":"a\\"x"text":"b"x"text":"c', '"text":"', '"x'), True)  # a body ending in a backslash
@example(('"text":"a\\\\"x"text":"b"x"text":"c', '"text":"', '"x'), True)
@example(('"text":"\\\\\\"q"x"text":"b"x"text":"', '"text":"', '"x'), True)  # an escaped quote after \\\\
@example(('"é":""中😀\\"é":"\\""é""é":"', '"é":"', '"中😀\\'), False)  # a closing ending in a backslash
def test_the_c_cut_is_the_python_cut(case, with_between):
    text, opening, closing = case
    between = redact._escaped(opening, closing[1:])[2] if with_between else None
    c, py = both(text, opening, closing, between)
    assert c == py
    if c is not None:  # the same strings: as narrow as Python's own (``==`` compares widths first)
        assert [type(x) for x in c] == [type(x) for x in py]


@built
@given(st.lists(st.sampled_from(["word ", "é", "中", "😀", "\\\\", '\\"', "\x01", "sk-"]), min_size=2, max_size=300),
       st.sampled_from(FRAMES))
@settings(max_examples=200, deadline=None)
def test_long_runs_are_cut_alike(bodies, frame):
    """Runs of many values (more than the C keeps on its stack) of every width."""
    opening, after = frame
    closing = '"' + after
    text = "data: " + "".join(opening + b + closing for b in bodies * 3) + opening + "end"
    between = redact._escaped(opening, after)[2]
    c, py = both(text, opening, closing, between)
    assert c == py


@built
def test_what_the_c_leaves_to_the_python():
    """None, never a wrong answer, where it does not look: an opening longer than 64 characters or
    not beginning with a quote, needles wider than the text, an empty closing."""
    long_opening = '"text"' + " " * 60 + ':"'
    text = "".join(long_opening + "a" + '"x' for _ in range(5))
    assert native.recurring_cut(text, long_opening, '"x', None) is None
    assert redact.recurring_cut(text, long_opening, '"x', None) is not None
    assert native.recurring_cut("t:a,t:b,t:c,t:", "t:", ",", None) is None
    assert native.recurring_cut('"t":"a"x"t":"b"x"t":"', '"t":"', '"😀', None) is None
    assert native.recurring_cut('"t":"a"x"t":"b"x"t":"', '"t":"', "", None) is None


@built
@pytest.mark.parametrize("text", ["", '"', "\\" * 100_000, '"t":"' * 50_000, ('"t":"' + '"x') * 40_000,
                                  '"t":"\\"x' * 30_000, "😀" * 100_000, ('"t":"é"x' * 30_000) + "\udc80"])
def test_odd_and_huge_pieces(text):
    """A capture is a stranger's file: no crash, the Python's answer (the spans outgrow the stack)."""
    for closing in ['"x', '"', '"' + "x" * 1000]:
        for between in (None, b"\\u0000" * 1000):
            assert native.recurring_cut(text, '"t":"', closing, between) == \
                redact.recurring_cut(text, '"t":"', closing, between)


@built
def test_bad_arguments_are_type_errors():
    for args in [(b"x", '"t":"', '"x', None), ("x", '"t":"', '"x', "between"), ("x", None, '"x', None), ("x",)]:
        with pytest.raises(TypeError):
            native.recurring_cut(*args)


def _compiler() -> str | None:
    cc = sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(cc)[0])


def test_the_c_scanner_is_built_where_a_compiler_is():
    """``hatch_build.py`` compiled it at install (``uv sync``); a failed build would leave the Python
    cut to run, silently slower: CI fails here instead."""
    if _compiler() is None:
        pytest.skip("no C compiler: the install leaves the Python cut")
    assert native is not None, "hatch_build.py did not build inspector/capture/_runscan.c (`uv sync -v` says why)"


@built
def test_the_scrubber_writes_a_fast_streams_chunks_through_it(monkeypatch):
    """The proxy's common chunk (64 deltas) goes through the C cut, and its line is orjson's."""
    calls = []

    class Counted:
        maybe_key = native.maybe_key

        @staticmethod
        def recurring_cut(*args):
            calls.append(args[1])
            return native.recurring_cut(*args)

    monkeypatch.setattr(redact, "_runscan", Counted)
    chat = _chat("content")
    for event in (lambda k: _raw(f"word{k} é 中 😀"), lambda k: chat(f"word{k} ")):
        scrubber = redact.ChunkScrubber()
        for i in range(6):
            data = "".join(event(k) for k in range(i * 64, i * 64 + 64)).encode()
            line = chunk_line(1.5, data, scrubber)
            assert line == orjson.dumps({"t": 1.5, "data": data.decode()}, option=orjson.OPT_APPEND_NEWLINE)
    assert calls.count('"text":"') >= 4 and calls.count('"content":"') >= 4


KEY_PIECES = [*PREFIXES, *(p[:k] for p in PREFIXES for k in range(1, len(p))), *(p[k:] for p in PREFIXES for k in range(1, len(p))),
              "EARER", "BaSiC", "bAsIc", "İ", "\u212a", "x", "-", "_", "A", "J", "é", "😀", " ", "xoxz-", "ghx_", "github_",
              "pat_", "\udc80", "\x00"]
"""Key prefixes, their beginnings and ends, other cases, the two non-ASCII characters that lower to
ASCII letters, near misses, a NUL (the C's ``strcspn`` stops at one)."""


@built
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(KEY_PIECES), max_size=8).map("".join))
def test_the_c_key_prefix_test_is_maybe_key(text):
    assert native.maybe_key(text) is maybe_key(text)


def test_only_ascii_letters_lower_to_the_letters_of_earer_and_basic():
    """What the C's case test relies on: no other character lowers to one, but U+0130 (``i`` and
    U+0307, which ``basic`` cannot go on with) and U+212A (``k``)."""
    found = {hex(c): chr(c).lower() for c in range(0x80, 0x110000) if set(chr(c).lower()) & set("earbsicEARBSIC")}
    assert found == {"0x130": "i\u0307"}
