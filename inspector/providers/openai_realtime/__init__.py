"""OpenAI Realtime (``wss://…/v1/realtime``, WebSocket): the Responses items under Realtime's names.

Lives here: ``sniff`` (detection: the ``event_id`` every Realtime server event carries), ``stream``
(the dialect: ``OpenAIResponses`` with Realtime's events), ``tools`` (the response's or the session's
tools, V rules), ``history`` (tool outputs sent back with ``conversation.item.create``, Q rules) and
``request`` (the handshake). Detected before ``openai-responses`` (priority 35 < 40): a Realtime event
is also a ``response.*`` event. Stop reasons read as the Responses API's (``completed``,
``cancelled``…); no non-streamed answer and no HTTP mutations (``conform``).
May import: ``inspector.providers`` (base, shared helpers, ``openai_responses``) and ``inspector.model``.
"""
from __future__ import annotations

from inspector.providers.record import Provider

PROVIDER = Provider(package=__name__, name="openai-realtime",
                    dialect_name="openai-realtime",
                    priority=35,
                    sniff=".sniff:sniff",
                    sniff_url=".sniff:sniff_url",
                    dialect=".stream:OpenAIRealtime",
                    endpoint=".request:ENDPOINT",
                    prepare=".request:prepare",
                    summarize="inspector.providers.summary:generic",
                    advice="inspector.providers.openai_responses.advice:ADVICE",
                    explain=None,
                    history=".history:SHAPE",
                    declared_tools=".tools:read",
                    stop_class="inspector.providers.openai_responses.answer:stop_class",
                    read_answer=None,
                    clients=None,
                    tool_stop=False,
                    id_family="openai-realtime",
                    ids_optional=False,
                    result_id="call_id",
                    otel_name="openai",
                    otel_operation="chat",
                    otel_hosts=(),
                    error_shape="openai",
                    usage_keys={"gen_ai.usage.input_tokens": ("input_tokens",),
                                "gen_ai.usage.output_tokens": ("output_tokens",)},
                    conform=None,
                    conform_capture=None,
                    meanings={"block-never-stopped": ("R004",), "incomplete-response": ("R005",)})
