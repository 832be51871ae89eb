"""One report per gateway pair: ``--format json`` (one line) or ``text``.

JSON::

    {"pair": int, "status": "paired"|"front only"|"back only", "matched_by": str|null,
     "score": float|null, "reason": str|null,
     "front": EXCHANGE|null, "back": EXCHANGE|null, "retries": [EXCHANGE],
     "equivalent": bool|null,            # null when there is no diff (a side missing or not an answer)
     "hops": {"upstream": [str], "gateway": [str], "client": [str]},   # codes / difference kinds
     "attributed": [{"hop", "what", "message"}],
     "diff": DIFF|null,                  # ``diff --format json``: A = back (upstream), B = front
     "notes": [str], "record": str|null}
    EXCHANGE = {"exchange": int, "method", "path", "status": int|null, "streamed": bool,
                "dialect": str|null, "findings": [code], "q_findings": [code], "record": str|null}
"""
from __future__ import annotations

import orjson

from inspector.capture.redact import scrub_secrets
from inspector.compare.diff import to_json
from inspector.feeds.exchanges.record import Exchange
from inspector.compare.hops.pairs import GatewayPair, streamed
from inspector.model.display import display_text, json_safe
from inspector.model.writes import write_whole

EXIT_OK, EXIT_FINDINGS = 0, 1


def exchange_json(ex: Exchange | None) -> dict | None:
    if ex is None:
        return None
    s = ex.session
    return {"exchange": ex.n, "method": ex.method, "path": ex.target, "status": ex.status, "streamed": streamed(ex),
            "dialect": getattr(s, "dialect_name", None) if streamed(ex) else None,
            "findings": list(dict.fromkeys(f.code for f in ex.findings if not f.code.startswith("Q"))),
            "q_findings": [f.code for f in ex.q_findings], "record": ex.record_path}


def pair_json(p: GatewayPair) -> dict:
    h = p.hop
    return {"pair": p.n, "status": p.status, "matched_by": h.matched_by,
            "score": None if h.score is None else round(h.score, 4), "reason": h.reason,
            "front": exchange_json(h.front), "back": exchange_json(h.back),
            "retries": [exchange_json(r) for r in h.retries],
            "equivalent": None if p.diff is None else p.diff.equivalent, "hops": p.hops,
            "attributed": [scrub_secrets_dict(f.to_json()) for f in p.found],
            "diff": None if p.diff is None else to_json(p.diff), "notes": p.notes, "record": p.record_dir}


def scrub_secrets_dict(d: dict) -> dict:
    return {k: scrub_secrets(v) if isinstance(v, str) else v for k, v in d.items()}


def _ex_line(ex: Exchange | None, side: str) -> str:
    if ex is None:
        return f"  {side}: —"
    how = "streamed" if streamed(ex) else "not streamed"
    return f"  {side}: #{ex.n} {ex.method} {ex.target} -> {ex.status if ex.status is not None else 'no response'} ({how})"


def pair_text(p: GatewayPair) -> str:
    h = p.hop
    head = f"pair {p.n}: {p.status}"
    if h.matched_by:
        head += f", matched by {h.matched_by}" + (f" (score {h.score:.2f})" if h.score is not None else "")
    if p.diff is not None:
        head += ", equivalent" if p.diff.equivalent else f", {len(p.diff.differences)} difference(s)"
    lines = [head, _ex_line(h.front, "front (client ↔ gateway)"), _ex_line(h.back, "back (gateway ↔ upstream)")]
    if h.reason:
        lines.append(f"  why: {h.reason}")
    for r in h.retries:
        lines.append(_ex_line(r, "retry"))
    for hop in ("upstream", "gateway", "client"):
        mine = [f for f in p.found if f.hop == hop]
        lines.append(f"  {hop}: " + ("—" if not mine else ""))
        # a finding's message starts with its code already: said once
        lines += [f"    {scrub_secrets(f.message if f.message.startswith(f.what) else f'{f.what}: {f.message}')}"
                  for f in mine]
    if p.diff is not None and p.diff.normalisations:
        lines.append("  normalisations: " + "; ".join(p.diff.normalisations))
    lines += [f"  note: {n}" for n in p.notes]
    if p.record_dir:
        lines.append(f"  recorded in {p.record_dir}")
    return "\n".join(lines)


class PairReports:
    """Listener printing one report per pair (``fmt`` ``json`` or ``text``) to ``out``; ``worst`` is the
    exit status so far: 1 once a pair was not clean (a difference, a finding, a side alone)."""

    def __init__(self, fmt: str, out) -> None:
        self.fmt, self.out = fmt, out
        self.worst = EXIT_OK

    def __call__(self, p: GatewayPair) -> None:
        if not p.clean:
            self.worst = EXIT_FINDINGS
        if self.out is None:
            return
        if self.fmt == "json":
            write_whole(self.out, json_safe(orjson.dumps(pair_json(p), default=str).decode()) + "\n")
        else:
            write_whole(self.out, display_text(pair_text(p)) + "\n\n")
