"""This provider's findings explained to users (the TUI's explain screen): each R rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.openai_responses.clients import says
from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'R': (
        'The Responses stream does not match its own item bookkeeping. Correlate events by '
        '`item_id` (falling back to `output_index`), prefer the `.done` text only when it agrees '
        'with the deltas, and treat an item that never finished as not executed.'),
}

EXPLAIN: dict[str, T] = {
    'R001': T(
        'An event refers to an item (`item_id` / `output_index`) that `response.output_item.added` '
        'never announced.',
        "SDKs look the item up and fail, or drop the event's delta.",
        'An event was lost or a gateway rewrote ids: report it with the capture.'),
    'R002': T(
        "A function call's argument deltas add up to something else than its `.done` arguments.",
        'Clients that use the deltas and clients that use `.done` run different arguments.',
        'Report it with the capture; do not execute the call until you know which is right.'),
    'R003': T(
        '`sequence_number` skipped or went back.',
        'Events were lost or reordered (a reconnect, a buffering proxy): clients that resume by '
        'sequence number miss some.',
        'Look for a reconnect or a proxy in between.'),
    'R004': T(
        'An output item was announced but never finished (`response.output_item.done`) before the end.',
        'Clients that finish a function call at `.done` never get it: the call may be incomplete.',
        'Usually a cut stream: retry; do not execute an unfinished call.'),
    'R005': T(
        'The response ended `incomplete` or `failed` while a function call was open or incomplete.',
        "The call's arguments are cut.",
        'Do not execute it. Read `incomplete_details` or `error`; after a token limit, retry with a '
        'higher `max_output_tokens`.'),
    'R006': T(
        'A `function_call` item or its events carry no id.',
        "Clients pair events by `item_id`: without it they cannot assemble the call, and the call's "
        'result cannot be matched.',
        'Pair by `output_index`; report it.'),
    'R007': T(
        'Two different items were announced at the same `output_index`.',
        'Clients keyed by index overwrite the first item.',
        'Report it with the capture.'),
    'R008': T(
        'The stream does not start with `response.created`.',
        'SDKs build the response from it and fail on the first delta.',
        'The start was lost (a reconnect?), or the request resumed a stream without `starting_after`.'),
    'R009': T(
        "A text part's deltas add up to something else than its `.done` text (deltas that arrive after "
        'the `.done` count too).',
        'What the user saw while it streamed differs from the final text; clients that keep the `.done` '
        'text lose deltas sent after it.',
        'Report it with the capture.'),
    'R010': T(
        "An event's `item_id` differs from the id announced for its `output_index`.",
        'Clients keyed by `item_id` lose those deltas (the official SDK goes by `output_index` and '
        'copes).',
        'A gateway rotating ids: report it, and key items by `output_index`.'),
    'R011': T(
        'A content part or delta of a message arrived at a `content_index` whose earlier parts were never '
        'added with `response.content_part.added` (a server that keeps one counter across items).',
        f"{says('R011-content-index-gap')}: the SDK looks the part up by that index in the item's "
        'content list; other clients put the text in the wrong part.',
        'Report it to the server (content indexes start at 0 in every item); key parts by index, not by '
        'list position.'),
    'R012': T(
        'The stream is a resumed one (`starting_after`, or a first `sequence_number` above 0): items '
        'announced before the cursor were assembled from the deltas, `.done` events, '
        '`output_item.done` and `response.completed` that arrived. Nothing is wrong by itself.',
        f"{says('R012-resumed-stream')} on such a body; {says('R012-resumed-stream-retrieve')}. "
        'Clients that expect `response.created` first drop the suffix.',
        'Read resumed streams with `responses.retrieve(…, stream=True, starting_after=N)`, and take the '
        'full text from the final events, not from the deltas after the cursor.'),
}
