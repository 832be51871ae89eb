"""Bedrock: our event-stream framing vs botocore's parser, and ``check`` on the same tool call three ways.

One large tool call (about 343 k argument characters in 8-character deltas, as in
``bench_large_tool_call.py``) sent as: a ConverseStream body, an InvokeModelWithResponseStream body
(base64 Anthropic events in ``chunk`` messages), and Anthropic SSE. Times are wall-clock seconds,
best of N runs, from raw bytes.

    uv run python bench/bench_bedrock.py [--runs 3]

- framing only: ``EventStreamDecoder`` vs botocore's ``EventStreamBuffer`` (headers parsed, CRCs
  checked by both), on the ConverseStream body fed in 16 KiB network chunks;
- ``check``: the whole pipeline (framing, JSON, dialect, J rules) per body.
"""
from __future__ import annotations

import argparse
import time

import orjson
from botocore.eventstream import EventStreamBuffer

from bench.bench_large_tool_call import BASE_CHARS, DELTA, make_arguments
from inspector.feeds.run import run_capture
from inspector.framing.eventstream import EventStreamDecoder
from inspector.model.capture import Capture, Chunk
from tests import bedrock_frames as f

CHUNK = 16 * 1024


def bodies(args: str) -> dict[str, bytes]:
    pieces = [args[i:i + DELTA] for i in range(0, len(args), DELTA)]
    converse = b"".join([f.message_start(), f.tool_start(0), *(f.tool_input(0, p) for p in pieces), f.stop(0),
                         f.message_stop("tool_use"), f.metadata()])
    events = [f.a_message_start(), *f.a_tool_block(0, *pieces), *f.a_end("tool_use")]
    invoke = b"".join(f.chunk(e) for e in events)
    sse = b"".join(b"event: %s\ndata: %s\n\n" % (e["type"].encode(), orjson.dumps(e)) for e in events)
    return {"bedrock-converse": converse, "bedrock-anthropic": invoke, "anthropic SSE": sse}


def best(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def ours(body: bytes) -> int:
    d = EventStreamDecoder()
    n = 0
    for i in range(0, len(body), CHUNK):
        n += len(d.feed(body[i:i + CHUNK], 0.0))
    return n + len(d.close())


def botocore(body: bytes) -> int:
    buf = EventStreamBuffer()
    n = 0
    for i in range(0, len(body), CHUNK):
        buf.add_data(body[i:i + CHUNK])
        n += sum(1 for _ in buf)
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    args = make_arguments(BASE_CHARS)
    bs = bodies(args)
    conv = bs["bedrock-converse"]
    assert ours(conv) == botocore(conv)
    print(f"ConverseStream body: {len(conv):,} bytes, {ours(conv):,} messages, {len(args):,} argument characters")
    print("| framing (16 KiB chunks) | seconds |\n|---|---:|")
    print(f"| ours (EventStreamDecoder) | {best(lambda: ours(conv), a.runs):.3f} |")
    print(f"| botocore (EventStreamBuffer) | {best(lambda: botocore(conv), a.runs):.3f} |")
    print("\n| check, whole pipeline | body bytes | seconds |\n|---|---:|---:|")
    for name, body in bs.items():
        cap = Capture(chunks=[Chunk(None, body[i:i + CHUNK]) for i in range(0, len(body), CHUNK)])
        s = run_capture(cap)
        assert s.blocks[-1].status == "complete" and not [x for x in s.findings if x.severity == "error"], name
        print(f"| {name} | {len(body):,} | {best(lambda: run_capture(cap), a.runs):.3f} |")


if __name__ == "__main__":
    main()
