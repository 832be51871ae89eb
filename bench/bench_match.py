"""serve --match: what looking a request up costs among 200 recordings (10 conversations x 20 turns, up to
41 messages of 400-character tool results each): a hit (the last recording) and a miss (the closest
recording found and the departure named). Run: ``uv run python bench/bench_match.py``."""
import time
import copy
from inspector.net.replay.match import DEFAULT_IGNORE, Ignore
from inspector.net.replay.recordings import Index, Recording
from inspector.net.serve import Served
from inspector.model.capture import Capture
ig = Ignore(DEFAULT_IGNORE)
def body(n, tag):
    msgs = [{"role": "user", "content": f"q {tag}"}]
    for k in range(n):
        msgs += [{"role": "assistant", "tool_calls": [{"id": f"c{k}", "type": "function", "function": {"name": "f", "arguments": '{"a": %d}' % k}}]},
                 {"role": "tool", "tool_call_id": f"c{k}", "content": "x" * 400}]
    return {"model": "m", "stream": True, "messages": msgs, "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]}
recs = []
for c in range(10):
    for turn in range(20):
        b = body(turn, c)
        s = Served(f"r{c}-{turn}", "", Capture(chunks=[]), 200, [])
        recs.append(Recording(s, "POST", "/v1/chat/completions", ig.strip(b), "openai-chat", turn + 1))
idx = Index(recs, ig)
hit, miss = body(19, 9), copy.deepcopy(body(19, 9))
miss["messages"][-1]["content"] = "y"
for name, b in (("hit (last of 200)", hit), ("miss (closest + departure)", miss)):
    t = time.perf_counter()
    n = 50
    for _ in range(n):
        idx.find("POST", "/v1/chat/completions", b)
    print(f"{name}: {(time.perf_counter() - t) / n * 1000:.1f} ms per request")
