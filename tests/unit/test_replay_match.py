"""serve --match: request matching, departure paths, ignore paths, turn numbers (inspector.net.replay.match)."""
from __future__ import annotations

import pytest

from inspector.net.replay.match import DEFAULT_IGNORE, Ignore, IgnoreError, departure, parse_path, turn_of
from inspector.providers.errors import error_answer

CHAT = {"model": "m", "stream": True, "messages": [
    {"role": "user", "content": "time?"},
    {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                                          "function": {"name": "clock", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "content": "09:15"}]}]}


def _changed(body, value):
    import copy
    b = copy.deepcopy(body)
    b["messages"][2]["content"][0]["content"] = value
    return b


def test_the_first_departure_is_named_by_its_json_path_request_value_first():
    d = departure(_changed(CHAT, "14:02"), CHAT)
    assert str(d) == '$.messages[2].content[0].content: "14:02" vs "09:15"'
    assert departure(CHAT, CHAT) is None


def test_a_longer_or_shorter_conversation_departs_at_the_first_missing_entry():
    longer = dict(CHAT, messages=[*CHAT["messages"], {"role": "user", "content": "more"}])
    assert str(departure(longer, CHAT)).startswith("$.messages[3]: {")
    assert str(departure(CHAT, longer)).endswith("vs {\"role\":\"user\",\"content\":\"more\"}")
    assert str(departure(dict(CHAT, temperature=0), CHAT)) == "$.temperature: 0 vs (absent)"


def test_one_and_one_point_zero_are_one_number_but_true_is_not_one():
    assert departure({"t": 1}, {"t": 1.0}) is None
    assert departure({"t": True}, {"t": 1}) is not None


def test_default_ignore_drops_ids_metadata_user_and_stream_options_at_their_places():
    ig = Ignore(DEFAULT_IGNORE)
    other = _changed(CHAT, "09:15")
    other["messages"][1]["tool_calls"][0]["id"] = "call_zz"
    other["messages"][2]["tool_call_id"] = "call_zz"
    other.update(metadata={"run": 7}, user="u2", stream_options={"include_usage": True})
    assert departure(ig.strip(other), ig.strip(CHAT)) is None
    # a key named like an ignored top-level one deeper down is still compared
    deep = _changed(CHAT, "09:15")
    deep["messages"][0]["user"] = "x"
    assert departure(ig.strip(deep), ig.strip(CHAT)) is not None


@pytest.mark.parametrize("path,keeps", [("$.messages[*].content", False), ("$..content", False),
                                        ("$.messages[2].content[0].content", False), ("$.messages[1]", True)])
def test_ignore_paths_with_wildcards_and_any_depth(path, keeps):
    ig = Ignore([path])
    d = departure(ig.strip(_changed(CHAT, "14:02")), ig.strip(CHAT))
    assert (d is not None) is keeps


@pytest.mark.parametrize("bad", ["messages", "$", "$.a[x]", "$.a..", "$.[1]"])
def test_an_unreadable_ignore_path_is_one_clear_error(bad):
    with pytest.raises(IgnoreError, match="--match-ignore"):
        parse_path(bad)


def test_turns_count_runs_of_model_side_entries_in_every_history_shape():
    assert turn_of({"messages": [{"role": "user", "content": "x"}]}) == 1
    assert turn_of(CHAT) == 2
    assert turn_of({"input": [{"role": "user", "content": "x"}, {"type": "reasoning"},
                              {"type": "function_call", "name": "f"}, {"type": "function_call", "name": "g"},
                              {"type": "function_call_output"}, {"type": "function_call_output"},
                              {"type": "message", "role": "assistant", "content": []},
                              {"role": "user", "content": "y"}]}) == 3
    assert turn_of({"contents": [{"role": "user"}, {"role": "model"}, {"role": "user"}]}) == 2
    assert turn_of(None) == 1 and turn_of({"prompt": "x"}) == 1


@pytest.mark.parametrize("dialect,read", [
    ("anthropic-messages", lambda b: b["error"]["message"]), ("openai-chat", lambda b: b["error"]["message"]),
    ("openai-responses", lambda b: b["error"]["message"]), ("gemini", lambda b: b["error"]["message"]),
    ("ollama", lambda b: b["error"]), ("cohere-chat", lambda b: b["message"]), (None, lambda b: b["error"]["message"])])
def test_the_miss_answer_is_in_each_providers_own_error_shape(dialect, read):
    import orjson
    headers, body = error_answer(dialect, "no recording matches")
    assert (b"content-type", b"application/json") in headers
    assert read(orjson.loads(body)) == "no recording matches"
