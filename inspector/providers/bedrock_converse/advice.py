"""This provider's findings explained to users (the TUI's explain screen): each B rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``). The event-stream framing rules
(S015, S016) are explained with the other S rules (``inspector.session.advice``)."""
from __future__ import annotations

from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'B': (
        'The stream breaks the ConverseStream event order or block rules. botocore yields every event as '
        'it comes and leaves assembly to the client (langchain-aws, Strands, your own loop): those key '
        'blocks by contentBlockIndex and tool calls by the start event. If a gateway translates another '
        'provider into ConverseStream, the translation layer is the usual culprit.'),
}

EXPLAIN: dict[str, T] = {
    'B001': T(
        'The first event of the stream is not `messageStart`.',
        'Clients that build the assistant message on `messageStart` have no role and no message to add '
        'blocks to: some fail, some drop what comes before it.',
        'Check whether the start was lost (a capture that begins late, a gateway that skips it) and '
        'report it to whoever produces the stream.'),
    'B002': T(
        'A tool input delta arrived for a `contentBlockIndex` that no `contentBlockStart` opened.',
        'The call has no `toolUseId` and no `name`: a client cannot dispatch it, nor send its result '
        'back, and most drop the fragments.',
        'The start event was lost or sent out of order: report it with the capture; never run a call '
        'you could not name.'),
    'B003': T(
        "A delta's kind does not fit its block: tool input into a text block, text into a tool block, "
        'or a kind other than the one that opened the block.',
        'Clients append deltas to the block at that index: text ends up inside tool arguments (which '
        'then no longer parse) or the other way round.',
        'Look at the events around it (the event log jumps there): usually two blocks share one '
        'index. Report it to the server or gateway.'),
    'B004': T(
        'A delta or a second `contentBlockStop` came for a block that was already stopped.',
        'Clients have finalised the block: the late piece is lost, or appended after the arguments '
        'were already parsed and run.',
        'Treat the block as suspect and report the stream; do not run a tool call whose block was '
        'reopened.'),
    'B005': T(
        '`contentBlockStart` came for an index that was already started or written to; the new block '
        'took the slot.',
        'The first block at that index is overwritten: its text or its tool call disappears from what '
        'the client assembles.',
        'Two blocks share an index: report it to the server or gateway with the capture.'),
    'B006': T(
        'A new `contentBlockIndex` is not the next position (0, 1, 2, …) of the message content.',
        'Clients that store blocks in a list by index get holes (`None` entries) or fail with an index '
        'error.',
        'Make the accumulator key blocks by index in a map, and report the gap.'),
    'B007': T(
        'A text or reasoning block was still open when the stream ended (no `contentBlockStop`).',
        'Clients that wait for the stop event before using the block never finalise it: the text may '
        'be shown but not saved into the history.',
        'Check how the stream ended (S003, S012): usually it was cut short. Retry the request.'),
    'B008': T(
        'The `stopReason` and the streamed blocks disagree: a tool call was streamed but the turn '
        'ended with `end_turn` or `stop_sequence`, or `stopReason` is `tool_use` with no tool call.',
        'Agents that run tools only on `stopReason == "tool_use"` skip the call, or wait for a call that '
        'never came.',
        'Decide from the blocks, not from `stopReason` alone, whether a tool must run; report the '
        'mismatch.'),
    'B009': T(
        'The turn stopped on a token limit (`max_tokens`, `model_context_window_exceeded`) while a '
        'tool call was still being written.',
        'The call is cut short: its input is incomplete JSON, or complete but missing arguments.',
        'Never run it. Retry with a higher `maxTokens` (or a shorter context).'),
    'B010': T(
        '`messageStop` came without a `stopReason`.',
        '`stopReason` is required: clients that read it fail or treat the turn as unfinished.',
        'Report it to the server or gateway that produced the stream.'),
    'B011': T(
        'The turn ended with `stopReason` `malformed_model_output` or `malformed_tool_use`.',
        'Bedrock could not parse what the model wrote: the turn has no usable tool call, and clients '
        'that expect one fail.',
        'Retry the request; if it keeps happening, simplify the tool schema or the prompt.'),
    'B012': T(
        "A tool call's `toolUseId` or `name` is missing, empty, longer than 64 characters or uses "
        'characters outside `[a-zA-Z0-9_-]`.',
        'The tool result cannot be sent back: Bedrock rejects the next request (a validation error).',
        'Report it to whoever produces the stream (often a gateway translating another provider).'),
    'B013': T(
        'The stream ended after `messageStop` without a `metadata` event.',
        'Token usage and latency are unknown: cost tracking and rate limiting that read them get '
        'nothing.',
        'Only a problem if you rely on usage: check whether a gateway drops the last event.'),
}
