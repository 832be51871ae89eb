"""litellm: ``litellm.completion(..., stream=True)`` against an OpenAI-compatible base, the chunks put back
together with ``litellm.stream_chunk_builder``, tool results sent back."""
import os

import litellm
from tools import MAX_TURNS, PROMPT, THANKS, openai_tools

messages: list = [{"role": "user", "content": PROMPT}]
thanked = False
for _ in range(MAX_TURNS):
    chunks = list(litellm.completion(model="openai/gpt-4.1-mini", api_base=os.environ["OPENAI_BASE_URL"],
                                     api_key=os.environ["OPENAI_API_KEY"], messages=messages, tools=openai_tools(),
                                     stream=True, num_retries=0))
    msg = litellm.stream_chunk_builder(chunks, messages=messages).choices[0].message
    if not msg.tool_calls:  # a text answer: say thanks once (the next request a grader reads), then stop
        if thanked:
            break
        messages += [{"role": "assistant", "content": msg.content or ""}, {"role": "user", "content": THANKS}]
        thanked = True
        continue
    messages.append({"role": "assistant", "content": msg.content, "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
        for c in msg.tool_calls]})
    messages += [{"role": "tool", "tool_call_id": c.id, "content": "ok"} for c in msg.tool_calls]
