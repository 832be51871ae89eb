"""Recognise a tool call that a model wrote as plain assistant text (RULES.md C015).

Models served without a working tool parser (vLLM/SGLang without ``--tool-call-parser``, Ollama
with a template that lacks tool support, ollama/ollama-python#279) stream the call as content:
a JSON ``{"name": …, "arguments": …}`` object (or ``"parameters"``), a list of them, or Hermes-
style ``<tool_call>…</tool_call>`` tags. Clients then show JSON to the user instead of running
the tool. Shared by the ``openai-chat`` and native ``ollama`` dialects, which judge a choice's
(message's) whole text once, at its finish or at the end of the stream.
"""
from __future__ import annotations

import re
from typing import TypeGuard

import orjson

from inspector.model.jsondepth import loads as json_loads

_TAG = re.compile(r"<tool_call>", re.IGNORECASE)
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n?(.*?)\n?```$", re.DOTALL)
_PREFIXES = ("[TOOL_CALLS]", "<|python_tag|>")
"""Markers some chat templates put before the JSON (Mistral, Llama 3.1); stripped before parsing."""
_MAX_TEXT = 1_000_000
"""Longer texts are not parsed (a tool call written as text is never that long)."""


def _is_call_object(value: object) -> TypeGuard[dict]:
    """``{"name": "<non-empty>", "arguments"|"parameters": …}``, or the OpenAI-shaped
    ``{"type": "function", "function": {"name": …, "arguments": …}}``."""
    if not isinstance(value, dict):
        return False
    fn = value.get("function")
    if isinstance(fn, dict) and "name" not in value:
        value = fn
    name = value.get("name")
    return isinstance(name, str) and bool(name.strip()) and ("arguments" in value or "parameters" in value)


def looks_like_tool_call(text: str) -> str | None:
    """Return why ``text`` reads as a tool call written as text, or None when it does not.

    Recognised (RULES.md C015): the whole text (after stripping whitespace, one markdown code
    fence and a ``[TOOL_CALLS]``/``<|python_tag|>`` marker) is a JSON object with a non-empty
    string ``name`` and an ``arguments`` or ``parameters`` key, or a non-empty JSON list of such
    objects; or the text contains a ``<tool_call>`` tag anywhere. Never raises.
    """
    if not isinstance(text, str):
        return None
    body = text.strip()
    if not body or len(body) > _MAX_TEXT:
        return None
    if _TAG.search(body):
        return "the text contains <tool_call> tags"
    m = _FENCE.match(body)
    if m:
        body = m.group(1).strip()
    for prefix in _PREFIXES:
        if body.startswith(prefix):
            body = body[len(prefix):].strip()
            break
    if body[:1] not in ("{", "["):
        return None
    try:
        value = json_loads(body)
    except orjson.JSONDecodeError:
        return None
    if _is_call_object(value):
        return f"the text is a JSON tool call object (name {_name_of(value)!r})"
    if isinstance(value, list) and value and all(_is_call_object(v) for v in value):
        names = ", ".join(repr(_name_of(v)) for v in value[:5])
        return f"the text is a JSON list of {len(value)} tool call object(s) ({names})"
    return None


def _name_of(value: dict) -> str:
    fn = value.get("function")
    if isinstance(fn, dict) and "name" not in value:
        value = fn
    return str(value.get("name"))
