"""Ollama native (``/api/chat``, NDJSON): one message object per line, ``done: true`` last.

Lives here: ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``summary`` (event-log lines) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.ollama import tools
from inspector.providers.ollama import request
from inspector.providers.ollama.advice import ADVICE, EXPLAIN
from inspector.providers.ollama.stream import Ollama
from inspector.providers.ollama.summary import summarize

PROVIDER = Provider("ollama", Ollama, request.ENDPOINT, request.prepare, summarize, ADVICE,
                    explain=EXPLAIN,
                    otel_name="ollama",
                    declared_tools=tools.read)
