"""This provider's findings explained to users (the TUI's explain screen): each K rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'K': (
        "The official cohere SDK silently loses part of this stream: it drops events whose shape its "
        'types reject and stops at `[DONE]`, without raising. Usually a gateway or a compatible server '
        "imitating Cohere's v2 chat stream; report it there with the capture."),
}

EXPLAIN: dict[str, T] = {
    'K001': T(
        "An event of a known type has a shape cohere-python's stream types reject: `tool_calls` sent as a "
        'list (the OpenAI shape) instead of one object, a tool call without a string `id`, `type` other '
        'than `function`, `arguments` or a text that is not a string, a number field holding a word.',
        'cohere-python (`ClientV2.chat_stream`) logs "Skipping SSE event due to model construction error" '
        'and drops the event: a tool call never starts, an argument fragment is missing, or the '
        '`finish_reason` never arrives, and nothing is raised.',
        'Report it to whatever serves the stream (a gateway translating another provider, a server '
        'imitating Cohere). Until then, read such a server with a client that does not validate, or '
        'watch the SDK\'s warnings.'),
    'K002': T(
        '`data: [DONE]` arrived before `message-end`. Cohere does not send `[DONE]`; OpenAI-style '
        'servers and gateways do.',
        'cohere-python stops reading at `[DONE]`: every event after it (the rest of the text, the tool '
        'calls, the `finish_reason`) is lost without an error.',
        'Report it to the gateway or server that adds `[DONE]`; a `[DONE]` after `message-end` does no '
        'harm.'),
}
