"""The rule catalog: every finding code, its stable name, default severity and meaning.

Generated from `shared/RULES.md` (the project's rule catalog) by ``tests/gen_catalog.py``, plus the project's additions at the
end of a family (S014–S017), the B family (AWS Bedrock ConverseStream) and the K family (Cohere v2 chat),
documented in README.md;
codes are stable and never renumbered. ``explain`` is the catalog's "fires when" text, shown in the
TUI and `--explain`.
"""
from __future__ import annotations

from inspector.model.record import FrozenRecord
from inspector.model.severity import Severity


VERSION = 3
"""The version of ``shared/RULES.md`` this catalog follows (``rules`` prints it; README "Rules" names it)."""

BEDROCK = "AWS Bedrock ConverseStream"
"""The B family (a project addition, documented in README.md)."""
COHERE = "Cohere v2 chat (`/v2/chat`, SSE)"
"""The K family (a project addition, documented in README.md): only what the `cohere` SDK itself loses."""


class Rule(FrozenRecord):
    """One catalog row (a ``FrozenRecord``: some 200 are made at import, a dataclass costs start-up)."""

    __slots__ = ("code", "name", "severity", "family", "explain")

    code: str
    """Stable code, e.g. ``"A001"``."""
    name: str
    """Stable kebab-case name, e.g. ``"delta-without-start"``."""
    severity: Severity
    """Default severity: ``"error"``, ``"warning"`` or ``"info"``."""
    family: str
    """The catalog section, e.g. ``"Anthropic Messages"``."""
    explain: str
    """When it fires, in the catalog's words."""

    def __init__(self, code: str, name: str, severity: Severity, family: str, explain: str) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "family", family)
        object.__setattr__(self, "explain", explain)


RULES: dict[str, Rule] = {r.code: r for r in (
    Rule('S001', 'invalid-utf8', 'error', 'stream framing (every dialect)',
         'body bytes are not valid UTF-8 (report byte offset; decode with replacement and go on)'),
    Rule('S002', 'malformed-json', 'error', 'stream framing (every dialect)',
         'an event payload is not valid JSON (OpenAI `[DONE]` excepted)'),
    Rule('S003', 'truncated-stream', 'error', 'stream framing (every dialect)',
         "the stream ended before the dialect's end marker: Anthropic `message_stop`; Chat a `finish_reason` on every choice (and then `[DONE]`, see C007); Responses `response.completed/failed/incomplete`; Gemini a `finishReason` on the last frame that carries candidates (see G003/G004: an earlier `finishReason` is not the end); Ollama `done: true`"),
    Rule('S004', 'event-after-end', 'warning', 'stream framing (every dialect)',
         'bytes or events after the end marker. For Chat the marker is `data: [DONE]`; a usage-only chunk (`choices: []`) between the last `finish_reason` and `[DONE]` is normal. Not judged for Gemini (G003/G004). When what follows is a new response (`message_start`, `response.created`, a new Chat `id`), report S004 once, then judge that response on its own, as if it were a second capture: no rule of the first response fires because of the second'),
    Rule('S005', 'event-name-mismatch', 'warning', 'stream framing (every dialect)',
         "the SSE `event:` field differs from the payload's `type` (Anthropic, Responses)"),
    Rule('S006', 'in-band-error', 'error', 'stream framing (every dialect)',
         'an error arrives inside the stream (`event: error`, an `{"error": …}` payload, an Ollama error line), or a JSON error object (possibly pretty-printed over many lines, possibly wrapped in a one-element array, as Google sends) arrives instead of or after the events; show its code, type/status and message. A pretty-printed JSON value is one value: never one S002 per line'),
    Rule('S007', 'http-error', 'error', 'stream framing (every dialect)',
         'status ≥ 400, or a body that is not a stream (`text/event-stream`, `application/x-ndjson`, `application/json` for Ollama); show the body'),
    Rule('S008', 'unknown-type', 'info', 'stream framing (every dialect)',
         'an event, block, delta or item type outside the known set'),
    Rule('S009', 'bom', 'warning', 'stream framing (every dialect)',
         'the body starts with U+FEFF; common SSE clients then silently drop the first event (the inspector shows it). A second U+FEFF right after the first (double BOM) is reported too: even BOM-aware decoders strip only one'),
    Rule('S010', 'unterminated-event', 'error', 'stream framing (every dialect)',
         'the body does not end with a line terminator, or its last event lacks the blank line that dispatches it: spec-following clients discard that event; show it anyway. Under S013 a final line ended by a newline counts as terminated. Framing rules (S002, S003, S010) are not judged on a body already reported under S007'),
    Rule('S011', 'mixed-line-endings', 'info', 'stream framing (every dialect)',
         'CRLF, LF and CR mixed in one stream'),
    Rule('S012', 'connection-lost', 'error', 'stream framing (every dialect)',
         'the transport ended abnormally (reset, timeout, cancel)'),
    Rule('S013', 'undelimited-events', 'warning', 'stream framing (every dialect)',
         'consecutive `data:` lines that each hold a complete JSON object or array (or `[DONE]`; scalars such as `1` do not count: joining them is what the SSE spec asks for) with no blank line between them (common in pasted text, fatal on the wire: spec-following clients join them into one invalid payload). Treat each such line as its own event and report this once'),
    Rule('T001', 'stall', 'warning', 'timing',
         'no bytes at all for ≥ the stall threshold (report the gap and where it sits). Gaps include the wait from t = 0 (request sent) to the first chunk whenever times are request-relative (native captures always are, even with `request: null`), and from the last chunk to an `end` record'),
    Rule('T002', 'keepalive-only', 'info', 'timing',
         "only pings/comments for ≥ the threshold while a block is open, or before the first content event (the report's `ttfc_s`, time to first content, is measured to the first event that carries content or a block start; `ttfb_s` counts any byte)"),
    Rule('T003', 'buffered-arguments', 'info', 'timing',
         "a tool block's arguments arrived as one late burst: parameter buffering; for Anthropic, suggest `eager_input_streaming`. Lifetime runs from the block's opening event (`content_block_start`, the first Chat fragment, `output_item.added`) to its closing event (`content_block_stop`, `finish_reason`, `.done`/`output_item.done`), or to the end of the stream if it never closes. Fires when lifetime ≥ the threshold, the argument text has > 0 UTF-8 bytes, and ≥ 90 % of them arrived (timed by the chunk that completed their event) at or after close − 0.1 × lifetime"),
    Rule('J001', 'args-invalid', 'error', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'the accumulated text can no longer be a prefix of any JSON value (point at the delta and the character offset)'),
    Rule('J002', 'args-incomplete-at-close', 'error', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'the block or call was closed (`content_block_stop`, `finish_reason`, `.done`) while the accumulated text is a *non-empty* incomplete prefix'),
    Rule('J003', 'args-trailing-data', 'error', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'a complete JSON value is followed by more non-space text (e.g. `{}{"a":1}`, two calls glued together)'),
    Rule('J004', 'args-not-object', 'error', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'the complete value is not a JSON object'),
    Rule('J005', 'args-never-closed', 'error', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'the stream ended with the tool block or call still open: do not execute it'),
    Rule('J006', 'args-resent', 'warning', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'a non-empty fragment F arrives while the accumulated text A is non-empty, and either F starts with A (cumulative snapshots sent as deltas), or A is already a complete value and F is a complete value equal to it (the whole object re-sent). Empty fragments never fire it'),
    Rule('J007', 'args-empty', 'warning', "tool arguments (every dialect; judged on each tool block's accumulated arguments)",
         'a Chat or Responses call finished with no argument text at all (they expect at least `{}`); its status is `empty`. An Anthropic tool block with no input text is `{}`: status `complete`, `input: {}`, no finding'),
    Rule('A001', 'delta-without-start', 'error', 'Anthropic Messages',
         '`content_block_delta`/`content_block_stop` for an index with no `content_block_start`. An orphan delta or stop creates no block, and counts for neither A007 nor the J rules'),
    Rule('A002', 'delta-type-mismatch', 'error', 'Anthropic Messages',
         'delta type does not fit the block: `text_delta`/`citations_delta` → `text`; `input_json_delta` → `tool_use`/`server_tool_use`/`mcp_tool_use`; `thinking_delta`/`signature_delta` → `thinking`'),
    Rule('A003', 'duplicate-start', 'error', 'Anthropic Messages',
         '`content_block_start` for an index already started. The later start replaces the slot: following deltas and the stop apply to the new block (A002 is judged against it); the replaced block stays in `blocks` with `closed: false`, raises no J002, J005 or A014, and still counts for A007'),
    Rule('A004', 'index-out-of-order', 'error', 'Anthropic Messages',
         'a started index is not the next position (0, 1, 2, …) in the final content array (the official SDKs index the content list by it: a skipped index raises IndexError in anthropic-python)'),
    Rule('A005', 'delta-after-stop', 'error', 'Anthropic Messages',
         'a delta or second stop for a block already stopped'),
    Rule('A006', 'overlapping-blocks', 'warning', 'Anthropic Messages',
         'a block starts while another is still open'),
    Rule('A007', 'stop-reason-mismatch', 'error', 'Anthropic Messages',
         'a `tool_use` block was started and `stop_reason` is not `tool_use`, `max_tokens` or `model_context_window_exceeded` (A008 covers those two): the tool never runs; or `stop_reason` is `tool_use` and no `tool_use` block was started'),
    Rule('A008', 'truncated-tool-call', 'error', 'Anthropic Messages',
         '`stop_reason` `max_tokens` (or `model_context_window_exceeded`) while a tool block is open or incomplete: retry with a higher limit'),
    Rule('A009', 'empty-text-block', 'warning', 'Anthropic Messages',
         'a `text` block closed with zero characters (replaying it is rejected: text blocks must be non-empty). Not fired when `stop_reason` is `refusal`'),
    Rule('A010', 'start-input-not-empty', 'warning', 'Anthropic Messages',
         '`content_block_start` of a tool block carries a non-empty `input` and deltas follow (double counting)'),
    Rule('A011', 'invalid-tool-identity', 'error', 'Anthropic Messages',
         'tool id not matching `^[a-zA-Z0-9_-]+$`, or name not 1–200 characters'),
    Rule('A012', 'missing-message-start', 'error', 'Anthropic Messages',
         'the first non-ping event is not `message_start`'),
    Rule('A013', 'missing-stop-reason', 'warning', 'Anthropic Messages',
         "`message_stop` without a `message_delta` carrying `stop_reason`, and `message_start.message.stop_reason` was null too. `message_start.message.content` may already hold complete blocks (programmatic and deferred tool calls): they are the message's first blocks, in order, closed, with their `input` as arguments"),
    Rule('A014', 'block-never-stopped', 'warning', 'Anthropic Messages',
         'a non-tool block still open at the end (tool blocks: J005)'),
    Rule('A015', 'thinking-without-signature', 'warning', 'Anthropic Messages',
         'a `thinking` block closed with no non-empty signature (from `signature_delta` or the start event; an empty string counts as missing): it cannot be replayed'),
    Rule('A016', 'empty-message', 'warning', 'Anthropic Messages',
         'the message ended with no content blocks (counting blocks pre-filled in `message_start`). Not fired when `stop_reason` is `refusal`'),
    Rule('A017', 'repeated-message-start', 'warning', 'Anthropic Messages',
         'a second `message_start` before `message_stop` (a retry spliced into one stream); after `message_stop` it is S004 and a new response'),
    Rule('C001', 'missing-index', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a `tool_calls[]` entry has no `index`, or a negative one (attribute it by `id`, then by position in the batch, then to the last call; show the attribution). Say what a client does only where it was measured against the pinned SDK version (openai-python: `TypeError` for a missing index, an assertion for a negative one)'),
    Rule('C002', 'fragment-without-start', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'the first fragment seen for an index carries no non-empty `function.name` (absent, null or `""`): arguments for a call never opened'),
    Rule('C003', 'finish-not-tool-calls', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'tool calls were streamed but `finish_reason` is `stop` (or another non-`tool_calls`, non-`length` value): clients keyed on `tool_calls` drop them. Info when the request (native capture or `--request`) names one function in `tool_choice`: OpenAI itself then finishes with `stop`'),
    Rule('C004', 'tool-calls-without-calls', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         '`finish_reason` `tool_calls` and no tool call streamed'),
    Rule('C005', 'id-changed', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a fragment for an existing index carries a different non-empty `id`: a second call collides with the first. With a `function.name` too it is a new call: split it off and show both'),
    Rule('C006', 'empty-tool-calls-array', 'info', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a delta carries `tool_calls: []` (clients that branch on the key misroute text)'),
    Rule('C007', 'missing-done', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'the stream ended without `data: [DONE]`. Info when every choice already has its `finish_reason` and the body ended cleanly (some providers, e.g. Writer, never send `[DONE]`; the official SDKs end at EOF)'),
    Rule('C008', 'name-repeated', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a continuation fragment repeats a non-empty `function.name` (naive accumulators double the name)'),
    Rule('C009', 'truncated-by-length', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         '`finish_reason` `length` while a tool call is open or incomplete'),
    Rule('C010', 'thought-signature', 'info', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         '`extra_content.google.thought_signature` seen: it must go back on the call it came with; a standalone signature delta belongs to the first call of the batch'),
    Rule('C011', 'incomplete-first-fragment', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'the first fragment of a call lacks `id` or `type` (or puts `id` inside `function`)'),
    Rule('C012', 'id-repeated', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'continuation fragments repeat the same `id` (string-concatenating accumulators double it)'),
    Rule('C013', 'index-gap', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'tool call indexes do not appear as 0, 1, 2, … in order'),
    Rule('C014', 'finish-reason-repeated', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a choice that streamed tool calls gets a second `finish_reason` (clients run the calls twice). The same value repeated on a choice with no tool calls (some routers repeat it on the usage chunk) is info'),
    Rule('C015', 'tool-call-in-content', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'the assistant text is a tool call written as text (a `{"name": …, "arguments"/"parameters": …}` object or list, or `<tool_call>` tags) and no structured call exists. Applies to `openai-chat` and to native `ollama`'),
    Rule('C016', 'delta-after-finish', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a later chunk whose delta for a finished choice carries `content`, `reasoning`, `refusal` or `tool_calls` (a delta that is `{}` or carries only `role` does not count)'),
    Rule('C017', 'empty-finish-reason', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         '`finish_reason` is `""` (an empty string): clients that test `!= null` end the turn at that chunk and drop the rest. An empty string is not a finish for the other C rules'),
    Rule('C018', 'tool-calls-not-list', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         '`delta.tool_calls` is present and not an array (an object, a string): the official SDKs fail on it. Once per stream'),
    Rule('C019', 'content-restated', 'warning', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         "a chunk's `delta.content` repeats text the choice already streamed (a whole-sentence restatement, typically on the chunk that carries the tool calls or the finish): accumulating clients show it twice. Not fired for a single repeated short token (under 8 characters)"),
    Rule('C020', 'invalid-tool-name', 'error', 'OpenAI Chat Completions and compatibles (Gemini compat, vLLM, llama.cpp, SGLang, Ollama `/v1`, LiteLLM, OpenRouter)',
         'a streamed `function.name` that no API would accept as a tool name: outside `^[A-Za-z0-9_.:-]{1,128}$`, or holding chat-template control tokens (`<|…|>`, `<tool_call>`, `[TOOL_CALLS]`): the agent looks up a tool that does not exist'),
    Rule('R001', 'unknown-item', 'error', 'OpenAI Responses',
         'an event names an `item_id`/`output_index` never announced by `response.output_item.added`. Not in a resumed stream (see R008): there an item announced before the cursor is normal; assemble it from its deltas and `.done` events and say once (info, R012) that the stream is resumed'),
    Rule('R002', 'done-mismatch', 'error', 'OpenAI Responses',
         'at least one argument delta arrived and their concatenation differs from `.done`, `output_item.done` or `response.completed`. With no deltas the arguments come from `.done` (else `output_item.done`) and the J rules judge that text'),
    Rule('R003', 'sequence-gap', 'warning', 'OpenAI Responses',
         '`sequence_number` does not increase by exactly 1'),
    Rule('R004', 'item-never-done', 'error', 'OpenAI Responses',
         'an item announced but never `response.output_item.done` before the end'),
    Rule('R005', 'incomplete-response', 'error', 'OpenAI Responses',
         '`response.incomplete`/`response.failed` while a function call is open or incomplete'),
    Rule('R006', 'item-missing-id', 'warning', 'OpenAI Responses',
         'a `function_call` item or its events carry no `id`/`item_id` (correlate by `output_index`)'),
    Rule('R007', 'output-index-reused', 'error', 'OpenAI Responses',
         'two different items announced at the same `output_index`'),
    Rule('R008', 'missing-created', 'error', 'OpenAI Responses',
         'the first event is not `response.created`. A resumed stream (`starting_after` in the request, or a first `sequence_number` above 0) may start anywhere; R003 counts from its first event'),
    Rule('R009', 'text-done-mismatch', 'warning', 'OpenAI Responses',
         'the `output_text` (or `reasoning`/`refusal`) deltas of a part concatenate to a text that differs from its `.done` event or from the item in `output_item.done`. Every delta of the part counts, including deltas that arrive after its `.done` (clients that keep `.done` lose them)'),
    Rule('R010', 'item-id-changed', 'warning', 'OpenAI Responses',
         "an event's `item_id` differs from the id announced for its `output_index` (some gateways rotate ids): attribute it by `output_index` as the official SDK does, report once per item, and do not fire R001"),
    Rule('R011', 'content-index-gap', 'error', 'OpenAI Responses',
         "a content part or delta arrives at `content_index` n of an item whose parts 0 … n−1 were never added (`response.content_part.added`): openai-python indexes the item's content list by it and raises IndexError"),
    Rule('R012', 'resumed-stream', 'info', 'OpenAI Responses',
         "the stream starts after the beginning (`starting_after` in the request, or a first `sequence_number` above 0): items announced before the cursor are assembled from what arrives; openai-python's `responses.stream()` raises on such a body, its `retrieve(stream=True)` does not"),
    Rule('G001', 'function-call-failed', 'error', 'Gemini native (`streamGenerateContent?alt=sse`)',
         '`finishReason` is `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL` or `TOO_MANY_TOOL_CALLS`'),
    Rule('G002', 'signature-placement', 'info', 'Gemini native (`streamGenerateContent?alt=sse`)',
         'a `thoughtSignature` arrives on a part other than the first `functionCall` of the turn, or in a later empty-text part: show which call it belongs to'),
    Rule('G003', 'intermediate-finish', 'info', 'Gemini native (`streamGenerateContent?alt=sse`)',
         'a `finishReason` on a frame that is followed by more parts (code-execution rounds; older Vertex sends `STOP` on every frame): clients that stop at the first `finishReason` lose the rest. Once per stream. An unknown `finishReason` value is still S008 wherever it appears'),
    Rule('G004', 'finish-before-content', 'warning', 'Gemini native (`streamGenerateContent?alt=sse`)',
         'a `finishReason` on a frame with no parts before any content arrived, and content follows: clients end the turn empty'),
    Rule('G005', 'streamed-call-unfinished', 'error', 'Gemini native (`streamGenerateContent?alt=sse`)',
         "a streamed `functionCall` (`willContinue: true`; its arguments come as `partialArgs` entries, each a `jsonPath` and a typed value, assembled into the call's JSON arguments) never received its final part before the end"),
    Rule('N001', 'arguments-as-string', 'warning', 'Ollama native (`/api/chat`, NDJSON)',
         '`function.arguments` is a string; the native API sends an object'),
    Rule('Q001', 'delta-in-history', 'error', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'a stream delta type (`input_json_delta`, `text_delta`, …) sits where a content block belongs'),
    Rule('Q002', 'empty-text-in-history', 'error', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'an empty `text` block in `messages`'),
    Rule('Q003', 'unknown-tool-id', 'warning', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'a `tool_use`/`tool_call` id in history that the streamed response never produced'),
    Rule('Q004', 'signature-dropped', 'error', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'a signature received in the stream (`thought_signature`, thinking `signature`) is not sent back with its call or block'),
    Rule('Q005', 'history-input-not-object', 'error', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'a `tool_use.input` or parsed `arguments` in history is not an object'),
    Rule('Q006', 'arguments-differ', 'warning', 'request history (what the client sends back next; proxy mode and `check --request`)',
         'the arguments sent back differ from what was streamed (the client mis-assembled them)'),
    Rule('Q007', 'history-mismatched', 'info', 'request history (what the client sends back next; proxy mode and `check --request`)',
         "the request's history cannot be matched to any earlier exchange of this proxy session (a new conversation, or another agent): say so once and judge it against nothing; never judge one conversation's history against another conversation's answer"),
    Rule('V001', 'undeclared-tool', 'error', "the request's declared tools (whenever the request is known: native capture, `--request`, proxy, run, live, conform)",
         'a streamed tool call names a function the request did not declare (`tools[].name`, `tools[].function.name`, `functionDeclarations[].name`, Bedrock `toolSpec.name`); server tools the provider runs itself (web search, code execution, MCP) are exempt'),
    Rule('V002', 'arguments-violate-schema', 'error', "the request's declared tools (whenever the request is known: native capture, `--request`, proxy, run, live, conform)",
         "the call's complete arguments do not validate against the declared input schema (`input_schema`, `parameters`, `parametersJsonSchema`, `inputSchema.json`): name the JSON path and the failed keyword (`required`, `type`, `enum`, `additionalProperties`, …). Judged once per call, when its arguments are complete; warning when the tool is not `strict` and the provider does not promise schema conformance"),
    Rule('V003', 'tool-choice-ignored', 'error', "the request's declared tools (whenever the request is known: native capture, `--request`, proxy, run, live, conform)",
         'the request forced a tool (`tool_choice` naming a function, `"required"`/`"any"`, Gemini `mode: ANY` with `allowedFunctionNames`) and the answer called none, or another one'),
    Rule('V004', 'parallel-calls-refused', 'warning', "the request's declared tools (whenever the request is known: native capture, `--request`, proxy, run, live, conform)",
         'the request set `parallel_tool_calls: false` (or Anthropic `disable_parallel_tool_use: true`) and the answer holds more than one tool call'),
    Rule('V005', 'unknown-schema-keyword', 'info', "the request's declared tools (whenever the request is known: native capture, `--request`, proxy, run, live, conform)",
         'the declared schema uses a keyword or format the validator does not know, or is not a valid schema itself: that part is not judged (say which)'),
    # Project additions (RULES.md: new codes go at the end of a family, documented in our README).
    Rule('S014', 'ignored-input', 'info', 'stream framing (every dialect)',
         'the importer skipped input that is not part of the stream: prose or markdown around pasted SSE, '
         'a half-written last capture record'),
    Rule('S015', 'frame-corrupt', 'error', 'stream framing (every dialect)',
         'an AWS event-stream message (`application/vnd.amazon.eventstream`, Bedrock) fails its prelude CRC or '
         'message CRC, declares impossible lengths, or has headers that do not parse: report the byte offset, '
         'skip to the next valid prelude and decode the rest (botocore raises on it and the SDK stream ends)'),
    Rule('S016', 'frame-truncated', 'error', 'stream framing (every dialect)',
         'the body ends inside an AWS event-stream message: its prelude declares more bytes than arrived (or '
         'fewer than the 12 prelude bytes arrived); report the byte offset and how much is missing (SDK readers '
         'stop there without an error)'),
    Rule('S017', 'bad-timestamps', 'warning', 'stream framing (every dialect)',
         'a native capture record\'s `t` is negative, not a finite number, beyond 10^6 s, or earlier than the '
         'record before it: the time is clamped to the previous record\'s so durations and gaps stay sane, and '
         'the finding lists the lines (a hand-edited or merged capture; a recorder clock that went backwards)'),
    Rule('S018', 'wrong-json-type', 'error', 'stream framing (every dialect)',
         'a field of an event payload holds a JSON value of a type its dialect never sends there (a list or '
         'an object where a string or a number belongs: `"index": {}`, `"type": []`, `"delta": {"type": {}}`): '
         'name the event and what could not be read; that event is skipped and the rest of the stream is read '
         '(SDKs raise on it and the stream ends there)'),
    Rule('S019', 'nesting-too-deep', 'error', 'stream framing (every dialect)',
         'a JSON value in an event payload, a capture record or tool arguments nests arrays and objects deeper '
         'than 512 levels (orjson\'s and many parsers\' limit is 1 024, Python\'s recursion limit 1 000): the value '
         'is kept as text, not parsed, and the rest of the stream is read'),
    Rule('B001', 'missing-message-start', 'warning', BEDROCK,
         'the first event is not `messageStart` (clients that build the message on it have no role and no message)'),
    Rule('B002', 'delta-without-start', 'error', BEDROCK,
         'a `toolUse` delta for a `contentBlockIndex` that no `contentBlockStart` opened: the call has no '
         '`toolUseId` and no `name`; it creates no block. Text and `reasoningContent` blocks have no start event: '
         'their first delta opens them'),
    Rule('B003', 'delta-type-mismatch', 'error', BEDROCK,
         "a delta's kind does not fit its block: `toolUse` input into a text or reasoning block, `text` or "
         '`reasoningContent` into a `toolUse` block, or a kind other than the one that opened the block'),
    Rule('B004', 'delta-after-stop', 'error', BEDROCK,
         'a `contentBlockDelta` or a second `contentBlockStop` for an index already stopped'),
    Rule('B005', 'duplicate-start', 'error', BEDROCK,
         '`contentBlockStart` for an index already started or already written to; the new block takes the slot'),
    Rule('B006', 'index-out-of-order', 'warning', BEDROCK,
         'a new `contentBlockIndex` is not the next position (0, 1, 2, …) of the message content'),
    Rule('B007', 'block-never-stopped', 'warning', BEDROCK,
         'a text or reasoning block still open at the end (no `contentBlockStop`; tool blocks: J005)'),
    Rule('B008', 'stop-reason-mismatch', 'error', BEDROCK,
         'a `toolUse` block was streamed and `stopReason` is `end_turn` or `stop_sequence` (clients keyed on '
         '`tool_use` never run the tool), or `stopReason` is `tool_use` and no `toolUse` block was started'),
    Rule('B009', 'truncated-tool-call', 'error', BEDROCK,
         '`stopReason` `max_tokens` or `model_context_window_exceeded` while a `toolUse` block is open or its '
         'input incomplete: retry with a higher `maxTokens`'),
    Rule('B010', 'missing-stop-reason', 'error', BEDROCK,
         '`messageStop` without a `stopReason` (a required member: clients that read it fail)'),
    Rule('B011', 'malformed-output', 'error', BEDROCK,
         '`stopReason` is `malformed_model_output` or `malformed_tool_use`: the model output could not be parsed '
         'and the turn has no usable tool call'),
    Rule('B012', 'invalid-tool-identity', 'error', BEDROCK,
         '`contentBlockStart.start.toolUse` whose `toolUseId` or `name` is missing, empty, longer than 64 '
         'characters or outside `[a-zA-Z0-9_-]`: the tool result cannot be sent back'),
    Rule('B013', 'missing-metadata', 'info', BEDROCK,
         'the stream ended after `messageStop` with no `metadata` event: token usage and latency are unknown'),
    Rule('K001', 'event-dropped', 'error', COHERE,
         'an event of a known type has a shape cohere-python\'s stream types (`V2ChatStreamResponse`) reject: '
         '`tool_calls` a list instead of one object, a tool call without a string `id` or with `type` other than '
         '`function`, `arguments` or a text not a string, a number field holding a word, `delta` not an object. '
         'The SDK logs a warning and drops the event (the call, a fragment or the `finish_reason` is lost); the '
         'inspector still reads it as meant. Name the field'),
    Rule('K002', 'done-before-end', 'error', COHERE,
         '`data: [DONE]` before `message-end`: cohere-python stops reading at `[DONE]`, so every event after it '
         'is lost. A `[DONE]` after `message-end` is harmless (no finding)'),
)}
