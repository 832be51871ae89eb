"""Q-history pairing: what matching one request to the answer it continues costs the proxy's loop.

100 held exchanges (the default ``--keep``), each an answer with 5 tool calls; a request whose
Chat history holds 100 tool rounds. Two cases: the last turn repeats one of the held answers
(the common case), and nothing matches (a conversation begun before the proxy: every turn tried,
up to ``pairing._MAX_TURNS``). Milliseconds per request, best of N.

    uv run python bench/bench_pairing.py [--runs 5]
"""
from __future__ import annotations

import argparse
import time
from types import SimpleNamespace

from inspector.feeds.exchanges.pairing import continued_exchange
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import End

PATH = "/v1/chat/completions"


def held(n: int) -> Exchange:
    ex = Exchange(n=n, method="POST", path=PATH, target=PATH, url="", request={}, started_wall=0.0, t0=0.0,
                  body={"messages": [{"role": "user", "content": f"question {n}"}]}, linted=True)
    ex.session = SimpleNamespace(blocks=[SimpleNamespace(kind="tool_call", tool=True, id=f"call_{n:04d}_{k}",
                                                         call_id=None, content='{"a": 1}', name="f",
                                                         input={"a": 1}, signature=None) for k in range(5)])
    ex.end = End(1.0)
    return ex


def request(last_id: str) -> Exchange:
    msgs: list = [{"role": "user", "content": "x" * 2000}]
    for t in range(100):
        cid = last_id if t == 99 else f"call_earlier_{t}"
        msgs += [{"role": "assistant", "content": "y" * 500,
                  "tool_calls": [{"id": cid, "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": cid, "content": "z" * 1000}]
    return Exchange(n=1000, method="POST", path=PATH, target=PATH, url="", request={}, body={"messages": msgs},
                    started_wall=0.0, t0=0.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args().runs
    earlier = [held(n) for n in range(1, 101)]
    for label, ex in (("last turn matches", request("call_0050_0")), ("nothing matches", request("call_other"))):
        best = float("inf")
        for _ in range(runs):
            t = time.perf_counter()
            found, how = continued_exchange(ex, earlier)
            best = min(best, time.perf_counter() - t)
        print(f"{label:20s} {1000 * best:7.1f} ms  -> {how or 'none (Q007)'}")


if __name__ == "__main__":
    main()
