"""Each provider's request-history reader gives the same provider-neutral history for the same
conversation, and the Q rules (written once, ``inspector.session.rules.history``) judge it the same
whatever the shape. Every registered provider with a history reader is included: one that has no
writer below fails ``test_every_history_reader_has_a_writer``."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

import pytest

from inspector.model.history import History, Misplaced
from inspector.providers import PROVIDERS
from inspector.session.history import check_request
from inspector.session.rules import history as rules
from tests.helpers import check_bytes, sse

ARGS = {"path": "a.txt", "content": "hello world"}


@dataclass(frozen=True)
class Conversation:
    """One tool round, as the client sends it back: the question, the answer it repeats (a text and
    one tool call), the tool's result."""

    call_id: str = "call_1"
    name: str = "write"
    arguments: object = None
    result_id: str = "call_1"
    text: str = "Writing."
    written: str | None = None
    """The arguments' JSON text as a text shape writes it (default: ``arguments`` as JSON)."""
    signature: str | None = None
    """The signature sent back, where the shape carries one (Anthropic thinking, Gemini
    ``thoughtSignature``, Chat-compat ``extra_content.google.thought_signature``)."""

    @property
    def args(self) -> object:
        return dict(ARGS) if self.arguments is None else self.arguments

    @property
    def args_text(self) -> str:
        return json.dumps(self.args) if self.written is None else self.written


def anthropic(c: Conversation) -> tuple[str, list]:
    return "messages", [
        {"role": "user", "content": "write a file"},
        {"role": "assistant", "content": [
            *([{"type": "thinking", "thinking": "plan", "signature": c.signature}] if c.signature else []),
            {"type": "text", "text": c.text}, {"type": "tool_use", "id": c.call_id, "name": c.name, "input": c.args}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c.result_id, "content": "ok"}]}]


def chat(c: Conversation) -> tuple[str, list]:
    return "messages", [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "write a file"},
        {"role": "assistant", "content": c.text, "tool_calls": [
            {"id": c.call_id, "type": "function", "function": {"name": c.name, "arguments": c.args_text},
             **({"extra_content": {"google": {"thought_signature": c.signature}}} if c.signature else {})}]},
        {"role": "tool", "tool_call_id": c.result_id, "content": "ok"}]


def responses(c: Conversation) -> tuple[str, list]:
    return "input", [
        {"role": "user", "content": "write a file"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": c.text}]},
        {"type": "function_call", "call_id": c.call_id, "name": c.name, "arguments": c.args_text},
        {"type": "function_call_output", "call_id": c.result_id, "output": "ok"}]


def gemini(c: Conversation) -> tuple[str, list]:
    return "contents", [
        {"role": "user", "parts": [{"text": "write a file"}]},
        {"role": "model", "parts": [{"text": c.text},
                                    {"functionCall": {"id": c.call_id, "name": c.name, "args": c.args},
                                     **({"thoughtSignature": c.signature} if c.signature else {})}]},
        {"role": "user", "parts": [{"functionResponse": {"id": c.result_id, "name": c.name,
                                                         "response": {"ok": True}}}]}]


def realtime(c: Conversation) -> tuple[str, list]:
    """The items the client created on the socket: the call (a client may add it to the server's
    conversation itself) and its output; the question and the text live on the server."""
    def create(item: dict) -> dict:
        return {"type": "conversation.item.create", "item": item}
    return "sent", [create({"type": "function_call", "call_id": c.call_id, "name": c.name,
                            "arguments": c.args_text}),
                    create({"type": "function_call_output", "call_id": c.result_id, "output": "ok"})]


WRITERS = {"anthropic": anthropic, "openai": chat, "openai-responses": responses, "gemini": gemini,
           "openai-realtime": realtime}
"""How the conversation is written in each provider's request shape, by provider name."""

READERS = {name: p for name, p in PROVIDERS.items() if p.history is not None}

# The streamed answer every shape is judged against: a text and one complete tool call.
STREAM = sse(*({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": d, "finish_reason": f}]} for d, f in (
    ({"role": "assistant", "content": "Writing."}, None),
    ({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                      "function": {"name": "write", "arguments": json.dumps(ARGS)}}]}, None),
    ({}, "tool_calls"))), "[DONE]", named=False)


def read(name: str, c: Conversation) -> History:
    key, items = WRITERS[name](c)
    shape = READERS[name].history
    assert shape is not None and shape.key == key
    return shape.read(items)


def judge(name: str, c: Conversation, *, streamed_signature: str | None = None) -> list[str]:
    """The Q codes for conversation ``c`` written in provider ``name``'s shape, against ``STREAM`` (its
    tool call given ``streamed_signature``)."""
    s = check_bytes(STREAM)
    assert [f.code for f in s.findings if f.severity != "info"] == []
    next(b for b in s.blocks if b.tool).signature = streamed_signature
    out: list[str] = []
    rules.check(s.blocks, read(name, c), lambda code, msg, index: out.append(code))
    return out


def essence(h: History) -> tuple:
    """What a history says about the answer it repeats, without where it says it."""
    assert h.answer is not None
    calls = tuple((c.id, c.name, json.dumps(c.arguments, sort_keys=True), c.parsed) for c in h.answer.calls)
    return calls, tuple(r.id for r in h.answer.results)


def test_every_history_reader_has_a_writer():
    assert sorted(READERS) == sorted(WRITERS)


@pytest.mark.parametrize("name", sorted(READERS))
def test_each_shape_reads_to_the_same_history(name):
    h = read(name, Conversation())
    assert essence(h) == ((("call_1", "write", json.dumps(ARGS, sort_keys=True), True),), ("call_1",))
    assert not [p for p in h.written if isinstance(p, Misplaced)]
    texts = [t.text for t in h.answer.texts] if h.answer is not None else []
    assert texts == ([] if name == "openai-realtime" else ["Writing."])  # Realtime: the text is the server's
    key = WRITERS[name](Conversation())[0]
    assert h.written and all(p.where.startswith(f"{key}[") for p in h.written)  # in the request's own terms


CASES = {
    "clean": (Conversation(), []),
    "arguments differ": (Conversation(arguments={"path": "a.txt"}), ["Q006"]),
    "arguments not an object": (Conversation(arguments=[1, 2]), ["Q005"]),
    "result for a call never streamed": (Conversation(result_id="call_zz"), ["Q003"]),
    "call never streamed": (Conversation(call_id="call_x", result_id="call_x"), ["Q003"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_rule_fires_the_same_for_the_same_conversation_in_every_shape(case):
    conversation, expected = CASES[case]
    assert {name: judge(name, conversation) for name in READERS} == {name: expected for name in READERS}


def test_the_rules_read_only_the_history():
    """The rules take a ``History`` and the streamed blocks, nothing of a provider: a history written by
    hand is judged like one a reader gave."""
    s = check_bytes(STREAM)
    h = read("openai", Conversation())
    assert h.answer is not None
    out: list = []
    rules.check(s.blocks, h, lambda code, msg, index: out.append((code, index)))
    assert out == []
    call = replace(h.answer.calls[0], arguments={"x": 1}, text=None)
    hand = History(h.wording, (call,), replace(h.answer, calls=(call,), results=()))
    rules.check(s.blocks, hand, lambda code, msg, index: out.append((code, index)))
    assert out == [("Q006", next(b.index for b in s.blocks if b.tool))]


# --------------------------------------------------------------------------- behaviours made one
def q(stream: bytes, body: dict) -> list[str]:
    s = check_bytes(stream)
    check_request(s, body)
    return [f.code for f in s.findings if f.code.startswith("Q")]


@pytest.mark.parametrize("name", ["openai", "openai-responses", "openai-realtime"])
def test_arguments_that_are_not_json_are_q005_and_differ_q006_in_every_text_shape(name):
    """Once only Chat said Q006 for cut-off argument text; Responses and Realtime said nothing (or only Q005)."""
    assert judge(name, Conversation(written='{"path": "a.t')) == ["Q005", "Q006"]


def test_gemini_args_null_is_no_arguments():
    """proto3 JSON: ``args: null`` is unset, the same as no ``args``: no arguments, so they differ (Q006)."""
    key, items = gemini(Conversation())
    items[1]["parts"][1]["functionCall"]["args"] = None
    assert q(STREAM, {key: items}) == ["Q006"]
    items[1]["parts"][1]["functionCall"].pop("args")
    assert q(STREAM, {key: items}) == ["Q006"]


def test_a_part_type_of_the_wrong_json_type_never_crashes():
    for typ in ({}, [], 3):
        body = {"system": "s", "messages": [{"role": "assistant", "content": [{"type": typ}, {"type": "text", "text": ""}]},
                                            {"role": "user", "content": "go on"}]}
        assert q(STREAM, body) == ["Q002"]  # read as Anthropic (``system``), which rejects empty text


SIGNED = {"anthropic", "openai", "gemini"}
"""The shapes that send a signature back (Responses keeps reasoning on the server or in its own items)."""


def test_the_shapes_that_carry_a_signature():
    carried = {name for name in READERS
               if (h := read(name, Conversation(signature="SIG"))).answer and "SIG" in h.answer.signatures}
    assert carried == SIGNED


@pytest.mark.parametrize("name", sorted(SIGNED))
def test_a_signature_is_judged_the_same_in_every_shape_that_carries_one(name):
    """Q004: the streamed signature must come back in the answer's turn, compared as bytes (base64url
    is the same signature)."""
    sig, url_safe = "Et8E+x/9Zw==", "Et8E-x_9Zw"
    assert judge(name, Conversation(signature=sig), streamed_signature=sig) == []
    assert judge(name, Conversation(signature=url_safe), streamed_signature=sig) == []
    assert judge(name, Conversation(), streamed_signature=sig) == ["Q004"]
    assert judge(name, Conversation(signature="Et8E-x_9Zg"), streamed_signature=sig) == ["Q004"]
