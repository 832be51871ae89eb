"""OpenAI Responses (``/v1/responses``, SSE): output items, content parts, argument deltas.

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``clients`` (what its SDK does with
broken streams, measured), ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules) and ``advice``. ``mutations`` (``serve --mutate``) and
``answer`` (whole answers and sent-back turns) serve the conformance tools
(``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="openai-responses",
                    dialect_name="openai-responses",
                    priority=40,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:OpenAIResponses",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize="inspector.providers.summary:generic",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=".history:SHAPE",
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=".answer:read",
                    clients=".clients:BEHAVIOURS",
                    tool_stop=False,
                    id_family="openai-responses",
                    ids_optional=False,
                    result_id="call_id",
                    otel_name="openai",
                    otel_operation="chat",
                    otel_hosts=(),
                    error_shape="openai",
                    usage_keys={"gen_ai.usage.input_tokens": ("input_tokens",),
                                "gen_ai.usage.output_tokens": ("output_tokens",),
                                "gen_ai.usage.reasoning.output_tokens": ("reasoning_tokens",)},
                    conform=(".mutations", ".answer", ".content_faults"),
                    conform_capture=None,
                    meanings={"block-never-stopped": ("R004",), "incomplete-response": ("R005",)})
