"""Anthropic Messages (``/v1/messages``, SSE): content blocks by index, deltas, stop events.

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

PROVIDER = Provider(package=__name__, name="anthropic",
                    dialect_name="anthropic-messages",
                    priority=10,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:AnthropicMessages",
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
                    tool_stop=True,
                    id_family="anthropic",
                    ids_optional=False,
                    result_id="id",
                    otel_name="anthropic",
                    otel_operation="chat",
                    otel_hosts=(),
                    error_shape="anthropic",
                    usage_keys={"gen_ai.usage.input_tokens": ("input_tokens",),
                                "gen_ai.usage.output_tokens": ("output_tokens",),
                                "gen_ai.usage.cache_read.input_tokens": ("cache_read_input_tokens",),
                                "gen_ai.usage.cache_creation.input_tokens": ("cache_creation_input_tokens",)},
                    conform=(".mutations", ".answer", ".content_faults"),
                    conform_capture="1-anthropic-tool-call.jsonl",
                    meanings={"stop-reason-mismatch": ("A007",), "truncated-tool-call": ("A008",),
                        "delta-without-start": ("A001",), "delta-type-mismatch": ("A002",), "duplicate-start": ("A003",),
                        "index-out-of-order": ("A004",), "delta-after-stop": ("A005",),
                        "invalid-tool-identity": ("A011",), "missing-message-start": ("A012",),
                        "missing-stop-reason": ("A013",), "block-never-stopped": ("A014",), "missing-index": ("A001",),
                        "incomplete-response": ("A008",)})
