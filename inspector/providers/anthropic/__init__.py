"""Anthropic Messages (``/v1/messages``, SSE): content blocks by index, deltas, stop events.

Lives here: ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.anthropic import request
from inspector.providers.anthropic.advice import ADVICE, EXPLAIN
from inspector.providers.anthropic.history import SHAPE as HISTORY
from inspector.providers.anthropic.stream import AnthropicMessages
from inspector.providers.base import Provider
from inspector.providers.anthropic import tools
from inspector.providers.summary import generic as summarize

PROVIDER = Provider("anthropic", AnthropicMessages, request.ENDPOINT, request.prepare, summarize, ADVICE, HISTORY,
                    explain=EXPLAIN,
                    otel_name="anthropic",
                    declared_tools=tools.read)
