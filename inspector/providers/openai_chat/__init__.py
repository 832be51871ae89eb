"""OpenAI Chat Completions (``/v1/chat/completions``, SSE) and every OpenAI-compatible server
(vLLM, llama.cpp, SGLang, Ollama ``/v1``, Gemini compat, LiteLLM, OpenRouter).

Lives here: the ``PROVIDER`` record below (every fact about it, ``inspector.providers.record``), ``sniff``
(how its events and URLs are recognised: detection loads only this), ``clients`` (what its SDK does with
broken streams, measured), ``stream`` (the dialect and its rules), ``request`` (endpoint and ``prepare``),
``history`` (where requests carry history, Q rules), ``summary`` (event-log lines) and ``advice``.
``mutations`` (``serve --mutate``) and ``answer`` (whole answers and sent-back turns) serve the conformance
tools (``inspector.providers.conformance``).
May import: ``inspector.providers`` (base, shared helpers) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="openai",
                    dialect_name="openai-chat",
                    priority=60,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:OpenAIChat",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize=".summary:summarize",
                    advice=".advice:ADVICE",
                    explain=".advice:EXPLAIN",
                    history=".history:SHAPE",
                    declared_tools=".tools:read",
                    stop_class=".answer:stop_class",
                    read_answer=".answer:read",
                    clients=".clients:BEHAVIOURS",
                    tool_stop=True,
                    id_family="openai-chat",
                    ids_optional=False,
                    result_id="id",
                    otel_name="openai",
                    otel_operation="chat",
                    otel_hosts=(),
                    error_shape="openai",
                    usage_keys={"gen_ai.usage.input_tokens": ("prompt_tokens",),
                                "gen_ai.usage.output_tokens": ("completion_tokens",),
                                "gen_ai.usage.reasoning.output_tokens": ("reasoning_tokens",)},
                    conform=(".mutations", ".answer", ".content_faults"),
                    conform_capture="3-openai-parallel-tool-calls.jsonl",
                    meanings={"stop-reason-mismatch": ("C003",), "truncated-tool-call": ("C009",),
                        "delta-without-start": ("C002",), "duplicate-start": ("C008", "C012"),
                        "index-out-of-order": ("C013",), "delta-after-stop": ("C016",),
                        "missing-stop-reason": ("C017",), "missing-end-marker": ("C007",), "missing-index": ("C001",),
                        "incomplete-response": ("C009",)})
