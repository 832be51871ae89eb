"""Ollama native (``/api/chat``, NDJSON): one message object per line, ``done: true`` last.

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``stream`` (the dialect and its rules),
``request`` (endpoint and ``prepare``), ``summary`` (event-log lines) and ``advice``. ``mutations`` (``serve
--mutate``) and ``answer`` (whole answers and sent-back turns) serve the conformance tools
(``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="ollama",
                    dialect_name="ollama",
                    priority=80,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:Ollama",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=None,
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=".answer:read",
                    clients=None,
                    tool_stop=False,
                    id_family="ollama",
                    ids_optional=True,
                    result_id="id",
                    otel_name="ollama",
                    otel_operation="chat",
                    otel_hosts=(),
                    error_shape="ollama",
                    usage_keys={"gen_ai.usage.input_tokens": ("prompt_eval_count",),
                                "gen_ai.usage.output_tokens": ("eval_count",)},
                    conform=(".mutations", ".answer", None),
                    conform_capture=None,
                    meanings={})
