"""``check`` against the floor: framing plus one ``orjson.loads`` per event, and nothing else.

Six files, each as an Anthropic stream and as an OpenAI Chat stream: one large tool call of 348 k
and 1.4 M argument characters in 8-character deltas (``bench_large_tool_call.py`` makes them), where
runs of deltas form; and ``--calls`` short tool calls in one answer (default 5 000: 25 003 events,
each call a few deltas of its arguments, so no run of deltas longer than 3 forms and every event
takes the per-event path). For each, CPU time (user + system), median of ``--rounds`` interleaved
rounds:

- end to end: ``python -m inspector check --format json FILE`` vs a floor process that reads the
  file, cuts it at blank lines, takes each event's ``data:`` line and ``orjson.loads`` it;
- in-process: ``run_capture`` on the loaded capture vs the same floor function;
- where the in-process time goes, by stage: our SSE framing alone one frame per event (what it
  does before the dialect is known), the same framing handing runs of deltas over whole
  (``FrameRun``, what ``check`` gets once the dialect is known: the search for runs turned off
  after a streak of short ones, as the session's ``RunGate`` does), and the whole session.

``--other DIR``: ``check`` of another checkout (its ``python -m inspector``, run from DIR) is timed end
to end in the same rounds, between ours and the floor, for a before/after on the same load.

Memory is ``bench_memory.py``'s job: a child forked from this process (which holds the generated
files) reports the parent's peak RSS as its own on Linux, so ``ru_maxrss`` here would mislead.

    uv run python bench/bench_floor.py [--rounds 7] [--sizes 1,4] [--calls 5000] [--other DIR]
"""
from __future__ import annotations

import argparse
import gc
import inspect
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_large_tool_call import (BASE_CHARS, chat_sse, make_arguments, make_chat_chunks,  # noqa: E402
                                   make_events, to_sse)

from inspector.capture.load import load_path  # noqa: E402
from inspector.feeds.run import run_capture  # noqa: E402
from inspector.framing.sse import SSEDecoder  # noqa: E402
from inspector.providers import dialect_class  # noqa: E402
from inspector.session.runs import RunGate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DIALECT = {"anthropic": "anthropic-messages", "chat": "openai-chat"}
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

SHORT_ARGUMENTS = ('{"path":"src/mod', 'ule_{i}.py","li', 'ne":{i}}')
"""One short call's arguments, as its deltas (``{i}`` is the call's number)."""


def short_calls_anthropic(n: int) -> bytes:
    """``n`` tool calls in one Anthropic message: start, 3 ``input_json_delta``, stop each (5 n + 3 events)."""
    evs: list[dict] = [{"type": "message_start", "message": {
        "id": "msg_b", "type": "message", "role": "assistant", "model": "bench", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}]
    for i in range(n):
        evs.append({"type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": f"toolu_{i:05}", "name": "read_file", "input": {}}})
        evs += [{"type": "content_block_delta", "index": i,
                 "delta": {"type": "input_json_delta", "partial_json": part.replace("{i}", str(i))}}
                for part in SHORT_ARGUMENTS]
        evs.append({"type": "content_block_stop", "index": i})
    evs += [{"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
             "usage": {"output_tokens": 9}},
            {"type": "message_stop"}]
    return to_sse(evs)


def short_calls_chat(n: int) -> bytes:
    """``n`` tool calls in one Chat answer: the call's first chunk (id, name, empty arguments), then
    its arguments in 4 chunks (5 n + 2 chunks and ``[DONE]``)."""
    base = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "bench"}
    chunks: list[dict] = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": None},
                                                "finish_reason": None}]}]
    for i in range(n):
        first = {"index": i, "id": f"call_{i:05}", "type": "function", "function": {"name": "read_file", "arguments": ""}}
        chunks.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [first]}, "finish_reason": None}]})
        parts = [p.replace("{i}", str(i)) for p in SHORT_ARGUMENTS]
        parts = [parts[0][:1], parts[0][1:], *parts[1:]]
        for part in parts:
            call = {"index": i, "function": {"arguments": part}}
            chunks.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return chat_sse(chunks)


def floor(raw: bytes) -> int:
    """Framing plus one ``orjson.loads`` per event (the floor process runs this same function)."""
    n = 0
    for block in raw.split(b"\n\n"):
        for line in block.split(b"\n"):
            if line.startswith(b"data: "):
                data = line[6:]
                if data != b"[DONE]":
                    orjson.loads(data)
                n += 1
    return n


FLOOR = ("import sys, orjson\n" + inspect.getsource(floor)
         + "floor(open(sys.argv[1], 'rb').read())\n")
"""The floor process: the function above and nothing else (no project import)."""


def framing_only(raw: bytes, dialect: str | None = None) -> list:
    """Our SSE decoder over the body in 64 KiB slices (as the session feeds it): items only.
    ``dialect``: arm it with that dialect's run keys (runs of deltas framed whole), as the session does,
    and turn the search off as the session's ``RunGate`` does after a streak of short runs (never back
    on here: that needs the session's blocks)."""
    d, out = SSEDecoder(), []
    if dialect is not None:
        d.set_run_keys(dialect_class(dialect).run_keys, dialect_class(dialect).run_noise)
        gate = RunGate()
        d.on_run = lambda length: gate.saw_run(length, 0) and d.set_run_keys({})
    for i in range(0, len(raw), 65536):
        out += d.feed(raw[i:i + 65536], None)
    return out + d.close(None)


def cpu_of(argv: list[str], cwd: Path = ROOT) -> float:
    """CPU seconds (user + system) of one child process run in ``cwd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.wait4(p.pid, 0)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_in_process(fn) -> float:
    """CPU seconds of ``fn()``, garbage collection paused as ``run_capture`` pauses it."""
    gc.disable()
    try:
        t0 = time.process_time()
        fn()
        return time.process_time() - t0
    finally:
        gc.enable()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sizes", default="1,4")
    ap.add_argument("--calls", type=int, default=5000, help="short tool calls in one answer (0: none)")
    ap.add_argument("--other", type=Path, help="another checkout whose check is timed end to end too")
    a = ap.parse_args()
    other = a.other.resolve() if a.other else None
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for f in (float(x) for x in a.sizes.split(",") if x):
            args = make_arguments(int(BASE_CHARS * f))
            for name, body in (("anthropic", to_sse(make_events(args))), ("chat", chat_sse(make_chat_chunks(args)))):
                path = Path(tmp) / f"{name}-{f:g}x.sse"
                path.write_bytes(body)
                files.append((f"{name} {len(args) // 1000} k", path, DIALECT[name]))
        if a.calls:
            for name, body in (("anthropic", short_calls_anthropic(a.calls)), ("chat", short_calls_chat(a.calls))):
                path = Path(tmp) / f"{name}-{a.calls}-calls.sse"
                path.write_bytes(body)
                files.append((f"{name} {a.calls} calls", path, DIALECT[name]))
        floor_script = Path(tmp) / "floor.py"
        floor_script.write_text(FLOOR)
        check = [sys.executable, "-m", "inspector", "check", "--format", "json"]
        for _, path, _ in files:  # warm: bytecode written, files in the page cache
            cpu_of([*check, str(path)])
            if other:
                cpu_of([*check, str(path)], other)
        rows = {label: {"e2e_check": [], "e2e_floor": [], "e2e_other": [], "in_check": [], "in_floor": [],
                         "framing": [], "records": [], "size": path.stat().st_size}
                for label, path, _ in files}
        for _ in range(a.rounds):
            for label, path, dialect in files:
                r = rows[label]
                r["e2e_check"].append(cpu_of([*check, str(path)]))
                if other:
                    r["e2e_other"].append(cpu_of([*check, str(path)], other))
                r["e2e_floor"].append(cpu_of([sys.executable, str(floor_script), str(path)]))
                raw = path.read_bytes()
                cap = load_path(path)
                r["in_check"].append(cpu_in_process(lambda: run_capture(cap)))
                r["in_floor"].append(cpu_in_process(lambda: floor(raw)))
                r["framing"].append(cpu_in_process(lambda: framing_only(raw)))
                r["records"].append(cpu_in_process(lambda: framing_only(raw, dialect)))
    print(f"CPU seconds, median of {a.rounds} interleaved rounds")
    print("| file | bytes | floor e2e | check e2e | × | floor in-process | check in-process | × |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, r in rows.items():
        fe, ce = statistics.median(r["e2e_floor"]), statistics.median(r["e2e_check"])
        fi, ci = statistics.median(r["in_floor"]), statistics.median(r["in_check"])
        print(f"| {label} | {r['size']:,} | {fe:.3f} | {ce:.3f} | {ce / fe:.2f}× | {fi:.3f} | {ci:.3f} | "
              f"{ci / fi:.2f}× |")
    if other:
        print()
        print(f"End to end, ``check`` of {other} in the same rounds")
        print("| file | floor e2e | other check e2e | × | this check e2e | × | this / other |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, r in rows.items():
            fe, oe, ce = (statistics.median(r[k]) for k in ("e2e_floor", "e2e_other", "e2e_check"))
            print(f"| {label} | {fe:.3f} | {oe:.3f} | {oe / fe:.2f}× | {ce:.3f} | {ce / fe:.2f}× | {ce / oe:.2f} |")
    print()
    print("In-process, by stage (× the floor)")
    print("| file | floor | framing, a frame per event | framing, runs whole | whole check |")
    print("|---|---:|---:|---:|---:|")
    for label, r in rows.items():
        fi = statistics.median(r["in_floor"])
        cells = [statistics.median(r[k]) for k in ("framing", "records", "in_check")]
        print(f"| {label} | {fi:.3f} | " + " | ".join(f"{c:.3f} ({c / fi:.1f}×)" for c in cells) + " |")


if __name__ == "__main__":
    main()
