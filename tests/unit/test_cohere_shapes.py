"""K001 says exactly what cohere-python drops: ``shapes.problem`` agrees with the SDK's own validation
(``parse_obj_as(V2ChatStreamResponse, payload)``, what ``ClientV2.chat_stream`` does to each event) on
every event of the docs' streams and on each of them with every field replaced by a value of another kind
or removed. When the pinned ``cohere`` version in ``uv.lock`` changes its types, this test says where."""
from __future__ import annotations

import copy
import json

import pytest

from inspector.providers.cohere.shapes import _FITS, EVENTS, _check, problem
from tests.conftest import ROOT

cohere = pytest.importorskip("cohere")
from cohere.core.pydantic_utilities import parse_obj_as  # noqa: E402
from cohere.v2.types.v2chat_stream_response import V2ChatStreamResponse  # noqa: E402

CAPTURES = sorted((ROOT / "tests" / "real_streams" / "cohere").glob("*.sse"))
REPLACEMENTS = (None, "x", "12", 7, 1.5, True, [], [{"a": 1}], {}, {"a": 1})
MISSING = object()
EXTRA = [{"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "a"}}},
          "logprobs": {"token_ids": [1, 2], "logprobs": [-0.1], "text": "a"}},
         {"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}}},
         {"type": "debug", "prompt": "p"},
         {"type": "citation-start", "index": 0, "delta": {"message": {"citations": {
             "start": 0, "end": 1, "text": "a", "content_index": 0, "type": "TEXT_CONTENT",
             "sources": [{"type": "document", "id": "d", "document": {"t": 1}}]}}}},
         {"type": "message-end", "id": "m", "delta": {"finish_reason": "ERROR", "error": "boom",
                                                      "usage": {"cached_tokens": 3}}}]


def sdk_accepts(payload: dict) -> bool:
    try:
        parse_obj_as(V2ChatStreamResponse, payload)
    except Exception:  # noqa: BLE001 - whatever the SDK's validation raises, it drops the event
        return False
    return True


def originals() -> list[dict]:
    out = []
    for path in CAPTURES:
        out += [json.loads(line[6:]) for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("data: ")]
    unique = {json.dumps(p, sort_keys=True): p for p in out + EXTRA}
    return list(unique.values())


def paths(value, prefix=()):
    """Every key path into ``value`` (objects and list items), except the event ``type`` itself."""
    if isinstance(value, dict):
        for k, v in value.items():
            if prefix or k != "type":
                yield (*prefix, k)
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield (*prefix, i)
            yield from paths(v, (*prefix, i))


def variant(payload: dict, path: tuple, new) -> dict:
    out = copy.deepcopy(payload)
    holder = out
    for k in path[:-1]:
        holder = holder[k]
    if new is MISSING:
        del holder[path[-1]]
    else:
        holder[path[-1]] = copy.deepcopy(new)
    return out


def cases() -> list[tuple[str, dict]]:
    out = []
    for p in originals():
        out.append((p["type"], p))
        for path in paths(p):
            for new in (*REPLACEMENTS, MISSING):
                out.append((f"{p['type']}:{'.'.join(map(str, path))}={new!r}"[:120], variant(p, path, new)))
    return out


CASES = cases()


def test_there_are_many_cases_of_both_verdicts():
    verdicts = [sdk_accepts(p) for _, p in CASES]
    assert len(CASES) > 1000 and verdicts.count(True) > 100 and verdicts.count(False) > 100


def test_every_original_event_is_accepted_by_both():
    for p in originals():
        assert sdk_accepts(p) and problem(p) is None, p


def test_problem_agrees_with_the_sdk_on_every_variant():
    wrong = [(name, problem(p)) for name, p in CASES if (problem(p) is None) != sdk_accepts(p)]
    assert wrong == []


def test_the_dialect_reads_every_variant_without_crashing_and_k001_fires_exactly_on_the_rejected_ones():
    from tests.helpers import check_bytes, sse

    start = {"type": "message-start", "id": "m", "delta": {"message": {"role": "assistant"}}}
    call = {"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
        "id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}}}}
    end = {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}
    wrong = []
    for name, p in CASES:
        evs = [p, end] if p["type"] == "message-start" else [start, call, p, end]
        found = [f.code for f in check_bytes(sse(*evs)).findings]
        if ("K001" in found) != (problem(p) is not None):
            wrong.append((name, found))
    assert wrong == []


def test_the_compiled_shape_check_agrees_with_the_detailed_walk_on_every_variant():
    """K001's quick check (one generated function per event type) says "fits" exactly when the
    detailed walk finds nothing wrong: never a walk for an event that fits, never a miss."""
    for name, p in CASES:
        typ = p.get("type")
        if typ in EVENTS:
            assert _FITS[typ](p) == (_check(EVENTS[typ], p) is None), name
