"""Real provider streams are the ground truth (RULES.md preamble): on each recorded stream, the
dialect and the findings are exactly what the research into it concluded (see README.md here).

And the fast paths change nothing: every report, on these streams and on the shared corpus, is
byte-identical with the SSE fast path off, garbage collection on and the body fed one small chunk
at a time (issue 16: reports identical before and after the speed work).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.framing.sse import SSEDecoder
from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from tests.conftest import corpus_cases

HERE = Path(__file__).parent
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))


def _codes_match(expected: list[str], findings: list) -> list[str]:
    """What differs between the expected codes (``A|B`` either, ``X(info)`` at info) and ``findings``."""
    got = {f.code for f in findings}
    severity = {f.code: f.severity for f in findings}
    problems, allowed = [], set()
    for item in expected:
        code, _, level = item.partition("(")
        options = set(code.split("|"))
        allowed |= options
        if not options & got:
            problems.append(f"missing {item}")
        elif level and severity.get(code) != level.rstrip(")"):
            problems.append(f"{code} at {severity.get(code)}, expected {level.rstrip(')')}")
    problems += [f"unexpected {c}" for c in sorted(got - allowed)]
    return problems


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_stream(name):
    exp = EXPECTED[name]
    s = run_capture(load_path(HERE / name))
    assert s.dialect_name == exp["dialect"], name
    assert not _codes_match(exp["codes"], s.findings), (name, [(f.code, f.message) for f in s.findings])


def _report(cap: Capture) -> bytes:
    """The JSON report and the event log (runs of deltas are kept packed in it)."""
    s = run_capture(cap)
    events = [(e.index, e.name, e.data, e.line, e.t, e.named, e.block, e.response) for e in s.events]
    return json.dumps([report_dict("x", s), events], sort_keys=True).encode()


def _exact(cap: Capture, monkeypatch) -> bytes:
    """The report with every shortcut off: the exact decoder line by line, GC on, 7-byte chunks
    (only for untimed bodies: a timed capture keeps its chunks, so its times stay as recorded)."""
    with monkeypatch.context() as m:
        m.setattr(SSEDecoder, "_fast", lambda self, data, t, out: data)
        m.setattr("inspector.feeds.run.paused_gc", _no_pause, raising=False)
        if not cap.timed:
            body = cap.body
            cap = Capture(chunks=[Chunk(None, body[i:i + 7]) for i in range(0, len(body), 7)],
                          request=cap.request, response=cap.response, end=cap.end,
                          source_format=cap.source_format, request_relative=cap.request_relative,
                          line_base=cap.line_base, notes=list(cap.notes), timing_notes=list(cap.timing_notes))
        return _report(cap)


class _no_pause:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _all_captures() -> list[Path]:
    return [HERE / n for n in sorted(EXPECTED)] + [c[1] for c in corpus_cases()]


@pytest.mark.parametrize("path", _all_captures(), ids=lambda p: p.name)
def test_reports_are_byte_identical_on_the_exact_path(path, monkeypatch):
    cap = load_path(path)
    assert _report(cap) == _exact(cap, monkeypatch)
