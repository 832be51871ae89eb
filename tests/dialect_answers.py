"""One answer written in every dialect the product reads, as timed captures (the ``diff`` tests).

:class:`Spec` says what the answer is (text, tool calls with their arguments, the stop class) and
when things arrive; :func:`render` writes it as the stream a provider of ``dialect`` sends:
Anthropic Messages and Anthropic on Bedrock, Bedrock ConverseStream, OpenAI Chat, OpenAI
Responses, Gemini native SSE, Ollama NDJSON, Cohere v2 chat, OpenAI Realtime (WebSocket messages under a
101 head). Each event is one network chunk (or message) at its own time.
Ids follow each dialect's own convention unless a call gives one.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field, replace

from inspector.model.capture import Capture, Chunk, End
from inspector.providers import dialect_names
from tests import bedrock_frames as bf

DIALECTS = tuple(dialect_names())
"""Every registered dialect (the registry's list, never one kept here): a new provider's dialect joins
every test parametrized on it, and fails there until this module can write it (``render``)."""

STOPS = {
    "anthropic-messages": {"tool": "tool_use", "end": "end_turn", "length": "max_tokens"},
    "bedrock-anthropic": {"tool": "tool_use", "end": "end_turn", "length": "max_tokens"},
    "bedrock-converse": {"tool": "tool_use", "end": "end_turn", "length": "max_tokens"},
    "openai-chat": {"tool": "tool_calls", "end": "stop", "length": "length"},
    "openai-responses": {"tool": "completed", "end": "completed", "length": "incomplete"},
    "openai-realtime": {"tool": "completed", "end": "completed", "length": "incomplete"},
    "gemini": {"tool": "STOP", "end": "STOP", "length": "MAX_TOKENS"},
    "ollama": {"tool": "stop", "end": "stop", "length": "length"},
    "cohere-chat": {"tool": "TOOL_CALL", "end": "COMPLETE", "length": "MAX_TOKENS"},
}
"""How each dialect says each stop class (PROTOCOLS.md); Gemini, Responses and Ollama have no tool stop."""

ID_PREFIX = {"anthropic-messages": "toolu_", "bedrock-anthropic": "toolu_", "bedrock-converse": "tooluse_",
             "openai-chat": "call_", "openai-responses": "call_", "openai-realtime": "call_", "gemini": None, "ollama": None,
             "cohere-chat": "get_weather_"}


@dataclass
class CallSpec:
    name: str
    arguments: object
    """A dict (written as JSON), or a str sent as is (only where the dialect streams text)."""
    key: str = "a1"
    """The id's tail: ``toolu_a1`` in Anthropic, ``call_a1`` in Chat…"""
    id: str | None = None
    """An explicit id (overrides the dialect's convention)."""


@dataclass
class Spec:
    text: str = ""
    calls: list[CallSpec] = field(default_factory=list)
    stop: str | None = "tool"
    """A stop class (``tool``/``end``/``length``), a raw value for the dialect, or None for none."""
    t0: float = 0.2
    step: float = 0.01
    arg_delay: float = 0.0
    """Seconds of silence before the first argument fragment of each call (a buffering gateway)."""
    drop_end: bool = False
    """Leave out the end marker (``message_stop``, ``[DONE]``…): a truncated stream."""

    def with_(self, **kw) -> "Spec":
        return replace(self, **kw)


def call_id(dialect: str, c: CallSpec) -> str | None:
    if c.id is not None:
        return c.id
    prefix = ID_PREFIX[dialect]
    return None if prefix is None else prefix + c.key


def _args_text(c: CallSpec) -> str:
    return c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments)


def _halves(s: str) -> list[str]:
    k = max(1, len(s) // 2)
    return [s[:k], s[k:]] if len(s) > 1 else [s]


def _stop(dialect: str, spec: Spec) -> str | None:
    return STOPS[dialect].get(spec.stop, spec.stop) if spec.stop is not None else None


class _Clock:
    def __init__(self, spec: Spec) -> None:
        self.t, self.step, self.items = spec.t0, spec.step, []

    def add(self, data: bytes | str, *, delay: float = 0.0) -> None:
        self.t += delay
        self.items.append((round(self.t, 6), data.encode() if isinstance(data, str) else data))
        self.t += self.step


def _sse(obj: dict, named: bool = True) -> str:
    head = f"event: {obj['type']}\n" if named else ""
    return f"{head}data: {json.dumps(obj)}\n\n"


def _anthropic_events(spec: Spec, dialect: str) -> list[tuple[dict, float]]:
    ev: list[tuple[dict, float]] = [({"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 1}}}, 0.0)]
    idx = 0
    if spec.text:
        ev.append(({"type": "content_block_start", "index": idx, "content_block": {"type": "text", "text": ""}}, 0))
        ev += [({"type": "content_block_delta", "index": idx, "delta": {"type": "text_delta", "text": p}}, 0)
               for p in _halves(spec.text)]
        ev.append(({"type": "content_block_stop", "index": idx}, 0))
        idx += 1
    for c in spec.calls:
        ev.append(({"type": "content_block_start", "index": idx, "content_block": {
            "type": "tool_use", "id": call_id(dialect, c), "name": c.name, "input": {}}}, 0))
        for k, frag in enumerate(_halves(_args_text(c))):
            ev.append(({"type": "content_block_delta", "index": idx,
                        "delta": {"type": "input_json_delta", "partial_json": frag}}, spec.arg_delay if k == 0 else 0))
        ev.append(({"type": "content_block_stop", "index": idx}, 0))
        idx += 1
    ev.append(({"type": "message_delta", "delta": {"stop_reason": _stop(dialect, spec), "stop_sequence": None},
                "usage": {"output_tokens": 9}}, 0))
    if not spec.drop_end:
        ev.append(({"type": "message_stop"}, 0))
    return ev


def _anthropic(spec: Spec, clock: _Clock) -> None:
    for obj, delay in _anthropic_events(spec, "anthropic-messages"):
        clock.add(_sse(obj), delay=delay)


def _bedrock_anthropic(spec: Spec, clock: _Clock) -> None:
    for obj, delay in _anthropic_events(spec, "bedrock-anthropic"):
        clock.add(bf.chunk(obj), delay=delay)


def _converse(spec: Spec, clock: _Clock) -> None:
    clock.add(bf.message_start())
    idx = 0
    if spec.text:
        for p in _halves(spec.text):
            clock.add(bf.text(idx, p))
        clock.add(bf.stop(idx))
        idx += 1
    for c in spec.calls:
        clock.add(bf.tool_start(idx, c.name, call_id("bedrock-converse", c)))
        for k, frag in enumerate(_halves(_args_text(c))):
            clock.add(bf.tool_input(idx, frag), delay=spec.arg_delay if k == 0 else 0)
        clock.add(bf.stop(idx))
        idx += 1
    if not spec.drop_end:
        clock.add(bf.message_stop(_stop("bedrock-converse", spec)))
        clock.add(bf.metadata())


def _chat(spec: Spec, clock: _Clock) -> None:
    def chunk(delta: dict, finish: str | None = None) -> str:
        return _sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}, named=False)

    clock.add(chunk({"role": "assistant", "content": ""}))
    for p in _halves(spec.text) if spec.text else []:
        clock.add(chunk({"content": p}))
    for i, c in enumerate(spec.calls):
        clock.add(chunk({"tool_calls": [{"index": i, "id": call_id("openai-chat", c), "type": "function",
                                         "function": {"name": c.name, "arguments": ""}}]}))
        for k, frag in enumerate(_halves(_args_text(c))):
            clock.add(chunk({"tool_calls": [{"index": i, "function": {"arguments": frag}}]}),
                      delay=spec.arg_delay if k == 0 else 0)
    # The end of a Chat stream is a finish_reason on every choice, then [DONE] (RULES.md S003, C007: after
    # the finish, a missing [DONE] is info): a truncated stream has neither.
    if spec.stop is not None and not spec.drop_end:
        clock.add(chunk({}, _stop("openai-chat", spec)))
    if not spec.drop_end:
        clock.add("data: [DONE]\n\n")


def _responses(spec: Spec, clock: _Clock) -> None:
    seq = iter(range(1000))

    def ev(obj: dict, delay: float = 0.0) -> None:
        clock.add(_sse({**obj, "sequence_number": next(seq)}), delay=delay)

    resp = {"id": "resp_1", "object": "response", "status": "in_progress", "model": "m", "output": []}
    ev({"type": "response.created", "response": resp})
    oi = 0
    output = []
    if spec.text:
        item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []}
        ev({"type": "response.output_item.added", "output_index": oi, "item": item})
        ev({"type": "response.content_part.added", "item_id": "msg_1", "output_index": oi, "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []}})
        for p in _halves(spec.text):
            ev({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": oi, "content_index": 0,
                "delta": p})
        ev({"type": "response.output_text.done", "item_id": "msg_1", "output_index": oi, "content_index": 0,
            "text": spec.text})
        part = {"type": "output_text", "text": spec.text, "annotations": []}
        ev({"type": "response.content_part.done", "item_id": "msg_1", "output_index": oi, "content_index": 0,
            "part": part})
        done = {**item, "status": "completed", "content": [part]}
        ev({"type": "response.output_item.done", "output_index": oi, "item": done})
        output.append(done)
        oi += 1
    for c in spec.calls:
        iid = f"fc_{c.key}"
        item = {"type": "function_call", "id": iid, "call_id": call_id("openai-responses", c), "name": c.name,
                "arguments": "", "status": "in_progress"}
        ev({"type": "response.output_item.added", "output_index": oi, "item": item})
        text = _args_text(c)
        for k, frag in enumerate(_halves(text)):
            ev({"type": "response.function_call_arguments.delta", "item_id": iid, "output_index": oi, "delta": frag},
               spec.arg_delay if k == 0 else 0)
        ev({"type": "response.function_call_arguments.done", "item_id": iid, "output_index": oi, "arguments": text})
        done = {**item, "arguments": text, "status": "completed"}
        ev({"type": "response.output_item.done", "output_index": oi, "item": done})
        output.append(done)
        oi += 1
    status = _stop("openai-responses", spec)
    if not spec.drop_end and status is not None:
        final = {**resp, "status": status, "output": output}
        if status == "incomplete":
            final["incomplete_details"] = {"reason": "max_output_tokens"}
        ev({"type": f"response.{status}", "response": final})


def _realtime(spec: Spec, clock: _Clock) -> None:
    """The Realtime API's events (openai-python ``types/realtime``): one WebSocket message each, every
    server event with an ``event_id``, the response's with its ``response_id``; ``response.done`` ends it."""
    ids = iter(range(1000))

    def ev(obj: dict, delay: float = 0.0) -> None:
        clock.add(json.dumps({"event_id": f"event_{next(ids)}", **obj}), delay=delay)

    rid = "resp_rt_1"
    resp = {"id": rid, "object": "realtime.response", "status": "in_progress", "output": []}
    ev({"type": "response.created", "response": resp})
    oi = 0
    output = []
    if spec.text:
        item = {"id": "item_msg_1", "object": "realtime.item", "type": "message", "role": "assistant",
                "status": "in_progress", "content": []}
        at = {"response_id": rid, "item_id": item["id"], "output_index": oi, "content_index": 0}
        ev({"type": "response.output_item.added", "response_id": rid, "output_index": oi, "item": item})
        ev({"type": "response.content_part.added", **at, "part": {"type": "text", "text": ""}})
        for p in _halves(spec.text):
            ev({"type": "response.output_text.delta", **at, "delta": p})
        ev({"type": "response.output_text.done", **at, "text": spec.text})
        ev({"type": "response.content_part.done", **at, "part": {"type": "text", "text": spec.text}})
        done = {**item, "status": "completed", "content": [{"type": "output_text", "text": spec.text}]}
        ev({"type": "response.output_item.done", "response_id": rid, "output_index": oi, "item": done})
        output.append(done)
        oi += 1
    for c in spec.calls:
        iid, cid = f"item_fc_{c.key}", call_id("openai-realtime", c)
        item = {"id": iid, "object": "realtime.item", "type": "function_call", "status": "in_progress",
                "call_id": cid, "name": c.name, "arguments": ""}
        at = {"response_id": rid, "item_id": iid, "output_index": oi, "call_id": cid}
        ev({"type": "response.output_item.added", "response_id": rid, "output_index": oi, "item": item})
        text = _args_text(c)
        for k, frag in enumerate(_halves(text)):
            ev({"type": "response.function_call_arguments.delta", **at, "delta": frag}, spec.arg_delay if k == 0 else 0)
        ev({"type": "response.function_call_arguments.done", **at, "name": c.name, "arguments": text})
        done = {**item, "arguments": text, "status": "completed"}
        ev({"type": "response.output_item.done", "response_id": rid, "output_index": oi, "item": done})
        output.append(done)
        oi += 1
    status = _stop("openai-realtime", spec)
    if not spec.drop_end and status is not None:
        final = {**resp, "status": status, "output": output}
        if status == "incomplete":
            final["status_details"] = {"type": "incomplete", "reason": "max_output_tokens"}
        ev({"type": "response.done", "response": final})


def _gemini(spec: Spec, clock: _Clock) -> None:
    def data(parts: list, finish: str | None = None, delay: float = 0.0) -> None:
        cand = {"content": {"parts": parts, "role": "model"}, "index": 0}
        if finish:
            cand["finishReason"] = finish
        obj = {"candidates": [cand], "modelVersion": "gemini-2.5-flash"}
        if finish:
            obj["usageMetadata"] = {"promptTokenCount": 3, "candidatesTokenCount": 9, "totalTokenCount": 12}
        clock.add(f"data: {json.dumps(obj)}\r\n\r\n", delay=delay)

    for p in _halves(spec.text) if spec.text else []:
        data([{"text": p}])
    for c in spec.calls:
        fc = {"name": c.name, "args": c.arguments if isinstance(c.arguments, dict) else {"raw": c.arguments}}
        if call_id("gemini", c):
            fc["id"] = call_id("gemini", c)
        data([{"functionCall": fc}], delay=spec.arg_delay)
    if not spec.drop_end:
        data([{"text": ""}] if spec.calls or spec.text else [], _stop("gemini", spec))


def _ollama(spec: Spec, clock: _Clock) -> None:
    def line(message: dict, done: bool = False, reason: str | None = None, delay: float = 0.0) -> None:
        obj = {"model": "m", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", **message},
               "done": done}
        if done:
            obj["done_reason"] = reason
            obj["eval_count"] = 9
        clock.add(json.dumps(obj) + "\n", delay=delay)

    for p in _halves(spec.text) if spec.text else []:
        line({"content": p})
    for c in spec.calls:
        fn = {"name": c.name, "arguments": c.arguments}
        tc = {"function": fn}
        if call_id("ollama", c):
            tc["id"] = call_id("ollama", c)
        line({"content": "", "tool_calls": [tc]}, delay=spec.arg_delay)
    if not spec.drop_end:
        line({"content": ""}, True, _stop("ollama", spec))


def _cohere(spec: Spec, clock: _Clock) -> None:
    """PROTOCOLS.md §8: content by index, then tool calls by index of their own, then ``message-end``."""
    def ev(obj: dict, delay: float = 0.0) -> None:
        clock.add(_sse(obj), delay=delay)

    ev({"type": "message-start", "id": "m1", "delta": {"message": {"role": "assistant"}}})
    if spec.text:
        ev({"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "text", "text": ""}}}})
        for p in _halves(spec.text):
            ev({"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": p}}}})
        ev({"type": "content-end", "index": 0})
    for i, c in enumerate(spec.calls):
        ev({"type": "tool-call-start", "index": i, "delta": {"message": {"tool_calls": {
            "id": call_id("cohere-chat", c), "type": "function", "function": {"name": c.name, "arguments": ""}}}}})
        for k, frag in enumerate(_halves(_args_text(c))):
            ev({"type": "tool-call-delta", "index": i, "delta": {"message": {"tool_calls": {
                "function": {"arguments": frag}}}}}, spec.arg_delay if k == 0 else 0)
        ev({"type": "tool-call-end", "index": i})
    if not spec.drop_end:
        delta = {"finish_reason": _stop("cohere-chat", spec)} if spec.stop is not None else {}
        ev({"type": "message-end", "delta": {**delta, "usage": {"tokens": {"input_tokens": 3, "output_tokens": 9}}}})


_RENDER = {"anthropic-messages": _anthropic, "bedrock-anthropic": _bedrock_anthropic, "bedrock-converse": _converse,
           "openai-chat": _chat, "openai-responses": _responses, "gemini": _gemini, "ollama": _ollama,
           "cohere-chat": _cohere, "openai-realtime": _realtime}
_CTYPE = {"bedrock-anthropic": "application/vnd.amazon.eventstream", "bedrock-converse": "application/vnd.amazon.eventstream",
          "ollama": "application/x-ndjson"}
_PATH = {"anthropic-messages": "https://api.anthropic.com/v1/messages",
         "bedrock-anthropic": "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke-with-response-stream",
         "bedrock-converse": "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream",
         "openai-chat": "https://api.openai.com/v1/chat/completions", "openai-responses": "https://api.openai.com/v1/responses",
         "gemini": "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse",
         "ollama": "http://localhost:11434/api/chat", "cohere-chat": "https://api.cohere.com/v2/chat",
         "openai-realtime": "wss://api.openai.com/v1/realtime?model=gpt-realtime"}
_HEAD = {"openai-realtime": {"status": 101, "headers": {"upgrade": "websocket", "connection": "Upgrade"}}}
"""A WebSocket's answer head (its chunks are then messages, one event each)."""


def render(dialect: str, spec: Spec) -> Capture:
    """``spec`` as a request-relative native capture in ``dialect``."""
    clock = _Clock(spec)
    _RENDER[dialect](spec, clock)
    cap = Capture(request={"method": "GET" if dialect in _HEAD else "POST", "url": _PATH[dialect], "headers": {},
                           "body": None},
                  response=_HEAD.get(dialect) or {"status": 200, "headers": {
                      "content-type": _CTYPE.get(dialect, "text/event-stream")}},
                  source_format="native", request_relative=True)
    cap.chunks = [Chunk(t, d) for t, d in clock.items]
    cap.end = End(t=clock.t, kind="eof")
    return cap


def write_native(cap: Capture, path) -> None:
    """Write ``cap`` as a native capture file (``data`` records where UTF-8, else ``b64``)."""
    lines = [json.dumps({"format": "stream-inspector-capture", "version": 1, "request": cap.request,
                         "response": cap.response})]
    for c in cap.chunks:
        try:
            lines.append(json.dumps({"t": c.t, "data": c.data.decode("utf-8")}))
        except UnicodeDecodeError:
            lines.append(json.dumps({"t": c.t, "b64": base64.b64encode(c.data).decode()}))
    lines.append(json.dumps({"t": cap.end.t if cap.end else None, "end": cap.end.kind if cap.end else "eof"}))
    path.write_text("\n".join(lines) + "\n")
