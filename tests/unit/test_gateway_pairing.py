"""Pairing a gateway's two sides (``inspector.feeds.exchanges.hops.settle``): by time and request
content; retries, cached answers, refused requests and the gateway's own traffic shown as such."""
from __future__ import annotations

from inspector.feeds.exchanges.hops import content_score, settle
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import End


def chat(text: str) -> dict:
    return {"model": "claude", "stream": True, "messages": [{"role": "system", "content": "You are a weather bot."},
                                                           {"role": "user", "content": text}]}


def anthropic(text: str) -> dict:
    return {"model": "claude-sonnet-4-5", "system": [{"type": "text", "text": "You are a weather bot."}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}], "stream": True}


def ex(n: int, body: dict | None, start: float, dur: float | None, status: int | None = 200) -> Exchange:
    e = Exchange(n=n, method="POST", path="/v1/x", target="/v1/x", url="http://u/v1/x", request={}, body=body,
                 started_wall=start, t0=start, status=status, linted=True)
    if dur is not None:
        e.end = End(t=dur, kind="eof")
    return e


def test_translated_requests_pair_by_content_and_time():
    f = [ex(1, chat("What is the weather in Lisbon?"), 10.0, 1.0), ex(2, chat("And in Porto tomorrow?"), 10.2, 1.0)]
    b = [ex(1, anthropic("And in Porto tomorrow?"), 10.25, 0.8), ex(2, anthropic("What is the weather in Lisbon?"), 10.05, 0.9)]
    assert content_score(f[0], b[1]) == 1.0 and content_score(f[0], b[0]) == 0.5  # the system prompt alone
    pairs = settle(f, b, now=20.0)
    assert [(p.status, p.front.n, p.back.n, p.score) for p in pairs] == [("paired", 1, 2, 1.0), ("paired", 2, 1, 1.0)]
    assert pairs[0].matched_by == "time and request content"


def test_a_gateway_retry_is_kept_with_its_pair_and_the_answering_attempt_paired():
    f = [ex(1, chat("What is the weather in Lisbon?"), 10.0, 3.0)]
    b = [ex(1, anthropic("What is the weather in Lisbon?"), 10.05, 0.1, status=529),
         ex(2, anthropic("What is the weather in Lisbon?"), 11.2, 1.5)]
    (p,) = settle(f, b, now=20.0)
    assert (p.status, p.back.n, [r.n for r in p.retries]) == ("paired", 2, [1])


def test_a_cached_answer_and_a_refused_request_are_front_only_with_the_reason():
    f = [ex(1, chat("What is the weather in Lisbon?"), 10.0, 0.01), ex(2, chat("Hello there, gateway"), 12.0, 0.01, status=401)]
    pairs = settle(f, [], now=20.0)
    assert [(p.status, p.back) for p in pairs] == [("front only", None), ("front only", None)]
    assert "cached answer" in pairs[0].reason and "HTTP 401" in pairs[1].reason


def test_the_gateways_own_request_is_back_only_never_paired_with_an_unrelated_client_request():
    f = [ex(1, chat("What is the weather in Lisbon?"), 10.0, 1.0)]
    b = [ex(1, {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "health check ping"}]}, 10.3, 0.1),
         ex(2, None, 30.0, 0.1)]
    pairs = settle(f, b, now=40.0)
    assert [(p.status, p.front.n if p.front else None, p.back.n if p.back else None) for p in pairs] == [
        ("front only", 1, None), ("back only", None, 1), ("back only", None, 2)]
    assert "gateway's own request" in pairs[1].reason


def test_nothing_is_decided_while_a_side_is_still_open_or_within_the_grace():
    f = [ex(1, chat("What is the weather in Lisbon?"), 10.0, None)]
    b = [ex(1, anthropic("What is the weather in Lisbon?"), 10.05, None)]
    assert settle(f, b, now=11.0) == []
    f[0].end = End(t=1.0, kind="eof")
    assert settle(f, b, now=11.1) == []  # its upstream exchange has not ended
    assert settle([f[0]], [], now=11.1) == []  # within the grace
    b[0].end = End(t=0.9, kind="eof")
    assert settle(f, b, now=11.1) == []  # matched, but within the grace: a retry may still be logged
    assert [p.status for p in settle(f, b, now=11.6)] == ["paired"]
    late = ex(3, None, 12.0, 0.1)
    assert settle([], [late], now=12.2) == []  # grace
    assert [p.status for p in settle([ex(9, chat("still streaming here"), 11.9, None)], [late], now=20.0)] == []


def test_requests_without_comparable_strings_pair_by_time_only_and_say_so():
    f = [ex(1, {"messages": [{"role": "user", "content": "hi"}]}, 10.0, 1.0)]
    b = [ex(1, {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}, 10.1, 0.5)]
    (p,) = settle(f, b, now=20.0)
    assert p.status == "paired" and p.score is None and p.matched_by.startswith("time only")


def test_a_retry_logged_after_its_front_ended_is_still_kept_with_its_pair():
    # A tap hands exchanges to its log through its inspection queue: the gateway's second attempt can
    # appear in the back log after the front exchange it answered has ended, while the first is done.
    f = [ex(1, chat("And Braga, if you would?"), 10.0, 1.0), ex(2, chat("Anything for Coimbra?"), 11.2, 0.05, 401)]
    first = ex(1, anthropic("And Braga, if you would?"), 10.05, 0.3)
    assert settle(f, [first], now=11.3) == []  # the retry not logged yet: within the grace, nothing decided
    second = ex(2, anthropic("And Braga, if you would?"), 10.4, 0.55)
    pairs = settle(f, [first, second], now=12.0)
    assert [(p.status, p.front.n, p.back and p.back.n, [r.n for r in p.retries]) for p in pairs] == [
        ("paired", 1, 2, [1]), ("front only", 2, None, [])]
