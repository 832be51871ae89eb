"""``ExchangeLog``'s history check (Q rules) when a request arrives before the answer it continues has
ended in the log: an SDK sends its next request as soon as it has read ``[DONE]``, and the relay hands
the previous exchange's end to inspection after that (``inspector.net.proxy.sink``). The check waits
for that end; the verdict is the one the calls in order give, and Q007 stays for a history that
really continues no answer of this session."""
from __future__ import annotations

import time

from inspector.feeds.exchanges.feed import ExchangeFeed
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import Chunk, End
from inspector.net.proxy.reports import report_for
from tests.conftest import SHARED_CORPUS

ANSWER = (SHARED_CORPUS / "anthropic-doc-tool-call.sse").read_bytes()
"""Text ``Let me look that up.``, then tool call ``toolu_01PoA7q`` ``get_weather({"location": "Porto Alegre, RS"})``."""
QUESTION = {"role": "user", "content": "weather in Porto Alegre?"}


def sent_back(input_: dict, tool_id: str = "toolu_01PoA7q", text: str = "Let me look that up.") -> dict:
    """The next request of an agent that ran the call with ``input_`` (the streamed one, or not)."""
    return {"stream": True, "messages": [
        QUESTION,
        {"role": "assistant", "content": [{"type": "text", "text": text},
                                          {"type": "tool_use", "id": tool_id, "name": "get_weather", "input": input_}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "21 C"}]}]}


MANGLED = sent_back({"location": "Por"})
"""The call sent back cut short: Q006 against exchange #1."""


def exchange(n: int, body: dict, path: str = "/v1/messages") -> Exchange:
    return Exchange(n=n, method="POST", path=path, target=path, url="http://up" + path,
                    request={"method": "POST", "url": "http://up" + path, "headers": {}, "body": body},
                    body=body, started_wall=time.time(), t0=time.monotonic(), request_bytes=100)


def logged() -> tuple[ExchangeLog, list[tuple[str, int]]]:
    log = ExchangeLog()
    heard: list[tuple[str, int]] = []
    log.listeners.append(lambda event, ex: heard.append((event, ex.n)))
    return log, heard


def start(log: ExchangeLog, ex: Exchange) -> None:
    """The request arrives and its whole answer is relayed; its end is not taken yet."""
    log.begin(ex)
    log.head(ex.n, 200, {"content-type": "text/event-stream"})
    log.chunk(ex.n, Chunk(0.01, ANSWER))


def end(log: ExchangeLog, n: int, kind: str = "eof") -> None:
    log.finish(n, End(0.02, kind, None if kind == "eof" else "client gone"))


def q(ex: Exchange) -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in ex.findings if f.code.startswith("Q")]


def in_order(body: dict) -> dict:
    """Exchange #2's report when #1 ended before #2 arrived (the order the check assumed)."""
    log, _ = logged()
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    end(log, 1)
    two = exchange(2, body)
    start(log, two)
    end(log, 2)
    return report_for(two)


def test_a_request_arriving_before_its_answer_ended_is_judged_when_that_answer_ends():
    log, heard = logged()
    one, two = exchange(1, {"stream": True, "messages": [QUESTION]}), exchange(2, MANGLED)
    start(log, one)
    start(log, two)  # the client read the answer, sent its next request; #1's end is still queued
    assert q(two) == []
    end(log, 1)
    assert [c for c, _ in q(two)] == ["Q006"] and two.continues == 1
    assert q(two)[0][1].startswith("vs exchange #1 (matched by tool call id): ")
    end(log, 2)
    assert heard.index(("end", 1)) < heard.index(("end", 2))
    assert report_for(two) == in_order(MANGLED)  # the same report, findings in the same places


def test_the_new_exchange_ending_first_waits_for_its_verdict_and_keeps_it():
    log, heard = logged()
    one, two = exchange(1, {"stream": True, "messages": [QUESTION]}), exchange(2, MANGLED)
    start(log, one)
    start(log, two)
    end(log, 2)  # a short answer, over before #1's end was taken
    assert ("end", 2) not in heard and not two.done and log.running == 2
    end(log, 1)
    assert [e for e in heard if e[0] == "end"] == [("end", 1), ("end", 2)] and log.running == 0
    assert report_for(two) == in_order(MANGLED)


def test_a_correct_history_gets_no_q_finding_whatever_the_order():
    log, _ = logged()
    two = exchange(2, sent_back({"location": "Porto Alegre, RS"}))
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    end(log, 2)
    end(log, 1)
    assert q(two) == [] and two.continues == 1 and two.done


def test_a_history_no_answer_of_the_session_holds_still_gets_q007_once_the_open_one_ends():
    log, _ = logged()
    two = exchange(2, sent_back({"location": "Lisbon"}, tool_id="toolu_fromBefore", text="Checking Lisbon first."))
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    assert q(two) == []
    end(log, 1)
    assert [c for c, _ in q(two)] == ["Q007"] and two.continues is None


def test_only_an_open_exchange_on_the_same_path_that_came_before_holds_the_check():
    log, _ = logged()
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}, path="/v1/chat/completions"))
    two = exchange(2, MANGLED)
    start(log, two)  # the only open exchange is on another path: nothing to wait for
    assert [c for c, _ in q(two)] == ["Q007"]
    three = exchange(3, {"stream": True, "messages": [QUESTION]})
    start(log, three)
    end(log, 3)
    first = exchange(4, {"stream": True, "messages": [QUESTION, {"role": "user", "content": "and Lisbon?"}]})
    log.begin(first)  # a first request continues no answer (no Q007): judged at once, nothing to wait for
    assert q(first) == [] and log.running == 3


def test_a_cut_answer_is_judged_as_far_as_it_came():
    log, _ = logged()
    two = exchange(2, MANGLED)
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    end(log, 1, "cancelled")  # the client left after [DONE] (what the OpenAI SDK does)
    assert [c for c, _ in q(two)] == ["Q006"] and two.continues == 1


def test_closing_the_log_judges_what_waits_with_what_is_there():
    """The earlier exchange never ends in the log (the proxy stopped first): the check is not left waiting."""
    log, heard = logged()
    two = exchange(2, MANGLED)
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    end(log, 2)
    log.close()
    assert [c for c, _ in q(two)] == ["Q007"] and ("end", 2) in heard and ("end", 1) not in heard
    end(log, 1)  # a late end changes nothing any more
    assert [c for c, _ in q(two)] == ["Q007"] and heard[-1] == ("end", 1)


def test_a_chain_of_waiting_requests_is_judged_in_order():
    """#2 continues #1 and #3 continues #2, each sent before the one before it ended in the log."""
    log, heard = logged()
    one, two = exchange(1, {"stream": True, "messages": [QUESTION]}), exchange(2, sent_back({"location": "Porto Alegre, RS"}))
    start(log, one)
    start(log, two)
    three = exchange(3, dict(MANGLED, messages=[*two.body["messages"], {"role": "assistant", "content": [
        {"type": "text", "text": "Let me look that up."},
        {"type": "tool_use", "id": "toolu_01PoA7q", "name": "get_weather", "input": {"location": "Por"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01PoA7q", "content": "21 C"}]}]))
    start(log, three)
    end(log, 3)
    end(log, 2)
    assert not two.done and not three.done
    end(log, 1)
    assert [e for e in heard if e[0] == "end"] == [("end", 1), ("end", 2), ("end", 3)]
    assert q(two) == [] and two.continues == 1
    assert [c for c, _ in q(three)] == ["Q006"] and three.continues == 2


def test_a_viewer_opened_before_the_verdict_shows_it():
    log, _ = logged()
    two = exchange(2, MANGLED)
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    log.begin(two)
    feed = ExchangeFeed(two)  # the TUI makes it on "begin", before any response head
    end(log, 1)
    assert [f.code for f in feed.session.findings] == ["Q006"]
    log.head(2, 200, {"content-type": "text/event-stream"})
    assert [f.code for f in feed.session.findings] == ["Q006"]


def test_a_verdict_after_the_response_head_bumps_the_generation():
    """Viewers count findings from where they left off: a verdict placed before the stream's own findings
    comes with a new generation, so they read the session again."""
    log, _ = logged()
    two = exchange(2, MANGLED)
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    generation = two.generation
    end(log, 1)
    assert two.generation == generation + 1


def test_the_same_request_sent_twice_gets_its_finding_twice():
    """A retry judged against the same answer: its Q006 is its own, not a repeat counted on the first
    request's finding (already reported)."""
    log, _ = logged()
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    end(log, 1)
    two, three = exchange(2, MANGLED), exchange(3, MANGLED)
    for ex in (two, three):
        start(log, ex)
        end(log, ex.n)
    assert [(f.code, f.count) for f in two.findings] == [(f.code, f.count) for f in three.findings] == [("Q006", 1)]
    assert report_for(three)["findings"] == report_for(two)["findings"]


def test_an_end_that_fails_to_be_taken_leaves_no_verdict_waiting(monkeypatch, capsys):
    log, heard = logged()
    two = exchange(2, MANGLED)
    start(log, exchange(1, {"stream": True, "messages": [QUESTION]}))
    start(log, two)
    end(log, 2)
    taken = log._end

    def broken(n: int, end_: End) -> None:
        if n == 1:
            raise RuntimeError("boom")
        taken(n, end_)

    monkeypatch.setattr(log, "_end", broken)
    end(log, 1)
    assert "inspection failed: RuntimeError: boom" in capsys.readouterr().err
    assert [c for c, _ in q(two)] == ["Q007"] and ("end", 2) in heard
