"""Several agents behind one proxy on one path: a request's history verdict waits only for the open
answers it may continue (``ExchangeLog``, ``pairing.answers_in_question``), never for another
agent's stream, however long that one runs; the race the wait exists for (the answer the client
read still open in the log) stays closed, for clients that rewrite their earlier turns too."""
from __future__ import annotations

from inspector.feeds.exchanges.log import ExchangeLog
from inspector.model.capture import Chunk
from inspector.net.proxy.reports import report_for
from tests.unit.test_exchange_log_history import (MANGLED, QUESTION, end, exchange, in_order, logged, q,
                                                   sent_back, start)

ESSAY = {"stream": True, "messages": [{"role": "user", "content": "write me a long essay"}]}
"""Agent A's request: a first request (its answer streams for minutes)."""
ESSAY_HEAD = (b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_essay","type":"message",'
              b'"role":"assistant","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":1}}}\n\n')
ESSAY_TEXT = (b'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":'
              b'{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta",'
              b'"index":0,"delta":{"type":"text_delta","text":"Chapter one. It was a dark and stormy night"}}\n\n')


def stalled(log: ExchangeLog, n: int, *, text: bool = True) -> None:
    """Agent A's answer, begun and never ended: its head, and its text so far (or nothing yet: thinking)."""
    log.begin(exchange(n, ESSAY))
    log.head(n, 200, {"content-type": "text/event-stream"})
    log.chunk(n, Chunk(0.01, ESSAY_HEAD + (ESSAY_TEXT if text else b"")))


def test_another_agents_long_stream_delays_no_verdict_and_no_report():
    for text in (True, False):  # A's answer writing text, or still silent (a long thinking phase)
        log, heard = logged()
        stalled(log, 1, text=text)
        start(log, exchange(2, {"stream": True, "messages": [QUESTION]}))  # agent B
        end(log, 2)
        three = exchange(3, MANGLED)
        start(log, three)
        assert [c for c, _ in q(three)] == ["Q006"] and three.continues == 2
        end(log, 3)
        assert ("end", 3) in heard and log.running == 1 and not log.by_n[1].done


def test_the_answer_the_client_read_still_open_holds_the_verdict_and_not_the_other_stream():
    log, heard = logged()
    stalled(log, 1)
    two, three = exchange(2, {"stream": True, "messages": [QUESTION]}), exchange(3, MANGLED)
    start(log, two)
    start(log, three)  # agent B read #2's answer; #2's end not taken yet
    end(log, 3)
    assert q(three) == [] and ("end", 3) not in heard
    end(log, 2)
    assert [c for c, _ in q(three)] == ["Q006"] and three.continues == 2 and ("end", 3) in heard
    assert not log.by_n[1].done


def test_a_client_that_rewrites_its_earlier_turns_still_waits_for_the_answer_it_read():
    """The first message rewritten (cache_control moved): its conversation is not recognised, its answer is."""
    log, _ = logged()
    stalled(log, 1)
    start(log, exchange(2, {"stream": True, "messages": [QUESTION]}))
    rewritten = dict(MANGLED, messages=[{"role": "user", "content": [
        {"type": "text", "text": QUESTION["content"], "cache_control": {"type": "ephemeral"}}]}, *MANGLED["messages"][1:]])
    three = exchange(3, rewritten)
    start(log, three)
    assert q(three) == []
    end(log, 2)
    assert [c for c, _ in q(three)] == ["Q006"] and three.continues == 2


def test_a_history_whose_last_turn_matches_no_answer_yet_waits_for_every_open_one():
    """Nothing shows what it continues (the answer it read left no evidence, or it is from before the
    proxy): it may continue any open answer, through an earlier turn, so it waits for all of them."""
    log, _ = logged()
    stalled(log, 1)
    before = exchange(2, sent_back({"location": "Lisbon"}, tool_id="toolu_fromBefore", text="Checking Lisbon first."))
    start(log, before)
    assert q(before) == []
    end(log, 1)
    assert [c for c, _ in q(before)] == ["Q007"]


def test_hundreds_of_agents_behind_one_stalled_stream_wait_for_nothing():
    log, heard = logged()
    stalled(log, 1)
    for k in range(200):
        first, then = 2 + 2 * k, 3 + 2 * k
        start(log, exchange(first, {"stream": True, "messages": [QUESTION]}))
        end(log, first)
        start(log, exchange(then, MANGLED))
        end(log, then)
    assert not log._waiting and not log._ends_due and log.running == 1
    assert sum(1 for e, _ in heard if e == "end") == 400


def test_the_report_is_the_one_the_calls_in_order_give():
    log, _ = logged()
    stalled(log, 1)
    start(log, exchange(2, {"stream": True, "messages": [QUESTION]}))
    three = exchange(3, MANGLED)
    start(log, three)
    end(log, 2)
    end(log, 3)
    report = report_for(three)
    expected = in_order(MANGLED)
    assert [(f["code"], f["message"].replace("#2", "#1")) for f in report["findings"]] == [
        (f["code"], f["message"]) for f in expected["findings"]]
