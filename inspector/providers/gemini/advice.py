"""This provider's findings explained to users (the TUI's explain screen): each G rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'G': (
        'Gemini ended or annotated the function call in a way clients must handle explicitly: '
        'retry with a simpler tool schema or fewer tools on a failed call, and send thought '
        'signatures back exactly on the part they arrived with.'),
}

EXPLAIN: dict[str, T] = {
    'G001': T(
        '`finishReason` is `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL` or `TOO_MANY_TOOL_CALLS`: '
        'Gemini itself rejected the tool call.',
        'The turn ends with no usable call; agents that only read the parts see an empty answer.',
        'Check the tool declarations (a schema too deep or with unsupported types) and the '
        'function-calling mode, then retry.'),
    'G002': T(
        'A `thoughtSignature` came on a part other than the first function call of the turn.',
        'Clients that attach it to the wrong call, or drop it, get their next request rejected.',
        'Send each signature back on the very part it came with.'),
    'G003': T(
        'A `finishReason` arrived on a frame that more content follows.',
        'Clients that stop at the first `finishReason` lose the rest (code execution results, later '
        'parts).',
        'Read to the end of the stream: the last `finishReason` is the one that counts.'),
    'G004': T(
        'A frame with a `finishReason` and no parts came before any content, and content followed.',
        'Clients end the turn empty.',
        'Read on until the stream ends; report it.'),
    'G005': T(
        'A function call streamed in parts (`willContinue: true`) never received its final part.',
        'Its arguments are incomplete.',
        'Do not execute it; retry.'),
}
