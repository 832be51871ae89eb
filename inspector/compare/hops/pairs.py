"""The pair log: gateway pairs as they are decided, each diffed and attributed to a hop.

Single-threaded: every call on the loop both taps' sinks post to. Listeners (the reports printer,
the recorder, the TUI) are called ``f(pair)`` once per pair, when it is decided.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from inspector.compare.diff import Answer, Diff, HopFinding, answer_from_body, answer_from_session, attribute, \
    diff_answers
from inspector.compare.diff.compare import LATE_S
from inspector.compare.diff.hops import hop_summary
from inspector.feeds.exchanges.hops import HopPair, settle
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.feeds.exchanges.record import Exchange


@dataclass
class GatewayPair:
    """A decided pair with what is known about it."""

    n: int
    """Pair number (1, 2, …)."""
    hop: HopPair
    front_answer: Answer | None = None
    back_answer: Answer | None = None
    diff: Diff | None = None
    """``diff_answers(back, front)``: A = upstream, B = what the gateway sent on (None: a side is missing)."""
    found: list[HopFinding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    record_dir: str | None = None

    @property
    def status(self) -> str:
        return self.hop.status

    @property
    def hops(self) -> dict[str, list[str]]:
        return hop_summary(self.found)

    @property
    def clean(self) -> bool:
        """Paired, equivalent, and no hop has anything to its name."""
        return self.status == "paired" and not self.found


def streamed(ex: Exchange) -> bool:
    """The response was a stream (not a JSON answer, even to a request that asked for a stream)."""
    return bool(ex.linted and ex.session is not None and not getattr(ex.session, "json_body", False))


def exchange_answer(ex: Exchange, label: str) -> tuple[Answer | None, str | None]:
    """What a client assembled from ``ex``: its stream, or its non-streamed answer body; else a note why not."""
    s = ex.session
    if s is not None and streamed(ex) and (ex.status or 0) < 400:
        return answer_from_session(s, label), None
    if ex.status is not None and ex.status < 400:
        body = ex.body_text if not ex.linted else "".join(ev.data for ev in s.events) if s is not None else ""
        a = answer_from_body(body, label, http_status=ex.status)
        if a is not None:
            return a, None
        return None, f"{label}: HTTP {ex.status}, {ex.content_type or 'no content type'}: not an answer"
    if ex.status is None:
        return None, f"{label}: no response ({ex.end.kind if ex.end else 'open'})"
    return None, f"{label}: HTTP {ex.status} error: not compared"


def _q(ex: Exchange | None) -> list[dict]:
    if ex is None:
        return []
    return [{"code": f.code, "message": f.message} for f in ex.q_findings]


class PairLog:
    """Watches both exchange logs, decides pairs (``tick``), diffs and attributes each (module docstring).

    ``grace``: seconds after an exchange ends before it may be decided alone; ``late_s``: the
    diff's ``arguments-later`` threshold; ``clock``: wall time (``time.time``; tests pass their own).
    """

    def __init__(self, front: ExchangeLog, back: ExchangeLog, *, grace: float = 0.5, late_s: float = LATE_S,
                 clock: Callable[[], float] = time.time) -> None:
        self.front, self.back = front, back
        self.grace, self.late_s, self.clock = grace, late_s, clock
        self.pairs: list[GatewayPair] = []
        self.listeners: list[Callable[[GatewayPair], None]] = []
        self._front_done: set[int] = set()
        self._back_done: set[int] = set()
        front.listeners.append(self._on_exchange)
        back.listeners.append(self._on_exchange)

    def _on_exchange(self, event: str, ex: Exchange) -> None:
        if event == "end":
            self.tick()

    @property
    def undecided(self) -> tuple[list[Exchange], list[Exchange]]:
        return ([e for e in self.front.exchanges if e.n not in self._front_done],
                [e for e in self.back.exchanges if e.n not in self._back_done])

    def tick(self, now: float | None = None) -> list[GatewayPair]:
        """Decide what can be decided now; returns the new pairs (listeners already told)."""
        fronts, backs = self.undecided
        if not fronts and not backs:
            return []
        new = []
        for hop in settle(fronts, backs, self.clock() if now is None else now, grace=self.grace):
            if hop.front is not None:
                self._front_done.add(hop.front.n)
            for b in ([hop.back] if hop.back is not None else []) + hop.retries:
                self._back_done.add(b.n)
            pair = self._build(hop)
            self.pairs.append(pair)
            new.append(pair)
            for fn in list(self.listeners):
                try:
                    fn(pair)
                except Exception as e:  # noqa: BLE001 - a broken listener must not stop the taps
                    print(f"stream-inspector: gateway: listener failed: {type(e).__name__}: {e}", file=sys.stderr)
        return new

    def flush(self) -> list[GatewayPair]:
        """Decide everything that has ended, now (at shutdown): waiting is over."""
        return self.tick(float("inf"))

    def _build(self, hop: HopPair) -> GatewayPair:
        pair = GatewayPair(len(self.pairs) + 1, hop)
        if hop.front is not None:
            pair.front_answer, note = exchange_answer(hop.front, f"front #{hop.front.n}")
            pair.notes += [note] if note else []
        if hop.back is not None:
            pair.back_answer, note = exchange_answer(hop.back, f"back #{hop.back.n}")
            pair.notes += [note] if note else []
        if hop.front is not None and hop.back is not None and pair.front_answer is not None and \
                pair.back_answer is not None:
            offset = hop.front.t0 - hop.back.t0
            pair.diff = diff_answers(pair.back_answer, pair.front_answer, b_offset=offset, late_s=self.late_s)
        pair.found = attribute(pair.diff, q_front=_q(hop.front), q_back=_q(hop.back))
        if pair.diff is None:
            pair.found += _lone_findings(hop)
        for r in hop.retries:
            codes = sorted({f.code for f in r.findings})
            pair.found.append(HopFinding("upstream", "retried", f"back #{r.n} (HTTP {r.status}) was retried by the "
                                                                f"gateway" + (f": {', '.join(codes)}" if codes else "")))
        return pair


def _lone_findings(hop: HopPair) -> list[HopFinding]:
    """Findings of a side that has nothing to be compared with, by the hop that produced it."""
    out = []
    for ex, hop_name in ((hop.back, "upstream"), (hop.front, "gateway")):
        if ex is None:
            continue
        for code in dict.fromkeys(f.code for f in ex.findings if f.severity != "info" and not f.code.startswith("Q")):
            f = next(x for x in ex.findings if x.code == code)
            out.append(HopFinding(hop_name, code, f"{code} {f.name}: {f.message}"))
    return out
