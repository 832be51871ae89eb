"""This provider's findings explained to users (the TUI's explain screen): each A rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.anthropic.clients import says
from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'A': (
        'The stream breaks the Anthropic Messages event order or block rules. Clients such as the '
        'official SDKs either raise or mis-assemble here. If a gateway or proxy translates '
        'another provider into this format, the translation layer is the usual culprit; otherwise '
        'report it with the capture.'),
}

EXPLAIN: dict[str, T] = {
    'A001': T(
        'A `content_block_delta` or `content_block_stop` arrived for an index that never had a '
        '`content_block_start`.',
        'The official SDKs look the block up by index and raise; other clients drop the delta and '
        'lose text or tool arguments.',
        'A `content_block_start` was lost (a proxy dropping events, two responses joined): report it '
        'with the capture.'),
    'A002': T(
        "A delta's type does not fit its block (an `input_json_delta` on a `text` block, a "
        '`text_delta` on a `tool_use` block…).',
        'SDKs append it to the wrong field or raise: the text or the tool input comes out wrong.',
        'Usually a gateway translating another provider with its index mapping off: report it with '
        'the capture.'),
    'A003': T(
        'A second `content_block_start` came for an index already started.',
        'Clients overwrite the first block (its content is lost) or keep appending to it.',
        "A retry spliced into the stream, or a gateway reusing indexes: do not trust this response's "
        'blocks.'),
    'A004': T(
        'Blocks were started at indexes that skip or go back instead of 0, 1, 2, …',
        f"The official SDKs index the content list by it: on a skipped index {says('A004-index-out-of-order')}; "
        'clients that keep blocks in a list by position leave holes or overwrite a block.',
        'Report it to the server or gateway; key blocks by their index rather than by position.'),
    'A005': T(
        'A delta (or a second stop) arrived for a block that was already stopped.',
        'Clients have finished the block by then: the late delta is lost, or appended after the '
        'arguments were already parsed and run.',
        "The block's content is not what the model sent: do not execute a tool call from it; report "
        'the capture.'),
    'A006': T(
        'A block started while another one was still open.',
        'Messages streams one block at a time: clients that keep a single "current block" attach '
        'deltas to the wrong one.',
        'Attach deltas by their `index`, never to "the current block"; report it if the server should '
        'not interleave.'),
    'A007': T(
        '`stop_reason` and the streamed blocks disagree: a `tool_use` block with a `stop_reason` other '
        'than `tool_use`, or `tool_use` with no tool block.',
        'Agent loops decide on `stop_reason`: with a tool block and `end_turn` the tool never runs; '
        'with `tool_use` and no block the agent waits for a call that does not exist.',
        'Decide from the blocks, not from `stop_reason` alone, whether a tool must run.'),
    'A008': T(
        'The answer hit `max_tokens` (or the context window) while a tool call was open or '
        'incomplete.',
        "The call is cut: its arguments are not valid JSON, or miss fields.",
        'Do not execute it. Retry with a higher `max_tokens` or a shorter prompt.'),
    'A009': T(
        'A text block closed with no text.',
        'Sending this turn back in the history is rejected: text content blocks must be non-empty.',
        'Leave empty text blocks out when you rebuild the assistant turn.'),
    'A010': T(
        "A tool block's `content_block_start` already carried a non-empty `input`, and input deltas "
        'followed.',
        'Clients that start from that input and add the deltas get the arguments twice.',
        "Report it to the server or gateway: a tool block's start carries `input: {}` when its input "
        'streams.'),
    'A011': T(
        'A tool id does not match `^[a-zA-Z0-9_-]+$`, or a tool name is empty or longer than 200 '
        'characters.',
        "Sending the tool's result back fails validation (400): the conversation cannot go on.",
        'Report it to whatever made the id or the name (often a gateway translating another '
        'provider).'),
    'A012': T(
        'The first event (pings aside) is not `message_start`.',
        'SDKs build the message from `message_start`; without it they raise on the first delta.',
        "The start of the stream was lost (a reconnect, a proxy), or the server does not speak "
        'Messages.'),
    'A013': T(
        '`message_stop` arrived with no `stop_reason` anywhere in the stream.',
        'Agent loops cannot tell whether to run tools, continue or stop.',
        'Treat the turn as incomplete and report it to the server or gateway.'),
    'A014': T(
        'A text or thinking block was still open at the end of the stream.',
        'Clients that finish blocks on `content_block_stop` never finish this one.',
        'Usually a cut stream (see S003, S012): retry.'),
    'A015': T(
        'A thinking block closed without a signature.',
        'It cannot be sent back: thinking blocks in a request need their signature, so the next turn '
        'of a tool loop fails.',
        'Check that no proxy drops `signature_delta` events, and keep the signature when you rebuild '
        'the turn.'),
    'A016': T(
        'The message ended with no content blocks at all.',
        'Clients return an empty answer; agents may loop on it.',
        'Check `stop_reason` (a refusal explains it); otherwise retry and report it.'),
    'A017': T(
        'A second `message_start` arrived before `message_stop`.',
        'Clients reset the message halfway (losing what came before) or merge two answers into one.',
        'A retry spliced into one stream: look at the gateway or proxy doing retries.'),
}
