"""Hostile variants of the project's corpus captures (issue 24, item 4): value types swapped,
bodies truncated, bytes flipped, values nested deeply, controls and bidi overrides injected.

Every mutation is a function of a ``random.Random``: a case is ``(capture, seed)`` and the same
seed always gives the same bytes (a failure names its seed; ``hostile_case`` rebuilds it). Used by
``tests/fuzz/test_fuzz.py`` and ``bench/bench_fuzz.py``.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.model.jsondepth import depth_over
from inspector.model.capture import Capture, Chunk, End

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted([*(ROOT / "tests" / "real_streams").glob("*/*.sse"), *(ROOT / "tests" / "real_streams").glob("*/*.ndjson"),
                 *(ROOT / "tests" / "corpus" / "bedrock").glob("*.jsonl"),
                 *(ROOT / "tests" / "corpus" / "bedrock").glob("*.bin")])
"""The project's own corpus: the real provider streams and the Bedrock cases (never ../shared)."""

CONTROLS = ["\x1b]52;c;SElKQUNL\x07", "\x1b[2J", "\x9b6n", "\u202e", "\u2066", "\x00", "\r", "\x1bP+q\x1b\\",
            "[link=https://x.example]x[/link]", "\ud800"]
SWAPS = [[], {}, {"type": {}}, 0, -1, 1.5, 1e308, "", "s", None, True, [[[]]], {"index": []}]
DEPTHS = [150, 300, 1_200, 20_000]


def _swap(value: object, rng: random.Random) -> object:
    """``value`` (parsed JSON) with one member somewhere replaced by a value of another type."""
    nodes: list[tuple[object, object]] = []
    stack = [value]
    while stack and len(nodes) < 500:
        v = stack.pop()
        if isinstance(v, dict):
            nodes += [(v, k) for k in v]
            stack += list(v.values())
        elif isinstance(v, list):
            nodes += [(v, i) for i in range(len(v))]
            stack += v
    if not nodes:
        return rng.choice(SWAPS)
    parent, key = rng.choice(nodes)
    parent[key] = rng.choice(SWAPS) if rng.random() < 0.8 else _deep(rng.choice(DEPTHS[:2]))
    return value


def _deep(n: int) -> object:
    v: object = 1
    for _ in range(n):
        v = [v]
    return v


def _json_lines(text: str, rng: random.Random, change) -> str:
    """``text`` with ``change`` applied to the JSON of one of its ``data:`` lines (SSE) or lines
    (NDJSON)."""
    lines = text.split("\n")
    spots = [i for i, ln in enumerate(lines) if (ln.startswith("data:") or ln.startswith("{"))
             and not depth_over(ln)]  # a line an earlier mutation nested deeply stays as it is
    if not spots:
        return text
    i = rng.choice(spots)
    head = "data: " if lines[i].startswith("data:") else ""
    raw = lines[i][5:] if head else lines[i]
    try:
        value = json.loads(raw)
    except ValueError:
        return text
    lines[i] = head + change(value)
    return "\n".join(lines)


def swap_types(body: bytes, rng: random.Random) -> bytes:
    text = body.decode("utf-8", "replace")
    return _json_lines(text, rng, lambda v: json.dumps(_swap(v, rng), ensure_ascii=False)).encode("utf-8", "replace")


def nest_deeply(body: bytes, rng: random.Random) -> bytes:
    n = rng.choice(DEPTHS)
    if rng.random() < 0.3:  # an unclosed run of brackets as a whole event
        return body + b"data: " + b"[" * n + b"\n\n"
    text = body.decode("utf-8", "replace")

    def change(value: object) -> str:  # the event's value, and a deep array beside it
        if isinstance(value, dict):
            return json.dumps(value)[:-1] + (", " if value else "") + '"deep": ' + "[" * n + "1" + "]" * n + "}"
        return "[" * n + json.dumps(value) + "]" * n

    return _json_lines(text, rng, change).encode("utf-8", "replace")


def inject_controls(body: bytes, rng: random.Random) -> bytes:
    text = body.decode("utf-8", "replace")

    def change(value: object) -> str:
        strings = []
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                strings += [(v, k) for k, x in v.items() if isinstance(x, str)]
                stack += list(v.values())
            elif isinstance(v, list):
                strings += [(v, i) for i, x in enumerate(v) if isinstance(x, str)]
                stack += v
        for parent, key in rng.sample(strings, min(len(strings), 3)):
            parent[key] = parent[key] + rng.choice(CONTROLS)
        return json.dumps(value, ensure_ascii=rng.random() < 0.5)

    return _json_lines(text, rng, change).encode("utf-8", "surrogatepass")


def truncate(body: bytes, rng: random.Random) -> bytes:
    return body[: rng.randrange(len(body) + 1)]


def flip_bytes(body: bytes, rng: random.Random) -> bytes:
    b = bytearray(body)
    for _ in range(rng.randint(1, 8)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


MUTATIONS = {"swap-types": swap_types, "nest-deeply": nest_deeply, "inject-controls": inject_controls,
             "truncate": truncate, "flip-bytes": flip_bytes}


def hostile_case(source: Path, seed: int, folder: Path) -> tuple[Path, list[str]]:
    """The capture ``source`` mutated by 1 to 3 mutations chosen by ``seed``, written to ``folder``
    as a native capture (its chunks cut at random places; sometimes hostile response headers and
    end error): ``(path, mutation names)``."""
    rng = random.Random(seed)
    cap = load_path(source)
    body = b"".join(c.data for c in cap.chunks)
    names = rng.sample(sorted(MUTATIONS), rng.randint(1, 3))
    for name in names:
        body = MUTATIONS[name](body, rng)
    cuts = sorted(rng.sample(range(1, len(body)), min(len(body) - 1, rng.randint(0, 4)))) if len(body) > 1 else []
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    response = dict(cap.response or {"status": 200, "headers": {"content-type": "text/event-stream"}})
    end = cap.end or End(None, "eof")
    if rng.random() < 0.3:  # a native capture is JSON text: no lone surrogate in its header or end
        encodable = [c for c in CONTROLS if c != "\ud800"]
        response["headers"] = {**(response.get("headers") or {}), "x-" + rng.choice(encodable): rng.choice(encodable)}
        end = End(end.t, "reset", error=rng.choice(encodable))
    t = [round(0.01 * (i + 1), 3) for i in range(len(pieces))]
    out = Capture(request=cap.request, response=response, chunks=[Chunk(ti, p) for ti, p in zip(t, pieces)],
                  end=End(round(0.01 * (len(pieces) + 1), 3), end.kind, error=end.error))
    path = folder / f"{source.stem}-{seed}.jsonl"
    write_capture(out, path)
    return path, names
