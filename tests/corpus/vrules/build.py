"""Write the V-rule corpus cases: ``uv run python -m tests.corpus.vrules.build`` (from the project root).

Each case is a native capture (``.jsonl``: the request that declared the tools, then the streamed
answer) beside ``NAME.expect.json`` in the shared corpus's format (``shared/tools/corpus_check.py``).
Every case re-tells a public bug report: the request as the report gives it (tool names, schemas,
``tool_choice``), the answer as the report describes it, streamed the way that dialect streams (the
reports mostly show whole responses; the streaming is ``tests/dialect_answers``). Each names its
report in ``source``. A near miss stands beside each: the same request answered as it should be.
``tests/corpus/test_vrules_corpus.py`` checks that the files are what this script writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.dialect_answers import CallSpec, Spec, render, write_native

HERE = Path(__file__).parent

GET_TIME = {"type": "object", "properties": {}}
CLASSIFY = {"type": "object", "properties": {"classifications": {"type": "array", "items": {
    "type": "object", "properties": {"item": {"type": "string"}, "category": {"type": "string"}},
    "required": ["item", "category"]}}}, "required": ["classifications"]}
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
           "additionalProperties": False}
EXECUTE = {"type": "object", "properties": {"language": {"type": "string"}, "code": {"type": "string"}},
           "required": ["language", "code"]}
OPENHANDS = {"execute_bash": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
             "execute_ipython_cell": {"type": "object", "properties": {"code": {"type": "string"}},
                                      "required": ["code"]},
             "finish": {"type": "object", "properties": {}}}


def _chat_tools(tools: dict) -> list:
    return [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in tools.items()]


CASES = {
    # Chat: Ollama's OpenAI layer drops a forced tool_choice and answers in prose.
    "ollama-17921-chat-forced-tool-answered-in-text": (
        "openai-chat",
        {"model": "qwen3.8:27b-mlx", "stream": True, "max_tokens": 200,
         "messages": [{"role": "user", "content": "Say hello."}],
         "tools": [{"type": "function", "function": {"name": "get_time", "description": "Get the current time",
                                                     "parameters": GET_TIME}}],
         "tool_choice": {"type": "function", "function": {"name": "get_time"}}},
        Spec(text="Hello! How are you doing today?", stop="end"),
        Spec(calls=[CallSpec("get_time", {})]),
        ["V003"], "ollama/ollama#17921 (reproduction 1: tool_choice names get_time, tool_calls null, prose content)"),
    # Chat: a model behind OpenRouter calls a function that was never declared.
    "qwen-15-openrouter-undeclared-function": (
        "openai-chat",
        {"model": "qwen/qwen3.5-plus-02-15", "stream": True,
         "messages": [{"role": "user", "content": "what is the capital of france?"}],
         "tools": _chat_tools({"execute": EXECUTE})},
        Spec(calls=[CallSpec("toolbox.web.answer", {"query": "what is the capital of france?"})]),
        Spec(calls=[CallSpec("execute", {"language": "python",
                                          "code": "toolbox.web.answer('What is the capital of France?')"})]),
        ["V001"], "QwenLM/Qwen3.8#15 (one tool `execute` declared; the model called `toolbox.web.answer`)"),
    # Chat: a list argument serialised as a JSON string.
    "datus-1365-chat-list-argument-sent-as-string": (
        "openai-chat",
        {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Which datasets hold orders?"}],
         "tools": _chat_tools({"search_semantic_objects": {
             "type": "object", "properties": {"query": {"type": "string"},
                                              "kinds": {"type": "array", "items": {"type": "string"}}},
             "required": ["query"]}})},
        Spec(calls=[CallSpec("search_semantic_objects", {"query": "orders", "kinds": '["dataset"]'})]),
        Spec(calls=[CallSpec("search_semantic_objects", {"query": "orders", "kinds": ["dataset"]})]),
        ["V002"], "Datus-ai/Datus-agent#1365 (a parameter declared List[str] arrives as the string '[\"dataset\"]'; "
                  "the parameter's name here is illustrative)"),
    # Anthropic: Claude calls a tool name the agent never declared.
    "openhands-5111-anthropic-undeclared-tool": (
        "anthropic-messages",
        {"model": "claude-3-5-sonnet-20241022", "max_tokens": 4096, "stream": True,
         "messages": [{"role": "user", "content": "Write an API scraper and test it."}],
         "tools": [{"name": n, "input_schema": s} for n, s in OPENHANDS.items()]},
        Spec(text="Let's verify that the script works by running a test:",
             calls=[CallSpec("execute_python", {"code": "import sys\nsys.path.append('/workspace/airflow/scripts')"})]),
        Spec(text="Let's verify that the script works by running a test:",
             calls=[CallSpec("execute_ipython_cell", {"code": "import sys\nsys.path.append('/workspace/airflow/scripts')"})]),
        ["V001"], "OpenHands/OpenHands#5111 (Sonnet called `execute_python`, a tool that does not exist)"),
    # Responses: a Responses server that does not implement parallel_tool_calls.
    "ogx-4123-responses-parallel-calls-refused": (
        "openai-responses",
        {"model": "gpt-4.1-2025-04-14", "stream": True, "input": "check the weather in paris and new york",
         "parallel_tool_calls": False,
         "tools": [{"type": "function", "name": "get_weather", "parameters": WEATHER, "strict": True}]},
        Spec(calls=[CallSpec("get_weather", {"city": "Paris"}), CallSpec("get_weather", {"city": "New York"}, key="a2")]),
        Spec(calls=[CallSpec("get_weather", {"city": "Paris"})]),
        ["V004"], "ogx-ai/ogx#4123 (parallel_tool_calls not implemented: two function_call items for Paris and "
                  "New York although it is false)"),
    # Gemini: a gateway downgrades mode ANY to AUTO; the arguments come back as text.
    "bifrost-3290-gemini-any-downgraded-to-text": (
        "gemini",
        {"contents": [{"role": "user", "parts": [{"text": "Analyze items A, B, C and classify each one."}]}],
         "tools": [{"functionDeclarations": [{"name": "classify_items", "parameters": {
             "type": "OBJECT", "properties": {"classifications": {"type": "ARRAY", "items": {
                 "type": "OBJECT", "properties": {"item": {"type": "STRING"}, "category": {"type": "STRING"}},
                 "required": ["item", "category"]}}}, "required": ["classifications"]}}]}],
         "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["classify_items"]}}},
        Spec(text='{"classifications": [{"item": "A", "category": "x"}]}', stop="end"),
        Spec(calls=[CallSpec("classify_items", {"classifications": [{"item": "A", "category": "x"}]})]),
        ["V003"], "maximhq/bifrost#3290 (mode ANY with allowedFunctionNames downgraded to AUTO: the function "
                  "arguments arrive as text parts, never a functionCall)"),
    # Ollama native: a small model calls a tool name that is not in the request.
    "langchain4j-1052-ollama-undeclared-tool": (
        "ollama",
        {"model": "llama3.2:3b", "stream": True, "messages": [{"role": "user", "content": "What time is it in Paris?"}],
         "tools": _chat_tools({"current_time": {"type": "object", "properties": {"city": {"type": "string"}},
                                                "required": ["city"]}})},
        Spec(calls=[CallSpec("get_current_time_in_city", {"city": "Paris"})]),
        Spec(calls=[CallSpec("current_time", {"city": "Paris"})]),
        ["V001"], "langchain4j/langchain4j#1052 (Ollama 0.5.1 with llama3.2:3b calls a hallucinated tool name; "
                  "the tool names here are illustrative, the report gives none)"),
    # Bedrock Converse: a gateway drops toolChoice; the model answers in prose.
    "bifrost-2049-converse-tool-choice-dropped": (
        "bedrock-converse",
        {"messages": [{"role": "user", "content": [{"text": "Analyze items A, B, C and classify each one."}]}],
         "inferenceConfig": {"temperature": 0.0},
         "toolConfig": {"tools": [{"toolSpec": {"name": "classify_items",
                                                "description": "Classify multiple items into categories",
                                                "inputSchema": {"json": CLASSIFY}}}],
                        "toolChoice": {"tool": {"name": "classify_items"}}}},
        Spec(text="A is a fruit, B is a tool and C is a color.", stop="end"),
        Spec(calls=[CallSpec("classify_items", {"classifications": [{"item": "A", "category": "fruit"}]})]),
        ["V003"], "maximhq/bifrost#2049 (toolChoice {tool: classify_items} silently dropped on /converse)"),
}
"""``{stem: (dialect, request body, answer, near miss, codes, source)}``."""


def cases() -> dict[str, tuple[str, dict]]:
    """``{file name: (capture text or expect JSON text)}`` for every case and its near miss."""
    out: dict = {}
    for stem, (dialect, body, answer, near, codes, source) in CASES.items():
        for name, spec, flags in ((stem, answer, codes), (f"{stem}-near-miss", near, [])):
            cap = render(dialect, spec)
            cap.request = {**cap.request, "body": body}
            expect: dict = {"dialect": dialect}
            if flags:
                expect["flags"] = flags
            else:
                expect["clean"] = True
            expect["source"] = source + ("" if flags else "; near miss: the request answered as it should be")
            out[name] = (cap, json.dumps(expect, indent=1, ensure_ascii=False) + "\n")
    return out


def main() -> None:
    for name, (cap, expect) in cases().items():
        write_native(cap, HERE / f"{name}.jsonl")
        (HERE / f"{name}.expect.json").write_text(expect, encoding="utf-8")


if __name__ == "__main__":
    main()
