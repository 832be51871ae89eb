"""OpenAI Realtime (``wss://…/v1/realtime``, WebSocket): the Responses items under Realtime's names.

Lives here: ``stream`` (the dialect: ``OpenAIResponses`` with Realtime's events), ``tools`` (the
response's or the session's tools, V rules), ``history`` (tool outputs sent back with
``conversation.item.create``, Q rules) and ``request`` (the handshake). Registered in
``inspector.providers`` before ``openai-responses`` (a Realtime event is also a ``response.*`` event).
May import: ``inspector.providers`` (base, shared helpers, ``openai_responses``) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.openai_realtime import request, tools
from inspector.providers.openai_realtime.history import SHAPE as HISTORY
from inspector.providers.openai_realtime.stream import OpenAIRealtime
from inspector.providers.openai_responses.advice import ADVICE, EXPLAIN
from inspector.providers.summary import generic as summarize

PROVIDER = Provider("openai-realtime", OpenAIRealtime, request.ENDPOINT, request.prepare, summarize, ADVICE, HISTORY,
                    explain=EXPLAIN, otel_name="openai", declared_tools=tools.read)
