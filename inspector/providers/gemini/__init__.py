"""Gemini native (``streamGenerateContent?alt=sse``): whole ``GenerateContentResponse`` chunks.

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``stream`` (the dialect and its rules),
``request`` (endpoint and ``prepare``), ``history`` (where requests carry history, Q rules), ``summary``
(event-log lines) and ``advice``. ``mutations`` (``serve --mutate``) and ``answer`` (whole answers and
sent-back turns) serve the conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="gemini",
                    dialect_name="gemini",
                    priority=70,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:Gemini",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=".history:SHAPE",
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=".answer:read",
                    clients=None,
                    tool_stop=False,
                    id_family="gemini",
                    ids_optional=True,
                    result_id="id",
                    otel_name="gcp.gemini",
                    otel_operation="generate_content",
                    otel_hosts=(),
                    error_shape="google",
                    usage_keys={"gen_ai.usage.input_tokens": ("promptTokenCount",),
                                "gen_ai.usage.output_tokens": ("candidatesTokenCount",),
                                "gen_ai.usage.cache_read.input_tokens": ("cachedContentTokenCount",),
                                "gen_ai.usage.reasoning.output_tokens": ("thoughtsTokenCount",)},
                    conform=(".mutations", ".answer", ".content_faults"),
                    conform_capture=None,
                    meanings={})
