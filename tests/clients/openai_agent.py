"""The official ``openai`` SDK as an agent: ``chat.completions.stream`` + ``get_final_completion``, then tool
results, turn after turn until an answer calls no tool."""
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


MAX_TURNS = 5


def run(env) -> int:
    """Ask, run every tool call (each answers "ok"), ask again, until an answer calls no tool (at most
    ``MAX_TURNS`` requests). Returns the requests made."""
    client = openai.OpenAI(api_key=env["OPENAI_API_KEY"], base_url=env["OPENAI_BASE_URL"], max_retries=0, timeout=20)
    messages: list = [{"role": "user", "content": "Quote ACME and convert 100 EUR to BRL."}]
    for turn in range(1, MAX_TURNS + 1):
        with client.chat.completions.stream(model="gpt-4.1-mini", messages=messages, tools=TOOLS) as s:
            completion = s.get_final_completion()
        choice = completion.choices[0]
        msg = choice.message
        if turn > 1 and not msg.tool_calls:
            return turn
        step: dict = {"role": "assistant", "content": msg.content}
        if msg.tool_calls:
            step["tool_calls"] = [{"id": c.id, "type": "function",
                                   "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                  for c in msg.tool_calls]
        messages.append(step)
        if choice.finish_reason == "tool_calls":
            messages += [{"role": "tool", "tool_call_id": c.id, "content": "ok"} for c in msg.tool_calls or []]
        else:
            messages.append({"role": "user", "content": "Thanks."})
    return MAX_TURNS


if __name__ == "__main__":
    run(os.environ)
    sys.exit(0)
