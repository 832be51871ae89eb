"""AWS Bedrock ConverseStream (binary event-stream): one stream shape for every Bedrock model.

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``answer`` (its stop reasons as the
diff's classes), ``stream`` (the dialect and its B rules), ``request`` (endpoint and ``prepare``), ``summary``
(event-log lines) and ``advice``. Shared with the other Bedrock dialect: ``inspector.providers.bedrock``.
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="bedrock-converse",
                    dialect_name="bedrock-converse",
                    priority=30,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:BedrockConverse",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=None,
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=None,
                    clients=None,
                    tool_stop=True,
                    id_family="bedrock",
                    ids_optional=False,
                    result_id="id",
                    otel_name="aws.bedrock",
                    otel_operation="chat",
                    otel_hosts=(r"(^|\.)bedrock(-runtime)?([.-][a-z0-9-]+)*\.amazonaws\.com$",),
                    error_shape="aws-json",
                    usage_keys={"gen_ai.usage.input_tokens": ("inputTokens",),
                                "gen_ai.usage.output_tokens": ("outputTokens",),
                                "gen_ai.usage.cache_read.input_tokens": ("cacheReadInputTokens",),
                                "gen_ai.usage.cache_creation.input_tokens": ("cacheWriteInputTokens",)},
                    conform=None,
                    conform_capture=None,
                    meanings={"stop-reason-mismatch": ("B008",), "truncated-tool-call": ("B009",),
                        "delta-without-start": ("B002",), "delta-type-mismatch": ("B003",), "duplicate-start": ("B005",),
                        "index-out-of-order": ("B006",), "delta-after-stop": ("B004",),
                        "invalid-tool-identity": ("B012",), "missing-message-start": ("B001",),
                        "missing-stop-reason": ("B010",), "block-never-stopped": ("B007",)})
