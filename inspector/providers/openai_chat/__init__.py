"""OpenAI Chat Completions (``/v1/chat/completions``, SSE) and every OpenAI-compatible server
(vLLM, llama.cpp, SGLang, Ollama ``/v1``, Gemini compat, LiteLLM, OpenRouter).

Lives here: ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules), ``summary`` (event-log lines) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.openai_chat import tools
from inspector.providers.openai_chat import request
from inspector.providers.openai_chat.advice import ADVICE, EXPLAIN
from inspector.providers.openai_chat.history import SHAPE as HISTORY
from inspector.providers.openai_chat.stream import OpenAIChat
from inspector.providers.openai_chat.summary import summarize

PROVIDER = Provider("openai", OpenAIChat, request.ENDPOINT, request.prepare, summarize, ADVICE, HISTORY,
                    explain=EXPLAIN,
                    otel_name="openai",
                    declared_tools=tools.read)
