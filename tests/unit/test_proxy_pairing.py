"""``inspector.feeds.exchanges.pairing.continued_exchange``: which earlier answer a request's history continues.

Pure: exchanges are built by hand (blocks as plain objects, or a real session from SSE bytes);
no network, no event loop.
"""
from __future__ import annotations

from types import SimpleNamespace

from inspector.model.capture import End
from inspector.feeds.exchanges.pairing import continued_exchange, history_strings
from inspector.feeds.exchanges.record import Exchange
from tests.helpers import check_bytes, sse

PATH = "/v1/messages"


def tool(block_id: str, call_id: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(kind="tool_use", tool=True, id=block_id, call_id=call_id, content="{}")


def text(content: str) -> SimpleNamespace:
    return SimpleNamespace(kind="text", tool=False, id=None, call_id=None, content=content)


def exchange(n: int, blocks=(), *, body=None, path: str = PATH, done: bool = True, linted: bool = True,
             session=None) -> Exchange:
    ex = Exchange(n=n, method="POST", path=path, target=path, url="http://upstream" + path, request={},
                  body=body, started_wall=0.0, t0=0.0, linted=linted)
    ex.session = session if session is not None else SimpleNamespace(blocks=list(blocks))
    ex.end = End(1.0, "eof") if done else None
    return ex


def asking(n: int, *history_texts: str, path: str = PATH) -> Exchange:
    """Exchange ``n`` whose request history holds ``history_texts`` (as tool results and assistant text)."""
    msgs = [{"role": "user", "content": "go"}]
    msgs += [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": t, "content": "ok"}]}
             for t in history_texts]
    return exchange(n, body={"model": "m", "messages": msgs}, path=path, done=False, linted=False)


def test_the_exchange_whose_tool_id_the_history_repeats_wins_over_a_more_recent_one():
    older, newer = exchange(1, [tool("toolu_older")]), exchange(2, [tool("toolu_newer")])
    ex = asking(3, "toolu_older")
    assert continued_exchange(ex, [older, newer, ex]) == (older, "matched by tool call id")


def test_a_responses_call_id_counts_as_a_tool_id():
    older, newer = exchange(1, [tool("fc_1", call_id="call_abcd")]), exchange(2, [tool("fc_2")])
    assert continued_exchange(asking(3, "call_abcd"), [older, newer]) == (older, "matched by tool call id")


def test_without_tool_ids_the_start_of_the_assistant_text_matches():
    older, newer = exchange(1, [text("The capital is Paris." + "x" * 300)]), exchange(2, [text("Something else.")])
    ex = asking(3, "The capital is Paris." + "x" * 179)  # the first 200 characters are enough
    assert continued_exchange(ex, [older, newer]) == (older, "matched by assistant text")


def test_text_is_not_looked_for_in_an_answer_that_had_tool_ids():
    # Its ids are the better evidence: they are absent, so its text alone does not pair it.
    older, newer = exchange(1, [text("Writing the file now."), tool("toolu_x")]), exchange(2, [text("Other.")])
    assert continued_exchange(asking(3, "Writing the file now."), [older, newer]) == (newer, "most recent on this path")


def test_ids_and_texts_too_short_to_be_evidence_are_ignored():
    older, newer = exchange(1, [tool("t1")]), exchange(2, [text("ok")])
    older_text = exchange(3, [text("short")])
    ex = asking(4, "t1", "ok", "short")
    assert continued_exchange(ex, [older, newer, older_text]) == (older_text, "most recent on this path")


def test_when_nothing_matches_the_most_recent_candidate_is_taken():
    a, b = exchange(1, [tool("toolu_a")]), exchange(2, [tool("toolu_b")])
    assert continued_exchange(asking(3, "toolu_zzz"), [a, b]) == (b, "most recent on this path")


def test_only_finished_linted_earlier_exchanges_on_the_same_path_with_blocks_are_candidates():
    ex = asking(5, "toolu_1")
    others = [
        exchange(1, [tool("toolu_1")], path="/v1/chat/completions"),  # another path
        exchange(2, [tool("toolu_1")], done=False),  # still streaming
        exchange(3, [tool("toolu_1")], linted=False),  # not judged as a stream
        exchange(4, []),  # streamed no blocks
        ex,  # itself
        exchange(6, [tool("toolu_1")]),  # later than the request
    ]
    assert continued_exchange(ex, others) == (None, "")


def test_a_body_that_is_not_a_json_object_continues_nothing():
    earlier = [exchange(1, [tool("toolu_1")])]
    for body in (None, "toolu_1", ["toolu_1"]):
        assert continued_exchange(exchange(2, body=body, done=False), earlier) == (None, "")


def test_real_session_blocks_pair_by_their_tool_id():
    answer = check_bytes(sse(
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                              "model": "m", "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "toolu_real", "name": "save", "input": {}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"}))
    real, other = exchange(1, session=answer), exchange(2, [tool("toolu_other")])
    assert continued_exchange(asking(3, "toolu_real"), [real, other]) == (real, "matched by tool call id")


def test_history_strings_reads_every_history_key_and_nothing_else():
    body = {"model": "not-history", "system": "not-history",
            "messages": [{"content": [{"text": "m"}]}], "contents": [{"parts": [{"text": "c"}]}], "input": ["i"]}
    assert sorted(history_strings(body).split("\x00")) == ["c", "i", "m"]
