"""Cohere v2 chat (``/v2/chat``, SSE): typed events, content and tool calls by index, ``message-end``.

Lives here: ``stream`` (the dialect and its rules), ``shapes`` (the event shapes cohere-python
accepts, K001), ``request`` (endpoint and ``prepare``), ``tools`` (the tools a request declares, V rules), ``summary`` (event-log lines) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the
conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.cohere import request, tools
from inspector.providers.cohere.advice import ADVICE, EXPLAIN
from inspector.providers.cohere.stream import CohereChat
from inspector.providers.cohere.summary import summarize

PROVIDER = Provider("cohere", CohereChat, request.ENDPOINT, request.prepare, summarize, ADVICE, explain=EXPLAIN,
                    otel_name="cohere",
                    declared_tools=tools.read)
