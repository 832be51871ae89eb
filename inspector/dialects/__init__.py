"""Dialects: one module per provider wire format, registered by their SPEC.md names.

Detection asks each dialect in this order whether an event identifies it (``Dialect.sniff``).
"""
from __future__ import annotations

from inspector.dialects.anthropic import AnthropicMessages
from inspector.dialects.base import Dialect
from inspector.dialects.gemini import Gemini
from inspector.dialects.ollama import Ollama
from inspector.dialects.openai_chat import OpenAIChat
from inspector.dialects.openai_responses import OpenAIResponses

DIALECTS: dict[str, type[Dialect]] = {
    d.name: d for d in (AnthropicMessages, OpenAIResponses, OpenAIChat, Gemini, Ollama)
}
DIALECTS["unknown"] = Dialect
