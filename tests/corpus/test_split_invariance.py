"""Chunk boundaries never change the result: every corpus capture (the shared corpus and our Bedrock
cases), split at random byte boundaries (each piece keeping its chunk's arrival time), gives
identical blocks and findings. For the binary Bedrock bodies that means splits inside a message's
prelude, its headers and its payload (pieces of 1 and 3 bytes hit all three in every message)."""
from __future__ import annotations

import random

import pytest

from inspector.capture.load import load_path
from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from tests.conftest import BEDROCK_CORPUS, corpus_cases

CASES = corpus_cases() + corpus_cases(BEDROCK_CORPUS)


def _resplit(cap: Capture, rng: random.Random, max_piece: int) -> Capture:
    chunks = []
    for c in cap.chunks:
        data, i = c.data, 0
        while i < len(data):
            n = rng.randint(1, max_piece)
            chunks.append(Chunk(c.t, data[i:i + n], c.line))
            i += n
    return Capture(chunks=chunks, request=cap.request, response=cap.response, end=cap.end,
                   source_format=cap.source_format, request_relative=cap.request_relative,
                   line_base=cap.line_base)


@pytest.mark.parametrize("stem,capture,expect", CASES, ids=[c[0] for c in CASES])
def test_random_splits_change_nothing(stem, capture, expect):
    cap = load_path(capture)
    whole = report_dict("x", run_capture(cap))
    rng = random.Random(stem)
    for max_piece in (1, 3, 17, 200):
        split = report_dict("x", run_capture(_resplit(cap, rng, max_piece)))
        assert split == whole, f"split into pieces of ≤{max_piece} bytes changed the report"
