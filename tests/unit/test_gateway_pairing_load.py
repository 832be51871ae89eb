"""Pairing a gateway's two sides when agents call concurrently and the machine is loaded
(``inspector.feeds.exchanges.hops.settle``, ``inspector.compare.hops.PairLog``): time windows overlap
(the SDK sends its next request on ``[DONE]``, before the gateway closes the previous stream; two
agents' calls interleave; a back outlives its front), so what decides is what each request carries:
each upstream request belongs to the client request it repeats best, then whose relayed answer
agrees with its own. Real retries stay retries, cached answers front only."""
from __future__ import annotations

import json

from inspector.compare.hops import PairLog
from inspector.feeds.exchanges.hops import agreement, answer_marks, settle
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.model.capture import Chunk, End
from tests.gateway import toy
from tests.unit.test_gateway_pairing import anthropic, chat, ex

SYSTEM = "You are a weather bot."
TOOL_TURN = [{"role": "assistant", "content": "I'll check both cities.", "tool_calls": [{
    "id": "toolu_01WeatherDemo", "type": "function",
    "function": {"name": "get_weather", "arguments": '{"locations": [{"city": "Lisbon"}]}'}}]},
    {"role": "tool", "tool_call_id": "toolu_01WeatherDemo", "content": "Lisbon 18 C, Porto 15 C"}]


def chat_turn2(text: str) -> dict:
    body = chat(text)
    body["messages"] += TOOL_TURN
    return body


def anthropic_turn2(text: str) -> dict:
    body = anthropic(text)
    body["messages"] += [
        {"role": "assistant", "content": [{"type": "text", "text": "I'll check both cities."},
                                          {"type": "tool_use", "id": "toolu_01WeatherDemo", "name": "get_weather",
                                           "input": {"locations": [{"city": "Lisbon"}]}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01WeatherDemo",
                                      "content": "Lisbon 18 C, Porto 15 C"}]}]
    return body


def shape(pairs) -> list[tuple]:
    return [(p.status, p.front and p.front.n, p.back and p.back.n, [r.n for r in p.retries]) for p in pairs]


def test_the_next_turn_sent_before_the_gateway_closed_the_previous_stream_is_not_its_retry():
    # The agent reads [DONE] and sends its next turn; the gateway closes the first stream later (a
    # loaded machine): the second turn's upstream request starts inside the first front's window and
    # carries all of the first request's strings (its history begins with them).
    q = "Compare the weather in Lisbon and Porto."
    f = [ex(1, chat(q), 10.0, 3.0), ex(2, chat_turn2(q), 12.5, 2.0)]
    b = [ex(1, anthropic(q), 10.1, 2.3), ex(2, anthropic_turn2(q), 12.6, 1.8)]
    assert shape(settle(f, b, now=20.0)) == [("paired", 1, 1, []), ("paired", 2, 2, [])]


def test_two_agents_with_the_same_question_each_get_their_own_upstream_request():
    q = "What is the weather in Lisbon?"
    f = [ex(1, chat(q), 10.0, 2.0), ex(2, chat(q), 10.1, 2.0)]
    b = [ex(1, anthropic(q), 10.2, 1.5), ex(2, anthropic(q), 10.3, 1.5)]
    assert shape(settle(f, b, now=20.0)) == [("paired", 1, 1, []), ("paired", 2, 2, [])]


def test_interleaved_agents_a_forked_conversation_and_a_back_logged_late():
    # Agent A asks the first turn; agent B (a fork of the same conversation) asks the second; B's
    # upstream request is logged first, A's later (its tap's inspection queue lagged).
    q = "Compare the weather in Lisbon and Porto."
    f = [ex(1, chat(q), 10.0, 4.0), ex(2, chat_turn2(q), 10.05, 3.0)]
    b = [ex(1, anthropic_turn2(q), 10.1, 2.5), ex(2, anthropic(q), 10.9, 3.0)]
    assert shape(settle(f, b, now=20.0)) == [("paired", 1, 2, []), ("paired", 2, 1, [])]


def test_a_back_that_outlives_its_front_is_waited_for_and_not_given_to_the_next_front():
    # B's client gave up at 11.0; its upstream stream runs to 14.0; A asks the same meanwhile.
    q = "What is the weather in Lisbon?"
    fb, fa = ex(1, chat(q), 10.0, 1.0, status=200), ex(2, chat(q), 11.2, 1.0)
    bb, ba = ex(1, anthropic(q), 10.1, None), ex(2, anthropic(q), 11.3, 0.5)
    assert shape(settle([fb, fa], [bb, ba], now=12.9)) == [("paired", 2, 2, [])]  # B waits for its back
    bb.end = End(t=3.9, kind="eof")
    assert shape(settle([fb], [bb], now=14.6)) == [("paired", 1, 1, [])]


def test_a_retry_interleaved_with_another_agents_call_stays_with_its_front():
    qa, qb = "And Braga, if you would?", "Anything for Coimbra today?"
    f = [ex(1, chat(qa), 10.0, 3.0), ex(2, chat(qb), 10.1, 1.5)]
    b = [ex(1, anthropic(qa), 10.05, 0.1, status=529), ex(2, anthropic(qb), 10.2, 1.2),
         ex(3, anthropic(qa), 11.0, 1.5)]
    assert shape(settle(f, b, now=20.0)) == [("paired", 1, 3, [1]), ("paired", 2, 2, [])]


def test_a_cached_answer_beside_another_agents_identical_call_stays_front_only():
    # A is answered from the gateway's cache while B's identical question goes upstream: B's
    # upstream request is B's (it started after A's answer ended), A is front only.
    q = "What is the weather in Lisbon?"
    f = [ex(1, chat(q), 10.0, 0.02), ex(2, chat(q), 10.01, 1.0)]
    b = [ex(1, anthropic(q), 10.05, 0.9)]
    pairs = settle(f, b, now=20.0)
    assert shape(pairs) == [("front only", 1, None, []), ("paired", 2, 1, [])]
    assert "cached answer" in pairs[0].reason


def test_pairlog_two_agents_fed_as_the_taps_feed_it_under_load():
    # Both logs fed in the order a loaded loop sees them: B's two turns overlapping (its first stream
    # closed after its second turn went upstream), A's call interleaved, A's upstream end logged last.
    front, back = ExchangeLog(), ExchangeLog()
    clock = [0.0]
    log = PairLog(front, back, clock=lambda: clock[0])
    q, qa = "Compare the weather in Lisbon and Porto.", "What is the weather in Faro?"
    fronts = {n: ex(n, body, t, None) for n, body, t in
              ((1, chat(q), 10.0), (2, chat(qa), 10.2), (3, chat_turn2(q), 13.4))}
    backs = {n: ex(n, body, t, None) for n, body, t in
             ((1, anthropic(q), 10.1), (2, anthropic(qa), 10.4), (3, anthropic_turn2(q), 13.5))}
    events = [(front, fronts[1]), (back, backs[1]), (front, fronts[2]), (back, backs[2]), (front, fronts[3]),
              (back, backs[3])]
    for lg, e in events:
        lg.begin(e)
    clock[0] = 16.0
    for lg, e, t in ((back, backs[1], 3.2), (front, fronts[1], 3.8), (back, backs[3], 1.5), (front, fronts[3], 1.8),
                     (front, fronts[2], 4.0), (back, backs[2], 3.9)):
        lg.finish(e.n, End(t=t, kind="eof"))
    clock[0] = 30.0
    log.tick()
    got = sorted((p.status, p.hop.front and p.hop.front.n, p.hop.back and p.hop.back.n, [r.n for r in p.hop.retries])
                 for p in log.pairs)
    assert got == [("paired", 1, 1, []), ("paired", 2, 2, []), ("paired", 3, 3, [])]


def chat_sse(text: str, tool_id: str) -> bytes:
    return b"".join(toy.chunk(d, fin) for d, fin in (
        ({"role": "assistant", "content": text}, None),
        ({"tool_calls": [{"index": 0, "id": tool_id, "type": "function",
                          "function": {"name": "get_weather", "arguments": "{}"}}]}, None),
        ({}, "tool_calls"))) + b"data: [DONE]\n\n"


def anthropic_sse(text: str, tool_id: str) -> bytes:
    events = [("message_start", {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {
            "type": "tool_use", "id": tool_id, "name": "get_weather", "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1,
                                 "delta": {"type": "input_json_delta", "partial_json": "{}"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
        ("message_stop", {"type": "message_stop"})]
    return b"".join(f"event: {name}\ndata: {json.dumps(ev)}\n\n".encode() for name, ev in events)


def test_two_agents_asking_alike_are_told_apart_by_the_answers_the_gateway_relayed():
    # Same request from two agents; the gateway sent B's upstream request first (A's waited on a
    # loaded machine). Upstream answered each differently; each front relayed its own answer.
    front, back = ExchangeLog(), ExchangeLog()
    log = PairLog(front, back, clock=lambda: 30.0)
    q = "What is the weather in Lisbon?"
    fa, fb = ex(1, chat(q), 10.0, None), ex(2, chat(q), 10.02, None)
    bb, ba = ex(1, anthropic(q), 10.05, None), ex(2, anthropic(q), 10.3, None)
    for e, path in ((fa, "/v1/chat/completions"), (fb, "/v1/chat/completions"), (bb, "/v1/messages"),
                    (ba, "/v1/messages")):
        e.path, e.linted, e.status = path, False, None
    for lg, e in ((front, fa), (front, fb), (back, bb), (back, ba)):
        lg.begin(e)
    answers = ((back, bb, anthropic_sse("Rain in Lisbon.", "toolu_B")), (back, ba, anthropic_sse("Sun in Lisbon.", "toolu_A")),
               (front, fb, chat_sse("Rain in Lisbon.", "toolu_B")), (front, fa, chat_sse("Sun in Lisbon.", "toolu_A")))
    for lg, e, body in answers:
        lg.head(e.n, 200, {"content-type": "text/event-stream"})
        lg.chunk(e.n, Chunk(0.1, body))
    for lg, e, _ in answers:
        lg.finish(e.n, End(t=1.0, kind="eof"))
    log.tick()
    got = sorted((p.status, p.hop.front and p.hop.front.n, p.hop.back and p.hop.back.n, [r.n for r in p.hop.retries])
                 for p in log.pairs)
    assert got == [("paired", 1, 2, []), ("paired", 2, 1, [])]
    assert all(p.clean for p in log.pairs), [p.found for p in log.pairs]


def test_agreement_of_two_answers():
    ids = frozenset({"toolu_A"})
    assert agreement(("Sun in", frozenset()), ("Sun in Lisbon.", frozenset())) == 1  # a stream still running
    assert agreement(("Sun", ids), ("Rain", ids)) == 1  # the ids decide where both show some
    assert agreement(("Sun", ids), ("Sun", frozenset({"toolu_B"}))) == -1
    assert agreement(("Sun in Lisbon.", frozenset()), ("Rain in Lisbon.", frozenset())) == -1
    assert agreement(("", frozenset()), ("Rain", frozenset())) == 0
    assert agreement(None, ("Rain", ids)) == 0
    assert answer_marks(ex(1, None, 10.0, 1.0)) is None  # no stream read (released, not streamed)
