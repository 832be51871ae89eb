"""Builders for synthetic native captures: the bundled demo captures and the 50 000-delta load capture.

Why this module exists: the demo captures in ``inspector/data/captures`` must be reproducible
(``python -m tests.ui.capture_factory`` rewrites them), and the load test and the bench need a
capture far larger than anything worth committing, generated on the fly.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from inspector.model.capture import Capture, Chunk, End

HEADER = "stream-inspector-capture"


def sse(name: str | None, payload) -> str:
    data = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return (f"event: {name}\n" if name else "") + f"data: {data}\n\n"


def native(request: dict | None, chunks: list[tuple[float, str]], end_t: float, end: str = "eof",
           status: int = 200, content_type: str = "text/event-stream") -> str:
    """A native capture as text (SPEC.md "Capture files")."""
    head = {"format": HEADER, "version": 1, "request": request,
            "response": {"status": status, "headers": {"content-type": content_type}}}
    lines = [json.dumps(head, ensure_ascii=False)]
    lines += [json.dumps({"t": round(t, 3), "data": d}, ensure_ascii=False) for t, d in chunks]
    lines.append(json.dumps({"t": round(end_t, 3), "end": end}))
    return "\n".join(lines) + "\n"


def _anthropic_request(model: str) -> dict:
    return {"method": "POST", "url": "https://api.anthropic.com/v1/messages",
            "headers": {"x-api-key": "[redacted]", "anthropic-version": "2023-06-01"},
            "body": {"model": model, "max_tokens": 1024, "stream": True,
                     "messages": [{"role": "user", "content": "What's the weather in Lisbon and Porto?"}]}}


def _openai_request(model: str, url: str = "https://api.openai.com/v1/chat/completions") -> dict:
    return {"method": "POST", "url": url, "headers": {"authorization": "[redacted]"},
            "body": {"model": model, "stream": True,
                     "messages": [{"role": "user", "content": "Quote ACME and convert 100 EUR to BRL."}]}}


def _msg_start(model: str, mid: str) -> dict:
    return {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 412, "output_tokens": 1}}}


def _split(text: str, sizes: tuple[int, ...], rng: random.Random) -> list[str]:
    out, i = [], 0
    while i < len(text):
        n = rng.choice(sizes)
        out.append(text[i:i + n])
        i += n
    return out


def anthropic_clean() -> str:
    """Text, then a tool_use block whose input streams over a couple of seconds; ~4 s total."""
    rng = random.Random(1)
    model = "claude-sonnet-4-5"
    ev: list[tuple[float, str]] = [(0.62, sse("message_start", _msg_start(model, "msg_01Demo"))),
                                   (0.63, sse("content_block_start", {"type": "content_block_start", "index": 0,
                                                                       "content_block": {"type": "text", "text": ""}}))]
    t = 0.70
    for word in _split("I'll check the current weather for both cities so I can compare them for you.",
                       (3, 5, 8, 11), rng):
        t += rng.uniform(0.03, 0.09)
        ev.append((t, sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                  "delta": {"type": "text_delta", "text": word}})))
    t += 0.02
    ev.append((t, sse("content_block_stop", {"type": "content_block_stop", "index": 0})))
    t += 0.35
    ev.append((t, sse("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {
        "type": "tool_use", "id": "toolu_01WeatherDemo", "name": "get_weather", "input": {}}})))
    args = json.dumps({"locations": [{"city": "Lisbon", "country": "PT"}, {"city": "Porto", "country": "PT"}],
                       "units": "celsius", "include": ["temperature", "wind", "humidity", "forecast_3h"]})
    t += 0.05
    ev.append((t, sse("content_block_delta", {"type": "content_block_delta", "index": 1,
                                              "delta": {"type": "input_json_delta", "partial_json": ""}})))
    for frag in _split(args, (4, 7, 9, 13), rng):
        t += rng.uniform(0.04, 0.12)
        ev.append((t, sse("content_block_delta", {"type": "content_block_delta", "index": 1,
                                                  "delta": {"type": "input_json_delta", "partial_json": frag}})))
    t += 0.03
    ev.append((t, sse("content_block_stop", {"type": "content_block_stop", "index": 1})))
    ev.append((t + 0.01, sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use",
                                               "stop_sequence": None}, "usage": {"output_tokens": 97}})))
    ev.append((t + 0.02, sse("message_stop", {"type": "message_stop"})))
    chunks = _network_chunks(ev, rng)
    return native(_anthropic_request(model), chunks, t + 0.03)


def anthropic_violations() -> str:
    """A tool call stalled for 10.6 s, closed before its JSON is complete, then a late delta."""
    rng = random.Random(2)
    model = "claude-sonnet-4-5"
    ev: list[tuple[float, str]] = [(0.48, sse("message_start", _msg_start(model, "msg_01Broken")))]
    t = 0.9
    ev.append((t, sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
        "type": "tool_use", "id": "toolu_01SearchDemo", "name": "search_docs", "input": {}}})))
    for frag in ['{"query": "ref', 'und policy for', ' annual plans", "', 'filters": {"la']:
        t += rng.uniform(0.1, 0.25)
        ev.append((t, sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                  "delta": {"type": "input_json_delta", "partial_json": frag}})))
    t += 10.6  # the stall
    ev.append((t, sse("content_block_stop", {"type": "content_block_stop", "index": 0})))
    t += 0.05
    ev.append((t, sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                              "delta": {"type": "input_json_delta", "partial_json": 'ng": "en"}}'}})))
    t += 0.2
    ev.append((t, sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use",
                                        "stop_sequence": None}, "usage": {"output_tokens": 31}})))
    ev.append((t + 0.01, sse("message_stop", {"type": "message_stop"})))
    return native(_anthropic_request(model), _network_chunks(ev, rng), t + 0.02)


def _chat(model: str, delta: dict | None, finish: str | None = None, usage: dict | None = None,
          choices: bool = True) -> str:
    chunk = {"id": "chatcmpl-demo", "object": "chat.completion.chunk", "created": 1767225600, "model": model,
             "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}] if choices else []}
    if usage is not None:
        chunk["usage"] = usage
    return sse(None, chunk)


def openai_parallel() -> str:
    """Two tool calls streamed interleaved by index, finish_reason tool_calls, usage chunk, [DONE]."""
    rng = random.Random(3)
    model = "gpt-4.1-mini"
    ev = [(0.55, _chat(model, {"role": "assistant", "content": None}))]
    t = 0.6
    calls = [("call_Stock01", "get_stock", json.dumps({"symbol": "ACME", "exchange": "NASDAQ", "fields": ["price",
                                                        "change", "volume"]})),
             ("call_Fx02", "convert_currency", json.dumps({"amount": 100, "from": "EUR", "to": "BRL"}))]
    frags = [_split(a, (5, 8, 12), rng) for _, _, a in calls]
    for i, (cid, name, _) in enumerate(calls):
        t += 0.08
        ev.append((t, _chat(model, {"tool_calls": [{"index": i, "id": cid, "type": "function",
                                                    "function": {"name": name, "arguments": ""}}]})))
    k = 0
    while any(frags):
        i = k % 2 if frags[k % 2] else 1 - k % 2
        k += 1
        t += rng.uniform(0.05, 0.14)
        ev.append((t, _chat(model, {"tool_calls": [{"index": i, "function": {"arguments": frags[i].pop(0)}}]})))
    t += 0.05
    ev.append((t, _chat(model, {}, "tool_calls")))
    ev.append((t + 0.02, _chat(model, None, usage={"prompt_tokens": 88, "completion_tokens": 54,
                                                  "total_tokens": 142}, choices=False)))
    ev.append((t + 0.03, "data: [DONE]\n\n"))
    return native(_openai_request(model), _network_chunks(ev, rng), t + 0.04)


def openai_compat_quirks() -> str:
    """An OpenAI-compatible server: fragments without ``index``, the name repeated, ``finish_reason: stop``."""
    rng = random.Random(4)
    model = "gemma-3-27b-it"
    ev = [(0.9, _chat(model, {"role": "assistant", "content": ""}))]
    t = 1.0
    ev.append((t, _chat(model, {"tool_calls": [{"id": "call_7f3a", "type": "function",
                                                "function": {"name": "lookup_order", "arguments": ""}}]})))
    for frag in _split(json.dumps({"order_id": "A-10293", "include_items": True, "locale": "pt-BR"}), (6, 9, 14), rng):
        t += rng.uniform(0.08, 0.2)
        ev.append((t, _chat(model, {"tool_calls": [{"id": "call_7f3a", "type": "function",
                                                    "function": {"name": "lookup_order", "arguments": frag}}]})))
    t += 0.1
    ev.append((t, _chat(model, {}, "stop")))
    ev.append((t + 0.02, "data: [DONE]\n\n"))
    return native(_openai_request(model, "http://localhost:8000/v1/chat/completions"),
                  _network_chunks(ev, rng), t + 0.03)


def _network_chunks(events: list[tuple[float, str]], rng: random.Random) -> list[tuple[float, str]]:
    """Group events into network chunks: sometimes two events in one read, sometimes one split in two."""
    out: list[tuple[float, str]] = []
    i = 0
    while i < len(events):
        t, data = events[i]
        r = rng.random()
        if r < 0.2 and i + 1 < len(events) and events[i + 1][0] - t < 0.05:
            t, data = events[i + 1][0], data + events[i + 1][1]
            i += 1
        elif r > 0.9 and len(data) > 40:
            cut = rng.randrange(10, len(data) - 10)
            out.append((t - 0.002, data[:cut]))
            data = data[cut:]
        out.append((t, data))
        i += 1
    return out


DEMO = {
    "1-anthropic-tool-call.jsonl": anthropic_clean,
    "2-anthropic-stall-and-early-stop.jsonl": anthropic_violations,
    "3-openai-parallel-tool-calls.jsonl": openai_parallel,
    "4-openai-compatible-quirks.jsonl": openai_compat_quirks,
}


def write_demo(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, make in DEMO.items():
        path = directory / name
        path.write_text(make(), encoding="utf-8")
        out.append(path)
    return out


def big_capture(deltas: int = 50_000, fragment: int = 8, span_s: float = 20.0) -> Capture:
    """One Anthropic tool call with ``deltas`` argument fragments of ``fragment`` characters.

    Chunks hold 1-40 events each (as a fast server's reads do); times spread over ``span_s``.
    """
    rng = random.Random(5)
    lines, size, i = [], 0, 0
    target = deltas * fragment - 40
    while size < target:
        line = f"line {i}: " + "x" * 40
        lines.append(line)
        size += len(line) + 3
        i += 1
    body = json.dumps({"path": "big.txt", "lines": lines})
    frags = [body[i:i + fragment] for i in range(0, len(body), fragment)]
    events = [sse("message_start", _msg_start("claude-big", "msg_big")),
              sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
                  "type": "tool_use", "id": "toolu_big", "name": "write_file", "input": {}}})]
    events += [sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "input_json_delta", "partial_json": f}}) for f in frags]
    events += [sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
               sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                                     "usage": {"output_tokens": 9}}),
               sse("message_stop", {"type": "message_stop"})]
    chunks: list[Chunk] = []
    i, n = 0, len(events)
    while i < n:
        k = rng.randint(1, 40)
        t = 0.3 + span_s * i / n
        chunks.append(Chunk(round(t, 4), "".join(events[i:i + k]).encode()))
        i += k
    return Capture(chunks=chunks, request=_anthropic_request("claude-big"),
                   response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(round(0.3 + span_s + 0.01, 4), "eof"), source_format="native", request_relative=True)


def many_calls_capture(calls: int = 1_250, span_s: float = 10.0) -> Capture:
    """One Anthropic answer of ``calls`` short tool calls (``get_weather``, 3 argument fragments
    each: 5 events a call), in chunks of 1-40 events spread over ``span_s`` (the shape of issue 27's
    "1 250 short tool calls": many blocks, each small)."""
    rng = random.Random(7)
    events = [sse("message_start", _msg_start("claude-many", "msg_many"))]
    for k in range(calls):
        body = json.dumps({"city": f"City {k}", "unit": "celsius", "days": k % 7 + 1})
        third = len(body) // 3
        events.append(sse("content_block_start", {"type": "content_block_start", "index": k, "content_block": {
            "type": "tool_use", "id": f"toolu_{k:05d}", "name": "get_weather", "input": {}}}))
        for frag in (body[:third], body[third:2 * third], body[2 * third:]):
            events.append(sse("content_block_delta", {"type": "content_block_delta", "index": k,
                                                      "delta": {"type": "input_json_delta", "partial_json": frag}}))
        events.append(sse("content_block_stop", {"type": "content_block_stop", "index": k}))
    events += [sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                                     "usage": {"output_tokens": 9 * calls}}),
               sse("message_stop", {"type": "message_stop"})]
    chunks: list[Chunk] = []
    i, n = 0, len(events)
    while i < n:
        k = rng.randint(1, 40)
        chunks.append(Chunk(round(0.3 + span_s * i / n, 4), "".join(events[i:i + k]).encode()))
        i += k
    return Capture(chunks=chunks, request=_anthropic_request("claude-many"),
                   response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   end=End(round(0.3 + span_s + 0.01, 4), "eof"), source_format="native", request_relative=True)


if __name__ == "__main__":  # python -m tests.ui.capture_factory
    root = Path(__file__).resolve().parents[2] / "inspector" / "data" / "captures"
    for p in write_demo(root):
        print(p)
