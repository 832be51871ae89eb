"""This provider's findings explained to users (the TUI's explain screen): each C rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.openai_chat.clients import says
from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'C': (
        'An OpenAI-compatible server deviates from how Chat Completions streams tool calls. Key '
        "calls by `index` when present and fall back to `id` and position as shown in the panel's "
        'attribution; do not trust `finish_reason` alone to decide that calls exist; accumulate '
        '`id`/`name` once, arguments by concatenation. Report the server and version with the '
        'capture.'),
}

EXPLAIN: dict[str, T] = {
    'C001': T(
        'A `tool_calls[]` entry has no `index`; the inspector attributed it by id, by position or to '
        'the last call (the block panel says which).',
        f"Clients assemble calls by `index`: {says('C001-missing-index')} without it; "
        f"with a negative one {says('C001-negative-index')}, merging calls it should keep apart.",
        'Common with OpenAI-compatible servers: report it, and let your accumulator fall back to `id`.'),
    'C002': T(
        'The first fragment seen for a tool call carries no function name.',
        'Accumulators open a call without a name: it cannot be dispatched to any tool.',
        "The call's opening fragment was lost, or the server sends the name late: report it."),
    'C003': T(
        'Tool calls were streamed but `finish_reason` is `stop` (or another value than `tool_calls`).',
        'Agents that run tools only when `finish_reason == "tool_calls"` drop them: the turn ends '
        'without running the calls. (OpenAI itself finishes with `stop` when `tool_choice` names '
        'one function; the finding is then info.)',
        'Decide from the streamed calls, not from `finish_reason`, whether tools must run; report it '
        'to the server.'),
    'C004': T(
        '`finish_reason` is `tool_calls` but no tool call was streamed.',
        'Agents wait for calls that do not exist, or fail on an empty list.',
        'Treat the turn as ended with no call and report it to the server.'),
    'C005': T(
        'A fragment for an existing index carries a different `id`: a second call collides with the '
        'first.',
        'Accumulators keyed by index merge two calls into one: their arguments are glued together '
        '(J003) and one call is lost.',
        'The server reused an index for a new call: report it; key calls by `id` when ids differ.'),
    'C006': T(
        'A delta carries `tool_calls: []`.',
        'Clients that test whether the key exists, not whether the list is empty, think a call started '
        'and misroute the text.',
        'Test `if delta.tool_calls:` (non-empty), never the key alone.'),
    'C007': T(
        'The stream ended without `data: [DONE]` (info when every choice had finished and the body ended '
        'cleanly: some providers, e.g. Writer, never send it).',
        'Clients waiting for `[DONE]` hang until a timeout, or treat the answer as cut; the official SDKs '
        'end at EOF.',
        'If a `finish_reason` arrived, the answer itself is complete; report the missing marker to '
        'the server.'),
    'C008': T(
        'A continuation fragment repeats the function name.',
        'Accumulators that append every string field get a doubled name (`get_weatherget_weather`) and '
        'find no tool.',
        'Set the name once instead of appending it; report it to the server.'),
    'C009': T(
        '`finish_reason` is `length` while a tool call was open or incomplete.',
        'The call is cut: its arguments are incomplete.',
        'Do not execute it; retry with a higher `max_tokens` / `max_completion_tokens`.'),
    'C010': T(
        "Gemini's OpenAI-compatible endpoint sent a `thought_signature` with a tool call.",
        'A client that drops it gets its next request rejected, or the model loses the reasoning behind '
        'the call (Gemini 3 requires it).',
        'Keep `extra_content.google.thought_signature` and send it back on the same call.'),
    'C011': T(
        'The first fragment of a call lacks `id` or `type`, or puts `id` inside `function`.',
        "Strict clients (the SDKs' typed models) fail on it; others open a call without an id, whose "
        'result then cannot be matched.',
        'Report it to the server; generate an id yourself only as a last resort.'),
    'C012': T(
        "Continuation fragments repeat the call's id.",
        "Accumulators that append every string field double the id, so the tool's result no longer "
        'matches its call.',
        'Set ids instead of appending them; report it to the server.'),
    'C013': T(
        'Tool call indexes do not go 0, 1, 2, … in order.',
        'Clients that keep calls in a list by index leave holes or fail.',
        'Keep calls in a mapping by index and sort at the end; report the gap.'),
    'C014': T(
        'A choice that streamed tool calls received a second `finish_reason`.',
        'Clients that run tools at every `finish_reason` run the calls twice.',
        'Run tools once per choice, when the stream ends; report it to the server or router.'),
    'C015': T(
        'The assistant text is a tool call written out as text (JSON with a name and arguments, or '
        '`<tool_call>` tags), and no structured call exists.',
        'The agent shows the call as text and never runs it.',
        "The server did not recognise the model's tool-call format: check its tool parser or chat "
        "template (vLLM's `--tool-call-parser`, llama.cpp's `--jinja`, the model's template)."),
    'C016': T(
        "A chunk after a choice's `finish_reason` still carries content or tool calls for it.",
        'Clients stop at `finish_reason`: the late content is lost.',
        'Report it to the server; run tools only once the stream has ended.'),
    'C017': T(
        '`finish_reason` is an empty string.',
        'Clients that test `finish_reason is not None` end the turn at that chunk and drop what follows.',
        'Test for a non-empty value; report it to the server.'),
    'C018': T(
        '`delta.tool_calls` is there but is not a list (an object, a string).',
        f"{says('C018-tool-calls-not-list')}.",
        'Report it to the server or gateway.'),
    'C019': T(
        "A chunk's `delta.content` repeats text the choice had already streamed (a whole sentence or the "
        'whole answer again, often on the chunk that carries the tool calls or the finish).',
        'Clients accumulate every `content` delta: the user sees the text twice, and a history built from '
        'it sends the repetition back to the model.',
        'Report it to the server or gateway (a parser that flushes its buffer once more at the end); '
        'de-duplicate only as a stopgap.'),
    'C020': T(
        'A streamed `function.name` is no name any API accepts as a tool name, or holds chat-template '
        'control tokens (`<|channel|>`, `<tool_call>`, `[TOOL_CALLS]`) leaked by the tool parser.',
        'The agent looks up a tool that does not exist: the call fails or is dropped, and the model is told '
        'its tool is unknown.',
        "Check the server's tool-call and reasoning parsers and the model's chat template (vLLM "
        '`--tool-call-parser`, `--reasoning-parser`); do not strip tokens from names silently.'),
}
