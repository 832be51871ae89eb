"""Anthropic Messages on AWS Bedrock (``InvokeModelWithResponseStream``, binary event-stream).

Lives here: ``stream`` (the Anthropic dialect reading the events inside Bedrock's ``chunk``
messages; every A rule applies), ``request`` (endpoint and ``prepare``), ``summary`` and
``advice``. Shared with the other Bedrock dialect: ``inspector.providers.bedrock``.
May import: ``inspector.providers`` (base, shared helpers, the ``anthropic`` folder it builds on)
and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.base import Provider
from inspector.providers.anthropic import tools
from inspector.providers.bedrock_anthropic import request
from inspector.providers.bedrock_anthropic.advice import ADVICE
from inspector.providers.bedrock_anthropic.stream import BedrockAnthropic
from inspector.providers.bedrock_anthropic.summary import summarize

PROVIDER = Provider("bedrock", BedrockAnthropic, request.ENDPOINT, request.prepare, summarize, ADVICE,
                    otel_name="aws.bedrock",
                    declared_tools=tools.read)
"""``live --provider bedrock``: Claude on Bedrock. History: the Anthropic shape already
reads these bodies (``anthropic_version`` marks them), so it is not registered twice."""
