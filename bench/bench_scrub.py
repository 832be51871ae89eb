"""What secret scrubbing costs on the recording path: ``ChunkScrubber.scrub`` per network chunk.

``proxy --record`` and ``live --record`` scrub each chunk before it is written and before the
client is sent it, so this cost is part of the proxy's per-chunk budget (``bench_proxy.py``: p99
added latency < 2 ms). Chunks of a synthetic Anthropic text stream: one event (~330 B, what
``bench_proxy.py`` sends per chunk), 4 KB and 64 KB of events, without a secret and with an
Anthropic key split across two deltas in each chunk. CPU time (``time.process_time``: other
processes on a shared machine do not count), best of ``--rounds`` rounds. ``--other DIR`` measures
another checkout's ``inspector/capture/redact.py`` in the same process, round by round in turn with
this one, for a before/after.

    uv run python bench/bench_scrub.py [--rounds 7] [--other ../main]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def event(text: str) -> str:
    return ("event: content_block_delta\ndata: " + json.dumps(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}) + "\n\n")


def chunks() -> dict[str, str]:
    plain = event("lorem ipsum dolor sit amet, the high thought right " * 2)
    key = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5" * 2
    split = event("the key is " + key[:20]) + event(key[20:] + " ok")
    out = {}
    for label, size in (("1 event", 0), ("4 KB", 4096), ("64 KB", 65536)):
        out[f"{label}, no secret"] = plain * max(1, size // len(plain))
        out[f"{label}, a split key"] = (plain * max(0, size // len(plain) - 2)) + split
    return out


def load_redact(root: Path):
    """``inspector/capture/redact.py`` of the checkout at ``root`` (its own package on the path)."""
    if root == ROOT:
        from inspector.capture import redact
        return redact
    saved = {k: v for k, v in sys.modules.items() if k == "inspector" or k.startswith("inspector.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(root))
    try:
        spec = importlib.util.spec_from_file_location("other_redact", root / "inspector" / "capture" / "redact.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(root))
        for k in [k for k in sys.modules if k == "inspector" or k.startswith("inspector.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def per_chunk_us(mods: list, chunk: str, rounds: int) -> list[float]:
    """Best CPU µs per ``scrub`` of ``chunk`` for each module, the modules in turn each round."""
    number = 2000 if len(chunk) < 1000 else 200 if len(chunk) < 10000 else 20
    best = [float("inf")] * len(mods)
    for _ in range(rounds):
        for i, mod in enumerate(mods):
            scrubber = mod.ChunkScrubber()
            t = timeit.timeit(lambda: scrubber.scrub(chunk), number=number, timer=time.process_time) / number
            best[i] = min(best[i], t)
    return [b * 1e6 for b in best]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--other", help="another checkout to measure beside this one (e.g. the main branch)")
    args = ap.parse_args()
    mods = [("this", load_redact(ROOT))]
    if args.other:
        mods.insert(0, ("other", load_redact(Path(args.other).resolve())))
    print(f"ChunkScrubber.scrub per chunk, CPU µs, best of {args.rounds} interleaved rounds, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"| chunk | {' | '.join(name + ' µs' for name, _ in mods)} |")
    print(f"|---|{'---:|' * len(mods)}")
    for label, chunk in chunks().items():
        print(f"| {label} ({len(chunk)} B) | " + " | ".join(f"{us:.1f}" for us in per_chunk_us([m for _, m in mods], chunk, args.rounds))
              + " |")


if __name__ == "__main__":
    main()
