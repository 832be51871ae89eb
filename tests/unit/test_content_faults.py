"""Content-level faults say each dialect's own stop reason, and grade clients against the answer as sent."""
from __future__ import annotations

import pytest

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.net.conform.mutate import Spec, apply
from tests.unit.test_mutations import REFERENCE


@pytest.mark.parametrize("provider,name,stop", [
    ("openai", "content-filter", "content_filter"), ("openai", "max-tokens-mid-call", "length"),
    ("openai", "refusal", "stop"), ("openai", "empty-answer", "stop"),
    ("anthropic", "content-filter", "refusal"), ("anthropic", "max-tokens-mid-call", "max_tokens"),
    ("anthropic", "refusal", "refusal"), ("anthropic", "empty-answer", "end_turn"),
    ("openai-responses", "content-filter", "content_filter"),
    ("openai-responses", "max-tokens-mid-call", "max_output_tokens"),
    ("openai-responses", "refusal", "response.refusal.delta"), ("openai-responses", "empty-answer", '"output":[]'),
    ("gemini", "content-filter", '"finishReason":"SAFETY"'), ("gemini", "max-tokens-mid-call", '"finishReason":"MAX_TOKENS"'),
    ("gemini", "empty-answer", '"finishReason":"STOP"')])
def test_each_dialect_stops_with_its_own_reason(provider, name, stop):
    ref = REFERENCE[provider]
    mc = apply(ref.stem, str(ref), load_path(ref), Spec(name))
    assert stop.encode() in mc.capture.body
    truth = run_capture(mc.truth)
    tools = [b for b in truth.blocks if b.tool]
    assert tools == []  # a correct client runs no call of a refused, empty or cut-short turn


def test_a_chat_refusal_is_carried_in_delta_refusal():
    ref = REFERENCE["openai"]
    mc = apply(ref.stem, str(ref), load_path(ref), Spec("refusal"))
    assert b'"refusal":"I\'m sorry' in mc.capture.body and b"tool_calls" not in mc.capture.body


def test_wrong_tool_choice_swaps_the_two_tool_names_and_keeps_the_arguments():
    ref = REFERENCE["openai"]
    cap = load_path(ref)
    before = [(b.name, b.input) for b in run_capture(cap).blocks if b.tool]
    mc = apply(ref.stem, str(ref), cap, Spec("wrong-tool-choice"))
    after = [(b.name, b.input) for b in run_capture(mc.capture).blocks if b.tool]
    assert len(before) == len(after) == 2 and before[0][0] != before[1][0]
    assert [n for n, _ in after] == [before[1][0], before[0][0]]
    assert [a for _, a in after] == [a for _, a in before]


def test_wrong_tool_choice_names_another_declared_tool_when_the_request_declares_several():
    import copy
    ref = REFERENCE["openai"]
    cap = load_path(ref)
    cap.request = copy.deepcopy(cap.request) or {"method": "POST", "url": "http://x/v1/chat/completions"}
    cap.request["body"] = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}], "tools": [
        {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
        for n in ("get_news", "get_stock", "convert_currency")]}
    before = [(b.name, b.input) for b in run_capture(cap).blocks if b.tool]
    mc = apply(ref.stem, str(ref), cap, Spec("wrong-tool-choice"))
    after = [(b.name, b.input) for b in run_capture(mc.capture).blocks if b.tool]
    assert after[0] == ("get_news", before[0][1]) and after[1:] == before[1:]
    assert "called as get_news" in mc.where
