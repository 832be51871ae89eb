"""The ``check --format json`` object (SPEC.md), one per input file."""
from __future__ import annotations

import orjson

from inspector.session.session import Session


def _r(t: float | None) -> float | None:
    return None if t is None else round(t, 6)


def report_dict(path: str, s: Session) -> dict:
    blocks = []
    for b in s.blocks:
        d = b.to_dict()
        for k in ("first_delta_s", "last_delta_s", "max_gap_s"):
            d[k] = _r(d[k])
        blocks.append(d)
    findings = [f.to_dict() for f in s.findings]
    for f in findings:
        f["t"] = _r(f["t"])
    return {"path": path, "dialect": s.dialect_name or "unknown", "events": len(s.events),
            "duration_s": _r(s.duration_s), "ttfb_s": _r(s.ttfb_s), "stop_reason": s.stop_reason,
            "blocks": blocks, "findings": findings}


def render(path: str, s: Session) -> str:
    """One JSON line."""
    return orjson.dumps(report_dict(path, s)).decode()
