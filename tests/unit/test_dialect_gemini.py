"""Gemini native: a clean stream is clean; G001/G002 and S003/S004/S006/S008 fire on their shapes and not
on a near miss; blocks assemble per candidate; chunk boundaries never change the result."""
from __future__ import annotations

import json

import pytest

from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from inspector.providers.gemini.sniff import sniff
from tests.helpers import check_bytes, codes


def chunk(*parts, finish=None, index=0, usage=False, cand=None, **top) -> dict:
    cand = {"content": {"role": "model", "parts": list(parts)}, "index": index, **(cand or {})}
    if finish:
        cand["finishReason"] = finish
    out = {"candidates": [cand], "modelVersion": "gemini-test", **top}
    if usage:
        out["usageMetadata"] = {"promptTokenCount": 9, "candidatesTokenCount": 5, "totalTokenCount": 14}
    return out


def text(t, **kw):
    return {"text": t, **kw}


def fcall(name="lookup", args=None, sig=None, **kw):
    part = {"functionCall": {"name": name, **({"args": args} if args is not None else {}), **kw}}
    if sig:
        part["thoughtSignature"] = sig
    return part


def body(*chunks) -> bytes:
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode()


def run(*chunks, **kw):
    return check_bytes(body(*chunks), **kw)


def test_clean_text_stream_is_clean_and_accumulates():
    s = run(chunk(text("Hel")), chunk(text("lo")), chunk(text("!"), finish="STOP", usage=True))
    assert codes(s) == []
    assert s.dialect_name == "gemini" and s.stop_reason == "STOP" and s.model == "gemini-test"
    (b,) = s.blocks
    assert (b.kind, b.content, b.closed, b.choice, b.index, b.deltas) == ("text", "Hello!", True, 0, 0, 3)


def test_clean_function_call_arrives_whole():
    s = run(chunk(text("Checking.")), chunk(fcall(args={"q": 1}, sig="c2ln")), chunk(text(""), finish="STOP"))
    assert codes(s) == []
    t, f = s.blocks
    assert (t.kind, t.content, t.closed) == ("text", "Checking.", True)
    assert (f.kind, f.name, f.status, f.input, f.closed, f.tool) == ("function_call", "lookup", "complete", {"q": 1}, True, True)
    assert f.signature == "c2ln" and f.content == '{"q":1}'


def test_function_call_without_args_is_an_empty_object():
    s = run(chunk(fcall()), chunk(finish="STOP"))
    assert codes(s) == [] and s.blocks[0].status == "complete" and s.blocks[0].input == {}


def test_function_call_with_string_args_is_not_an_object():
    s = run(chunk(fcall(args='{"q":1}')), chunk(finish="STOP"))
    assert "J004" in codes(s)


def test_thought_parts_are_their_own_block():
    s = run(chunk(text("plan ", thought=True)), chunk(text("more", thought=True)), chunk(text("Answer")),
            chunk(finish="STOP"))
    assert [(b.kind, b.content) for b in s.blocks] == [("thought", "plan more"), ("text", "Answer")]
    assert all(b.closed for b in s.blocks)


def test_candidates_are_kept_apart():
    s = run(chunk(text("a"), index=0), chunk(text("b"), index=1), chunk(text("c"), index=0, finish="STOP"),
            chunk(index=1, finish="MAX_TOKENS"))
    assert [(b.choice, b.content) for b in s.blocks] == [(0, "ac"), (1, "b")]
    assert s.stop_reason == "STOP" and codes(s) == []


# --------------------------------------------------------------------------- G rules
@pytest.mark.parametrize("reason", ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"])
def test_G001_function_call_failed(reason):
    s = run(chunk(text(""), finish=reason, cand={"finishMessage": "bad call"}))
    assert codes(s) == ["G001"] and s.stop_reason == reason
    assert "bad call" in s.findings[0].message


@pytest.mark.parametrize("reason", ["STOP", "MAX_TOKENS", "SAFETY"])
def test_G001_near_miss(reason):
    assert "G001" not in codes(run(chunk(text("x"), finish=reason)))


def test_G002_signature_on_second_parallel_call():
    s = run(chunk(fcall("a", {}, sig="s1"), fcall("b", {}, sig="s2")), chunk(finish="STOP"))
    assert codes(s) == ["G002"] and s.findings[0].severity == "info"
    assert s.findings[0].index == 1


def test_G002_signature_in_later_empty_text_part_belongs_to_first_call():
    s = run(chunk(fcall("a", {"x": 1}), fcall("b", {})), chunk(text("", thoughtSignature="late"), finish="STOP"))
    assert codes(s) == ["G002"]
    assert s.blocks[0].signature == "late" and "'a'" in s.findings[0].message


def test_G002_signature_on_a_thought_part_before_the_call():
    s = run(chunk(text("plan", thought=True, thoughtSignature="t")), chunk(fcall("a", {})), chunk(finish="STOP"))
    assert codes(s) == ["G002"] and s.findings[0].index == 1


def test_G002_near_miss_signature_on_the_first_call():
    assert codes(run(chunk(fcall("a", {}, sig="s1"), fcall("b", {})), chunk(finish="STOP"))) == []


def test_G002_signature_on_a_text_part_of_a_turn_without_calls_is_info_and_kept():
    # RULES.md G002: "a thoughtSignature arrives on a part other than the first functionCall".
    s = run(chunk(text("answer", thoughtSignature="t1")), chunk(finish="STOP"))
    assert codes(s) == ["G002"] and s.findings[0].severity == "info"
    assert s.blocks[0].signature == "t1"


# --------------------------------------------------------------------------- S rules
def test_S003_no_finish_reason():
    s = run(chunk(text("cut")), chunk(text(" off")))
    assert codes(s) == ["S003"] and not s.blocks[0].closed


def test_S003_one_candidate_unfinished():
    assert codes(run(chunk(text("a"), index=0, finish="STOP"), chunk(text("b"), index=1))) == ["S003"]


def test_blocked_prompt_ends_the_stream():
    s = run({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 3}})
    assert s.dialect_name == "gemini" and s.stop_reason == "SAFETY" and codes(s) == []


def test_content_after_finish_is_G003_not_S004_and_usage_only_near_miss():
    # RULES.md v2: S004 is not judged for Gemini; an earlier finishReason is not the end (G003), and
    # the last frame with candidates carries none (S003).
    s = run(chunk(text("a"), finish="STOP"), chunk(text("late")))
    assert codes(s) == ["G003", "S003"]
    ok = run(chunk(text("a"), finish="STOP"), {"usageMetadata": {"totalTokenCount": 4}, "candidates": []})
    assert codes(ok) == []


def test_S006_error_chunk():
    s = check_bytes(body(chunk(text("a")), {"error": {"code": 500, "message": "Internal", "status": "INTERNAL"}}),
                    dialect="gemini")
    assert "S006" in codes(s)
    assert "INTERNAL: Internal" in next(f.message for f in s.findings if f.code == "S006")


def test_S006_google_error_as_the_first_event_is_gemini():
    s = run({"error": {"code": 429, "message": "Resource exhausted", "status": "RESOURCE_EXHAUSTED"}})
    assert s.dialect_name == "gemini" and "S006" in codes(s)
    other = check_bytes(body({"error": {"type": "rate_limit_error", "message": "slow"}}))
    assert other.dialect_name != "gemini"


def test_S008_unknown_finish_reason_and_part_field():
    s = run(chunk({"hologram": {}}, text("x")), chunk(finish="NEW_REASON"))
    found = [f for f in s.findings if f.code == "S008"]
    assert len(found) == 2 and all(f.severity == "info" for f in found)


def test_not_sniffed_when_choices_present():
    from inspector.session.session import EventRecord

    ev = EventRecord(0, "message", "", {"candidates": [], "choices": []}, 1, None)
    assert not sniff(ev)


def test_bad_shapes_never_crash():
    s = run({"candidates": "x"}, {"candidates": [None, {"content": {"parts": [1, {"functionCall": "no"}]}}]},
            chunk(fcall(args={"a": [1]}), {"text": 5}, {"text": None, "thought": "yes"}), chunk(finish="STOP"))
    assert s.closed


# --------------------------------------------------------------------------- chunk-split invariance
def _result(cap) -> dict:
    rep = report_dict("x", run_capture(cap))
    return {k: rep[k] for k in ("blocks", "findings", "stop_reason", "dialect")}


@pytest.mark.parametrize("size", [1, 3, 50])
def test_chunk_split_invariance(size):
    raw = body(chunk(text("héllo ", thought=True)), chunk(text("wörld")), chunk(fcall("a", {"k": "v"}), fcall("b", {}, sig="s")),
               chunk(text("", thoughtSignature="z"), finish="STOP"), chunk(text("late")))
    whole = _result(Capture(chunks=[Chunk(None, raw)]))
    assert {f["code"] for f in whole["findings"]} == {"G002", "G003", "S003"}  # v2: not S004 for Gemini
    split = Capture(chunks=[Chunk(None, raw[i:i + size]) for i in range(0, len(raw), size)])
    assert _result(split) == whole
