"""One large tool call: our whole ``check`` pipeline vs the official SDK accumulators.

Anthropic: ``accumulate_event``; OpenAI Chat: ``ChatCompletionStreamState`` with a strict tool
(the only case where it parses partial JSON, PROTOCOLS.md §2).

The official accumulator re-parses the whole argument buffer with jiter on every
``input_json_delta`` (PROTOCOLS.md §1), so it grows quadratically with the argument size; our
session judges each character once. Times are wall-clock seconds, best of N runs.

    uv run python bench/bench_large_tool_call.py [--sizes 1,4] [--sdk-sizes 0.25,0.5,1]

Ours is timed end to end from raw SSE bytes (framing, JSON parsing of every event, dialect,
JSON progress, rules); the SDK is timed on already-parsed event dicts, so the comparison flatters
the SDK.
"""
from __future__ import annotations

import argparse
import json
import time

import orjson

from inspector.model.capture import Capture, Chunk
from inspector.feeds.run import run_capture

BASE_CHARS = 343_000
DELTA = 8


def make_arguments(n_chars: int) -> str:
    """A realistic argument object (a file write with many lines) of about ``n_chars`` characters."""
    lines, size, i = [], 30, 0
    while size < n_chars:
        line = f"Line {i}: the tide came in at {i % 24:02d}:{i % 60:02d}, \"calm\" — ok ✓"
        lines.append(line)
        size += len(json.dumps(line, ensure_ascii=False)) + 1
        i += 1
    return json.dumps({"filename": "tides.txt", "lines_of_text": lines}, ensure_ascii=False)


def make_events(args: str) -> list[dict]:
    evs = [{"type": "message_start", "message": {"id": "msg_b", "type": "message", "role": "assistant",
                                                 "model": "bench", "content": [], "stop_reason": None,
                                                 "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}},
           {"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_b", "name": "make_file", "input": {}}}]
    for i in range(0, len(args), DELTA):
        evs.append({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": args[i:i + DELTA]}})
    evs += [{"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
             "usage": {"output_tokens": 9}},
            {"type": "message_stop"}]
    return evs


def to_sse(evs: list[dict]) -> bytes:
    return b"".join(b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in evs)


def time_ours(body: bytes, repeat: int) -> tuple[float, int]:
    best, deltas = float("inf"), 0
    for _ in range(repeat):
        cap = Capture(chunks=[Chunk(None, body[i:i + 16384]) for i in range(0, len(body), 16384)])
        t0 = time.perf_counter()
        s = run_capture(cap)
        best = min(best, time.perf_counter() - t0)
        assert s.blocks[0].status == "complete" and not s.findings, s.findings[:3]
        deltas = s.blocks[0].deltas
    return best, deltas


def make_chat_chunks(args: str) -> list[dict]:
    base = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "bench"}
    first = {"index": 0, "id": "call_b", "type": "function", "function": {"name": "make_file", "arguments": ""}}
    chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [first]},
                                    "finish_reason": None}]}]
    for i in range(0, len(args), DELTA):
        call = {"index": 0, "function": {"arguments": args[i:i + DELTA]}}
        chunks.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return chunks


def chat_sse(chunks: list[dict]) -> bytes:
    return b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def time_openai_sdk(chunks: list[dict]) -> float:
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    tool = {"type": "function", "function": {"name": "make_file", "strict": True, "parameters": {
        "type": "object", "properties": {"filename": {"type": "string"},
                                         "lines_of_text": {"type": "array", "items": {"type": "string"}}},
        "required": ["filename", "lines_of_text"], "additionalProperties": False}}}
    typed = [ChatCompletionChunk.model_validate(c) for c in chunks]  # not timed: the SDK's model building
    state = ChatCompletionStreamState(input_tools=[tool])
    t0 = time.perf_counter()
    for c in typed:
        for _ in state.handle_chunk(c):
            pass
    elapsed = time.perf_counter() - t0
    call = state.current_completion_snapshot.choices[0].message.tool_calls[0]
    assert isinstance(call.function.parsed_arguments, dict)
    return elapsed


def time_sdk(evs: list[dict]) -> float:
    from anthropic.lib.streaming._messages import accumulate_event

    t0 = time.perf_counter()
    snap, bufs = None, {}
    for e in evs:
        snap = accumulate_event(event=e, current_snapshot=snap, json_bufs=bufs)
    elapsed = time.perf_counter() - t0
    assert isinstance(snap.content[0].input, dict)
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,4", help="our sizes, as multiples of 343 k characters")
    ap.add_argument("--sdk-sizes", default="0.25,0.5,1", help="SDK sizes (quadratic: keep small)")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    import anthropic

    print(f"anthropic SDK {anthropic.__version__}; {DELTA}-character deltas; best of {a.repeat} for ours, 1 run for the SDK")
    import openai

    print(f"openai SDK {openai.__version__} (strict tool: partial JSON parsed per delta)")
    print(f"{'size':>6} {'arg chars':>10} {'deltas':>7} {'ours s':>8} {'SDK s':>8} {'SDK/ours':>9}"
          f" {'ours chat s':>12} {'OpenAI SDK s':>13} {'SDK/ours':>9}")
    ours_at = {}
    for f in sorted({float(x) for x in a.sizes.split(",")} | {float(x) for x in a.sdk_sizes.split(",")}):
        args = make_arguments(int(BASE_CHARS * f))
        evs = make_events(args)
        ours, deltas = time_ours(to_sse(evs), a.repeat)
        ours_at[f] = ours
        sdk = time_sdk(evs) if str(f).rstrip("0").rstrip(".") in {x.strip() for x in a.sdk_sizes.split(",")} or \
            f in {float(x) for x in a.sdk_sizes.split(",")} else None
        ratio = f"{sdk / ours:8.1f}×" if sdk else "        -"
        chunks = make_chat_chunks(args)
        ours_chat, _ = time_ours(chat_sse(chunks), a.repeat)
        osdk = time_openai_sdk(chunks) if sdk else None
        oratio = f"{osdk / ours_chat:8.1f}×" if osdk else "        -"
        print(f"{f:>5}× {len(args):>10} {deltas:>7} {ours:8.3f} {sdk if sdk else float('nan'):8.3f} {ratio}"
              f" {ours_chat:12.3f} {osdk if osdk else float('nan'):13.3f} {oratio}")
    if 1.0 in ours_at and 4.0 in ours_at:
        print(f"ours 4×/1× = {ours_at[4.0] / ours_at[1.0]:.2f} (linear is 4.0)")


if __name__ == "__main__":
    main()
