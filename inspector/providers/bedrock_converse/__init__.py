"""AWS Bedrock ConverseStream (binary event-stream): one stream shape for every Bedrock model.

Lives here: ``stream`` (the dialect and its B rules), ``request`` (endpoint and ``prepare``),
``summary`` (event-log lines) and ``advice``. Shared with the other Bedrock dialect:
``inspector.providers.bedrock``.
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.bedrock_converse import tools
from inspector.providers.bedrock_converse import request
from inspector.providers.bedrock_converse.advice import ADVICE, EXPLAIN
from inspector.providers.bedrock_converse.stream import BedrockConverse
from inspector.providers.bedrock_converse.summary import summarize

PROVIDER = Provider("bedrock-converse", BedrockConverse, request.ENDPOINT, request.prepare, summarize, ADVICE,
                    explain=EXPLAIN,
                    otel_name="aws.bedrock",
                    declared_tools=tools.read)
