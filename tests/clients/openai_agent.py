"""The official ``openai`` SDK as an agent: ``chat.completions.stream`` + ``get_final_completion``, then tool results."""
from __future__ import annotations

import os
import sys

import openai

SCHEMAS = {
    "get_stock": {"type": "object", "properties": {"symbol": {"type": "string"}, "exchange": {"type": "string"},
                                                   "fields": {"type": "array", "items": {"type": "string"}}},
                  "required": ["symbol"]},
    "convert_currency": {"type": "object", "properties": {"amount": {"type": "number"}, "from": {"type": "string"},
                                                          "to": {"type": "string"}},
                         "required": ["amount", "from", "to"]},
}
"""What the agent's tools take (the calls of ``3-openai-parallel-tool-calls`` validate against them)."""
TOOLS = [{"type": "function", "function": {"name": name, "parameters": schema}} for name, schema in SCHEMAS.items()]


def run(env) -> None:
    client = openai.OpenAI(api_key=env["OPENAI_API_KEY"], base_url=env["OPENAI_BASE_URL"], max_retries=0, timeout=20)
    messages: list = [{"role": "user", "content": "Quote ACME and convert 100 EUR to BRL."}]
    with client.chat.completions.stream(model="gpt-4.1-mini", messages=messages, tools=TOOLS) as s:
        completion = s.get_final_completion()
    choice = completion.choices[0]
    msg = choice.message
    turn: dict = {"role": "assistant", "content": msg.content}
    if msg.tool_calls:
        turn["tool_calls"] = [{"id": c.id, "type": "function",
                               "function": {"name": c.function.name, "arguments": c.function.arguments}}
                              for c in msg.tool_calls]
    messages.append(turn)
    if choice.finish_reason == "tool_calls":
        messages += [{"role": "tool", "tool_call_id": c.id, "content": "ok"} for c in msg.tool_calls or []]
    else:
        messages.append({"role": "user", "content": "Thanks."})
    with client.chat.completions.stream(model="gpt-4.1-mini", messages=messages, tools=TOOLS) as s:
        s.get_final_completion()


if __name__ == "__main__":
    run(os.environ)
    sys.exit(0)
