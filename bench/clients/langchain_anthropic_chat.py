"""langchain-anthropic: ``ChatAnthropic(...).bind_tools`` streamed, the chunks added up, ``ToolMessage``
results sent back."""
import os

from langchain_anthropic import ChatAnthropic
from langchain_core.messages import HumanMessage, ToolMessage
from tools import MAX_TURNS, PROMPT, THANKS, anthropic_tools

llm = ChatAnthropic(model="claude-sonnet-4-5", base_url=os.environ["ANTHROPIC_BASE_URL"],
                    api_key=os.environ["ANTHROPIC_API_KEY"], max_retries=0, max_tokens=1024).bind_tools(anthropic_tools())
messages: list = [HumanMessage(PROMPT)]
thanked = False
for _ in range(MAX_TURNS):
    message = None
    for chunk in llm.stream(messages):
        message = chunk if message is None else message + chunk
    if message is None or not message.tool_calls:  # say thanks once (the next request a grader reads), then stop
        if thanked or message is None:
            break
        messages += [message, HumanMessage(THANKS)]
        thanked = True
        continue
    messages.append(message)
    messages += [ToolMessage("ok", tool_call_id=c["id"]) for c in message.tool_calls]
