"""OpenAI Responses fault injection (``serve --mutate``).

The mutations edit the first ``function_call`` output item's events and the response's terminal
event; ``codes`` are what ``check`` finds on the shared corpus capture
``openclaude-1262-responses-args-only-in-done`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §3.
"""
from __future__ import annotations

from inspector.providers import mutations as m
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.mutations import Ev, Mutated, Mutation, NotApplicable, Stream


def _type(ev: Ev) -> str | None:
    p = ev.json()
    return p.get("type") if isinstance(p, dict) and isinstance(p.get("type"), str) else None


def _call_item(stream: Stream) -> tuple[int, str | None]:
    """Position of the first ``function_call`` ``output_item.added`` and its item id."""
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if isinstance(p, dict) and p.get("type") == "response.output_item.added" and \
                isinstance(p.get("item"), dict) and p["item"].get("type") == "function_call":
            return i, p["item"].get("id")
    raise NotApplicable("no function_call output item in this stream")


def _terminal(stream: Stream) -> int:
    for i, ev in enumerate(stream.items):
        if _type(ev) in ("response.completed", "response.incomplete", "response.failed"):
            return i
    raise NotApplicable("no response.completed event in this stream")


def drop_item_id(stream: Stream, param: float | None) -> Mutated:
    start, item_id = _call_item(stream)
    if not item_id:
        raise NotApplicable("the function_call item has no id to drop")
    edits = {}
    for i, ev in enumerate(stream.items):
        p = ev.json()
        if not isinstance(p, dict):
            continue
        changed = False
        if p.get("item_id") == item_id:
            del p["item_id"]
            changed = True
        if isinstance(p.get("item"), dict) and p["item"].get("id") == item_id:
            del p["item"]["id"]
            changed = True
        if changed:
            edits[i] = ev.with_json(p)
    return m.edited(stream, edits, m.describe(stream, start))


def duplicate_start(stream: Stream, param: float | None) -> Mutated:
    start, _ = _call_item(stream)
    return m.edited(stream, {}, m.describe(stream, start), {start: [stream.items[start]]})


def no_completed(stream: Stream, param: float | None) -> Mutated:
    i = _terminal(stream)
    return m.edited(stream, {i: None}, m.describe(stream, i - 1))


def error_event(stream: Stream, param: float | None) -> Mutated:
    at, _ = _call_item(stream)
    p = stream.items[at].json()
    seq = p.get("sequence_number") if isinstance(p.get("sequence_number"), int) else 0
    error = Ev(None, "error", stream.items[at].t).with_json(
        {"type": "error", "code": "server_error", "message": "The server had an error while processing your request.",
         "param": None, "sequence_number": seq + 1})
    return m.unchanged(stream.derive(stream.items[: at + 1] + [error]), m.describe(stream, at))


def _after_item_added(stream: Stream) -> int:
    return _call_item(stream)[0]


def _inject(stream: Stream) -> Stream:
    start, _ = _call_item(stream)
    for ev in stream.items[start:]:
        p = ev.json()
        args = p.get("arguments") if isinstance(p, dict) else None
        if isinstance(args, str) and args:
            value = m.first_string_value(args)
            if value:
                return m.with_accent(stream, value)
    raise NotApplicable("no function_call arguments to carry a multi-byte character")


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("drop-item-id", "the function_call item and its events carry no id / item_id",
             frozenset({"R006"}), ("Oaklight/llm-rosetta#86",), drop_item_id),
    Mutation("duplicate-start", "response.output_item.added for the function call is sent twice",
             frozenset({"R003"}), ("rbb-dev/Open-WebUI-OpenRouter-pipe#54",), duplicate_start),
    Mutation("no-stop-event", "the stream ends without response.completed",
             frozenset({"S003"}), ("djinnos/djinn#1697",), no_completed),
    Mutation("error-event", "an error event right after the function call is announced, then the body ends",
             frozenset({"S006", "R004", "J005"}), ("TanStack/ai#1172",), error_event),
    m.stall({"T001", "T003"}, ("deepseek-ai/DeepSeek-V3#1608",), _after_item_added),
    m.reset({"S012", "S003", "R004", "J005"}, ("konveyor/kai#622",), _after_item_added),
    m.keepalive_only({"T002", "S003", "R004", "J005"}, ("openai/openai-go#227",), _after_item_added),
    m.bom({"S009"}, ("openai/openai-python#3819", "vm0-ai/vm0#24687")),
    m.utf8_split(set(), ("buildsense-ai/XiaoBa-CLI#256",), _inject),
)
"""In the order ``serve --mutations`` lists them."""


def closing() -> bytes:
    """A short, clean text answer: what ``serve --expect-next`` sends the next request."""
    resp = {"id": "resp_si_closing", "object": "response", "status": "in_progress", "model": "stream-inspector",
            "output": []}
    item = {"id": "msg_si_closing", "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    done_part = {**part, "text": CLOSING_TEXT}
    done_item = {**item, "status": "completed", "content": [done_part]}
    events = [
        {"type": "response.created", "response": resp},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.content_part.added", "item_id": item["id"], "output_index": 0, "content_index": 0, "part": part},
        {"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0,
         "delta": CLOSING_TEXT},
        {"type": "response.output_text.done", "item_id": item["id"], "output_index": 0, "content_index": 0,
         "text": CLOSING_TEXT},
        {"type": "response.content_part.done", "item_id": item["id"], "output_index": 0, "content_index": 0,
         "part": done_part},
        {"type": "response.output_item.done", "output_index": 0, "item": done_item},
        {"type": "response.completed", "response": {**resp, "status": "completed", "output": [done_item]}},
    ]
    return sse([(e["type"], {**e, "sequence_number": n}) for n, e in enumerate(events)])
