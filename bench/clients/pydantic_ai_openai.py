"""pydantic-ai: an ``Agent`` on ``OpenAIChatModel`` streamed with ``run_stream``; the tools are declared by
JSON Schema (``Tool.from_schema``) and answer "ok"; pydantic-ai runs them and asks again itself; then
one more user turn ("Thanks.") with the history."""
import asyncio
import os

from pydantic_ai import Agent, Tool
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from tools import PROMPT, SCHEMAS, THANKS


def ok(**_kwargs) -> str:
    return "ok"


async def main() -> None:
    model = OpenAIChatModel("gpt-4.1-mini", provider=OpenAIProvider(base_url=os.environ["OPENAI_BASE_URL"],
                                                                     api_key=os.environ["OPENAI_API_KEY"]))
    tools = [Tool.from_schema(ok, name=n, description=n.replace("_", " "), json_schema=s)
             for n, s in SCHEMAS["openai"].items()]
    agent = Agent(model, tools=tools, retries=1)
    async with agent.run_stream(PROMPT) as result:
        await result.get_output()
    async with agent.run_stream(THANKS, message_history=result.all_messages()) as again:  # the next user turn
        await again.get_output()

asyncio.run(main())
