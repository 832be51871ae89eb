"""``records.chunk_line`` (a chunk's record line, written from the scrubber's recurring cut when it
has one) writes byte for byte what the exact path writes: ``orjson`` of ``chunk_record`` scrubbed
by the full reading (no ``_run``). On streams of every dialect's streamed fields, keys of every
catalog shape cut at every offset across deltas and chunks (also inside a multibyte character),
remembered credentials, and bodies JSON must escape or may not: quotes, backslashes, control
characters, U+2028, non-ASCII, emoji. A line writer that trusts bodies it did not check is caught
by the same comparison, so the comparison can fail."""
from __future__ import annotations

import inspect
import random
import textwrap

import orjson
import pytest

from inspector.capture import redact
from inspector.capture.records import chunk_line, chunk_record
from inspector.capture.redact import ChunkScrubber
from tests.unit.test_scrub_runs import SHAPES, _pieces, _raw, _streams, remembered  # noqa: F401 (a fixture)

ESCAPED = ["\x01", "\x1f", "\x7f", "\t", "\n", "\r", "\x00", "\u2028", "\u2029", "\x85", "é", "😀", "中文", "\ufeff",
           '\\"', "\\\\", "\\n", "\\u00e9", "\\/", "\u200b"]
"""Bodies written into events as they are: control characters (raw, which JSON must escape in a
record), line separators and other characters a JSON writer may escape, non-ASCII, JSON escapes."""

TIMES = [None, 0.0, 1e-07, 0.1234567, 12345.6789012, 5e-06]


def _escaping_streams(rng: random.Random):
    """Long runs of one field (a proxy chunk's 64 deltas) with one hostile body among plain ones,
    and runs whose every body is one of them."""
    for body in ESCAPED:
        for _ in range(3):
            prose = [_raw(rng.choice(["ome", "word ", "ok", "a b"])) for _ in range(rng.randint(40, 90))]
            at = rng.randint(1, len(prose) - 1)
            yield prose[:at] + [_raw("x" + body + "y")] + prose[at:]
        yield [_raw(body) for _ in range(70)]
    for shape in SHAPES.values():
        yield [shape(rng.choice(["é ", "😀", "中文 ", "word ", "\u2028"])) for _ in range(rng.randint(60, 140))]


def _chunks(events: list[str], rng: random.Random) -> list[bytes]:
    """The stream as network chunks: ``_pieces``, or its bytes cut anywhere (also inside a multibyte character)."""
    if rng.random() < 0.7:
        return [p.encode("utf-8") for p in _pieces(events, rng)]
    body = "".join(events).encode("utf-8")
    points = sorted(rng.sample(range(1, len(body)), k=min(len(body) - 1, rng.randint(1, 12)))) if len(body) > 1 else []
    return [body[a:b] for a, b in zip([0, *points], [*points, len(body)])]


def disagreements(rng: random.Random, limit: int = 3) -> tuple[list, int, int]:
    """Record every stream twice, with ``chunk_line`` and with the exact path: the chunks
    whose lines differ (at most ``limit``), how many lines were written from a cut, and how many were written."""
    found, cut, lines = [], 0, 0
    streams = list(_streams(rng)) + list(_escaping_streams(rng))
    for events in streams:
        quick, full = ChunkScrubber(), ChunkScrubber()
        quick.RUN_MIN = 0  # the cut is tried on every piece
        full._run = lambda joined, n, text: False  # the full reading, every piece
        for data in _chunks(events, rng):
            t = rng.choice(TIMES)
            mine = chunk_line(t, data, quick)
            cut += quick.cut is not None
            lines += 1
            exact = orjson.dumps(chunk_record(t, data, full), option=orjson.OPT_APPEND_NEWLINE)
            if mine != exact:
                found.append((events, data, mine, exact))
                if len(found) >= limit:
                    return found, cut, lines
                break
    return found, cut, lines


@pytest.mark.usefixtures("both_cuts")
def test_a_line_written_from_the_cut_is_the_exact_line():
    found, cut, lines = disagreements(random.Random(41))
    assert not found, found[0][1:]
    assert cut >= 300  # many lines came from a cut: the comparison tested it


@pytest.mark.usefixtures("both_cuts")
def test_the_same_with_a_remembered_credential(remembered):  # noqa: F811 (the fixture)
    found, cut, lines = disagreements(random.Random(42))
    assert not found, found[0][1:]
    assert cut >= 300


@pytest.mark.usefixtures("both_cuts")
def test_the_proxy_chunk_of_64_deltas_is_written_from_its_cut():
    """The bench's chunk (``bench_proxy_throughput.py``, with a non-ASCII character in each delta):
    from the second one on, every chunk is written from its cut, and each line reads back as its chunk."""
    chunks = ["".join(_raw(f"word{k} é") for k in range(i, i + 64)).encode() for i in range(0, 640, 64)]
    scrubber, cuts = ChunkScrubber(), 0
    for i, data in enumerate(chunks):
        line = chunk_line(i / 10, data, scrubber)
        if scrubber.cut is not None:  # the cut is the chunk as a JSON string holds it, as ``ChunkScrubber.cut`` says
            head, opening, between, middle, end = scrubber.cut
            assert middle is not None
            assert orjson.dumps(head)[1:-1] + opening + middle + between + orjson.dumps(end)[1:-1] == \
                orjson.dumps(data.decode())[1:-1]
            cuts += 1
        assert orjson.loads(line) == {"t": i / 10, "data": data.decode()}
    assert cuts >= len(chunks) - 2


def test_every_character_a_body_may_hold_as_it_is_is_one_orjson_writes_as_it_is():
    """What ``chunk_line``'s check relies on: orjson changes no character but ``"``, ``\\`` and the
    control characters, and it only ever adds bytes (so a body it writes at its UTF-8 length holds none)."""
    for code in [*range(0x3000), *range(0xE000, 0x110000, 97)]:
        c = chr(code)
        out = orjson.dumps(c)[1:-1]
        if c in '"\\' or code < 0x20:
            assert len(out) > len(c.encode("utf-8"))
        else:
            assert out == c.encode("utf-8"), hex(code)


BROKEN = {  # a check of the line left out: where, the text taken out and what replaces it
    "bodies not checked": ("recurring_cut", "if len(escaped) == (len(joined) if joined.isascii() else "
                                            'len(joined.encode("utf-8"))) + 2:', "if True:"),
    "the frame not escaped": ("_escaped", """orjson.dumps('"' + after + opening)[1:-1]""",
                              """('"' + after + opening).encode()"""),
    "the opening not escaped": ("_escaped", "orjson.dumps(opening)[1:-1],", "opening.encode(),"),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_line_writer_is_caught(monkeypatch, python_cut, broken):
    """The comparison above fails on a line writer that skips a check (the source of the recurring
    cut's Python with it taken out; the C is held equal to it: tests/unit/test_runscan.py)."""
    name, old, new = BROKEN[broken]
    source = textwrap.dedent(inspect.getsource(getattr(redact, name)))
    assert old in source, old
    space: dict = {}
    exec(compile(source.replace(old, new), redact.__file__, "exec"), vars(redact), space)
    monkeypatch.setattr(redact, name, space[name])
    found, _, _ = disagreements(random.Random(43), limit=1)
    assert found
