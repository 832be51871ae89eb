"""The V rules' cost: validating 5 000 calls of a 20-property schema, against ``check`` on the same capture.

One OpenAI Chat capture holds N tool calls (default 5 000), each streaming its arguments (an object
of 20 properties: strings, integers, numbers, booleans, an enum, an array) in 8 deltas. ``check`` is
timed end to end (``run_capture``: framing, dialect, J rules, V rules) with the request declaring the
tool and with a request that declares nothing (no V rule runs); the difference is what the V rules
cost. Wall-clock seconds, best of N runs.

    uv run python bench/bench_declared_tools.py [--calls 5000] [--runs 5]

Passes when the V rules cost at most 10 % of ``check`` without them (issue 28).
"""
from __future__ import annotations

import argparse
import time

import orjson

from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk

PROPERTIES = 20
DELTAS = 8


def schema() -> dict:
    props: dict = {}
    for k in range(PROPERTIES):
        kind = k % 6
        props[f"p{k}"] = ({"type": "string", "maxLength": 80}, {"type": "integer", "minimum": 0},
                          {"type": "number"}, {"type": "boolean"}, {"type": "string", "enum": ["a", "b", "c"]},
                          {"type": "array", "items": {"type": "string"}})[kind]
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def arguments(i: int) -> str:
    values = (f"value {i}", i, i / 7, i % 2 == 0, "abc"[i % 3], [f"t{i}", "u"])
    return orjson.dumps({f"p{k}": values[k % 6] for k in range(PROPERTIES)}).decode()


def capture(n: int, declare: bool) -> Capture:
    head = b'{"id":"chatcmpl-b","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
    out = [head + b'{"role":"assistant","content":null},"finish_reason":null}]}']
    for i in range(n):
        text = arguments(i)
        step = -(-len(text) // DELTAS)
        opening = {"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                   "function": {"name": "record", "arguments": ""}}]}
        out.append(head + orjson.dumps(opening) + b',"finish_reason":null}]}')
        for k in range(0, len(text), step):
            delta = {"tool_calls": [{"index": i, "function": {"arguments": text[k:k + step]}}]}
            out.append(head + orjson.dumps(delta) + b',"finish_reason":null}]}')
    out.append(head + b'{},"finish_reason":"tool_calls"}]}')
    body = b"".join(b"data: " + line + b"\n\n" for line in out) + b"data: [DONE]\n\n"
    req: dict = {"model": "m", "messages": [], "stream": True}
    if declare:
        req["tools"] = [{"type": "function", "function": {"name": "record", "parameters": schema()}}]
    return Capture(chunks=[Chunk(0.1, body)], request={"method": "POST", "url": "", "headers": {}, "body": req},
                   response={"status": 200, "headers": {"content-type": "text/event-stream"}},
                   source_format="native", request_relative=True)


def timed(cap: Capture) -> tuple[float, object]:
    t = time.perf_counter()
    session = run_capture(cap)
    return time.perf_counter() - t, session


def validation_alone(session) -> float:
    """The V rules' own work for every call of ``session``, timed apart: parse the arguments, judge the
    name, validate (what ``DeclaredRules.at_close`` does per call)."""
    rules = session.declared
    calls = [b for b in session.blocks if b.tool]
    t = time.perf_counter()
    for b in calls:
        rules._judged.discard(b.pos)
        rules.at_close(b)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    plain, declared = capture(args.calls, False), capture(args.calls, True)
    run_capture(declared)  # warm: the libraries imported and the schema compiled, as in a long-running proxy
    plain_t, declared_t, alone = [], [], []
    for _ in range(args.runs):  # interleaved: a loaded machine slows both alike
        t0, s0 = timed(plain)
        t1, s1 = timed(declared)
        plain_t.append(t0)
        declared_t.append(t1)
        alone.append(validation_alone(s1))
    assert not s0.findings and not s1.findings, (s0.findings[:3], s1.findings[:3])
    assert sum(b.tool for b in s1.blocks) == args.calls
    without, with_v, cost = min(plain_t), min(declared_t), min(alone)
    share = cost / without
    print(f"{args.calls} calls of a {PROPERTIES}-property schema, {DELTAS} deltas each "
          f"({len(plain.chunks[0].data) / 1e6:.1f} MB), best of {args.runs}")
    print(f"check without declared tools: {without * 1000:.0f} ms")
    print(f"check with the V rules:       {with_v * 1000:.0f} ms (difference {(with_v - without) * 1000:+.0f} ms)")
    print(f"the V rules alone (every call judged again, timed apart): {cost * 1000:.0f} ms = "
          f"{share * 100:.1f} % of check (bound 10 %): {'PASS' if share <= 0.10 else 'FAIL'}")
    return 0 if share <= 0.10 else 1


if __name__ == "__main__":
    raise SystemExit(main())
