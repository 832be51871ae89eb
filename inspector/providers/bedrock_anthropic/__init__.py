"""Anthropic Messages on AWS Bedrock (``InvokeModelWithResponseStream``, binary event-stream).

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``stream`` (the Anthropic dialect reading
the events inside Bedrock's ``chunk`` messages; every A rule applies), ``request`` (endpoint and ``prepare``),
``summary`` and ``advice``. Shared with the other Bedrock dialect: ``inspector.providers.bedrock``.
May import: ``inspector.providers`` (base, shared helpers, the ``anthropic`` folder it builds on)
and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="bedrock",
                    dialect_name="bedrock-anthropic",
                    priority=20,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:BedrockAnthropic",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=None,
                    history=None,
                    declared_tools="inspector.providers.anthropic.tools:read",
                    stop_class="inspector.providers.anthropic.answer:stop_class",
                    read_answer=None,
                    clients=None,
                    tool_stop=True,
                    id_family="anthropic",
                    ids_optional=False,
                    result_id="id",
                    otel_name="aws.bedrock",
                    otel_operation="chat",
                    otel_hosts=(r"(^|\.)bedrock(-runtime)?([.-][a-z0-9-]+)*\.amazonaws\.com$",),
                    error_shape="anthropic",
                    usage_keys={"gen_ai.usage.input_tokens": ("input_tokens",),
                                "gen_ai.usage.output_tokens": ("output_tokens",),
                                "gen_ai.usage.cache_read.input_tokens": ("cache_read_input_tokens",),
                                "gen_ai.usage.cache_creation.input_tokens": ("cache_creation_input_tokens",)},
                    conform=None,
                    conform_capture=None,
                    meanings={})
"""``live --provider bedrock``: Claude on Bedrock. History: the Anthropic shape already
reads these bodies (``anthropic_version`` marks them), so it is not registered twice."""

