"""OpenAI Responses (``/v1/responses``, SSE): output items, content parts, argument deltas.

Lives here: ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.openai_responses import tools
from inspector.providers.openai_responses import request
from inspector.providers.openai_responses.advice import ADVICE, EXPLAIN
from inspector.providers.openai_responses.history import SHAPE as HISTORY
from inspector.providers.openai_responses.stream import OpenAIResponses
from inspector.providers.summary import generic as summarize

PROVIDER = Provider("openai-responses", OpenAIResponses, request.ENDPOINT, request.prepare, summarize, ADVICE, HISTORY,
                    explain=EXPLAIN,
                    otel_name="openai",
                    declared_tools=tools.read)
