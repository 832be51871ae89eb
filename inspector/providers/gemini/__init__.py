"""Gemini native (``streamGenerateContent?alt=sse``): whole ``GenerateContentResponse`` chunks.

Lives here: ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules), ``summary`` (event-log lines) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.gemini import tools
from inspector.providers.gemini import request
from inspector.providers.gemini.advice import ADVICE, EXPLAIN
from inspector.providers.gemini.history import SHAPE as HISTORY
from inspector.providers.gemini.stream import Gemini
from inspector.providers.gemini.summary import summarize

PROVIDER = Provider("gemini", Gemini, request.ENDPOINT, request.prepare, summarize, ADVICE, HISTORY,
                    explain=EXPLAIN,
                    otel_name="gcp.gemini", otel_operation="generate_content",
                    declared_tools=tools.read)
