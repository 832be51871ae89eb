"""ollama (the official Python client): ``Client.chat(..., stream=True)``, the tool calls collected from the
chunks, ``tool`` messages sent back."""
import os

import ollama
from tools import MAX_TURNS, PROMPT, THANKS, SCHEMAS

client = ollama.Client(host=os.environ["OLLAMA_HOST"])
tools = [{"type": "function", "function": {"name": n, "description": n, "parameters": s}}
         for n, s in SCHEMAS["ollama"].items()]
messages: list = [{"role": "user", "content": PROMPT}]
thanked = False
for _ in range(MAX_TURNS):
    content, calls = "", []
    for chunk in client.chat(model="qwen3", messages=messages, tools=tools, stream=True):
        content += chunk.message.content or ""
        calls += chunk.message.tool_calls or []
    if not calls:  # say thanks once (the next request a grader reads), then stop
        if thanked:
            break
        messages += [{"role": "assistant", "content": content}, {"role": "user", "content": THANKS}]
        thanked = True
        continue
    messages.append({"role": "assistant", "content": content,
                     "tool_calls": [{"function": {"name": c.function.name, "arguments": dict(c.function.arguments)}}
                                    for c in calls]})
    messages += [{"role": "tool", "tool_name": c.function.name, "content": "ok"} for c in calls]
