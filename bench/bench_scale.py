"""Every rule O(1) per event: ``check`` time at N and 2N of the shapes that once went quadratic.

- Anthropic: N text blocks, each started, given one delta and stopped (A006 once rebuilt the
  open-block list at every start);
- OpenAI Chat: N parallel tool calls in one choice, each opened and given arguments (C013 once
  searched a list of seen indexes);
- Anthropic: N pings inside one open block (timing rules per event);
- Responses: N output items;
- Anthropic: N blocks started and never stopped (A006 once named the lowest open index with a
  ``min`` over every open block);
- Bedrock ConverseStream: N text blocks (B006 once searched the list of positions seen).

Prints seconds at N and 2N and their ratio (linear ≈ 2.0). CPU time, best of 3.

    uv run python bench/bench_scale.py [--n 100000]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.model.capture import Capture, Chunk  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from tests import bedrock_frames as bf  # noqa: E402


def sse(events) -> bytes:
    return b"".join(b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in events)


def anthropic_blocks(n: int) -> bytes:
    evs = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                 "content": [], "stop_reason": None}}]
    for i in range(n):
        evs += [{"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": "w"}},
                {"type": "content_block_stop", "index": i}]
    evs += [{"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
            {"type": "message_stop"}]
    return sse(evs)


def chat_calls(n: int) -> bytes:
    base = {"id": "c", "object": "chat.completion.chunk", "model": "x"}
    out = []
    for i in range(n):
        call = {"index": i, "id": f"call_{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        out.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]})
    out.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in out) + b"data: [DONE]\n\n"


def pings(n: int) -> bytes:
    evs = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                 "content": [], "stop_reason": None}},
           {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}]
    evs += [{"type": "ping"}] * n
    evs += [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "w"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
            {"type": "message_stop"}]
    return sse(evs)


def responses_items(n: int) -> bytes:
    evs = [{"type": "response.created", "sequence_number": 0, "response": {"status": "in_progress"}}]
    seq = 1
    for i in range(n):
        item = {"type": "message", "id": f"m{i}", "content": []}
        evs.append({"type": "response.output_item.added", "sequence_number": seq, "output_index": i, "item": item})
        evs.append({"type": "response.output_item.done", "sequence_number": seq + 1, "output_index": i, "item": item})
        seq += 2
    evs.append({"type": "response.completed", "sequence_number": seq, "response": {"status": "completed"}})
    return sse(evs)


def never_stopped(n: int) -> bytes:
    evs = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x",
                                                 "content": [], "stop_reason": None}}]
    evs += [{"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}
            for i in range(n)]
    return sse(evs + [{"type": "message_stop"}])


def converse_blocks(n: int) -> bytes:
    body = bf.message_start()
    for i in range(n):
        body += bf.text(i, "w") + bf.stop(i)
    return body + bf.message_stop() + bf.metadata()


def cpu(body: bytes, dialect: str | None = None) -> float:
    cap = Capture(chunks=[Chunk(None, body)])
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        run_capture(cap, dialect=dialect)
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    a = ap.parse_args()
    print("| shape | N | s at N | s at 2N | ratio (linear ≈ 2) |")
    print("|---|---:|---:|---:|---:|")
    for name, make, n, dialect in (
            ("Anthropic blocks", anthropic_blocks, a.n, None), ("Chat parallel calls", chat_calls, a.n, None),
            ("Anthropic pings in an open block", pings, a.n * 10, None), ("Responses items", responses_items, a.n, None),
            ("Anthropic blocks never stopped", never_stopped, a.n, None),
            ("Bedrock Converse blocks", converse_blocks, a.n, "bedrock-converse")):
        one, two = cpu(make(n), dialect), cpu(make(2 * n), dialect)
        print(f"| {name} | {n:,} | {one:.2f} | {two:.2f} | {two / one:.2f} |")


if __name__ == "__main__":
    main()
