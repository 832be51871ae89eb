"""anthropic (async): ``AsyncAnthropic`` ``messages.stream``, tool results sent back."""
import asyncio
import os

import anthropic
from tools import MAX_TURNS, PROMPT, THANKS, anthropic_tools


async def main() -> None:
    client = anthropic.AsyncAnthropic(base_url=os.environ["ANTHROPIC_BASE_URL"],
                                      api_key=os.environ["ANTHROPIC_API_KEY"], max_retries=0)
    messages: list = [{"role": "user", "content": PROMPT}]
    thanked = False
    for _ in range(MAX_TURNS):
        async with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024, messages=messages,
                                          tools=anthropic_tools()) as s:
            message = await s.get_final_message()
        messages.append({"role": "assistant", "content": [b.to_dict() for b in message.content]})
        if message.stop_reason != "tool_use":  # say thanks once (the next request a grader reads), then stop
            if thanked:
                break
            messages.append({"role": "user", "content": THANKS})
            thanked = True
            continue
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id, "content": "ok"}
                                                     for b in message.content if b.type == "tool_use"]})

asyncio.run(main())
