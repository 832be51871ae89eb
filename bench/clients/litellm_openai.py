"""litellm: ``litellm.completion(..., stream=True)`` against an OpenAI-compatible base, the chunks put back
together with ``litellm.stream_chunk_builder``, tool results sent back."""
import os

import litellm
from tools import MAX_TURNS, PROMPT, openai_tools

messages: list = [{"role": "user", "content": PROMPT}]
for _ in range(MAX_TURNS):
    chunks = list(litellm.completion(model="openai/gpt-4.1-mini", api_base=os.environ["OPENAI_BASE_URL"],
                                     api_key=os.environ["OPENAI_API_KEY"], messages=messages, tools=openai_tools(),
                                     stream=True, num_retries=0))
    msg = litellm.stream_chunk_builder(chunks, messages=messages).choices[0].message
    if not msg.tool_calls:
        break
    messages.append({"role": "assistant", "content": msg.content, "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
        for c in msg.tool_calls]})
    messages += [{"role": "tool", "tool_call_id": c.id, "content": "ok"} for c in msg.tool_calls]
