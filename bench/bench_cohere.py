"""One large Cohere v2 tool call: our ``check`` pipeline vs what the ``cohere`` SDK itself spends on it.

cohere-python assembles nothing: ``ClientV2.chat_stream`` validates every event against
``V2ChatStreamResponse`` (pydantic) and hands it over, so its cost is that validation, timed here on
the events' JSON text (``parse_obj_as``, as its ``_iter`` does). Ours is timed end to end from raw SSE
bytes in 16 KiB chunks (framing, JSON, the dialect, K001's shape check, the J rules), with runs of
deltas taken whole (the default) and with runs off (every event alone). Same 343 k-character
arguments in 8-character deltas as ``bench_large_tool_call.py``. Wall seconds, best of N.

    uv run python -m bench.bench_cohere [--sizes 0.25,1,4] [--sdk-sizes 0.25] [--repeat 3]

The SDK's validation costs about a millisecond per event (a union of twelve models tried in turn), so
it is timed once, on the small sizes only.
"""
from __future__ import annotations

import argparse
import json
import time

import orjson

from bench.bench_large_tool_call import BASE_CHARS, DELTA, make_arguments
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from inspector.providers.cohere.stream import CohereChat


def make_events(args: str) -> list[dict]:
    evs = [{"type": "message-start", "id": "b", "delta": {"message": {"role": "assistant"}}},
           {"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
               "id": "make_file_b", "type": "function", "function": {"name": "make_file", "arguments": ""}}}}}]
    evs += [{"type": "tool-call-delta", "index": 0,
             "delta": {"message": {"tool_calls": {"function": {"arguments": args[i:i + DELTA]}}}}}
            for i in range(0, len(args), DELTA)]
    evs += [{"type": "tool-call-end", "index": 0}, {"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}}]
    return evs


def to_sse(evs: list[dict]) -> bytes:
    return b"".join(b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in evs)


def time_ours(body: bytes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        cap = Capture(chunks=[Chunk(None, body[i:i + 16384]) for i in range(0, len(body), 16384)])
        t0 = time.perf_counter()
        s = run_capture(cap)
        best = min(best, time.perf_counter() - t0)
        assert s.blocks[0].status == "complete" and not s.findings, s.findings[:3]
    return best


def time_sdk(evs: list[dict]) -> float:
    from cohere.core.pydantic_utilities import parse_obj_as
    from cohere.v2.types.v2chat_stream_response import V2ChatStreamResponse

    texts = [json.dumps(e) for e in evs]
    t0 = time.perf_counter()
    args = ""
    for text in texts:
        event = parse_obj_as(V2ChatStreamResponse, json.loads(text))
        if event.type == "tool-call-delta":
            args += event.delta.message.tool_calls.function.arguments
    elapsed = time.perf_counter() - t0
    assert isinstance(json.loads(args), dict)
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="0.25,1,4", help="sizes, as multiples of 343 k characters")
    ap.add_argument("--sdk-sizes", default="0.25", help="sizes the SDK is timed at (about 1 ms per event)")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    import cohere

    print(f"cohere SDK {cohere.__version__}; {DELTA}-character deltas; best of {a.repeat} for ours, 1 run for the SDK")
    print(f"{'size':>6} {'deltas':>7} {'ours s':>8} {'ours, runs off s':>17} {'SDK parse s':>12}")
    keys = CohereChat.run_keys
    sdk_sizes = {float(x) for x in a.sdk_sizes.split(",") if x}
    for f in sorted({float(x) for x in a.sizes.split(",")} | sdk_sizes):
        evs = make_events(make_arguments(int(BASE_CHARS * f)))
        body = to_sse(evs)
        ours = time_ours(body, a.repeat)
        CohereChat.run_keys = {}
        try:
            alone = time_ours(body, a.repeat)
        finally:
            CohereChat.run_keys = keys
        sdk = time_sdk(evs) if f in sdk_sizes else float("nan")
        print(f"{f:>5}× {len(evs) - 4:>7} {ours:8.3f} {alone:17.3f} {sdk:12.3f}")


if __name__ == "__main__":
    main()
