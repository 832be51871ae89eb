"""OpenAI Responses fault injection (``serve --mutate``).

The mutations edit the first ``function_call`` output item's events and the response's terminal
event; ``codes`` are what ``check`` finds on the shared corpus capture
``openclaude-1262-responses-args-only-in-done`` once mutated (this dialect has no bundled
capture; ``tests/unit/test_mutations.py``). Wire facts: PROTOCOLS.md §3.
"""
from __future__ import annotations

from dataclasses import replace

from typing import Any

import orjson

from inspector.providers import mutations as m
from inspector.providers import tool_faults as tf
from inspector.providers.conformance import CLOSING_TEXT, sse
from inspector.providers.openai_responses import tools
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
    deltas = [p["delta"] for p in (ev.json() for ev in stream.items[start:]) if isinstance(p, dict)
              and p.get("type") == "response.function_call_arguments.delta" and isinstance(p.get("delta"), str)]
    for ev in stream.items[start:]:
        p = ev.json()
        args = p.get("arguments") if isinstance(p, dict) else None
        if isinstance(args, str) and args:
            value = m.first_string_value(args)
            piece = m.unsplit_part(value, deltas) if value and deltas else value
            if piece:
                return m.with_accent(stream, piece)
    raise NotApplicable("no function_call arguments to carry a multi-byte character")


# ------------------------------------------------------------------ faults against the declared tools
def _function_call(stream: Stream) -> dict:
    """The first ``function_call`` item as announced (``output_item.added``)."""
    for ev in stream.items:
        p = ev.json()
        item = p.get("item") if isinstance(p, dict) else None
        if isinstance(item, dict) and p.get("type") == "response.output_item.added" \
                and item.get("type") == "function_call" and item.get("id"):
            return item
    raise NotApplicable("no function_call item with an id in this stream")


def _final_arguments(stream: Stream, iid: str) -> str:
    for ev in stream.items:
        p = ev.json()
        if isinstance(p, dict) and p.get("type") == "response.function_call_arguments.done" and p.get("item_id") == iid:
            return p.get("arguments") or ""
    raise NotApplicable("the function_call's arguments are never done")


def _rewrite_call(stream: Stream, iid: str, *, name: str | None = None, arguments: str | None = None) -> dict:
    """Edits that give item ``iid`` another name or other arguments everywhere the stream states them
    (the items added and done, the deltas, ``.done``, the terminal response's output): the stream stays
    consistent (no R002). Later deltas keep their place (sequence numbers) with empty text."""
    edits: dict = {}
    first_delta = True

    def fix(item: dict) -> None:
        if item.get("id") == iid:
            if name is not None:
                item["name"] = name
            if arguments is not None and item.get("arguments"):
                item["arguments"] = arguments

    for i, ev in enumerate(stream.items):
        p = ev.json()
        if not isinstance(p, dict):
            continue
        typ = p.get("type")
        if isinstance(p.get("item"), dict) and p["item"].get("id") == iid:
            fix(p["item"])
        elif isinstance(p.get("response"), dict) and isinstance(p["response"].get("output"), list):
            for item in p["response"]["output"]:
                if isinstance(item, dict):
                    fix(item)
        elif arguments is not None and p.get("item_id") == iid and typ == "response.function_call_arguments.delta":
            p["delta"], first_delta = (arguments if first_delta else ""), False
        elif arguments is not None and p.get("item_id") == iid and typ == "response.function_call_arguments.done":
            p["arguments"] = arguments
        else:
            continue
        edits[i] = ev.with_json(p)
    return edits


def _declaring(stream: Stream) -> dict:
    """The recorded request (or a minimal one) declaring the streamed function calls when it declares
    none (schemas inferred from their final arguments)."""
    body = dict(stream.request or {"model": "m", "input": [], "stream": True})
    if not isinstance(body.get("tools"), list):
        declared: dict = {}
        for ev in stream.items:
            p = ev.json()
            item = p.get("item") if isinstance(p, dict) else None
            if isinstance(item, dict) and p.get("type") == "response.output_item.done" \
                    and item.get("type") == "function_call" and isinstance(item.get("name"), str):
                try:
                    args = orjson.loads(item.get("arguments") or "{}")
                except orjson.JSONDecodeError:
                    continue
                if isinstance(args, dict):
                    declared.setdefault(item["name"], tf.inferred_schema(args))
        body["tools"] = [{"type": "function", "name": n, "parameters": s, "strict": False} for n, s in declared.items()]
    return body


def undeclared_tool(stream: Stream, param: float | None) -> Mutated:
    body = _declaring(stream)
    item = _function_call(stream)
    declared = tools.read(body)
    new = tf.renamed(item.get("name") or "tool", set(declared.tools) if declared is not None else set())
    return m.well_formed(m.with_edits(stream, _rewrite_call(stream, item["id"], name=new)), body,
                         f"{item.get('name')} renamed {new}")


def schema_violation(stream: Stream, param: float | None) -> Mutated:
    item = _function_call(stream)
    try:
        args = orjson.loads(_final_arguments(stream, item["id"]) or "{}")
    except orjson.JSONDecodeError:
        raise NotApplicable("the function_call's arguments are not JSON") from None
    recorded = tools.read(stream.request) if stream.request else None
    name = item.get("name")
    declared = recorded.tools.get(name) if recorded is not None and isinstance(name, str) else None
    broken, what = tf.violate(args, declared.schema if declared is not None else None)
    edits = _rewrite_call(stream, item["id"], arguments=orjson.dumps(broken).decode())
    return m.well_formed(m.with_edits(stream, edits), _declaring(stream), f"{item.get('name')}: {what}")


def _function_call_ids(stream: Stream) -> list[str]:
    """Ids of every ``function_call`` item announced, in order."""
    ids = []
    for ev in stream.items:
        p = ev.json()
        item = p.get("item") if isinstance(p, dict) else None
        if isinstance(item, dict) and p.get("type") == "response.output_item.added" \
                and item.get("type") == "function_call" and item.get("id"):
            ids.append(item["id"])
    if not ids:
        raise NotApplicable("no function_call item with an id in this stream")
    return ids


def _renumbered(items: list[Ev]) -> list[Ev]:
    """``items`` with ``sequence_number`` counted on from the first one, so that removing or adding
    events leaves no gap (R-rule: ``sequence_number`` skipped or went back)."""
    out, seq = [], None
    for ev in items:
        p = ev.json()
        if isinstance(p, dict) and isinstance(p.get("sequence_number"), int):
            seq = p["sequence_number"] if seq is None else seq + 1
            if p["sequence_number"] != seq:
                p["sequence_number"] = seq
                ev = ev.with_json(p)
        out.append(ev)
    return out


NO_TOOL_TEXT = "I can answer that without a tool."
"""What the mutated answers say instead of calling the forced tool."""


def _text_item_events(item_id: str, output_index: int, text: str) -> tuple[list[dict], dict]:
    """The events of a complete ``message`` output item saying ``text`` (PROTOCOLS.md §3), and the
    item as done (for the terminal response's ``output``)."""
    item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    done_part = {**part, "text": text}
    done_item = {**item, "status": "completed", "content": [done_part]}
    at = {"item_id": item_id, "output_index": output_index, "content_index": 0}
    return [
        {"type": "response.output_item.added", "output_index": output_index, "item": item},
        {"type": "response.content_part.added", **at, "part": part},
        {"type": "response.output_text.delta", **at, "delta": text},
        {"type": "response.output_text.done", **at, "text": text},
        {"type": "response.content_part.done", **at, "part": done_part},
        {"type": "response.output_item.done", "output_index": output_index, "item": done_item},
    ], done_item


def ignore_tool_choice(stream: Stream, param: float | None) -> Mutated:
    """Every ``function_call`` item removed; the first one's place taken by a ``message`` item
    saying it needs no tool; the request forces a call (``tool_choice: required``) when it did not."""
    ids = set(_function_call_ids(stream))
    body = _declaring(stream)
    if tools.choice(body) is None:
        body["tool_choice"] = "required"
    events: list[dict[str, Any]] = []
    done_item: dict[str, Any] | None = None
    items: list[Ev] = []
    for ev in stream.items:
        p = ev.json()
        item = p.get("item") if isinstance(p, dict) else None
        mine = isinstance(p, dict) and (p.get("item_id") in ids or (isinstance(item, dict) and item.get("id") in ids))
        if not mine:
            if isinstance(p, dict) and isinstance(p.get("response"), dict) \
                    and isinstance(p["response"].get("output"), list):
                out = [x for x in p["response"]["output"] if not (isinstance(x, dict) and x.get("id") in ids)]
                p["response"]["output"] = ([done_item] if done_item and p["response"]["output"] else []) + out
                ev = ev.with_json(p)
            items.append(ev)
        elif done_item is None and p.get("type") == "response.output_item.added":
            events, done_item = _text_item_events("msg_si_no_tool", p.get("output_index", 0), NO_TOOL_TEXT)
            items += [Ev(None, e["type"], ev.t).with_json({**e, "sequence_number": 0}) for e in events]
    return m.well_formed(stream.derive(_renumbered(items)), body,
                         f"no function_call although {m.forcing(tools.choice(body))}")


def extra_parallel_call(stream: Stream, param: float | None) -> Mutated:
    """The first ``function_call`` item sent again as the next output item (its own item id and
    ``call_id``), after the first one is done; the request refuses parallel calls."""
    body = {**_declaring(stream), "parallel_tool_calls": False}
    ids = _function_call_ids(stream)
    if len(ids) > 1:
        return m.well_formed(stream, body, f"{len(ids)} function calls although parallel_tool_calls is false")
    iid = ids[0]
    last_index = max((p["output_index"] for ev in stream.items
                      if isinstance(p := ev.json(), dict) and isinstance(p.get("output_index"), int)), default=0)
    new_id, copied, done_at, copy_done = f"{iid}_2", [], None, None

    def again(item: dict) -> dict:
        out = {**item, "id": new_id}
        if isinstance(item.get("call_id"), str):
            out["call_id"] = item["call_id"] + "_2"
        return out

    for i, ev in enumerate(stream.items):
        p = ev.json()
        if not isinstance(p, dict):
            continue
        item = p.get("item")
        if p.get("item_id") == iid:
            p["item_id"] = new_id
        elif isinstance(item, dict) and item.get("id") == iid:
            p["item"] = again(item)
            if p.get("type") == "response.output_item.done":
                done_at, copy_done = i, p["item"]
        else:
            continue
        p["output_index"] = last_index + 1
        copied.append(ev.with_json(p))
    if done_at is None:
        raise NotApplicable("the function_call item is never done")
    edits = {}
    for i, ev in enumerate(stream.items):
        p = ev.json()
        resp = p.get("response") if isinstance(p, dict) else None
        if isinstance(resp, dict) and isinstance(resp.get("output"), list) and resp["output"]:
            resp["output"].append(copy_done)
            edits[i] = ev.with_json(p)
    copied = [replace(ev, t=stream.items[done_at].t) for ev in copied]  # times never go back
    grown = m.with_edits(stream, edits, {done_at: copied})
    return m.well_formed(grown.derive(_renumbered(grown.items)), body,
                         f"the function call again as a second item, {m.describe(stream, done_at)}")


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
    Mutation("undeclared-tool", "the first function_call names a function the request did not declare",
             frozenset({"V001"}), ("QwenLM/Qwen3.8#15",), undeclared_tool),
    Mutation("schema-violation", "the first function_call's arguments break the declared parameters (a required "
             "key dropped, else a value of another type), consistently in every event that states them",
             frozenset({"V002"}), ("Datus-ai/Datus-agent#1365",), schema_violation),
    Mutation("ignore-tool-choice", "a message item instead of a function_call although the request forces one "
             "(tool_choice required)", frozenset({"V003"}), ("sgl-project/sglang#28475", "ogx-ai/ogx#3548"),
             ignore_tool_choice),
    Mutation("extra-parallel-call", "the function_call again as a second output item although the request set "
             "parallel_tool_calls false", frozenset({"V004"}), ("ogx-ai/ogx#4123",), extra_parallel_call),
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
    events: list[dict[str, Any]] = [
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
