"""openai-agents: an ``Agent`` run with ``Runner.run_streamed`` on the Responses API (the SDK's default
model), a ``FunctionTool`` declared by JSON Schema that answers "ok"; the runner sends the result back."""
import asyncio
import os

from agents import Agent, FunctionTool, OpenAIResponsesModel, Runner, set_tracing_disabled
from openai import AsyncOpenAI
from tools import PROMPT, SCHEMAS, THANKS


async def ok(_ctx, _args: str) -> str:
    return "ok"


async def main() -> None:
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key=os.environ["OPENAI_API_KEY"], max_retries=0)
    tools = [FunctionTool(name=n, description=n.replace("_", " "), params_json_schema=s, on_invoke_tool=ok,
                          strict_json_schema=False) for n, s in SCHEMAS["openai-responses"].items()]
    agent = Agent(name="bench", instructions="Use the tools.", tools=tools,
                  model=OpenAIResponsesModel(model="gpt-5.1", openai_client=client))
    result = Runner.run_streamed(agent, PROMPT, max_turns=4)
    async for _ in result.stream_events():
        pass
    again = Runner.run_streamed(agent, result.to_input_list() + [{"role": "user", "content": THANKS}], max_turns=4)
    async for _ in again.stream_events():  # the next user turn, with the history
        pass

asyncio.run(main())
