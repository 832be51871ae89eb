"""Q rules per conversation, with the official SDKs through ``proxy`` against ``serve`` (issue 23 item 1).

A request is judged against the answer its history repeats, never "the most recent exchange on
this path": two agents behind one proxy are two conversations, an agent whose conversation began
before the proxy is judged against nothing (one Q007), and a new client's first request (a
gateway's, LiteLLM's) continues nothing.
"""
from __future__ import annotations

import anthropic
import openai
import pytest

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS
from tests.e2e.conftest import WAIT_S

CHAT, MESSAGES = "openai-parallel-indexed", "anthropic-doc-tool-call"
TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in ("get_stock", "get_fx")]


@pytest.fixture
def proxy():
    with ServerThread([SHARED_CORPUS / f"{n}.sse" for n in (CHAT, MESSAGES)], instant=True) as srv, \
            ProxyThread(srv.url, timeout=WAIT_S) as px:
        yield px


class ChatAgent:
    """An agent on the openai SDK: streams a turn, runs every tool call, sends the results back."""

    def __init__(self, base_url: str, question: str) -> None:
        self.client = openai.OpenAI(base_url=base_url, api_key="sk-conversation-test", max_retries=0, timeout=WAIT_S)
        self.messages: list[dict] = [{"role": "user", "content": question}]

    def turn(self) -> None:
        with self.client.chat.completions.stream(model="m-case", messages=self.messages, tools=TOOLS) as stream:
            msg = stream.get_final_completion().choices[0].message
        calls = [{"id": c.id, "type": "function", "function": {"name": c.function.name,
                                                                "arguments": c.function.arguments}}
                 for c in msg.tool_calls or []]
        self.messages.append({"role": "assistant", "content": msg.content, "tool_calls": calls})
        self.messages += [{"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls]


def q_codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"] if f["code"].startswith("Q")]


def test_two_agents_behind_one_proxy_are_two_conversations(proxy):
    """A and B ask alike and get the same answer (same tool ids, one path); their rounds interleave.
    Each next request continues its own agent's exchange, and a third client's first request
    (LiteLLM's per-client first request) continues nothing and says nothing."""
    base = f"{proxy.url}/{CHAT}/v1"
    a, b = ChatAgent(base, "Agent A: quote ACME, EUR to BRL"), ChatAgent(base, "Agent B: quote ACME, EUR to BRL")
    a.turn()  # 1
    b.turn()  # 2
    a.turn()  # 3 continues 1
    b.turn()  # 4 continues 2
    ChatAgent(base, "Agent C: hello").turn()  # 5, a first request
    reports = {r["exchange"]: r for r in proxy.wait_reports(5)}
    assert [reports[n]["continues"] for n in (1, 2, 3, 4, 5)] == [None, None, 1, 2, None]
    assert all(q_codes(r) == [] for r in reports.values())


def test_a_conversation_begun_before_the_proxy_is_judged_against_nothing_once(proxy):
    """Another agent's exchange is on the path. This agent's first request through the proxy carries
    a tool round from before the proxy: one Q007, no Q003 against the other agent's answer. Its next
    round continues the exchange the proxy did see."""
    client = anthropic.Anthropic(base_url=f"{proxy.url}/{MESSAGES}", api_key="sk-ant-conversation-test",
                                 max_retries=0, timeout=WAIT_S)
    with client.messages.stream(model="claude-case", max_tokens=64,
                                messages=[{"role": "user", "content": "another agent"}]) as stream:
        stream.get_final_message()  # 1: another agent
    history: list = [
        {"role": "user", "content": "weather in Porto Alegre?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_before_proxy", "name": "get_weather",
                                           "input": {"location": "Porto Alegre"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_before_proxy", "content": "21 C"}]}]
    with client.messages.stream(model="claude-case", max_tokens=64, messages=history) as stream:
        answer = stream.get_final_message()  # 2: begun before the proxy
    history += [{"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in answer.content]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id, "content": "22 C"}
                                             for b in answer.content if b.type == "tool_use"]}]
    with client.messages.stream(model="claude-case", max_tokens=64, messages=history) as stream:
        stream.get_final_message()  # 3: continues 2
    _, two, three = proxy.wait_reports(3)
    assert q_codes(two) == ["Q007"] and two["continues"] is None
    q007 = next(f for f in two["findings"] if f["code"] == "Q007")
    assert q007["severity"] == "info" and "judged against nothing" in q007["message"]
    assert q_codes(three) == [] and three["continues"] == 2
