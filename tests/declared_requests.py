"""Requests that declare tools, written in each dialect's own spelling (the V-rule tests).

:func:`request_body` says one neutral thing (these functions with these schemas, this forced
choice, parallel calls refused or not) the way a client of ``dialect`` sends it, following each
provider's SDK types (anthropic-python ``ToolParam``, openai-python ``ChatCompletionToolParam`` and
Responses ``FunctionToolParam``, google-genai ``FunctionDeclaration``/``ToolConfig``, botocore's
Converse ``ToolConfiguration``, ollama-python ``Tool``). :func:`with_request` puts it in a capture
rendered by ``tests.dialect_answers``.
"""
from __future__ import annotations

from inspector.model.capture import Capture

ANY = "*any*"
"""``choice``: force a call of any declared tool (``any``, ``required``, ``ANY``)."""

WEATHER = {"type": "object", "properties": {"city": {"type": "string"},
                                            "days": {"type": "integer", "minimum": 1, "maximum": 14}},
           "required": ["city", "days"], "additionalProperties": False}
TIME = {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}
TOOLS = {"get_weather": WEATHER, "get_time": TIME}


def request_body(dialect: str, tools: dict, *, choice: str | None = None, no_parallel: bool = False,
                 strict: bool = False) -> dict:
    """A request of ``dialect`` declaring ``tools`` (``{name: JSON Schema}``)."""
    named = choice not in (None, ANY)
    if dialect in ("anthropic-messages", "bedrock-anthropic"):
        body: dict = {"max_tokens": 100, "messages": [{"role": "user", "content": "go"}],
                      "tools": [{"name": n, "input_schema": s, **({"strict": True} if strict else {})}
                                for n, s in tools.items()]}
        tc: dict = {"type": "tool", "name": choice} if named else {"type": "any"} if choice else {"type": "auto"}
        if no_parallel:
            tc["disable_parallel_tool_use"] = True
        if choice or no_parallel:
            body["tool_choice"] = tc
        return body | ({"anthropic_version": "bedrock-2023-05-31"} if dialect == "bedrock-anthropic" else {"model": "m"})
    if dialect == "bedrock-converse":
        config: dict = {"tools": [{"toolSpec": {"name": n, "inputSchema": {"json": s}}} for n, s in tools.items()]}
        if choice:
            config["toolChoice"] = {"tool": {"name": choice}} if named else {"any": {}}
        return {"messages": [{"role": "user", "content": [{"text": "go"}]}], "toolConfig": config}
    if dialect == "cohere-chat":  # cohere-python ClientV2.chat_stream: tools, tool_choice, strict_tools
        body = {"model": "command-a-03-2025", "stream": True, "messages": [{"role": "user", "content": "go"}],
                "tools": [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in tools.items()]}
        if choice:
            body["tool_choice"] = "REQUIRED"  # Cohere forces "a call", never a named one
        if strict:
            body["strict_tools"] = True
        return body
    if dialect in ("openai-chat", "ollama"):
        body = {"model": "m", "messages": [{"role": "user", "content": "go"}],
                "tools": [{"type": "function", "function": {"name": n, "parameters": s,
                                                            **({"strict": True} if strict else {})}}
                          for n, s in tools.items()]}
        if dialect == "ollama":
            return body
        if choice:
            body["tool_choice"] = {"type": "function", "function": {"name": choice}} if named else "required"
        if no_parallel:
            body["parallel_tool_calls"] = False
        return body | {"stream": True}
    if dialect == "openai-responses":
        body = {"model": "m", "input": "go", "stream": True,
                "tools": [{"type": "function", "name": n, "parameters": s, "strict": strict} for n, s in tools.items()]}
        if choice:
            body["tool_choice"] = {"type": "function", "name": choice} if named else "required"
        if no_parallel:
            body["parallel_tool_calls"] = False
        return body
    if dialect == "openai-realtime":  # the session's tools (session.update), as the socket reader hands them on
        session: dict = {"type": "realtime", "model": "gpt-realtime",
                         "tools": [{"type": "function", "name": n, "parameters": s, **({"strict": True} if strict else {})}
                                   for n, s in tools.items()]}
        if choice:
            session["tool_choice"] = {"type": "function", "name": choice} if named else "required"
        return {"session": session}  # no parallel_tool_calls in the Realtime API
    if dialect == "gemini":
        body = {"contents": [{"role": "user", "parts": [{"text": "go"}]}],
                "tools": [{"functionDeclarations": [{"name": n, "parametersJsonSchema": s} for n, s in tools.items()]}]}
        if choice:
            fcc: dict = {"mode": "ANY"}
            if named:
                fcc["allowedFunctionNames"] = [choice]
            body["toolConfig"] = {"functionCallingConfig": fcc}
        return body
    raise ValueError(dialect)


def with_request(cap: Capture, body: dict) -> Capture:
    """``cap`` with ``body`` as its request's body."""
    cap.request = {**(cap.request or {"method": "POST", "url": "", "headers": {}}), "body": body}
    return cap
