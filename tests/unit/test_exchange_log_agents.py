"""Several agents behind one proxy on one path: a request's history verdict waits only for the open
answers it may continue (``ExchangeLog``, ``pairing.answers_in_question``), never for another
agent's stream, however long that one runs; the race the wait exists for (the answer the client
read still open in the log) stays closed, for clients that rewrite their earlier turns too."""
from __future__ import annotations

from inspector.feeds.exchanges.log import ExchangeLog
from inspector.feeds.exchanges.pairing import answers_in_question
from inspector.model.capture import Chunk
from inspector.net.proxy.reports import report_for
from tests.unit.test_exchange_log_history import (ANSWER, MANGLED, QUESTION, end, exchange, in_order, logged, q,
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


def test_an_answer_whose_bytes_are_not_inspected_yet_is_waited_for_as_its_conversation():
    """The answer's last bytes relayed, their inspection not run yet (nothing of it in the log): the request
    shows no answer, but the open exchange's request began its history."""
    log, _ = logged()
    stalled(log, 1)
    log.begin(exchange(2, {"stream": True, "messages": [QUESTION]}))
    log.head(2, 200, {"content-type": "text/event-stream"})
    three = exchange(3, MANGLED)
    start(log, three)
    assert q(three) == []
    log.chunk(2, Chunk(0.01, ANSWER))
    end(log, 2)
    assert [c for c, _ in q(three)] == ["Q006"] and three.continues == 2


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


def test_a_history_that_shows_no_answer_at_all_gets_its_q007_at_once():
    """A conversation begun before the proxy: nothing it could continue is open, nothing to wait for."""
    log, _ = logged()
    stalled(log, 1)
    before = exchange(2, sent_back({"location": "Lisbon"}, tool_id="toolu_fromBefore", text="Checking Lisbon first."))
    start(log, before)
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


SECOND = ANSWER.replace(b"toolu_01PoA7q", b"toolu_02Second").replace(b"Let me look that up.", b"Now a second look, then.")
"""Agent B's second answer (another tool id, another text)."""
ANSWER_TURN = MANGLED["messages"][1:]
"""The first answer sent back (its call cut short) and its tool result."""
BEYOND = [{"role": "assistant", "content": [{"type": "text", "text": "(rewritten by the client)"},
                                            {"type": "tool_use", "id": "toolu_zz", "name": "get_weather", "input": {}}]},
          {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_zz", "content": "ok"}]}]
"""The second answer sent back mangled beyond recognition: found through the earlier turn only."""
REQUESTS = {
    "mangled call": MANGLED,
    "correct call": sent_back({"location": "Porto Alegre, RS"}),
    "earlier turns rewritten": dict(MANGLED, messages=[{"role": "user", "content": [{"type": "text", "text": "w?"}]},
                                                       *ANSWER_TURN]),
    "tool result alone": {"stream": True, "messages": [ANSWER_TURN[1]]},
    "from before the proxy": sent_back({"location": "Lisbon"}, tool_id="toolu_fromBefore", text="Checking Lisbon first."),
    "second answer mangled beyond recognition": {"stream": True, "messages": [QUESTION, *ANSWER_TURN, *BEYOND]},
    "second answer sent back": {"stream": True, "messages": [QUESTION, *ANSWER_TURN, {"role": "assistant", "content": [
        {"type": "text", "text": "Now a second look, then."},
        {"type": "tool_use", "id": "toolu_02Second", "name": "get_weather", "input": {"location": "Porto"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_02Second", "content": "ok"}]}]},
    "odd items": {"stream": True, "messages": [None, 3, "x", {"role": "assistant", "content": 7}, {"role": "tool"},
                                               {"role": "assistant", "content": [None, {"type": "tool_use", "id": None}]}]},
    "odd history": {"stream": True, "messages": "not a list", "input": [{"type": "function_call_output"}]},
}


def conversation(log: ExchangeLog, a: str) -> None:
    """Agent A's answer (``a``: writing text, silent, or the same answer as B's) open all along; agent B's
    #2 (ended) and #3 (its second request, answered ``SECOND``: its end not taken yet)."""
    if a == "same answer":
        start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    else:
        stalled(log, 1, text=a == "writing")
    start(log, exchange(2, {"stream": True, "messages": [QUESTION]}))
    end(log, 2)
    log.begin(exchange(3, sent_back({"location": "Porto Alegre, RS"})))
    log.head(3, 200, {"content-type": "text/event-stream"})
    log.chunk(3, Chunk(0.01, SECOND))


def verdict_of(body: dict, a: str, order: str) -> tuple:
    """#4's verdict (Q findings, ``continues``, whether it was reported) before A's answer ends, and its
    report after; ``order``: "in order" (#3 ended before #4 arrived), "raced" (#4 arrived first, #3's
    end then taken first), "raced, ending first" (#4's end posted before #3's)."""
    log, _ = logged()
    conversation(log, a)
    four = exchange(4, body)
    if order == "in order":
        end(log, 3)
        start(log, four)
        end(log, 4)
    else:
        start(log, four)
        if order == "raced":
            end(log, 3)
            end(log, 4)
        else:
            end(log, 4)
            end(log, 3)
    before = q(four), four.continues, four.done
    end(log, 1)
    return before, report_for(four)["findings"]


FOLLOWED = {"second answer mangled beyond recognition"}
"""Only an earlier turn shows an answer: it may be followed forward to any open one (A's too)."""
ODD = {"odd items", "odd history"}
"""Show no answer at all (not even A's equal one): Q007 at once."""


def test_the_verdict_in_a_race_is_the_one_the_calls_in_order_give_while_another_stream_stays_open():
    """Differential: each request raced (#4 before #3's end, ending after or before it) against the same
    request sent once #3 had ended, another agent's answer open all along (writing, silent, or equal to
    B's: the same ids, so it may be the one continued) and ended last."""
    for name, body in REQUESTS.items():
        for a in ("writing", "silent", "same answer"):
            expected = verdict_of(body, a, "in order")
            assert expected[0][2] == (name in ODD or (a != "same answer" and name not in FOLLOWED)), (name, a)
            for order in ("raced", "raced, ending first"):
                assert verdict_of(body, a, order) == expected, (name, a, order)


def test_a_body_that_is_not_a_json_object_leaves_no_open_answer_out():
    log, _ = logged()
    stalled(log, 1)
    odd = exchange(2, {})
    odd.body = ["not", "an", "object"]
    assert answers_in_question(odd, [log.by_n[1]], log.exchanges) == [log.by_n[1]]
