"""anthropic (sync): ``messages.stream`` + ``get_final_message``, tool results sent back."""
import os

import anthropic
from tools import MAX_TURNS, PROMPT, THANKS, anthropic_tools

client = anthropic.Anthropic(base_url=os.environ["ANTHROPIC_BASE_URL"], api_key=os.environ["ANTHROPIC_API_KEY"],
                             max_retries=0)
messages: list = [{"role": "user", "content": PROMPT}]
thanked = False
for _ in range(MAX_TURNS):
    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024, messages=messages,
                                tools=anthropic_tools()) as s:
        message = s.get_final_message()
    messages.append({"role": "assistant", "content": [b.to_dict() for b in message.content]})
    if message.stop_reason != "tool_use":  # say thanks once (the next request a grader reads), then stop
        if thanked:
            break
        messages.append({"role": "user", "content": THANKS})
        thanked = True
        continue
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id, "content": "ok"}
                                                 for b in message.content if b.type == "tool_use"]})
