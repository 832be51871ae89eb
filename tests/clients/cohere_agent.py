"""The official ``cohere`` SDK as an agent: ``ClientV2.chat_stream``, the calls assembled as Cohere's docs do
(docs.cohere.com/v2/docs/tool-use-streaming: one call per ``index``), then tool results (v2 history)."""
from __future__ import annotations

import os
import sys

import cohere

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
                                            "parameters": {"type": "object", "properties": {
                                                "location": {"type": "string"}}}}}]


def run(env) -> None:
    client = cohere.ClientV2(api_key=env["CO_API_KEY"], base_url=env["CO_API_URL"], timeout=20)
    messages: list = [{"role": "user", "content": "What's the weather in Madrid and Brasilia?"}]
    plan, text, calls, finish = "", "", {}, None
    for event in client.chat_stream(model="command-a-03-2025", messages=messages, tools=TOOLS):
        if event.type == "tool-plan-delta":
            plan += event.delta.message.tool_plan
        elif event.type == "content-delta":
            text += event.delta.message.content.text
        elif event.type == "tool-call-start":
            tc = event.delta.message.tool_calls
            calls[event.index] = {"id": tc.id, "type": "function",
                                  "function": {"name": tc.function.name, "arguments": tc.function.arguments or ""}}
        elif event.type == "tool-call-delta":
            calls[event.index]["function"]["arguments"] += event.delta.message.tool_calls.function.arguments
        elif event.type == "message-end":
            finish = event.delta.finish_reason
    turn: dict = {"role": "assistant"}
    if plan:
        turn["tool_plan"] = plan
    if text:
        turn["content"] = [{"type": "text", "text": text}]
    if calls:
        turn["tool_calls"] = list(calls.values())
    messages.append(turn)
    if finish == "TOOL_CALL":
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": "24 °C"} for c in calls.values()]
    else:
        messages.append({"role": "user", "content": "Thanks."})
    for _ in client.chat_stream(model="command-a-03-2025", messages=messages, tools=TOOLS):
        pass


if __name__ == "__main__":
    run(os.environ)
    sys.exit(0)
