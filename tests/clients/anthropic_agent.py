"""The official ``anthropic`` SDK as an agent: ``messages.stream`` + ``get_final_message``, then tool results."""
from __future__ import annotations

import os
import sys

import anthropic

TOOLS = [{"name": "get_weather", "description": "Current weather for a list of cities",
          "input_schema": {"type": "object", "properties": {"locations": {"type": "array"}, "units": {"type": "string"}}}}]


def run(env) -> None:
    client = anthropic.Anthropic(api_key=env["ANTHROPIC_API_KEY"], base_url=env["ANTHROPIC_BASE_URL"],
                                 max_retries=0, timeout=20)
    messages: list = [{"role": "user", "content": "What's the weather in Lisbon and Porto?"}]
    with client.messages.stream(model="claude-test", max_tokens=1024, tools=TOOLS, messages=messages) as s:
        message = s.get_final_message()
    messages.append({"role": "assistant", "content": [b.to_dict() for b in message.content]})
    if message.stop_reason == "tool_use":
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": "18 °C, clear"}
            for b in message.content if b.type == "tool_use"]})
    else:
        messages.append({"role": "user", "content": "Thanks."})
    with client.messages.stream(model="claude-test", max_tokens=1024, tools=TOOLS, messages=messages) as s:
        s.get_final_message()


if __name__ == "__main__":
    run(os.environ)
    sys.exit(0)
