"""``gateway --record DIR``: each pair's captures and report kept together.

The taps record as ``proxy --record`` does, into ``DIR/front/`` and ``DIR/back/`` while the
exchanges stream (append-only, flushed per chunk: a killed gateway leaves readable captures
there). When a pair is decided its captures move to ``DIR/pair-NNN/`` as ``front.jsonl``,
``back.jsonl`` (and ``retry-K.jsonl`` per retried upstream request), beside ``pair.json`` (its
report), so ``stream-inspector diff DIR/pair-001/back.jsonl DIR/pair-001/front.jsonl`` replays
the comparison.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import orjson

from inspector.feeds.exchanges.record import Exchange
from inspector.compare.hops import GatewayPair, pair_json


def staging_dirs(record_dir: str) -> tuple[str, str]:
    """Where the front and back taps record while exchanges stream (created)."""
    front, back = os.path.join(record_dir, "front"), os.path.join(record_dir, "back")
    os.makedirs(front, exist_ok=True)
    os.makedirs(back, exist_ok=True)
    return front, back


class PairRecorder:
    """Listener moving each decided pair's captures into a folder of its own."""

    def __init__(self, record_dir: str) -> None:
        self.root = Path(record_dir)
        self.first = 1 + max((int(p.name[5:]) for p in self.root.glob("pair-[0-9]*") if p.name[5:].isdigit()),
                             default=0)

    def __call__(self, p: GatewayPair) -> None:
        folder = self.root / f"pair-{self.first + p.n - 1:03d}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            h = p.hop
            self._move(h.front, folder / "front.jsonl")
            self._move(h.back, folder / "back.jsonl")
            for r in h.retries:
                self._move(r, folder / f"retry-{r.n}.jsonl")
            p.record_dir = str(folder)
            (folder / "pair.json").write_bytes(orjson.dumps(pair_json(p), default=str, option=orjson.OPT_INDENT_2))
        except OSError as e:
            print(f"stream-inspector: gateway: cannot record pair {p.n} in {folder}: {e.strerror or e}",
                  file=sys.stderr)

    @staticmethod
    def _move(ex: Exchange | None, dest: Path) -> None:
        if ex is None or not ex.record_path or not os.path.exists(ex.record_path):
            return
        os.replace(ex.record_path, dest)
        ex.record_path = str(dest)
