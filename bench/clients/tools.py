"""What every framework's agent declares: the tools the bench's captures call (each answers "ok"), per
provider, as JSON Schema. Imported by the scripts beside it (run as ``python bench/clients/X.py``, so this
folder is on ``sys.path`` whatever environment runs them)."""
from __future__ import annotations

SCHEMAS: dict[str, dict[str, dict]] = {
    # inspector/data/captures/3-openai-parallel-tool-calls.jsonl: two parallel calls
    "openai": {
        "get_stock": {"type": "object", "properties": {"symbol": {"type": "string"}, "exchange": {"type": "string"},
                                                       "fields": {"type": "array", "items": {"type": "string"}}},
                      "required": ["symbol"]},
        "convert_currency": {"type": "object", "properties": {"amount": {"type": "number"}, "from": {"type": "string"},
                                                              "to": {"type": "string"}},
                             "required": ["amount", "from", "to"]},
    },
    # inspector/data/captures/1-anthropic-tool-call.jsonl
    "anthropic": {
        "get_weather": {"type": "object", "properties": {"locations": {"type": "array", "items": {"type": "string"}},
                                                         "units": {"type": "string"}}},
    },
    # tests/real_streams/openai-responses/vercel-gpt-5.1-function-call.sse, the ollama corpus case
    "openai-responses": {"get_weather": {"type": "object", "properties": {"city": {"type": "string"}},
                                         "required": ["city"]}},
    "ollama": {"get_weather": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    # tests/real_streams/gemini/vercel-gemini3-whole-function-call-signature.sse
    "gemini": {"weather": {"type": "object", "properties": {"location": {"type": "string"}},
                           "required": ["location"]}},
}

PROMPT = "Use the tools to answer, then say thanks."
THANKS = "Thanks."
"""What an agent says after a text answer: a next request, so a grader sees what the agent carried back."""
MAX_TURNS = 4
"""An agent stops after this many requests whatever the answers say (a client must never loop for ever)."""


def openai_tools(provider: str = "openai") -> list[dict]:
    """Chat Completions ``tools``."""
    return [{"type": "function", "function": {"name": n, "description": n.replace("_", " "), "parameters": s}}
            for n, s in SCHEMAS[provider].items()]


def anthropic_tools() -> list[dict]:
    """Messages API ``tools``."""
    return [{"name": n, "description": n.replace("_", " "), "input_schema": s} for n, s in SCHEMAS["anthropic"].items()]
