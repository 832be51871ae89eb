"""Findings explained to users: the rules every dialect shares (S, T, J, Q, V), and the lookups that
merge them with each provider folder's own (``inspector.providers.*.advice``).

Why it exists: the rule catalog (``inspector.model.catalog``) defines *when* a rule fires, in an
implementer's words. A person staring at a finding wants to know what happened in their stream,
why it breaks clients, and what to do: :data:`EXPLAIN` says that per code (a ``RuleText``), and
:data:`ADVICE` adds what to do about a whole family. Every catalog code has an entry in exactly
one of these modules (a test checks).
"""
from __future__ import annotations

from inspector.providers import PROVIDERS
from inspector.model.clients import says
from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'S': (
        'The bytes on the wire are not a clean event stream. If you own the server, fix the '
        'framing (UTF-8, one JSON payload per event, a blank line after every event, an end '
        'marker). If you only own the client, make its parser tolerant here and surface the fault '
        "instead of silently dropping events; keep the capture for the provider's bug report."),
    'T': (
        'Timing is not wrong by itself, but it is what users feel. Check whether the gap sits '
        'before the first byte (queueing, a slow model) or inside a block (buffering in a proxy '
        'or the provider); set client read timeouts above the longest gap you see here, and '
        'compare runs with `compare` when a setting (such as eager input streaming) should change '
        'it.'),
    'J': (
        'Do not execute this tool call as assembled: its arguments are not one complete JSON '
        'object. Decide per call whether to retry the request, ask the model to repeat the call, '
        'or report the call as failed; never run it on a best-effort parse. If the fragments were '
        "re-sent or glued together, the accumulator (yours or a gateway's) is what needs fixing."),
    'Q': (
        'The history your client sends back does not match what the stream produced. Rebuild the '
        'assistant turn from the assembled blocks (not from raw deltas), keep every id and '
        'signature, and send tool inputs as objects.'),
    'V': (
        'The answer does not fit the tools your request declared. Check every call against the '
        'declared tools before running it (name, arguments against the schema), and answer a call that '
        'does not fit with an error tool result instead of running it. If a gateway or proxy sits '
        'between you and the provider, compare its two sides with `stream-inspector gateway` or '
        '`diff`: a rewrite on the way is the usual cause when the provider promised conforming '
        'calls.'),
}

EXPLAIN: dict[str, T] = {
    # ------------------------------------------------------------------ S: stream framing
    'S001': T(
        'Some bytes of the body are not valid UTF-8 (the message gives the offset). The inspector '
        'decoded them with U+FFFD and went on.',
        'Server-sent events are UTF-8 by definition. Strict decoders raise and lose the whole stream; '
        'lenient ones put replacement characters into the text, or into tool arguments, which then '
        'no longer say what the model wrote.',
        'Find what re-encodes the body (a proxy, a gateway, a server writing Latin-1) and make it pass '
        'UTF-8 through untouched. A chunk boundary inside a character is normal and not this finding.'),
    'S002': T(
        "An event's `data:` is not valid JSON (the event is shown below).",
        "Clients parse every event's data as JSON: the official SDKs raise and end the stream, others "
        'skip the event and lose a piece of text or of tool arguments without saying so.',
        'Look at the event: a line cut short, two payloads run together, a marker that is not JSON. '
        'If you own the server, fix its writer; if a proxy sits in between, check how it buffers.'),
    'S003': T(
        "The stream ended without its end marker (`message_stop`; a `finish_reason` then "
        "`[DONE]`; `response.completed`; Gemini's last `finishReason`; Ollama's `done: true`).",
        'A client cannot tell a finished answer from a cut one: some wait until a timeout, some return '
        'the partial answer as if it were whole, with tool calls half assembled.',
        'Look at how the stream ended (S012 says when the connection broke). Retry the request; if it '
        'always stops at the same point, look for an idle timeout in a proxy or load balancer.'),
    'S004': T(
        'Bytes or events arrived after the end marker.',
        'Clients stop reading at the end marker, so what follows is lost; a client that keeps reading '
        'may merge a second answer into the first.',
        'When a new response follows (a retry spliced into one connection), fix the gateway or server '
        'reusing the connection; otherwise report the stray bytes to whoever writes the stream.'),
    'S005': T(
        "The SSE `event:` name and the payload's `type` disagree.",
        'Clients that dispatch on the event name and clients that dispatch on `type` now do different '
        'things with the same event: one of them mishandles it.',
        "Whoever writes the stream (often a translating gateway) sets one of them wrong; the payload's "
        '`type` is what the official SDKs read.'),
    'S006': T(
        'The provider sent an error inside the stream (an `error` event or an `{"error": …}` payload), '
        'instead of or after the normal events.',
        'Clients that only look for deltas miss it: the answer just stops, or looks complete while the '
        'provider said it failed (overloaded, rate limited, an internal error).',
        'Read the error type and message in the event below. Overloaded and rate-limit errors deserve '
        'a retry with backoff; show anything else to the user instead of a partial answer.'),
    'S007': T(
        'The response is an HTTP error (status 400 or more), or its body is not a stream at all.',
        'A streaming client expecting events gets an error page or a JSON error: it raises a parse '
        'error that hides the real cause, or reports an empty answer.',
        'Read the status and the body. 401/403: the key; 404: the URL or the model name; 429: a rate '
        'limit (retry after the delay the headers give); 5xx, 529: the provider (retry with '
        'backoff). Make your client check the status before it parses events.'),
    'S008': T(
        'An event, block, delta or item type the inspector does not know.',
        'Usually nothing: providers add types, and good clients skip the ones they do not know. A '
        'client that handles every type without a default branch crashes or drops content.',
        'Check the event: a new provider feature, or a misspelling by a gateway. Make sure your client '
        'ignores unknown types rather than failing on them.'),
    'S009': T(
        'The body starts with a byte-order mark (U+FEFF).',
        'The SSE specification strips one BOM, many clients do not: their first line reads '
        '`\\ufeffevent: …`, which is no field, so the first event (often the one that opens the '
        'message) is silently dropped.',
        'Strip a leading U+FEFF before parsing, or fix the server that adds it.'),
    'S010': T(
        'The last event has no blank line after it (or the body does not end with a line break).',
        'An event is only delivered at its blank line: spec-following clients discard the last one, '
        'often the end marker or the final delta.',
        'A cut stream shows this too (see S003, S012). If the server ends cleanly without the final '
        'blank line, fix its writer: every event ends with an empty line.'),
    'S011': T(
        'The stream mixes CRLF, LF and CR line endings.',
        'Spec-following parsers accept all three; parsers written by hand that split on one kind join '
        'or split lines wrongly.',
        'Usually harmless. Worth fixing in the server or proxy that rewrites line endings if one of '
        'your clients parses SSE by hand.'),
    'S012': T(
        'The connection ended abnormally: reset, timed out, or cancelled (the message says which, and '
        'when).',
        'Everything after the cut is lost; open blocks and tool calls are incomplete.',
        'Retry the request. If it keeps breaking at the same point, look for an idle timeout in a '
        'proxy or load balancer between you and the provider.'),
    'S013': T(
        'Several `data:` lines that each hold a complete JSON value follow one another with no blank '
        'line between them.',
        'By the SSE specification they form one event whose data is the lines joined: invalid JSON, '
        'so spec-following clients fail on it. The inspector reads each line as an event to show you '
        'what they say.',
        'Common in text pasted into bug reports (the blank lines got lost on the way). From a live '
        'server it is a bug in its writer: each event ends with an empty line.'),
    'S014': T(
        'The importer skipped input that is not part of the stream: prose or markdown around pasted '
        'events, or the half-written last record of a capture whose recorder was killed.',
        'Nothing on the wire: this only says what the inspector did not read.',
        'Check that the skipped lines really were not part of the stream.'),
    'S015': T(
        'An AWS event-stream message (Bedrock) failed its checksum, declared impossible lengths or had '
        'headers that do not parse; the inspector skipped to the next valid message (the offset is in '
        'the message).',
        f"{says('S015-corrupt-message')}: the rest of the answer is lost to the client.",
        'The bytes were altered on the way (a proxy that re-encodes, a text-mode copy of a binary body). '
        "Capture the body as bytes (curl -o, or this tool's --record) and compare."),
    'S016': T(
        'The body ended inside an AWS event-stream message: its prelude announced more bytes than '
        'arrived.',
        "botocore's reader ends the stream quietly here: clients see a shorter answer and no error.",
        'The connection was cut (look for S012) or the capture was truncated. Retry the request; keep '
        'the capture if it happens again at the same point.'),
    'S017': T(
        'Some records of this capture carry times that cannot be true (negative, not a number, '
        'absurdly large, or earlier than the record before); the inspector clamped them to the '
        'previous time (the message lists the lines).',
        'Durations, gaps and the timing findings (T rules) computed from those records are '
        'unreliable: a stall can hide, or appear where there was none.',
        'Record the stream again (`live --record`, `proxy --record`); if you edited or merged '
        'capture files by hand, keep each file in the order its bytes arrived.'),
    'S018': T(
        'A field of this event holds a JSON value of the wrong type: a list or an object where the '
        'provider always sends a string or a number (the message says which event and what could not '
        'be read). The inspector skipped that event and read the rest.',
        'Typed clients (the official SDKs, pydantic models) raise a validation error on this event and '
        'the whole answer is lost; hand-written clients crash on the unexpected type.',
        'Find the hop that built the event (a gateway, a proxy, a mock server, a hand-edited capture) '
        'and compare its output with the provider\'s schema for this event type.'),
    'S019': T(
        'A JSON value here nests arrays or objects more than 512 levels deep. The inspector keeps it '
        'as text instead of parsing it, and reads the rest of the stream.',
        'Parsers give up on such values (orjson and many JSON libraries stop at 1 024 levels; Python\'s '
        'recursive code hits its recursion limit near 1 000): a client crashes or drops the event. No '
        'real provider sends this; it is a corrupted or hostile capture.',
        'Do not feed this capture to tools you do not trust with hostile input; find who produced it.'),
    # ------------------------------------------------------------------ T: timing
    'T001': T(
        'No bytes at all arrived for at least the stall threshold (`--stall`, 10 s by default); the '
        'message says where the silence sits.',
        'Read timeouts fire (many HTTP clients and proxies give up after 30 to 100 s of silence), '
        'users think the agent froze, and a retry doubles the cost.',
        'Before the first byte: queueing or a slow model start. Inside a block: buffering in a '
        'proxy or the provider. Set read timeouts above the longest silence you expect.'),
    'T002': T(
        'Only keepalives (pings or SSE comments) arrived for at least the stall threshold while a block '
        'was open.',
        'The connection looks alive, so timeouts never fire, yet nothing moves: a user watching '
        'bytes arrive thinks the model is working.',
        'Content is being held back (tool arguments buffered, a long thinking phase) by the provider '
        'or a gateway: compare with a direct connection.'),
    'T003': T(
        "Nearly all (90 % or more) of a tool call's argument bytes arrived in one burst at the very "
        "end of the block's life.",
        'Nothing breaks, but streaming buys nothing: the agent cannot show or prepare the call early, '
        'and the long wait before the burst can trip read timeouts.',
        'The provider buffered the parameters. For Anthropic, set `eager_input_streaming: true` on '
        'the tool (fine-grained tool streaming) and compare both runs with `stream-inspector compare`.'),
    # ------------------------------------------------------------------ J: tool arguments
    'J001': T(
        "The tool call's arguments can no longer become valid JSON: the finding points at the delta "
        'and the character where they broke.',
        'Parsing the final arguments fails: the call cannot run, or runs with whatever a lenient '
        'parser guessed.',
        'Do not execute it. A dropped, repeated or reordered fragment (look at the deltas around the '
        "offset) points at a proxy or an accumulator; a model writing broken JSON is rarer: retry."),
    'J002': T(
        'The tool call was closed while its arguments were still incomplete JSON.',
        'The arguments cannot be parsed; a lenient parser may "repair" them into a call with missing '
        'fields, which then runs with the wrong input.',
        'The call is cut short: do not execute it. Check `stop_reason` / `finish_reason` (a token '
        'limit?) and retry with more room.'),
    'J003': T(
        'After a complete JSON value, more text followed in the same call\'s arguments (like '
        '`{}{"a": 1}`).',
        'Strict parsers fail ("extra data"); lenient ones keep the first value and drop the rest: '
        'usually two calls glued into one, so one call silently disappears.',
        'Do not execute it. Look at the indexes and ids of the fragments: a server or gateway reusing '
        'one index for two calls is the usual cause.'),
    'J004': T(
        'The arguments are complete JSON but not an object (an array, a string, a number).',
        "Tool inputs are objects in every provider's API: frameworks fail to map them to parameters, "
        'and the provider rejects them when they are sent back in the history.',
        'Do not execute it. Arguments double-encoded (a JSON string holding JSON) are the usual case: '
        'the server or gateway should send the object itself.'),
    'J005': T(
        'The stream ended with this tool call still open.',
        'Nothing in the stream says whether the call was complete: clients that run what they have '
        'may run half a call.',
        'Consider it incomplete: retry; never execute it.'),
    'J006': T(
        'A fragment repeated what had already arrived: cumulative snapshots sent as deltas, or the '
        'whole object sent again.',
        'Accumulators append every delta, so the arguments come out doubled (`{"a":1{"a":1…`): parsing '
        'fails or yields the wrong input.',
        'The server or gateway must send only the new characters in each delta. Do not try to '
        'de-duplicate on the client; fail the call and report it.'),
    'J007': T(
        'A Chat Completions or Responses tool call finished with no argument text at all.',
        'These APIs send at least `{}`: parsing an empty string fails, so clients crash or skip the '
        'call.',
        'Read it as `{}` only for a tool that takes no parameters; otherwise fail the call, and '
        'report it to the server or gateway.'),
    # ------------------------------------------------------------------ Q: the history sent next
    'Q001': T(
        'The request your client sent next holds a stream delta (such as `input_json_delta` or '
        '`text_delta`) where a content block belongs.',
        'The provider rejects the request (400), or the model reads a broken history.',
        'Rebuild the assistant turn from the assembled blocks, not from the raw events.'),
    'Q002': T(
        'The history your client sent holds an empty text block.',
        'Anthropic rejects it: text content blocks must be non-empty (400).',
        'Leave empty text blocks out when you rebuild the assistant turn.'),
    'Q003': T(
        'The history holds a tool call id the streamed answer never produced.',
        "The tool's result cannot be matched to its call: the provider rejects the request, or the "
        'model reads a result for a call it never made.',
        'Keep ids exactly as streamed; check that the accumulator does not cut, join or regenerate '
        'them.'),
    'Q004': T(
        "A signature from the stream (a thinking block's `signature`, Gemini's `thoughtSignature`) is "
        'missing from the history your client sent back.',
        'The provider rejects the request, or the model loses the reasoning behind its tool call '
        '(Gemini 3 requires the signature on function calls).',
        'Send every signature back as received, on the block or call it came with (compared as '
        'bytes: the standard and URL-safe base64 spellings of the same bytes are the same signature).'),
    'Q005': T(
        "A tool call's input in the history is not an object (often the arguments left as a JSON "
        'string).',
        'Anthropic requires `tool_use.input` to be an object: the request is rejected.',
        'Parse the accumulated arguments once and send the object.'),
    'Q006': T(
        'The arguments sent back in the history differ from what was streamed.',
        'The history no longer says what the model did: either the tool ran with other arguments than '
        'the model believes, or the accumulator is broken.',
        'Compare the two (the message shows where they part) and fix the accumulator.'),
    'Q007': T(
        "The request's history continues an answer that no earlier exchange of this session streamed: "
        'a conversation begun before the proxy started, an answer another route served, or '
        'assistant turns the client wrote itself (few-shot examples).',
        'Nothing: the history cannot be compared with an answer the inspector never saw, so Q003, '
        'Q004 and Q006 are not judged for this request (Q001, Q002 and Q005 still are). It is never '
        "judged against another conversation's answer.",
        "Nothing to fix. To have this request's history checked, start the proxy before the agent's "
        'conversation begins; the next request of the same conversation is matched to this one.'),
    # ------------------------------------------------------------------ V: the declared tools
    'V001': T(
        'A tool call names a function your request did not declare (the message lists the ones it '
        'did).',
        'The agent looks the name up in its tool table and crashes, or answers "unknown tool" and the '
        'model loops; a framework that routes by prefix may even run the wrong tool.',
        'Do not run it: send back an error tool result naming the declared tools. A gateway renaming '
        'tools (prefixes, case) or tools declared in another turn of the conversation are the usual '
        'causes.'),
    'V002': T(
        "A tool call's complete arguments do not validate against the schema your request declared: "
        'the message gives each JSON path, what is wrong there and the schema keyword that failed '
        '(`$.days: 0 is less than the minimum of 1 (minimum)`). An error when the tool was strict '
        '(the provider promised conforming arguments), a warning otherwise.',
        'The tool runs with a missing, mistyped or out-of-range argument: it crashes, or does the '
        'wrong thing quietly (a string "3" where a number was expected).',
        'Validate before running, and answer a failing call with an error tool result that quotes '
        'the path: models correct themselves from it. To have the provider enforce the schema, use '
        'strict tools (OpenAI `strict: true`, Anthropic `strict`, Gemini `VALIDATED` mode); on a '
        'strict tool this finding means something rewrote the arguments on the way.'),
    'V003': T(
        'The request forced a tool call (`tool_choice` naming a function, `required`/`any`, Gemini '
        '`mode: ANY`), and the answer called none, or a different declared function. Not judged when '
        'the answer was cut short (`max_tokens`, an error, a refusal).',
        'An agent that forced the call reads the call without checking: it finds none and crashes, or '
        'runs the next step with no tool result.',
        'Check that a gateway passes `tool_choice` through (many drop or translate it); check that '
        'the model and endpoint support forcing a tool. Handle "no call" anyway.'),
    'V004': T(
        'The request refused parallel calls (`parallel_tool_calls: false`, Anthropic '
        '`disable_parallel_tool_use: true`) and the answer holds more than one tool call.',
        'An agent built for one call per turn runs only the first, or all of them out of order, '
        'and then sends back results the provider does not match to calls.',
        'Check that a gateway passes the setting through; run only the first call, or handle several.'),
    'V005': T(
        'A declared schema uses a keyword the validator does not know, a format neither JSON Schema '
        'nor OpenAPI defines, or is not a valid JSON Schema: that part of the arguments was not '
        'judged (the message says which and where). Standard formats (`date-time`, `uuid`, `int64`…) '
        'are annotations in Draft 2020-12: never V005.',
        'Nothing breaks by itself: a constraint the inspector cannot check may still be one the '
        'provider rejects (400) or ignores, so calls may break it unseen.',
        'Use standard JSON Schema keywords (Draft 2020-12) in tool schemas; a Gemini `parameters` '
        'schema is the OpenAPI subset, mapped before it is judged.'),
}


def _tables() -> list[tuple[dict, dict]]:
    return [(EXPLAIN, ADVICE), *((p.explain or {}, p.advice) for p in PROVIDERS.values())]


def rule_text(code: str) -> T | None:
    """The user's explanation of ``code`` (None for a code no module explains)."""
    return next((explain[code] for explain, _ in _tables() if code in explain), None)


def family_advice(code: str) -> str:
    """What to do about any finding of ``code``'s family ('' when none is written)."""
    return next((advice[code[:1]] for _, advice in _tables() if code[:1] in advice), "")


def advice_for(code: str) -> str:
    """What to do about a finding of ``code``: its own advice, then its family's."""
    own = rule_text(code)
    parts = [p for p in ((own.todo if own else ""), family_advice(code)) if p]
    return "\n\n".join(parts) or "No advice for this code yet."


def explained_codes() -> set[str]:
    """Every code some module explains (a test holds it to the catalog)."""
    return {code for explain, _ in _tables() for code in explain}
