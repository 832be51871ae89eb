"""Which hop introduced what: upstream (the provider sent it), gateway (it appeared in translation)
or client (the next request's history, Q rules).

A gateway pair is compared with A = the back side (the stream the provider sent the gateway) and
B = the front side (the stream the gateway sent the client). Then:

- every warning or error finding of the back side is the **upstream**'s, said ``passed on`` when
  the front side states the same meaning (A007 upstream, C003 in front), ``hidden by the gateway``
  when it does not;
- every difference of the diff (blocks, names, ids, arguments, timing, stop reason) and every
  finding on the front side only is the **gateway**'s;
- Q findings of the client's request in front are the **client**'s (its next request repeats the
  answer wrongly); Q findings the back request has and the front one does not are the gateway's
  (it mangled the history in translation).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspector.compare.diff.compare import Diff
from inspector.compare.diff.meaning import same_meaning

HOPS = ("upstream", "gateway", "client")


@dataclass
class HopFinding:
    hop: str
    """``upstream``, ``gateway`` or ``client``."""
    what: str
    """A rule code (``A007``) or a difference kind (``arguments-differ``)."""
    message: str

    def to_json(self) -> dict:
        return {"hop": self.hop, "what": self.what, "message": self.message}


def attribute(diff: Diff | None, *, q_front: Sequence[dict] = (), q_back: Sequence[dict] = ()) -> list[HopFinding]:
    """The hop of every finding and difference of a gateway pair (module docstring). ``diff`` is
    ``diff_answers(back, front)`` (None when the pair has one side only); ``q_front``/``q_back``:
    the Q findings of each side's request (``{"code", "message", ...}``)."""
    out: list[HopFinding] = []
    if diff is not None:
        front_codes = [f["code"] for f in diff.b.findings if f["severity"] != "info"]
        seen: set[str] = set()
        for f in diff.a.findings:
            if f["severity"] == "info" or f["code"] in seen:
                continue
            seen.add(f["code"])
            twin = next((c for c in front_codes if same_meaning(f["code"], c)), None)
            fate = ("passed on" + (f" as {twin}" if twin != f["code"] else "")) if twin else "hidden by the gateway"
            out.append(HopFinding("upstream", f["code"], f"{f['code']} {f['name']}: {f['message']} ({fate})"))
        for d in diff.differences:
            if d.kind == "finding-one-side" and d.side == "a":
                continue  # an upstream finding the gateway hid: listed above
            out.append(HopFinding("gateway", str(d.b) if d.kind == "finding-one-side" else d.kind, d.message))
    front_codes_q = {f["code"] for f in q_front}
    for f in q_front:
        out.append(HopFinding("client", f["code"], f"{f['code']}: {f['message']}"))
    for f in q_back:
        if f["code"] not in front_codes_q:
            out.append(HopFinding("gateway", f["code"], f"{f['code']} in the translated history only: {f['message']}"))
    return out


def hop_summary(found: list[HopFinding]) -> dict[str, list[str]]:
    """``{hop: [codes or kinds, deduplicated]}`` for every hop (empty lists for clean hops)."""
    out: dict[str, list[str]] = {h: [] for h in HOPS}
    for f in found:
        if f.what not in out[f.hop]:
            out[f.hop].append(f.what)
    return out
