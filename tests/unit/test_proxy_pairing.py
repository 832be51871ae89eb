"""``inspector.feeds.exchanges.pairing.continued_exchange``: which earlier answer a request's history continues.

Pure: exchanges are built by hand (blocks as plain objects, or a real session from SSE bytes);
no network, no event loop.
"""
from __future__ import annotations

from types import SimpleNamespace

from inspector.model.capture import End
from inspector.feeds.exchanges.pairing import claims_an_answer, continued_exchange, history_strings
from inspector.feeds.exchanges.record import Exchange
from tests.helpers import check_bytes, sse

PATH = "/v1/messages"


def tool(block_id: str, call_id: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(kind="tool_use", tool=True, id=block_id, call_id=call_id, content="{}", name=None,
                           input=None, signature=None)


def text(content: str) -> SimpleNamespace:
    return SimpleNamespace(kind="text", tool=False, id=None, call_id=None, content=content, name=None, input=None,
                           signature=None)


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


def test_an_answer_whose_ids_were_rewritten_is_still_found_by_its_text():
    # The client regenerated the id (Q003 is what the check will then say), but kept the text.
    older, newer = exchange(1, [text("Writing the file now."), tool("toolu_x")]), exchange(2, [text("Other.")])
    assert continued_exchange(asking(3, "Writing the file now."), [older, newer]) == (older, "matched by assistant text")


def test_ids_and_texts_too_short_to_be_evidence_are_ignored():
    older, newer = exchange(1, [tool("t1")]), exchange(2, [text("ok")])
    older_text = exchange(3, [text("short")])
    ex = asking(4, "t1", "ok", "short")
    assert continued_exchange(ex, [older, newer, older_text]) == (None, "")


def test_when_nothing_matches_no_exchange_is_taken_not_the_most_recent():
    a, b = exchange(1, [tool("toolu_a")]), exchange(2, [tool("toolu_b")])
    assert continued_exchange(asking(3, "toolu_zzz"), [a, b]) == (None, "")


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


# ---------------------------------------------------------------- per conversation (issue 23 item 1)
def chat_tool(call_id: str, name: str = "get_weather", args: str = '{"city": "Porto"}') -> SimpleNamespace:
    b = tool(call_id)
    b.kind, b.name, b.input = "tool_call", name, __import__("json").loads(args)
    return b


def chat_round(n: int, *turns: tuple[str, str], path: str = PATH) -> Exchange:
    """Exchange ``n`` whose Chat history holds one assistant tool call and its result per ``(id, name)``."""
    msgs: list[dict] = [{"role": "user", "content": "weather?"}]
    for cid, name in turns:
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": '{"city": "Porto"}'}}]})
        msgs.append({"role": "tool", "tool_call_id": cid, "content": "21 C"})
    return exchange(n, body={"model": "m", "messages": msgs}, path=path, done=False, linted=False)


def test_the_last_assistant_turn_decides_not_an_earlier_one_it_also_repeats():
    # Conversation A: #1 answered call_A1, #3 continued it and was answered call_A2. B's #2 in between.
    a1, b1 = exchange(1, [chat_tool("call_A1")]), exchange(2, [chat_tool("call_B1")])
    a2 = exchange(3, [chat_tool("call_A2", "get_time")])
    a2.continues = 1
    ex = chat_round(4, ("call_A1", "get_weather"), ("call_A2", "get_time"))
    assert continued_exchange(ex, [a1, b1, a2]) == (a2, "matched by tool call id")


def test_a_mangled_last_turn_is_found_through_an_earlier_turn_of_its_conversation():
    a1, b1 = exchange(1, [chat_tool("call_A1")]), exchange(2, [chat_tool("call_B1", "other")])
    a2 = exchange(3, [chat_tool("call_A2", "get_time", '{"zone": "BRT"}')])
    a2.continues = 1
    # The last turn's id was regenerated and its arguments lost: nothing of #3 is in it.
    ex = chat_round(4, ("call_A1", "get_weather"), ("call_zz", "get_time"))
    assert continued_exchange(ex, [a1, b1, a2]) == (a2, "matched by tool call id (an earlier turn)")
    # Without the link from #3 to #1 the answer the last turn repeats is unknown: nothing, not #1.
    a2.continues = None
    assert continued_exchange(ex, [a1, b1, a2]) == (None, "")


def test_a_signature_matches_in_either_base64_alphabet():
    gem = tool("x")  # Gemini calls carry no id: the signature is the evidence
    gem.id, gem.kind, gem.name, gem.signature = None, "functionCall", "get_country", "Et8E+x/9Zw=="
    other = tool("y")
    other.id, other.signature = None, "QUJD"
    a, b = exchange(1, [gem]), exchange(2, [other])
    body = {"contents": [{"role": "user", "parts": [{"text": "where am I?"}]},
                         {"role": "model", "parts": [{"functionCall": {"name": "get_country", "args": {"a": 1}},
                                                      "thoughtSignature": "Et8E-x_9Zw"}]},
                         {"role": "user", "parts": [{"functionResponse": {"name": "get_country", "response": {}}}]}]}
    ex = exchange(3, body=body, done=False, linted=False)
    assert continued_exchange(ex, [a, b]) == (a, "matched by signature")


def test_a_call_without_id_matches_by_its_name_and_arguments():
    mine, other = chat_tool("x", "get_weather"), chat_tool("y", "get_weather", '{"city": "Recife"}')
    mine.id = other.id = None
    a, b = exchange(1, [mine]), exchange(2, [other])
    ex = chat_round(3, ("", "get_weather"))
    assert continued_exchange(ex, [a, b]) == (a, "matched by tool call name and arguments")


def test_tool_results_alone_continue_an_answer_responses_previous_response_id():
    a, b = exchange(1, [tool("fc_1", call_id="call_abcd")]), exchange(2, [tool("fc_2", call_id="call_efgh")])
    body = {"previous_response_id": "resp_1", "input": [
        {"type": "function_call_output", "call_id": "call_abcd", "output": "21 C"}]}
    ex = exchange(3, body=body, done=False, linted=False)
    assert continued_exchange(ex, [a, b]) == (a, "matched by tool call id")
    assert claims_an_answer(body)


def test_what_claims_an_answer():
    assert not claims_an_answer({"messages": [{"role": "system", "content": "be brief"},
                                              {"role": "user", "content": "hello"}]})
    # An Anthropic prefill (a final assistant message the client wrote) continues nothing.
    assert not claims_an_answer({"messages": [{"role": "user", "content": "json please"},
                                              {"role": "assistant", "content": "{"}]})
    assert claims_an_answer(chat_round(1, ("call_1", "f")).body)
    assert not claims_an_answer("not a dict")


def test_equal_answers_go_to_the_conversation_whose_request_began_this_history():
    # Two agents got the same answer (same ids: one mock server, or a cached answer).
    a1 = exchange(1, [chat_tool("call_1")], body={"messages": [{"role": "user", "content": "agent A"}]})
    b1 = exchange(2, [chat_tool("call_1")], body={"messages": [{"role": "user", "content": "agent B"}]})
    ex = chat_round(3, ("call_1", "get_weather"))
    ex.body["messages"][0]["content"] = "agent A"
    assert continued_exchange(ex, [a1, b1]) == (a1, "matched by tool call id")
    ex.body["messages"][0]["content"] = "agent C"  # neither began it: the most recent
    assert continued_exchange(ex, [a1, b1]) == (b1, "matched by tool call id")


def test_ids_match_whole_values_not_inside_longer_ones():
    short, other = exchange(1, [chat_tool("call_1")]), exchange(2, [chat_tool("call_99")])
    assert continued_exchange(chat_round(3, ("call_10", "other_tool")), [short, other]) == (None, "")
