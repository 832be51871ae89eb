"""Cohere v2 chat (``/v2/chat``, SSE): typed events, content and tool calls by index, ``message-end``.

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``clients`` (what its SDK does with
broken streams, measured), ``stream`` (the dialect and its rules), ``shapes`` (the event shapes cohere-python
accepts, K001), ``request`` (endpoint and ``prepare``), ``tools`` (the tools a request declares, V rules),
``summary`` (event-log lines) and ``advice``. ``mutations`` (``serve --mutate``) and ``answer`` (whole answers
and sent-back turns) serve the conformance tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="cohere",
                    dialect_name="cohere-chat",
                    priority=50,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:CohereChat",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=None,
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=".answer:read",
                    clients=".clients:BEHAVIOURS",
                    tool_stop=True,
                    id_family="cohere",
                    ids_optional=False,
                    result_id="id",
                    otel_name="cohere",
                    otel_operation="chat",
                    otel_hosts=(r"(^|\.)api\.cohere\.(com|ai)$",),
                    error_shape="message",
                    usage_keys={"gen_ai.usage.input_tokens": ("input_tokens",),
                                "gen_ai.usage.output_tokens": ("output_tokens",)},
                    conform=(".mutations", ".answer", None),
                    conform_capture=None,
                    meanings={})
